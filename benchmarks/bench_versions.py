"""Clue latency and simulation throughput of two revisions, alternated in one sitting.

A change that is not meant to be faster must not be slower: this checks out ``--before`` (a
git revision) into a temporary work tree and times it against the working tree, taking turns
(before, after, before, after, ...) so that other load on a shared machine hits both alike.
Each round runs, per side, in a fresh process with that side's ``src`` first on the path
(``--after REV`` measures a revision instead of the working tree, which may then change):

- clue latency: ``bench_spymaster.py`` on ``--boards`` boards (first turn on a new board, and
  later turns on the same boards);
- throughput: ``duetbot simulate --games --workers 2`` with the default bots, wall clock.

Prints each round and the medians with the after/before ratio.

    python benchmarks/bench_versions.py --before 1e93c1b --rounds 3
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "bench_spymaster.py"


def run_side(src: Path, boards: int, games: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, str(BENCH), "--boards", str(boards), "--naive-boards", "1"],
                         env=env, capture_output=True, text=True, check=True).stdout
    first = float(re.search(r"\| first turn[^|]*\| ([\d.]+)", out).group(1))
    later = float(re.search(r"\| later turn[^|]*\| ([\d.]+)", out).group(1))
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "duetbot", "simulate", "--games", str(games), "--workers", "2",
                    "--seed", "5"], env=env, capture_output=True, text=True, check=True)
    return {"first turn ms": first, "later turn ms": later, f"{games} games s": time.perf_counter() - t}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="git revision to compare against")
    ap.add_argument("--after", default=None, help="git revision to measure (default: the working tree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--games", type=int, default=1000)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": Path(tmp) / "before", "after": Path(tmp) / "after" if a.after else ROOT}
        for side, rev in (("before", a.before), ("after", a.after)):
            if rev:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(trees[side]), rev],
                               check=True)
        try:
            results: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
            for r in range(a.rounds):
                for side in ("before", "after"):
                    src = trees[side] / "src"
                    res = run_side(src, a.boards, a.games)
                    results[side].append(res)
                    print(f"round {r + 1} {side}: " + ", ".join(f"{k} {v:.1f}" for k, v in res.items()), flush=True)
        finally:
            for side, rev in (("before", a.before), ("after", a.after)):
                if rev:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(trees[side])])
    print(f"\n| measure | before ({a.before}) | after ({a.after or 'working tree'}) | after / before |")
    print("|---|---|---|---|")
    for key in results["before"][0]:
        b = statistics.median(x[key] for x in results["before"])
        f = statistics.median(x[key] for x in results["after"])
        print(f"| {key} | {b:.1f} | {f:.1f} | {f / b:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
