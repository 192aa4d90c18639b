#!/usr/bin/env python
"""WordNet families in the guesser: each alone, added to the default four, weights chosen by
cross-validation grouped by game. Prints markdown.

    PYTHONPATH=src python benchmarks/bench_wordnet.py                      # the shipped families
    PYTHONPATH=src python benchmarks/bench_wordnet.py --family /tmp/m/wordnet --family /tmp/m/wordnet_gloss
    PYTHONPATH=src python benchmarks/bench_wordnet.py --quick              # a 60-turn slice (tests)
    PYTHONPATH=src python benchmarks/bench_wordnet.py --exact              # + the unreduced ceiling
    DUETBOT_MODELS=/tmp/m PYTHONPATH=src python benchmarks/bench_wordnet.py --play 300   # spymaster rows

Data: the human Duet dev set (``../shared/data/human-duet-dev/turns.jsonl`` beside the
repository, ``--data`` to point elsewhere; never copied into the repository). Skipped, exit
0, when it is absent. Built by ``duetbot models build wordnet`` (duetbot/build/wordnet.py).

Scored as in ``bench_fusion.py`` (whose functions this reuses): one clue, no key side, the
words in play ranked by the weighted mean of per-board z-scores; P@1, P@number, MRR; "vs
before" is the P@1 difference from the shipped guesser's four families with a 95% interval
(paired bootstrap over games). "CV" rows pick the weights (a grid over every family's
weight) on 4/5 of the games and score the held-out fifth, 5 folds x 3 fold seeds; the
weights printed are those chosen on all games; "conditional logit" rows fit a softmax over the
words in play of a linear score of the families' z (bench_fusion.py), out of sample the same way.

``--exact`` (needs the WordNet database, scipy and wordfreq: a maintainer's machine) adds the
ceiling of the construction: each kind's PPMI rows *before* the SVD (the sparse word x
context matrix of duetbot/build/wordnet.py, every WordNet lemma, cosine of whole rows),
z-scored per board over the 10,000 most frequent words like a family, alone and added to
the four with a fixed weight (in sample: optimistic), and both together with their weights
chosen by cross-validation. "alone" is scored on the turns whose clue that
family knows, board words it lacks ranked last; the rest on every turn the default guesser
answers (a family that lacks the clue has no say).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_fusion import cv_logit, extract, folds, print_rows, scores, wmean  # noqa: E402
from bench_guesser import DATA, human_view, human_turns  # noqa: E402

from duetbot.bots.ensemble import Ensemble  # noqa: E402
from duetbot.bots.factory import DEFAULT_GUESSER_MODELS, ensemble, model  # noqa: E402
from duetbot.bots.guesser import GuesserConfig  # noqa: E402
from duetbot.embeddings import ModelNotFoundError, load_model  # noqa: E402

BASE = ("glove50", "spacy300", "minilm", "eat")


def cv_grid(data, grid, seeds) -> tuple[list[dict], tuple[float, ...]]:
    """Nested grid choice of weights (P@1, then MRR, on 4/5 of the games), and the all-games choice."""
    per = {w: scores(data, lambda d, w=w: wmean(d["z"], w)) for w in grid}
    out = []
    for seed in seeds:
        f = folds(data, 5, seed)
        res = {m: np.zeros(len(data)) for m in ("p1", "pk", "rr")}
        for k in range(5):
            best = max(grid, key=lambda w: (per[w]["p1"][f != k].mean(), per[w]["rr"][f != k].mean()))
            for m, values in res.items():
                values[f == k] = per[best][m][f == k]
        out.append(res)
    full = max(grid, key=lambda w: (per[w]["p1"].mean(), per[w]["rr"].mean()))
    return out, full


def play(games: int, workers: int) -> None:
    """Leave-one-family-out full games (bench_strength.py's engine and seeds): the spymaster's
    partner model without and with a WordNet family as a member, against a partner guesser of
    the family it left out (noise 0.3); and a WordNet guesser as the unseen partner."""
    from bench_strength import FAMILIES, run_row

    specs = []
    for g in FAMILIES:
        rest = "+".join(f for f in FAMILIES if f != g)
        specs += [f"spymaster={rest}{extra},guesser={g},noise=0.3" for extra in ("", "+wordnet", "+wordnet_gloss")]
    every = "+".join(FAMILIES)
    specs += [f"spymaster={every},guesser=wordnet,noise=0.3", f"spymaster={every}+wordnet_gloss,guesser=wordnet,noise=0.3"]
    print(f"\n{games} games per row, standard game, the same seeds in every row\n")
    print("| partner spec (both players) | win % | assassin % | sudden-death loss % |")
    print("|---|---|---|---|")
    for spec in specs:
        s = run_row(spec, games, "standard", workers).summary()
        print(f"| `{spec}` | {100 * s.win.value:.1f} | {100 * s.assassin.value:.1f} | "
              f"{100 * s.sudden_death_loss.value:.1f} |", flush=True)


def exact_z(data, turns, kind: str, wordnet: Path) -> None:
    """Put ``d["exact_<kind>"]``: per-board z of the unreduced PPMI-row cosines (NaN: unknown)."""
    from duetbot.build import wordnet as bw
    from scipy import sparse
    from wordfreq import top_n_list

    syn = list(bw.read_synsets(wordnet))
    counts = bw.read_tag_counts(wordnet)
    d0 = bw.DEFAULTS[kind]
    if kind == "relation":
        words, m = bw.relation_contexts(syn, d0["hop"], counts, d0["smooth"])
    else:
        words, m = bw.gloss_contexts(syn, wordnet, counts, d0["smooth"])
    w = bw.ppmi(m, d0["alpha"]).tocsr()
    norm = np.sqrt(np.asarray(w.multiply(w).sum(axis=1)).ravel())
    w = (sparse.diags(1.0 / np.where(norm > 0, norm, 1.0)) @ w).tocsr()
    idx = {x: i for i, x in enumerate(words)}
    ref = w[[idx[x] for x in top_n_list("en", 30000) if x in idx][:10000]]
    by_id = {t["id"]: t for t in turns}
    for d in data:
        t = by_id[d["id"]]
        view = human_view(t)
        rows = np.array([idx.get(view.words[i].lower().replace(" ", "_"), -1) for i in view.guessable])
        b = w[np.where(rows >= 0, rows, 0)]
        s = (ref @ b.T).toarray()
        mu, sd = float(s.mean()), float(s.std()) or 1.0
        c = idx.get(t["clue"].lower())
        z = np.full(len(rows), np.nan)
        if c is not None:
            z = ((w[c] @ b.T).toarray().ravel() - mu) / sd
            z[rows < 0] = np.nan
        d[f"exact_{kind}"] = z


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA, help="human Duet turns (JSON lines)")
    ap.add_argument("--family", action="append", default=None,
                    help="a WordNet model name or directory (repeatable; default: wordnet, wordnet_gloss)")
    ap.add_argument("--quick", action="store_true", help="the first 60 turns, fewer rows")
    ap.add_argument("--exact", action="store_true", help="add the unreduced PPMI ceiling (needs the WordNet database)")
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"), help="WordNet dict directory (--exact)")
    ap.add_argument("--play", type=int, default=0, metavar="GAMES",
                    help="only the spymaster rows: leave-one-family-out games with WordNet members")
    ap.add_argument("--workers", type=int, default=1, help="--play: worker processes")
    a = ap.parse_args(argv)
    if a.play:
        print("# WordNet families in the spymaster's partner model (full games)")
        play(a.play, a.workers)
        return 0
    print("# WordNet families in the guesser (human dev set)\n")
    turns = human_turns(a.data, 60 if a.quick else None)
    if turns is None:
        return 0
    t0 = time.perf_counter()
    try:
        extra = [load_model(f) for f in (a.family or ["wordnet", "wordnet_gloss"])]
    except ModelNotFoundError as exc:
        print(f"SKIPPED: {str(exc).split(';')[0]} (build it: duetbot models build wordnet)")
        return 0
    base_models = [model(n) for n in BASE]
    full = Ensemble([*base_models, *extra])
    data = extract(turns, full)
    names = [m.family for m in full.models]
    nb = len(BASE)
    base_w = [dict(GuesserConfig().family_weights).get(f, 1.0) for f in BASE]
    seeds = (0,) if a.quick else (0, 1, 2)
    games = np.array([d["game"] for d in data])

    def fixed(w: list[float]):
        return scores(data, lambda d: wmean(d["z"], w))

    before = fixed(base_w + [0.0] * len(extra))
    rows: list[tuple[str, list[dict] | dict]] = [(f"before: {'+'.join(BASE)} {base_w}", before)]
    for d, t in zip(data, [t for t in turns if t["id"] in {x["id"] for x in data}]):
        view = human_view(t)
        d["known"] = full.board(view.words).known[:, np.array(view.guessable, dtype=np.int64)]
    for i, m in enumerate(extra):
        f = nb + i
        sub = [d for d in data if not np.isnan(d["z"][f]).all()]
        r = scores(sub, lambda d, f=f: np.where(d["known"][f], d["z"][f], -np.inf))
        print(f"- {m.name} alone: {len(sub)} turns whose clue it knows (board words it lacks ranked last), P@1 {100 * r['p1'].mean():.1f}%, "
              f"P@number {100 * r['pk'].mean():.1f}%, MRR {r['rr'].mean():.3f}; "
              f"{len(m.words):,} words x {m.dim}, {sum(f.stat().st_size for f in m.path.iterdir()) / 1e6:.1f} MB")
        for x in ((1.0,) if a.quick else (0.5, 1.0, 1.5, 2.0)):
            w = base_w + [0.0] * len(extra)
            w[nb + i] = x
            rows.append((f"+ {m.name} weight {x:g}", fixed(w)))
    if len(extra) > 1:
        rows.append((f"+ all {len(extra)}, weight 1 each", fixed(base_w + [1.0] * len(extra))))
    wgrid = (0.5, 1.0) if a.quick else (0.0, 0.5, 1.0, 1.5, 2.0)
    for i, m in enumerate(extra):
        grid = [tuple(base_w) + tuple(x if j == i else 0.0 for j in range(len(extra)))
                for x in wgrid]
        res, best = cv_grid(data, grid, seeds)
        rows.append((f"+ {m.name}, its weight by CV (all games: {best[nb + i]:g})", res))
    if a.exact:
        for kind in ("relation", "gloss"):
            exact_z(data, turns, kind, a.wordnet)
            key = f"exact_{kind}"
            r = scores(data, lambda d, key=key: np.nan_to_num(d[key], nan=-np.inf))
            known = sum(1 for d in data if not np.isnan(d[key]).all())
            print(f"- exact {kind} PPMI rows alone (no SVD): P@1 {100 * r['p1'].mean():.1f}% over all "
                  f"{len(data)} turns ({known} whose clue it knows), MRR {r['rr'].mean():.3f}")
            for x in (0.25, 0.5, 1.0):
                rows.append((f"+ exact {kind} PPMI rows (no SVD) weight {x:g}, in sample",
                             scores(data, lambda d, key=key, x=x: wmean(np.vstack([d["z"][:nb], d[key][None]]),
                                                                         base_w + [x]))))
        both = [{**d, "z": np.vstack([d["z"][:nb], d["exact_relation"][None], d["exact_gloss"][None]])}
                for d in data]
        xgrid = [tuple(base_w) + (x, y) for x in (0.0, 0.25, 0.5, 0.75, 1.0) for y in (0.0, 0.25, 0.5, 0.75, 1.0)]
        res, best = cv_grid(both, xgrid, seeds)
        rows.append((f"+ both unreduced PPMI rows, their weights by CV (all games: {best[nb]:g}, {best[nb + 1]:g})",
                     res))
    if not a.quick:
        rows.append(("conditional logit, the four families' z (CV)",
                     cv_logit(data, lambda d: np.nan_to_num(d["z"][:nb]).T, seeds)))
        for i, m in enumerate(extra):
            rows.append((f"conditional logit, the four + {m.name} (CV)",
                         cv_logit(data, lambda d, f=nb + i: np.nan_to_num(d["z"][[*range(nb), f]]).T, seeds)))
        egrid = [w for w in itertools.product((0.5, 1.0), (0.5, 1.0), (1.0,), (1.5, 2.0, 3.0),
                                              *[(0.0, 0.5, 1.0, 1.5, 2.0)] * len(extra))]
        res, best = cv_grid(data, egrid, seeds)
        rows.append((f"every weight by CV (all games: {list(best)})", res))

    print(f"\n{len(turns)} turns{' (quick slice)' if a.quick else ''}, {len(data)} answerable, "
          f"{len(set(games))} games; families {'+'.join(names)}; one clue, no key side\n")
    print_rows(rows, before, games, "guesser", "before", 300 if a.quick else 2000)
    print(f"\nShipped guesser families: {'+'.join(DEFAULT_GUESSER_MODELS)}, weights "
          f"{dict(GuesserConfig().family_weights)}. People reading the same clues: ~87% P@1.")
    print(f"\n{time.perf_counter() - t0:.0f} s")
    _ = ensemble  # the factory's cache is shared with the other benchmarks
    return 0


if __name__ == "__main__":
    sys.exit(main())
