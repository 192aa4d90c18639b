#!/usr/bin/env python
"""The language-model families in the guesser: ``smollm`` (SmolLM2-135M read as association
norms) and ``wordllama`` (WordLlama's token codebook), before/after on people's clues.
Prints markdown.

    PYTHONPATH=src python benchmarks/bench_lm_families.py            # the full table (~2 min)
    PYTHONPATH=src python benchmarks/bench_lm_families.py --quick    # a 60-turn slice (tests)
    DUETBOT_MODELS=/tmp/m PYTHONPATH=src python benchmarks/bench_lm_families.py  # candidate builds

Data: the human Duet dev set (``../shared/data/human-duet-dev/turns.jsonl`` beside the
repository, ``--data`` to point elsewhere; never copied into the repository). Skipped, exit
0, when it is absent.

As in ``bench_fusion.py`` (whose functions this reuses): the turns the shipped guesser's
previous families (glove50, spacy300, minilm, eat) answer, one clue, no key side, so the
guesser's ranking is the order of the weighted mean of the families' per-board z-scores.
Each row scores P@1 (first guess an intended target), P@number and MRR. "vs before" is the
P@1 difference with a 95% interval from a paired bootstrap over games. The weights of the new
families are chosen on a grid; "nested CV" picks them on 4/5 of the games and scores the
held-out fifth (5 folds grouped by game, 3 fold seeds), the figure to trust.
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

from bench_fusion import extract, nested_weights, print_rows, scores, wmean  # noqa: E402
from bench_guesser import DATA, human_turns  # noqa: E402

from duetbot.bots.factory import DEFAULT_GUESSER_MODELS, ensemble  # noqa: E402
from duetbot.bots.guesser import GuesserConfig  # noqa: E402

BEFORE = ("glove50", "spacy300", "minilm", "eat")
BEFORE_WEIGHTS = (1.0, 1.0, 1.0, 2.0)
NEW = ("wordllama", "smollm")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA, help="human Duet turns (JSON lines)")
    ap.add_argument("--quick", action="store_true", help="the first 60 turns, fewer rows")
    ap.add_argument("--new", default="+".join(NEW), help="the new families, '+'-separated (default: %(default)s)")
    a = ap.parse_args(argv)
    print("# Language-model families in the guesser (human dev set)\n")
    turns = human_turns(a.data, 60 if a.quick else None)
    if turns is None:
        return 0
    t0 = time.perf_counter()
    new = tuple(n for n in a.new.split("+") if n)
    before = {d["id"]: d for d in extract(turns, ensemble(BEFORE))}
    every = ensemble((*BEFORE, *new))
    data = [d for d in extract(turns, every) if d["id"] in before]
    names = [m.name for m in every.models]
    nb = len(BEFORE)
    shipped = dict(GuesserConfig().family_weights)
    shipped_w = [shipped.get(m.family, 1.0) for m in every.models]

    def w_of(extra: tuple[float, ...], eat: float = BEFORE_WEIGHTS[-1]) -> tuple[float, ...]:
        return (*BEFORE_WEIGHTS[:-1], eat, *extra)

    base = scores([before[d["id"]] for d in data], lambda d: wmean(d["z"], BEFORE_WEIGHTS))
    rows: list = [(f"before: {'+'.join(BEFORE)}, weights {list(BEFORE_WEIGHTS)}", base)]
    for f, n in enumerate(new):
        solo = [0.0] * (nb + len(new))
        solo[nb + f] = 1.0
        rows.append((f"{n} alone", scores(data, lambda d, s=solo: wmean(d["z"], s))))
    if len(new) == 2:
        rows.append((f"{new[0]}+{new[1]} (equal weights)",
                     scores(data, lambda d: wmean(d["z"], [0.0] * nb + [1.0, 1.0]))))
    for f, n in enumerate(new):
        for x in ((1.0, 2.0) if not a.quick else (1.0,)):
            extra = [0.0] * len(new)
            extra[f] = x
            rows.append((f"before + {n} weight {x:g}", scores(data, lambda d, w=w_of(tuple(extra)): wmean(d["z"], w))))
    rows.append((f"all, shipped weights {shipped_w} (`GuesserConfig.family_weights`)",
                 scores(data, lambda d: wmean(d["z"], shipped_w))))
    if not a.quick:
        levels = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
        grid = [w_of(extra, eat) for extra in itertools.product(levels, repeat=len(new)) for eat in (1.0, 2.0, 3.0)]
        per = {w: scores(data, lambda d, w=w: wmean(d["z"], w))["p1"].mean() for w in grid}
        best = max(grid, key=lambda w: per[w])
        rows.append((f"best grid weights {list(best)} (in sample: optimistic)", scores(data, lambda d: wmean(d["z"], best))))
        rows.append(("grid weights chosen on 4/5 of the games (nested CV)", nested_weights(data, grid, (0, 1, 2))))
    games = np.array([d["game"] for d in data])
    print(f"{len(turns)} turns{' (quick slice)' if a.quick else ''}, {len(data)} answered by the families before; "
          f"families {'+'.join(names)}; one clue, no key side\n")
    print_rows(rows, base, games, "guesser", "before", 300 if a.quick else 2000)
    print(f"\nThe shipped guesser's families: {'+'.join(DEFAULT_GUESSER_MODELS)}. People reading the same clues: ~87% P@1.")
    print(f"\n{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
