"""What the clue words are (issue 28): the shipped spymaster's default clue on boards dealt
from both published boxes, beside people's own clues in the human Duet dev set.

For each clue word: a person's name (a census first name or surname outside the English
lexicon and not a famous name), a fragment of a place's name (``rica``, ``angeles``), an
inflected form (an -s, -ed or -ing form of a word in the lexicon, whatever its frequency),
outside the commonest 30,000 English words (wordfreq zipf below 2.98; a word the models do
not know counts as outside), and the number. ``--before SRC`` also gives the clues of the
code in another source tree (e.g. a ``git worktree`` of an older revision: its ``src``),
in a subprocess, for a side-by-side table.

    python benchmarks/bench_clue_words.py                  # 500 boards per box: 1,000 clues
    python benchmarks/bench_clue_words.py --boards 50 --before ../old/src
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_coverage import NAMES, read_list  # noqa: E402
from bench_guesser import DATA, human_turns  # noqa: E402

from duetbot.bots.factory import default_bots  # noqa: E402
from duetbot.rules import Player, State, Variant, deal  # noqa: E402
from duetbot.views import spymaster_view  # noqa: E402

RANK_30000_ZIPF = 2.98
KINDS = ("name", "fragment", "inflected", "outside the commonest 30,000")


def kinds(word: str, zipf: dict[str, float]) -> list[str]:
    from duetbot.bots.common_words import FRAGMENTS, famous, people_names
    from duetbot.words.lexicon import english_words

    english, well_known = english_words(), famous()
    out = []
    if word not in english and word not in well_known and word in people_names():
        out.append("name")
    if word in FRAGMENTS:
        out.append("fragment")
    for suffix, bases in (("s", ("",)), ("es", ("",)), ("ies", ("y",)), ("ed", ("", "e")), ("ing", ("", "e"))):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3 and word not in ("news",) and \
                any(stem + b in english and stem + b != word for b in bases):
            out.append("inflected")
            break
    if zipf.get(word, 0.0) < RANK_30000_ZIPF:
        out.append("outside the commonest 30,000")
    return out


def bot_clues(boards: int) -> list[tuple[str, int]]:
    spymaster, _ = default_bots()
    out = []
    for name in NAMES:
        words = read_list(name)
        for b in range(boards):
            state = State(deal(b, words), Variant.parse("standard"))
            player = Player.A if b % 2 == 0 else Player.B
            clue = spymaster.suggest(spymaster_view(state, player), top=1)[0].clue
            out.append((clue.word, clue.number))
    return out


def table(rows: dict[str, list[tuple[str, int]]], zipf: dict[str, float]) -> None:
    numbers = sorted({n for clues in rows.values() for _, n in clues})
    print("| whose | clues | " + " | ".join(f"{k} %" for k in KINDS) + " | " +
          " | ".join(f"number {n} %" for n in numbers) + " | mean number |")
    print("|---|---|" + "---|" * (len(KINDS) + len(numbers) + 1))
    for who, clues in rows.items():
        c: Counter = Counter()
        for word, n in clues:
            c.update(kinds(word, zipf))
            c[f"n{n}"] += 1
        total = max(len(clues), 1)
        mean = sum(n for _, n in clues) / total
        print(f"| {who} | {len(clues)} | " + " | ".join(f"{100 * c[k] / total:.1f}" for k in KINDS) + " | " +
              " | ".join(f"{100 * c[f'n{n}'] / total:.1f}" for n in numbers) + f" | {mean:.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=500, help="boards per published box")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--before", type=Path, help="another source tree whose bot's clues go beside these")
    ap.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)   # the --before subprocess
    a = ap.parse_args(argv)
    if a.dump:
        print(json.dumps(bot_clues(a.boards)))
        return 0
    t0 = time.perf_counter()
    clues = bot_clues(a.boards)
    spymaster, _ = default_bots()
    zipf = dict(zip(spymaster.ensemble.clue_words, spymaster.ensemble.zipf.tolist()))
    rows = {"bot, default clue": clues}
    if a.before is not None:
        env = {**os.environ, "PYTHONPATH": str(a.before.resolve())}
        out = subprocess.run([sys.executable, __file__, "--dump", "--boards", str(a.boards)], env=env,
                             capture_output=True, text=True, check=True).stdout
        rows = {f"bot before ({a.before})": [(w, n) for w, n in json.loads(out)], **rows}
    turns = human_turns(a.data, None)
    if turns is not None:
        rows["people (dev set)"] = [(t["clue"].lower(), int(t["number"])) for t in turns]
        try:
            from wordfreq import zipf_frequency   # people's words the models lack: ask wordfreq when it is there
            zipf.update({w: zipf_frequency(w, "en") for w, _ in rows["people (dev set)"] if w not in zipf})
        except ImportError:
            pass
    print(f"\n## The clue words: {len(clues)} default clues on boards of both published boxes, beside people's\n")
    table(rows, zipf)
    words = Counter(w for w, _ in clues)
    print("\nThe bot's commonest clue words: " + ", ".join(f"{w} {n}" for w, n in words.most_common(25)))
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
