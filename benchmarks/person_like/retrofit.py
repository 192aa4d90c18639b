"""People's associations in the spymaster's families: retrofitted embeddings, read by stand-ins.

The three spymaster families (glove50, spacy300, minilm) are retrofitted in memory toward the
Edinburgh Associative Thesaurus graph (``../shared/data/eat/``, read from there; Faruqui et al.
2015: each word pulled toward the strength-weighted mean of its associates, ``--weight`` times
as hard as toward its own vector, 10 passes). At round 2's bot positions in ``games/new2`` (two
a deal), this main's clue, the retrofitted spymaster's clue (``v1``) and the same with clue
words limited to the EAT graph's (``v2``) go to person-like readers, one item of each deal a
reader, and are scored within the number. Nothing of this ships: the EAT's rows may not be
copied into the repository, and the readings found no gain (RESULTS.md, "Where the gap is").

    PYTHONPATH=src python benchmarks/person_like/retrofit.py batches --out DIR
    PYTHONPATH=src python benchmarks/person_like/retrofit.py score retrofit_readings/answers-*.json
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np

from duetbot.bots.ensemble import Ensemble
from duetbot.bots.factory import default_bots, model
from duetbot.bots.spymaster import EmbeddingSpymaster
from duetbot.embeddings.model import EmbeddingModel
from duetbot.rules import Player, State
from duetbot.saves import load_saved
from duetbot.views import spymaster_view

sys.path.insert(0, str(Path(__file__).resolve().parent))
from game_readings import GAMES, game_items, read_within  # noqa: E402

HERE = Path(__file__).resolve().parent
EAT = HERE.parents[2] / "shared" / "data" / "eat" / "eat_stimulus_response.tsv.gz"
OUT = HERE / "retrofit_readings"
READERS = 6


def eat_graph() -> dict[str, dict[str, float]]:
    """Symmetric association strengths: each stimulus's response shares, both directions."""
    forward: dict[str, dict[str, int]] = defaultdict(dict)
    with gzip.open(EAT, "rt") as f:
        for line in f:
            s, r, c = line.rstrip("\n").split("\t")
            if c.isdigit() and s.isalpha() and r.isalpha():
                forward[s.lower()][r.lower()] = int(c)
    graph: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for s, responses in forward.items():
        total = sum(responses.values())
        for r, c in responses.items():
            if r != s:
                graph[s][r] += c / total
                graph[r][s] += c / total
    return graph


def retrofit(name: str, graph: dict[str, dict[str, float]], weight: float, passes: int = 10) -> EmbeddingModel:
    m = model(name)
    raw = m._raw.astype(np.float32)
    raw /= np.maximum(np.linalg.norm(raw, axis=1, keepdims=True), 1e-9)
    at = m._index
    links = []
    for w, nbrs in graph.items():
        if w in at:
            js = [(at[n], x) for n, x in nbrs.items() if n in at]
            if js:
                total = sum(x for _, x in js)
                links.append((at[w], np.array([j for j, _ in js]), np.array([weight * x / total for _, x in js], np.float32)))
    q = raw.copy()
    for _ in range(passes):
        for i, js, ws in links:
            q[i] = (raw[i] + ws @ q[js]) / (1 + ws.sum())
    return EmbeddingModel(f"{m.name}+eat", m.family, None, m.words, q.astype(np.float16), m._rows, m.meta,
                          m._projection, extra=m._extra, index=at, fallback=m._fallback, clue_roles=m._clue_roles)


def spymasters(weight: float) -> dict[str, EmbeddingSpymaster]:
    graph = eat_graph()
    base = default_bots()[0]
    ens = Ensemble([retrofit(n, graph, weight) for n in ("glove50", "spacy300", "minilm")])
    v2 = EmbeddingSpymaster(ens, base.config)
    v2.words.never = v2.words.never | ~np.array([w in graph for w in ens.clue_words])
    return {"base": base, "v1": EmbeddingSpymaster(ens, base.config), "v2": v2}


def make_batches(out: Path, weight: float, seed: int) -> None:
    rng = random.Random(seed)
    by_seed = defaultdict(list)
    for save in sorted((GAMES / "new2").glob("*.json")):
        for it in game_items(save):
            if it.giver == "bot":
                by_seed[it.seed].append(it)
    givers = spymasters(weight)
    batches: list[list[dict]] = [[] for _ in range(READERS)]
    for k, s in enumerate(sorted(by_seed)):
        slot = k
        for it in rng.sample(by_seed[s], min(2, len(by_seed[s]))):
            state = load_saved(GAMES / it.save).state
            replay = State(state.deal, state.variant)
            for ev in state.events[:it.event]:
                replay.apply(ev.action, ev.player)
            view = spymaster_view(replay, Player.B)
            for g, sp in givers.items():
                o = sp.suggest(view, top=1)[0]
                batches[slot % READERS].append({"save": it.save, "event": it.event, "giver": g,
                                                "clue": o.clue.word.lower(), "number": o.clue.number,
                                                "targets": list(o.targets)})
                slot += 1
    out.mkdir(parents=True, exist_ok=True)
    OUT.mkdir(exist_ok=True)
    key = {}
    for r, batch in enumerate(batches):
        rng.shuffle(batch)
        puzzles = []
        for n, x in enumerate(batch):
            it = next(i for i in game_items(GAMES / x["save"]) if i.event == x["event"])
            words = [w.upper() for w in it.open_words]
            rng.shuffle(words)
            pid = f"v{r}-{n:03d}"
            key[pid] = x
            puzzles.append({"id": pid, "words": words, "clue": x["clue"].upper(), "number": x["number"]})
        (out / f"batch-{r}.json").write_text(json.dumps(puzzles, indent=1))
    (OUT / "key.json").write_text(json.dumps(key, indent=1))
    print(f"{sum(map(len, batches))} items in {READERS} batches in {out}")


def score(answer_files: list[Path]) -> None:
    key = json.loads((OUT / "key.json").read_text())
    games: dict[str, dict] = {}
    rows: dict[str, list[dict]] = defaultdict(list)
    for path in answer_files:
        for pid, guesses in json.loads(path.read_text()).items():
            x = key[pid]
            if x["save"] not in games:
                games[x["save"]] = {i.event: i for i in game_items(GAMES / x["save"])}
            it = replace(games[x["save"]][x["event"]], clue=x["clue"], number=x["number"])
            rows[x["giver"]].append(read_within(it, guesses))
    print("| giver | clues | greens in first n | greens before a miss | first guess a miss | assassin hit | mean number |")
    print("|---|---|---|---|---|---|---|")
    for g, rs in sorted(rows.items()):
        n, t = len(rs), Counter()
        for r in rs:
            t.update({k: int(v) for k, v in r.items()})
        print(f"| {g} | {n} | {100 * t['green'] / max(t['guesses'], 1):.1f}% | {t['before_miss'] / n:.2f} | "
              f"{100 * t['first_miss'] / n:.1f}% | {t['assassin']} | {t['guesses'] / n:.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("batches")
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--weight", type=float, default=1.0)
    b.add_argument("--seed", type=int, default=7)
    s = sub.add_parser("score")
    s.add_argument("answers", type=Path, nargs="+")
    args = ap.parse_args(argv)
    if args.cmd == "batches":
        make_batches(args.out, args.weight, args.seed)
    else:
        score(args.answers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
