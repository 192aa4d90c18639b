#!/usr/bin/env python
"""Human word associations in the guesser: before/after on people's clues. Prints markdown.

    PYTHONPATH=src python benchmarks/bench_associations.py            # the full table (~2 min)
    PYTHONPATH=src python benchmarks/bench_associations.py --quick    # a 40-turn slice (tests)
    PYTHONPATH=src python benchmarks/bench_associations.py --eat /tmp/m/eat   # a candidate build

Data: the human Duet dev set (``../shared/data/human-duet-dev/turns.jsonl`` beside the
repository, ``--data`` to point elsewhere; never copied into the repository). Skipped, exit
0, when it is absent. The ``eat`` model ships with the package (duetbot/build/associations.py).

For each turn the guesser gets the words still in play and the human clue with its number,
no key side, and is scored against the giver's intended targets, as in
``benchmarks/bench_guesser.py`` part a (whose functions this reuses): P@1 (first guess is a
target), P@number (share of the top-``number`` guesses that are targets), MRR (1 / rank of
the first target). "before" is the embedding families alone (glove50+spacy300+minilm),
"after" adds the ``eat`` family with ``GuesserConfig.family_weights`` (the shipped default).
The weight sweep shows how flat the optimum is. "common" is P@1 on the turns every row of
the table answers (like for like); "+history" also passes the game's earlier clues.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_guesser import DATA, _mean, _pct, eval_human, human_turns  # noqa: E402

from duetbot.bots.factory import DEFAULT_MODELS  # noqa: E402
from duetbot.bots.guesser import GuesserConfig  # noqa: E402


def rows(eat: str, quick: bool) -> list[tuple[str, tuple[str, ...], GuesserConfig, bool]]:
    blind = GuesserConfig(infer_key=False)
    before = tuple(DEFAULT_MODELS)
    after = (*before, eat)  # the four families before issue 29 (the LM families: bench_lm_families.py)
    w = dict(blind.family_weights).get("eat", 1.0)
    out = [
        ("before: " + "+".join(before), before, blind, False),
        ("eat alone (turns it can answer)", (eat,), blind, False),
        (f"after: {'+'.join(after)}, eat weight {w:g} (default)", after, blind, False),
    ]
    if not quick:
        for x in (1.0, 1.5, 3.0):
            out.append((f"after, eat weight {x:g}", after, replace(blind, family_weights=(("eat", x),)), False))
    out += [("before +history", before, blind, True), ("after +history (default)", after, blind, True)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA, help="human Duet turns (JSON lines)")
    ap.add_argument("--quick", action="store_true", help="the first 40 turns, fewer rows")
    ap.add_argument("--eat", default="eat", help="association model name or directory (default: the shipped eat)")
    a = ap.parse_args(argv)
    print("# Human word associations in the guesser (dev set)\n")
    turns = human_turns(a.data, 40 if a.quick else None)
    if turns is None:
        return 0
    t0 = time.perf_counter()
    results = []
    for name, fams, cfg, hist in rows(a.eat, a.quick):
        r = eval_human(turns, fams, cfg, hist)
        results.append((name, {k: r.get(k, []) for k in ("p1", "pk", "rr", "ids")} | {"n": r["n"],
                                                                                    "skipped": r["skipped"]}))
    common = set.intersection(*(set(r["ids"]) for name, r in results if not name.startswith("eat alone")))
    print(f"{len(turns)} turns{' (quick slice)' if a.quick else ''}; guesser sees the words in play and the clue, "
          f"no key side; common turns: {len(common)}\n")
    print("| guesser | turns | skipped | P@1 % | P@number % | MRR | P@1 common % |")
    print("|---|---|---|---|---|---|---|")
    for name, r in results:
        pc = _mean(p for p, i in zip(r["p1"], r["ids"]) if i in common)
        print(f"| {name} | {r['n']} | {r['skipped']} | {_pct(_mean(r['p1']))} | {_pct(_mean(r['pk']))} | "
              f"{_mean(r['rr']):.3f} | {_pct(pc)} |", flush=True)
    print("\nPeople reading the same clues: ~87% P@1. Prototype (DESIGN.md): embeddings 60%, +EAT 68%.")
    print(f"\n{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
