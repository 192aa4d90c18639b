"""Start-up as a person or a table program feels it, side by side with its floors.

Each cell is a fresh process (the installed ``duetbot`` of this interpreter), timed in turns
``--repeat`` times; the median is printed, with the floors measured in the same run: an empty
Python, and Python importing what the command cannot do without (typer with its rich help;
for suggestions numpy too).

- ``duetbot --help``;
- ``duetbot suggest jsonl``: from process start to the first spymaster answer on stdout
  (a new board: the models load, the board's matrices and the clue check are computed),
  and the peak resident memory of that process; with the per-user cache of what the
  ensemble derives from its models (``duetbot.embeddings.cache``) as every run after the
  first finds it, and on a first run (an empty cache, written by that run).

The runs use a cache directory of their own (``DUETBOT_CACHE``), not the user's.

    PYTHONPATH=src python benchmarks/bench_startup.py --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from duetbot.rules import Label, Player, deal
from duetbot.wordpool import default_pool


def spymaster_request() -> str:
    """Player A's clue request on a dealt board, as a table program would send it."""
    d = deal(4, default_pool())
    side = {lab: [d.words[i] for i in sorted(d.key.indices(Player.A, lab))] for lab in Label}
    return json.dumps({"id": 1, "role": "spymaster", "board": list(d.words),
                       "green": side[Label.GREEN], "assassin": side[Label.ASSASSIN]})


def timed(argv: list[str], stdin: str | None, cache: str) -> tuple[float, float]:
    """(seconds from start to the first line of output (or exit), peak RSS in MB), with this
    cache directory."""
    env = dict(os.environ, DUETBOT_CACHE=cache)
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=env)
    assert p.stdin is not None and p.stdout is not None
    if stdin is not None:
        p.stdin.write(stdin)
    p.stdin.close()
    first = p.stdout.readline()
    t = time.perf_counter() - t0
    p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if stdin is not None and not first.startswith('{"id": 1, "clues"'):
        raise SystemExit(f"unexpected answer: {first[:200]!r}")
    return t, usage.ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    py = sys.executable
    duetbot = [py, "-m", "duetbot"]
    request = spymaster_request() + "\n"
    root = tempfile.TemporaryDirectory(prefix="duetbot-bench-cache-")
    warm = os.path.join(root.name, "warm")
    jsonl = [*duetbot, "suggest", "jsonl"]
    timed(jsonl, request, warm)                      # fills the cache the warm cells read
    cells = {
        "python, nothing imported (floor)": ([py, "-c", "pass"], None, warm),
        "python importing typer and its rich help (the floor of --help)": (
            [py, "-c", "import typer, typer.rich_utils"], None, warm),
        "python importing numpy, typer and its rich help (the floor of suggest)": (
            [py, "-c", "import numpy, typer, typer.rich_utils"], None, warm),
        "duetbot --help": ([*duetbot, "--help"], None, warm),
        "duetbot suggest jsonl: start to the first spymaster answer": (jsonl, request, warm),
        "the same, a first run (empty cache)": (jsonl, request, ""),
    }
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in cells}
    for r in range(a.repeat):
        for name, (argv, stdin, cache) in cells.items():
            times[name].append(timed(argv, stdin, cache or os.path.join(root.name, f"cold{r}")))
    root.cleanup()
    print(f"{a.repeat} runs each, in turns; median\n")
    print("| measure | seconds | peak RSS MB |")
    print("|---|---|---|")
    for name, runs in times.items():
        print(f"| {name} | {statistics.median(t for t, _ in runs):.3f} | {statistics.median(m for _, m in runs):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
