#!/usr/bin/env python
"""Embedding layer benchmark: load time, memory, vocabulary sizes, pool coverage.

    PYTHONPATH=src python benchmarks/bench_embeddings.py [--write benchmarks/RESULTS_embeddings.md]

Each figure is measured in a fresh interpreter (``python -c``), so import costs count:
"cold load" = import duetbot.embeddings + load_model(name); "first board" adds the clue
matrix (C x d float32) and one clue x board similarity matrix for 25 pool words; "peak RSS"
is the child's maximum resident set size (resource.getrusage), "traced peak" the peak of
Python/numpy allocations seen by tracemalloc over import + load + first board (measured in a
separate run, since tracing slows everything down).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time, tracemalloc
name, mmap, trace = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1"
if trace:  # tracing slows everything down: a separate run measures memory
    tracemalloc.start()
t0 = time.perf_counter()
from duetbot.embeddings import load_model, coverage
t1 = time.perf_counter()
m = load_model(name, mmap=mmap)
t2 = time.perf_counter()
from duetbot.wordpool import default_pool
pool = list(default_pool())
board = [w for w in pool if m.knows(w)][:25]
t3 = time.perf_counter()
sim = m.clue_board_similarity(board)
t4 = time.perf_counter()
sim = m.clue_board_similarity(board)
t5 = time.perf_counter()
known, unknown = coverage(m, pool)
_, traced_peak = tracemalloc.get_traced_memory() if trace else (0, 0)
print(json.dumps({
    "name": m.name, "family": m.family, "dim": m.dim, "vocab": len(m.words), "clues": len(m.clue_words),
    "proper": int(m.clue_is_proper.sum()),
    "import_s": t1 - t0, "load_s": t2 - t1, "cold_s": t2 - t0, "first_board_s": t4 - t3, "board_s": t5 - t4,
    "pool": len(pool), "pool_known": len(known), "pool_unknown": unknown,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "traced_peak_mb": traced_peak / 1e6,
    "disk_mb": sum(f.stat().st_size for f in m.path.iterdir() if f.is_file()) / 1e6,
}))
"""


def run(name: str, mmap: bool, trace: bool = False) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    out = subprocess.run([sys.executable, "-c", CHILD, name, "1" if mmap else "0", "1" if trace else "0"],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="fresh processes per model (median reported)")
    ap.add_argument("--write", type=Path, default=None, help="also write a markdown table here")
    args = ap.parse_args()

    sys.path.insert(0, str(ROOT / "src"))
    from duetbot.embeddings import available_models, default_model_name

    default = default_model_name()
    names = [i.name for i in available_models()]
    rows = []
    for name in names:
        for mmap in (True, False):
            runs = [run(name, mmap) for _ in range(args.repeat)]
            r = dict(runs[0])
            for k in ("import_s", "load_s", "cold_s", "first_board_s", "board_s", "peak_rss_mb"):
                r[k] = statistics.median(x[k] for x in runs)
            r["traced_peak_mb"] = run(name, mmap, trace=True)["traced_peak_mb"]
            r["mmap"] = mmap
            rows.append(r)

    head = ("| model | mmap | dim | vocab | clue words (proper) | disk MB | cold load s (import + load) "
            "| first board s | next board s | peak RSS MB | traced peak MB | default pool coverage |")
    sep = "|" + "---|" * 12
    lines = [head, sep]
    for r in rows:
        cov = f"{r['pool_known']}/{r['pool']}"
        lines.append(
            f"| {r['name']}{' (default)' if r['name'] == default else ''} | {'yes' if r['mmap'] else 'no'} | {r['dim']} "
            f"| {r['vocab']:,} | {r['clues']:,} ({r['proper']:,}) | {r['disk_mb']:.1f} "
            f"| {r['cold_s']:.3f} ({r['import_s']:.3f} + {r['load_s']:.3f}) | {r['first_board_s']:.3f} "
            f"| {r['board_s']:.4f} | {r['peak_rss_mb']:.0f} | {r['traced_peak_mb']:.0f} | {cov} |")
    table = "\n".join(lines)
    print(table)
    missing = {r["name"]: r["pool_unknown"] for r in rows if r["pool_unknown"] and r["mmap"]}
    for name, words in missing.items():
        print(f"{name} lacks {len(words)} pool words: {', '.join(words)}")

    if args.write:
        import numpy

        total = sum(r["disk_mb"] for r in rows if r["mmap"])
        md = [
            "# Embedding layer benchmark",
            "",
            f"`PYTHONPATH=src python benchmarks/bench_embeddings.py --write {args.write}`; median of "
            f"{args.repeat} fresh processes per row; {platform.python_implementation()} {platform.python_version()}, "
            f"numpy {numpy.__version__}, {os.cpu_count()} cores (shared).",
            "",
            "Cold load = `import duetbot.embeddings` + `load_model(name)` in a new interpreter (numpy only; "
            "gensim is not imported). First board = building the clue matrix (C x d float32) plus one clue x "
            "board product for 25 words; next board = the product alone.",
            "",
            table,
            "",
            f"Shipped models on disk: {total:.1f} MB in total.",
            "",
        ]
        for name, words in missing.items():
            md.append(f"- {name} has no vector of its own for {len(words)} pool words: {', '.join(words)} "
                      "(spaCy's table has 20k distinct vectors; see docs/models.md).")
        args.write.write_text("\n".join(md) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
