#!/usr/bin/env python
"""How to fuse the guesser's families on people's clues: combination rules side by side.
Prints markdown.

    PYTHONPATH=src python benchmarks/bench_fusion.py            # the full table (~1 min)
    PYTHONPATH=src python benchmarks/bench_fusion.py --quick    # a 60-turn slice (tests)

Data: the human Duet dev set (``../shared/data/human-duet-dev/turns.jsonl`` beside the
repository, ``--data`` to point elsewhere; never copied into the repository). Skipped, exit
0, when it is absent.

Every rule ranks the words in play from the same per-board z-scores of the default guesser's
families (glove50, spacy300, minilm, eat; ``Ensemble.clue_z``), one clue, no key side, as in
``bench_associations.py``: P@1 (first guess is an intended target), P@number, MRR. With one
clue and no key side the guesser's ranking *is* the fused score's order, so these figures
are the guesser's. "vs default" is the P@1 difference with a 95% interval from a paired
bootstrap over games. Rules with fitted numbers are scored out of sample: 5-fold cross-
validation grouped by game (boards and clue givers never straddle folds), 3 fold seeds.

- fixed weights: the weighted mean of z (``GuesserConfig.family_weights``), unknown -> no say;
- per-clue z: each family's z re-standardised over the words in play before the mean;
- hub correction: z minus half the family's mean z over its top 50 clue words for that
  board word (CSLS-style: discounts board words close to everything);
- reciprocal-rank fusion (k = 1, 60) and a mixture of per-family softmaxes (score fusion
  alternatives);
- conditional logit: a softmax over the words in play of a linear score of features,
  maximum likelihood with a small L2 penalty (Newton steps, numpy), fitted on 4/5 of the
  games and scored on the rest; feature sets: per-family z; + "clue has no EAT entry"
  interactions (separate embedding weights when people gave no association); + per-family
  1/rank;
- weights chosen by grid on 4/5 of the games (nested), scored on the rest;
- minilm stand-ins: eat vectors for the clue and board words it lacks, mapped from minilm by
  least squares (``translate_vectors``), instead of "no opinion".
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_guesser import DATA, answerable, human_view, human_turns  # noqa: E402

from duetbot.bots.ensemble import Ensemble  # noqa: E402
from duetbot.bots.factory import ensemble, model  # noqa: E402
from duetbot.bots.guesser import EmbeddingGuesser, GuesserConfig  # noqa: E402
from duetbot.embeddings.model import translate_vectors  # noqa: E402
from duetbot.words import word_key  # noqa: E402

Turn = dict
Score = Callable[[Turn], np.ndarray]

#: The families this study fuses: the guesser's four before issue 29 (the language-model
#: families' weights are chosen in bench_lm_families.py), eat last.
FUSED = ("glove50", "spacy300", "minilm", "eat")


def extract(turns: Sequence[dict], ens: Ensemble) -> list[Turn]:
    """Per answerable turn: (families, words in play) z of the clue, targets, game, hub stats."""
    out = []
    for t in turns:
        if not answerable(ens, t):
            continue
        view = human_view(t)
        sims = ens.board(view.words)
        cand = np.array(view.guessable, dtype=np.int64)
        z = ens.clue_z(t["clue"], sims)[:, cand].astype(np.float64)
        col = np.sort(sims.z[:, :, cand], axis=1)[:, -50:, :].mean(axis=1)  # (families, words)
        targets = {word_key(w) for w in t["targets"]}
        y = np.array([word_key(view.words[i]) in targets for i in cand])
        out.append({"id": t["id"], "game": t["game"], "number": t["number"], "z": z, "y": y, "hub": col})
    return out


def scores(data: Sequence[Turn], rule: Score) -> dict[str, np.ndarray]:
    """Per-turn P@1, P@number, reciprocal rank of ``rule``'s ranking (stable order)."""
    p1, pk, rr = [], [], []
    for d in data:
        hit = d["y"][np.argsort(-np.nan_to_num(rule(d), nan=-np.inf), kind="stable")]
        first = np.flatnonzero(hit)
        p1.append(float(hit[0]))
        pk.append(float(hit[: d["number"]].mean()))
        rr.append(1.0 / (first[0] + 1) if len(first) else 0.0)
    return {"p1": np.array(p1), "pk": np.array(pk), "rr": np.array(rr)}


def wmean(z: np.ndarray, w: Sequence[float]) -> np.ndarray:
    """Weighted mean over families, NaN (family has no opinion) ignored."""
    w = np.asarray(w, np.float64)[:, None]
    known = ~np.isnan(z)
    den = (known * w).sum(axis=0)
    return np.where(den > 0, (np.where(known, z, 0.0) * w).sum(axis=0) / np.where(den > 0, den, 1.0), np.nan)


def _rank(z: np.ndarray) -> np.ndarray:
    return np.argsort(np.argsort(-np.nan_to_num(z, nan=-np.inf), axis=1, kind="stable"), axis=1)


