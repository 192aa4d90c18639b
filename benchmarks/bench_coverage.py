"""Which cards of the published boxes each family knows, and boards dealt from them end to end.

Part a, coverage: for each word list (the Codenames: Duet box, the original box; shipped in
``duetbot/data/cards/``) and each family, how many cards its own table knows (exactly, as a phrase,
or without accents), how many it reads through a fallback (mapped from MiniLM's real vector,
or from the card's spelling), and how many it could not read at all.

Part b, boards: ``--boards`` boards dealt from each list (seeded), each sent to the shipped
bots as a spymaster request and a guesser request (``Suggester.handle``, what ``suggest
jsonl`` answers): errors, incomplete answers, and answers carrying a note.

    python benchmarks/bench_coverage.py                 # 1,000 boards per list
    python benchmarks/bench_coverage.py --boards 100
"""

from __future__ import annotations

import argparse
import random
import time

from duetbot.bots.factory import DEFAULT_GUESSER_MODELS, default_bots, model
from duetbot.embeddings import load_model
from duetbot.suggest import Suggester
from duetbot.wordpool import PUBLISHED_BOXES, published_box

NAMES = PUBLISHED_BOXES


def read_list(name: str) -> list[str]:
    return list(published_box(name))


def part_a() -> None:
    print("## a. Coverage of the published boxes (400 cards each)\n")
    print("| list | family | own table | from MiniLM's vector | from the spelling | no vector |")
    print("|---|---|---|---|---|---|")
    minilm = load_model("minilm")
    for name in NAMES:
        words = read_list(name)
        for fam in DEFAULT_GUESSER_MODELS:
            m = model(fam)
            own = [w for w in words if m.knows(w)]
            rest = [w for w in words if not m.knows(w)]
            if m.has_fallback:
                mapped = [w for w in rest if fam != "minilm" and minilm.knows(w)]
                spelled = [w for w in rest if w not in mapped]
                none: list[str] = []
            else:
                mapped, spelled, none = [], [], rest
            print(f"| {name} | {fam} | {len(own)} | {len(mapped)} | {len(spelled)} "
                  f"({', '.join(spelled[:6])}{'...' if len(spelled) > 6 else ''}) | {len(none)} |")
        nobody = [w for w in words if not any(model(f).knows(w) for f in DEFAULT_GUESSER_MODELS)]
        print(f"| {name} | in no family's table | {len(nobody)}: {', '.join(nobody)} | | | |")
    print("\nno vector: `eat` has no fallback; the ensemble lets the other families speak for such a card.")


def part_b(boards: int) -> None:
    print(f"\n## b. {boards} boards per list through the shipped bots (both roles)\n")
    print("| list | boards | requests | errors | incomplete | with a note | s |")
    print("|---|---|---|---|---|---|---|")
    helper = Suggester(*default_bots())
    for name in NAMES:
        words = read_list(name)
        rng = random.Random(f"coverage-{name}")
        t = time.perf_counter()
        errors = incomplete = noted = requests = 0
        for _ in range(boards):
            board = rng.sample(words, 25)
            side = rng.sample(board, 12)
            green, assassin = side[:9], side[9:]
            clue = rng.choice([w for w in words if w not in board]).lower()
            for req in ({"id": 0, "role": "spymaster", "board": board, "green": green, "assassin": assassin,
                         "top": 1},
                        {"id": 1, "role": "guesser", "board": board, "green": green, "assassin": assassin,
                         "clues": [{"clue": clue, "number": 2}]}):
                resp = helper.handle(req)
                requests += 1
                errors += "error" in resp
                incomplete += not (resp.get("clues") or len(resp.get("guesses", ())) == 25)
                noted += bool(resp.get("notes"))
        print(f"| {name} | {boards} | {requests} | {errors} | {incomplete} | {noted} | "
              f"{time.perf_counter() - t:.0f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=1000)
    a = ap.parse_args(argv)
    part_a()
    part_b(a.boards)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
