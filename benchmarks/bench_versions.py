"""Speed, start-up and memory of two revisions, alternated in one sitting.

A change that is not meant to be faster must not be slower: this exports ``--before`` (a git
revision) into a temporary directory (``git archive``: no work tree is added to the
repository) and times it against the working tree, taking turns (before, after, before,
after, ...) so that other load on a shared machine hits both alike. Each round runs, per side,
fresh processes with that side's ``src`` first on the path and a cache directory of its own
(``DUETBOT_CACHE``, warmed before the first round, as every run after a person's first finds
it); ``--after REV`` measures a revision instead of the working tree, which may then change:

- clue latency: ``bench_spymaster.py`` (this tree's, on the side's code) on ``--boards``
  boards: the first turn on a new board, and later turns on the same boards;
- throughput: ``duetbot simulate --games --workers 2 --seed 5`` with the default bots, wall
  clock;
- start-up: ``duetbot --help``, and ``duetbot suggest jsonl`` from process start to the
  first spymaster answer on stdout (bench_startup.py's request), each the median of
  ``--starts`` processes;
- memory: the peak resident memory of that ``suggest jsonl`` process, which also answers a
  guesser request on the same board (every default family then has read the board).

Prints each round and the medians with the after/before ratio. A measure a side cannot take
(an older revision without a command or an internal the benchmark reaches) is left out for
that side with a note, and the others go on.

    python benchmarks/bench_versions.py --before 8d09b00 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "bench_spymaster.py"
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_startup import spymaster_request  # noqa: E402

MEASURES = ("first turn ms", "later turn ms", "games s", "--help s", "first suggest answer s", "suggest peak MB")


def guesser_request() -> str:
    """A guesser's request on the spymaster request's board, after one clue."""
    spy = json.loads(spymaster_request())
    return json.dumps({"id": 2, "role": "guesser", "board": spy["board"], "clues": [{"clue": "water", "number": 2}]})


def export(rev: str, into: Path) -> Path:
    """``rev``'s ``src`` written under ``into`` (its files only: nothing in the repository changes)."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
                             capture_output=True, check=True).stdout
    tar = into / "src.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    tar.unlink()
    return into / "src"


def first_answer(env: dict[str, str], requests: str) -> tuple[float, float]:
    """(seconds from start to the first line ``suggest jsonl`` writes, the process's peak RSS
    in MB after answering every request)."""
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "duetbot", "suggest", "jsonl"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdin is not None and p.stdout is not None and p.stderr is not None
    p.stdin.write(requests)
    p.stdin.close()
    first = p.stdout.readline()
    t = time.perf_counter() - t0
    rest = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or not first.startswith('{"id": 1, "clues"') or '"error"' in rest:
        raise RuntimeError(f"suggest jsonl answered {(first + rest)[:160]!r} {err.strip()[-160:]!r}")
    return t, usage.ru_maxrss / 1024


def started(env: dict[str, str], argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "duetbot", *argv], env=env, capture_output=True, check=True)
    return time.perf_counter() - t0


def run_side(src: Path, cache: Path, a: argparse.Namespace, notes: dict[str, str]) -> dict[str, float]:
    """One round of every measure on one side; a measure that fails is noted in ``notes``
    (measure -> why) and left out."""
    env = {**os.environ, "PYTHONPATH": str(src), "DUETBOT_CACHE": str(cache)}
    out: dict[str, float] = {}

    def attempt(names: tuple[str, ...], work) -> None:
        try:
            values = work()
        except (subprocess.CalledProcessError, RuntimeError, AttributeError) as exc:
            why = exc.stderr.strip().splitlines()[-1] if isinstance(exc, subprocess.CalledProcessError) and exc.stderr \
                else str(exc)
            for n in names:
                notes.setdefault(n, why[:200])
            return
        out.update(zip(names, values))

    def spymaster() -> tuple[float, float]:
        text = subprocess.run([sys.executable, str(BENCH), "--boards", str(a.boards), "--naive-boards", "1"],
                              env=env, capture_output=True, text=True, check=True).stdout
        first = re.search(r"\| first turn[^|]*\| ([\d.]+)", text)
        later = re.search(r"\| later turn[^|]*\| ([\d.]+)", text)
        if not first or not later:
            raise RuntimeError("bench_spymaster.py printed no first or later turn")
        return float(first.group(1)), float(later.group(1))

    def games() -> tuple[float]:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "duetbot", "simulate", "--games", str(a.games), "--workers", "2",
                        "--seed", "5", "--quiet"], env=env, capture_output=True, text=True, check=True)
        return (time.perf_counter() - t,)

    def help_() -> tuple[float]:
        return (statistics.median(started(env, ["--help"]) for _ in range(a.starts)),)

    def suggest() -> tuple[float, float]:
        requests = spymaster_request() + "\n" + guesser_request() + "\n"
        runs = [first_answer(env, requests) for _ in range(a.starts)]
        return statistics.median(t for t, _ in runs), max(m for _, m in runs)

    attempt(("first turn ms", "later turn ms"), spymaster)
    attempt(("games s",), games)
    attempt(("--help s",), help_)
    attempt(("first suggest answer s", "suggest peak MB"), suggest)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="git revision to compare against")
    ap.add_argument("--after", default=None, help="git revision to measure (default: the working tree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--starts", type=int, default=3, help="processes per start-up measure and round")
    a = ap.parse_args(argv)
    sides = ("before", "after")
    results: dict[str, list[dict[str, float]]] = {s: [] for s in sides}
    notes: dict[str, dict[str, str]] = {s: {} for s in sides}
    with tempfile.TemporaryDirectory(prefix="bench-versions-") as tmp:
        srcs = {"before": export(a.before, Path(tmp) / "before"),
                "after": export(a.after, Path(tmp) / "after") if a.after else ROOT / "src"}
        caches = {s: Path(tmp) / f"cache-{s}" for s in sides}
        for side in sides:   # the caches as a person's second run finds them
            env = {**os.environ, "PYTHONPATH": str(srcs[side]), "DUETBOT_CACHE": str(caches[side])}
            subprocess.run([sys.executable, "-m", "duetbot", "suggest", "jsonl"], input=spymaster_request() + "\n" + guesser_request() + "\n",
                           env=env, capture_output=True, text=True)
        for r in range(a.rounds):
            for side in sides:
                res = run_side(srcs[side], caches[side], a, notes[side])
                results[side].append(res)
                print(f"round {r + 1} {side}: " + ", ".join(f"{k} {v:.3g}" for k, v in res.items()), flush=True)
    label = {"games s": f"{a.games} games s (2 workers)"}
    print(f"\n| measure | before ({a.before}) | after ({a.after or 'working tree'}) | after / before |")
    print("|---|---|---|---|")
    for key in MEASURES:
        med = {s: statistics.median(x[key] for x in results[s] if key in x)
               if any(key in x for x in results[s]) else None for s in sides}
        b, f = med["before"], med["after"]
        fmt = (lambda v: f"{v:.3f}") if key.endswith(" s") and key != "games s" else (lambda v: f"{v:.1f}")
        ratio = f"{f / b:.2f}" if b and f else "n/a"
        print(f"| {label.get(key, key)} | {fmt(b) if b else 'n/a'} | {fmt(f) if f else 'n/a'} | {ratio} |")
    for side in sides:
        for key, why in notes[side].items():
            print(f"note: {side}: {key} not measured: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