def rrf(z: np.ndarray, w: Sequence[float], k: float) -> np.ndarray:
    known = ~np.isnan(z).all(axis=1, keepdims=True)
    return (np.asarray(w, np.float64)[:, None] * known / (k + 1 + _rank(z))).sum(axis=0)


def mixture(z: np.ndarray, w: Sequence[float], beta: float) -> np.ndarray:
    out = np.zeros(z.shape[1])
    for f in range(len(z)):
        if np.isnan(z[f]).all():
            continue
        e = np.exp(beta * (np.nan_to_num(z[f], nan=np.nanmean(z[f])) - np.nanmax(z[f])))
        out += w[f] * e / e.sum()
    return out


def rowz(z: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        mu = np.nanmean(np.where(np.isnan(z).all(axis=1, keepdims=True), 0.0, z), axis=1, keepdims=True)
        sd = np.nanstd(np.where(np.isnan(z).all(axis=1, keepdims=True), 0.0, z), axis=1, keepdims=True)
    return (z - mu) / np.where(sd > 0, sd, 1.0)


# --- conditional logit -----------------------------------------------------------------------


def feats_z(d: Turn) -> np.ndarray:
    return np.nan_to_num(d["z"]).T


def feats_fallback(d: Turn) -> np.ndarray:
    z = np.nan_to_num(d["z"]).T
    no_eat = float(np.isnan(d["z"][-1]).all())
    return np.hstack([z, z[:, :-1] * no_eat])


def feats_rank(d: Turn) -> np.ndarray:
    known = ~np.isnan(d["z"]).all(axis=1, keepdims=True)
    return np.hstack([np.nan_to_num(d["z"]).T, (known / (1.0 + _rank(d["z"]))).T])


def fit_logit(x: Sequence[np.ndarray], y: Sequence[np.ndarray], l2: float = 0.1, steps: int = 50) -> np.ndarray:
    """Conditional logit (softmax over each turn's words, targets share the mass): damped
    Newton steps on the penalised log-likelihood (concave, so halving a step until the
    likelihood rises converges)."""

    def loglik(w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        ll, g, h = -l2 * float(w @ w), -2 * l2 * w, -2 * l2 * np.eye(len(w))
        for xi, yi in zip(x, y):
            s = xi @ w
            s = s - s.max()
            p = np.exp(s)
            p /= p.sum()
            t = yi / yi.sum()
            ll += float(t @ (s - np.log(np.exp(s).sum())))
            m = xi.T @ p
            g += xi.T @ (t - p)
            h -= xi.T @ (xi * p[:, None]) - np.outer(m, m)
        return ll, g, h

    w = np.zeros(x[0].shape[1])
    ll, g, h = loglik(w)
    for _ in range(steps):
        step = -np.linalg.solve(h, g)
        for _ in range(30):
            new = loglik(w + step)
            if new[0] >= ll:
                break
            step /= 2
        w = w + step
        done = new[0] - ll < 1e-9
        ll, g, h = new
        if done:
            break
    return w


def folds(data: Sequence[Turn], k: int, seed: int) -> np.ndarray:
    games = sorted({d["game"] for d in data})
    order = np.random.default_rng(seed).permutation(len(games))
    fold = {games[j]: i % k for i, j in enumerate(order)}
    return np.array([fold[d["game"]] for d in data])


def cv_logit(data: Sequence[Turn], feats: Callable[[Turn], np.ndarray], seeds: Sequence[int]) -> list[dict]:
    out = []
    for seed in seeds:
        f = folds(data, 5, seed)
        s: dict[str, np.ndarray] = {}
        for k in range(5):
            train = [d for d, fi in zip(data, f) if fi != k and d["y"].any()]
            w = fit_logit([feats(d) for d in train], [d["y"] for d in train])
            for d, fi in zip(data, f):
                if fi == k:
                    s[d["id"]] = feats(d) @ w
        out.append(scores(data, lambda d, s=s: s[d["id"]]))
    return out


def nested_weights(data: Sequence[Turn], grid: Sequence[Sequence[float]], seeds: Sequence[int]) -> list[dict]:
    """Family weights picked by P@1 on 4/5 of the games, scored on the held-out fifth."""
    per = {w: scores(data, lambda d, w=w: wmean(d["z"], w)) for w in grid}
    out = []
    for seed in seeds:
        f = folds(data, 5, seed)
        res = {m: np.zeros(len(data)) for m in ("p1", "pk", "rr")}
        for k in range(5):
            best = max(grid, key=lambda w: per[w]["p1"][f != k].mean())
            for m, values in res.items():
                values[f == k] = per[best][m][f == k]
        out.append(res)
    return out


# --- report ---------------------------------------------------------------------------------------


def boot_ci(diff: np.ndarray, games: np.ndarray, n: int = 2000) -> tuple[float, float]:
    ug = np.unique(games)
    idx = {g: np.flatnonzero(games == g) for g in ug}
    rng = np.random.default_rng(0)
    means = [diff[np.concatenate([idx[g] for g in rng.choice(ug, len(ug))])].mean() for _ in range(n)]
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


def print_rows(rows: list, base: dict, games: np.ndarray, what: str, versus: str, resamples: int) -> None:
    """The markdown table of scored rows: P@1, P@number, MRR and P@1 against ``base`` with a
    95% interval bootstrapped over games (a row may be one result or a list of seeds' results)."""
    print(f"| {what} | P@1 % | P@number % | MRR | P@1 vs {versus} (95% CI, bootstrap over games) |")
    print("|---|---|---|---|---|")
    for name, r in rows:
        runs = r if isinstance(r, list) else [r]
        p1, pk, rr = (float(np.mean([x[m].mean() for x in runs])) for m in ("p1", "pk", "rr"))
        diff = np.mean([x["p1"] for x in runs], axis=0) - base["p1"]
        lo, hi = boot_ci(diff, games, resamples)
        vs = "-" if r is base else f"{100 * diff.mean():+.1f} ({100 * lo:+.1f} .. {100 * hi:+.1f})"
        print(f"| {name} | {100 * p1:.1f} | {100 * pk:.1f} | {rr:.3f} | {vs} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA, help="human Duet turns (JSON lines)")
    ap.add_argument("--quick", action="store_true", help="the first 60 turns, fewer rows")
    a = ap.parse_args(argv)
    print("# Fusing the guesser's families (human dev set)\n")
    turns = human_turns(a.data, 60 if a.quick else None)
    if turns is None:
        return 0
    t0 = time.perf_counter()
    ens = ensemble(FUSED)
    data = extract(turns, ens)
    names = [m.family for m in ens.models]
    bot = EmbeddingGuesser(ens, GuesserConfig(infer_key=False))
    default_w = [dict(bot.config.family_weights).get(f, 1.0) for f in names]
    seeds = (0,) if a.quick else (0, 1, 2)

    rows: list[tuple[str, list[dict] | dict]] = [
        (f"fixed weights {default_w} (default: `GuesserConfig.family_weights`)", scores(data, lambda d: bot._combine(d["z"]))),
        ("fixed weights, all 1", scores(data, lambda d: wmean(d["z"], [1.0] * len(names)))),
    ]
    if not a.quick:
        rows += [
            ("fixed weights, eat 3", scores(data, lambda d: wmean(d["z"], default_w[:-1] + [3.0]))),
            ("per-clue z over the words in play, default weights", scores(data, lambda d: wmean(rowz(d["z"]), default_w))),
            ("hub correction (z - 0.5 x top-50 mean)", scores(data, lambda d: wmean(d["z"] - 0.5 * d["hub"], default_w))),
            ("reciprocal-rank fusion k=1, default weights", scores(data, lambda d: rrf(d["z"], default_w, 1))),
            ("reciprocal-rank fusion k=60, default weights", scores(data, lambda d: rrf(d["z"], default_w, 60))),
            ("mixture of per-family softmaxes (beta 2)", scores(data, lambda d: mixture(d["z"], default_w, 2.0))),
        ]
        grid = [w for w in itertools.product((0.0, 0.5, 1.0), (0.0, 0.5, 1.0), (0.5, 1.0, 1.5, 2.0),
                                             (1.0, 1.5, 2.0, 3.0))]
        best = max(grid, key=lambda w: scores(data, lambda d: wmean(d["z"], w))["p1"].mean())
        rows.append((f"best grid weights {list(best)} (in sample: optimistic)",
                     scores(data, lambda d: wmean(d["z"], best))))
        rows.append(("grid weights chosen on 4/5 of the games (nested CV)", nested_weights(data, grid, seeds)))
    rows.append(("conditional logit: z (CV)", cv_logit(data, feats_z, seeds)))
    if not a.quick:
        rows.append(("conditional logit: z + no-EAT-entry fallback weights (CV)", cv_logit(data, feats_fallback, seeds)))
        rows.append(("conditional logit: z + 1/rank (CV)", cv_logit(data, feats_rank, seeds)))
        eat = ens.models[-1]
        donor = model("minilm")
        words = sorted({w for t in turns for w in [*t["board"], t["clue"]] if not eat.knows(w) and donor.knows(w)})
        lent = Ensemble([*ens.models[:-1], eat.with_extra_vectors(translate_vectors(eat, donor, words))])
        lent_data = {d["id"]: d for d in extract(turns, lent)}
        if set(lent_data) == {d["id"] for d in data}:
            rows.append(("eat stand-ins mapped from minilm, default weights",
                         scores([lent_data[d["id"]] for d in data], lambda d: bot._combine(d["z"]))))

    games = np.array([d["game"] for d in data])
    base = rows[0][1]
    assert isinstance(base, dict)
    print(f"{len(turns)} turns{' (quick slice)' if a.quick else ''}, {len(data)} answerable, "
          f"{len(set(games))} games; families {'+'.join(names)}; one clue, no key side\n")
    print_rows(rows, base, games, "rule", "default", 300 if a.quick else 2000)
    print("\nPeople reading the same clues: ~87% P@1.")
    print(f"\n{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
