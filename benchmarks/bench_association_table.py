"""The association table (``duetbot/data/associations.tsv``) against people's own data.

    PYTHONPATH=src python benchmarks/bench_association_table.py            # every part (~6 min)
    PYTHONPATH=src python benchmarks/bench_association_table.py --parts a --lifts 0,0.5,0.75,1

a. **The guesser on people's clues** (the development split, beside the repository): the
   default guesser with the table's lift at each scale (lift = scale x strength, z units),
   with the game's history, without a key side (every answerable turn) and with its own key
   sampled x3 (the turns whose giver side is complete), as the current-figures table reads it.
   The games are split in two by a hash of their id: the scale is chosen on the fit half and
   reported on the other.
b. **Does the table know what people find?** Each target of a people's clue (and each
   guessed word) with its strength in the table for that clue; found = the person guessing
   touched it before a miss. The first target and the later ones apart.
c. **Does it agree with people's free associations?** The Edinburgh Associative Thesaurus
   (``../shared/data/eat/``, read, never copied): of the table's pairs whose board word was an
   EAT stimulus, the share people also gave, by strength; and of the EAT's pairs (board word
   -> response given by at least 5 of ~100 people) the share the table holds.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import zlib
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_guesser import eval_human, human_turns  # noqa: E402

from duetbot.bots.ensemble import DEFAULT_LIFT, Ensemble  # noqa: E402
from duetbot.bots.factory import DEFAULT_GUESSER_MODELS, model  # noqa: E402
from duetbot.bots.guesser import GuesserConfig  # noqa: E402
from duetbot.words import word_key  # noqa: E402
from duetbot.words.associations import Associations, default_associations  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def half(game: str) -> str:
    """``fit`` or ``report``, fixed by the game's id."""
    return "fit" if zlib.crc32(str(game).encode()) % 2 == 0 else "report"


def part_a(turns: list[dict], scales: list[float], table: Associations) -> None:
    print("\n## a. The guesser on people's clues, by lift scale (history, own key x3)\n")
    halves = {h: [t for t in turns if half(t["game"]) == h] for h in ("fit", "report")}
    print(f"fit: {len(halves['fit'])} turns, report: {len(halves['report'])} turns "
          f"(games split by a hash of their id)\n")
    print("| lift scale | half | key side | turns | P@1 % | found | first miss the assassin % | stop after |")
    print("|---|---|---|---|---|---|---|---|")
    models = [model(n) for n in DEFAULT_GUESSER_MODELS]
    for scale in scales:
        ens = Ensemble(models, associations=table if scale else None, lift=[scale * s for s in range(4)])
        for h, ts in halves.items():
            for side, cfg, own in (("none", GuesserConfig(infer_key=False), 0), ("own x3", GuesserConfig(), 3)):
                r = eval_human(ts, ens, cfg, history=True, own_key=own)
                print(f"| {scale:g} | {h} | {side} | {r['n']} | {100 * np.mean(r['p1']):.1f} | "
                      f"{np.mean(r['found']):.3f} | {100 * np.mean(r['assassin']):.1f} | {np.mean(r['stop']):.2f} |",
                      flush=True)
    print(f"\nShipped lift: {DEFAULT_LIFT} (z units for strength 0-3).")


def part_b(turns: list[dict], table: Associations) -> None:
    print("\n## b. Targets of people's clues by their strength in the table\n")
    seen: dict[tuple[str, int], list[int]] = defaultdict(list)
    for t in turns:
        guesses = [word_key(g) for g in t["human_guesses"]]
        green = {word_key(w) for w in t.get("green", ())}
        found = set()
        for g in guesses:
            if g not in green:
                break
            found.add(g)
        targets = [word_key(w) for w in t["targets"]]
        strengths = table.strengths(t["clue"], targets)
        # the targets in the order the person found them, then the rest: "first" is the
        # target found first (or, when none was found, any)
        order = sorted(range(len(targets)), key=lambda i: guesses.index(targets[i]) if targets[i] in guesses else 99)
        for rank, i in enumerate(order):
            seen[("first" if rank == 0 else "later", int(strengths[i]))].append(int(targets[i] in found))
    print("| target | strength in the table | targets | found by the person |")
    print("|---|---|---|---|")
    for which in ("first", "later"):
        for s in (3, 2, 1, 0):
            xs = seen[(which, s)]
            if xs:
                print(f"| {which} | {s} | {len(xs)} | {sum(xs)} ({100 * np.mean(xs):.0f}%) |")
    covered = sum(word_key(w) in table.words for t in turns for w in t["targets"])
    print(f"\n{covered} of {sum(len(t['targets']) for t in turns)} targets are board words the table covers.")


def part_c(path: Path, table: Associations) -> None:
    print("\n## c. The table against the Edinburgh Associative Thesaurus (people's free associations)\n")
    if not path.is_file():
        print(f"SKIPPED: no EAT at {path}")
        return
    eat: dict[str, dict[str, int]] = defaultdict(dict)
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            s, r, n = line.rstrip("\n").split("\t")
            if not n.isdigit():   # the header
                continue
            eat[s][r] = eat[s].get(r, 0) + int(n)
    by_strength: dict[int, list[int]] = defaultdict(list)
    for word in table.words:
        for clue, s in table.row(word).items():
            # a pair (clue -> word) given by people either way: word as stimulus, clue as response, or back
            if word in eat or clue in eat:
                by_strength[s].append(int(clue in eat.get(word, {}) or word in eat.get(clue, {})))
    print("| strength | table pairs with an EAT stimulus | people gave it (either way) |")
    print("|---|---|---|")
    for s in (3, 2, 1):
        xs = by_strength[s]
        print(f"| {s} | {len(xs)} | {100 * np.mean(xs):.0f}% |")
    strong = [(w, r) for w in table.words if w in eat for r, n in eat[w].items()
              if n >= 5 and r.isalpha() and r != w]
    held = sum(r in table.row(w) for w, r in strong)
    print(f"\nEAT pairs board word -> response given by >= 5 people: {len(strong)}; "
          f"the table holds {held} ({100 * held / max(len(strong), 1):.0f}%).")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parts", default="abc")
    ap.add_argument("--lifts", default="0,0.5,0.75,1.0", help="lift scales for part a (z per strength point)")
    ap.add_argument("--data", type=Path, default=SHARED / "human-duet-dev" / "turns.jsonl")
    ap.add_argument("--eat", type=Path, default=SHARED / "eat" / "eat_stimulus_response.tsv.gz")
    ap.add_argument("--table", type=Path, help="another association table (default: the shipped one)")
    args = ap.parse_args(argv)
    turns = human_turns(args.data)
    table = Associations.from_text(args.table.read_text(), str(args.table)) if args.table else default_associations()
    clues = {c for w in table.words for c in table.row(w)}
    print(f"The table: {len(table)} pairs, {len(table.words)} board words, {len(clues)} clue words.")
    if turns is not None and "a" in args.parts:
        part_a(turns, [float(x) for x in args.lifts.split(",")], table)
    if turns is not None and "b" in args.parts:
        part_b(turns, table)
    if "c" in args.parts:
        part_c(args.eat, table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
