"""Classic Codenames strength: self-play and cross-play, two teams and one team alone.

Published vector bots for comparison (one team alone on 8- or 9-word boards; GloVe 300d,
word2vec and their combination): Kim et al. 2019 and Stephenson et al. 2024 report that
same-embedding pairs won every game in 4.7-6.2 turns, and cross-embedding pairs won 57-77%,
the rest lost to the assassin. The ``solo`` rows here are the like-for-like figure (our
team alone, 9 agents if it starts, 8 otherwise; the other team never plays).

    PYTHONPATH=src nice python benchmarks/bench_classic.py --games 500

Cross-play: the spymaster thinks with one family, the operatives with another, with
perception noise 0.3 (DESIGN.md: strength against a partner who thinks differently).
"""

from __future__ import annotations

import argparse
import json
import time

from duetbot.bots.factory import PartnerSpec
from duetbot.records.classic import ClassicTally
from duetbot.simulation.classic import ClassicRunSpec
from duetbot.rules.classic import ClassicRules
from duetbot.simulation import run_local
from duetbot.wordpool import default_pool

PAIRS = {
    "self: all3/all3": "default",
    "self: glove50/glove50": "model=glove50",
    "cross: glove50 -> spacy300 n0.3": "spymaster=glove50,guesser=spacy300,noise=0.3",
    "cross: spacy300 -> glove50 n0.3": "spymaster=spacy300,guesser=glove50,noise=0.3",
    "LOFO: glove50+spacy300 -> minilm n0.3": "spymaster=glove50+spacy300,guesser=minilm,noise=0.3",
    "LOFO: glove50+minilm -> spacy300 n0.3": "spymaster=glove50+minilm,guesser=spacy300,noise=0.3",
}


def run(name: str, spec_text: str, games: int, seed: int, solo: bool, workers: int) -> dict:
    """One row on the simulation engine (``duetbot simulate --game classic``): the same games
    whatever the number of workers; red from game seed ``s``, blue from ``s + 1``."""
    spec = PartnerSpec.parse(spec_text)
    t0 = time.perf_counter()
    s = ClassicTally(run_local(ClassicRunSpec(seed, spec, spec, default_pool(), ClassicRules(solo=solo)),
                               games, workers=workers)).summary()
    return {"pair": name, "mode": "solo" if solo else "two teams", "games": s.games,
            "win": s.starting_win.value, "win_ci": s.starting_win.interval, "assassin": s.assassin.value,
            "turns_to_win": s.turns_to_win, "turns_to_win_starting": s.turns_to_win_starting,
            "seconds": round(time.perf_counter() - t0, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", default=",".join(PAIRS), help="comma-separated names from PAIRS")
    ap.add_argument("--modes", default="solo,two", help="solo, two or both")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (results do not depend on it)")
    args = ap.parse_args()
    rows = []
    for name in args.pairs.split(","):
        for mode in args.modes.split(","):
            row = run(name, PAIRS[name], args.games, args.seed, mode == "solo", args.workers)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print()
    print("| pair | mode | games | win (starting team / alone) | assassin | turns to win |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        lo, hi = r["win_ci"]
        print(f"| {r['pair']} | {r['mode']} | {r['games']} | {100 * r['win']:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}] "
              f"| {100 * r['assassin']:.1f}% | {r['turns_to_win']:.2f} |")


if __name__ == "__main__":
    main()
