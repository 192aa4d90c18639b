"""Throughput of ``duetbot simulate``: games per second, total and per core, by worker count.

Runs the library engine (:func:`duetbot.simulation.run_local`, what the CLI uses) for random
bots and, when the shipped models are installed, the default embedding bots, with each
worker count side by side, and prints a markdown table. Times are wall clock for the whole
run, including starting the worker processes and each worker's model loading, i.e. what a
user of ``duetbot simulate`` sees (``workers=1`` plays in this process, whose models are
already loaded by the availability check). With ``--repeat`` the cells are timed in turns and
the fastest time is kept, which filters out other load on a shared machine. Also checks that
every worker count gave the same games.

    PYTHONPATH=src python benchmarks/bench_throughput.py
    PYTHONPATH=src python benchmarks/bench_throughput.py --random-games 8000 --default-games 100 --workers 1,2,4
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from duetbot.bots.factory import PartnerSpec
from duetbot.simulation import RunSpec, run_local
from duetbot.wordpool import default_pool


def measure(run: RunSpec, games: int, workers: int) -> tuple[float, list[str]]:
    t0 = time.perf_counter()
    lines = [r.line for r in run_local(run, games, workers=workers)]
    return time.perf_counter() - t0, lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random-games", type=int, default=4000, help="games per random-bot cell")
    ap.add_argument("--default-games", type=int, default=40, help="games per default-bot cell")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1,
                    help="time each cell this many times (interleaved) and keep the fastest")
    args = ap.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",")]

    cells: list[tuple[str, str, int]] = [("random", "bot=random", args.random_games)]
    notes = []
    try:
        PartnerSpec().check()
        cells.append(("default", "default", args.default_games))
    except (ValueError, LookupError, OSError) as exc:
        notes.append(f"default bots skipped: {exc}")

    print(f"CPUs: {os.cpu_count()}, Python {platform.python_version()}, {platform.machine()}\n")
    print("| bots | workers | games | seconds | games/s | games/s per worker | speed-up vs 1 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    ok = True
    for label, text, games in cells:
        spec = PartnerSpec.parse(text)
        run = RunSpec(args.seed, spec, spec, default_pool())
        best: dict[int, float] = {}
        reference = None
        for _ in range(max(1, args.repeat)):
            for w in counts:
                secs, lines = measure(run, games, w)
                best[w] = min(best.get(w, secs), secs)
                if reference is None:
                    reference = lines
                elif lines != reference:
                    ok = False
                    notes.append(f"{label}: workers={w} gave different games than workers={counts[0]}")
        base = games / best[counts[0]]
        for w in counts:
            rate = games / best[w]
            print(f"| {label} | {w} | {games} | {best[w]:.2f} | {rate:.1f} | {rate / w:.1f} | {rate / base:.2f}x |",
                  flush=True)
    for n in notes:
        print(f"\n{n}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
