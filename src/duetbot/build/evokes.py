"""Put together ``duetbot/data/evokes.tsv``, the free associations the spymaster reads for
danger (:mod:`duetbot.words.evokes`), from the parts its writers handed in (a maintainer step).

    python -m duetbot.build.evokes PART.tsv [PART.tsv ...]            # writes the package's file
    python -m duetbot.build.evokes PART.tsv ... --out /tmp/evokes.tsv

Each part holds lines ``clue<TAB>association, association, ...``. The lists are cleaned, the
same input always giving the same file: keys folded to lower case; characters other than
letters, spaces, hyphens and apostrophes dropped; an association that is a form of its clue
(the rule book's check: "sharks" for shark), one with a blocked word (``data/profanity.txt``)
or one given twice is left out; at most :data:`MOST` a clue, in the writer's order; clues
sorted. A clue that is not a single word, or whose list is empty, is reported and skipped.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Iterable, Sequence

from ..embeddings.vocab import is_blocked
from ..rules.clues import clue_conflict
from ..words import word_key
from ..words.evokes import TABLE, parse_evokes

MOST = 30
"""Associations kept a clue."""

HEADER = """\
# What a clue calls to mind: clue<TAB>the words and short phrases an ordinary person thinks of
# on hearing it, roughly strongest first (compounds and set phrases as their other word, scenes,
# senses, slang, titles). Read by the spymaster for danger only: it gives no clue that reaches an
# assassin of its own. Written for duetbot by language-model helpers briefed as careful, ordinary
# English speakers, from their own knowledge (no source consulted, no program generating them),
# for the words the bot gives as clues; Apache-2.0 like the code. How it was written, checked and
# used: docs/models.md, "What a clue calls to mind". Put together by python -m duetbot.build.evokes.
"""

_DROP = re.compile(r"[^a-z\u00e0-\u024f '\-]")


def clean(clue: str, found: Iterable[str]) -> list[str]:
    """``clue``'s associations as the shipped file keeps them (see the module's rules)."""
    out: dict[str, None] = {}
    for raw in found:
        a = " ".join(_DROP.sub("", word_key(raw)).split())
        if not a or a == clue or clue_conflict(clue, a) or any(is_blocked(t) for t in a.split()):
            continue
        out[a] = None
    return list(out)[:MOST]


def assemble(parts: Sequence[str], log=print) -> str:
    """The file's text from the parts' texts."""
    lists: dict[str, list[str]] = {}
    for n, text in enumerate(parts, 1):
        for clue, found in parse_evokes(text, f"part {n}").items():
            if not clue.isalpha():
                log(f"part {n}: {clue!r} skipped: a clue is one word")
                continue
            kept = clean(clue, [*lists.get(clue, []), *found])
            if kept:
                lists[clue] = kept
            else:
                log(f"part {n}: {clue!r} skipped: nothing left of its list")
    return HEADER + "".join(f"{c}\t{', '.join(lists[c])}\n" for c in sorted(lists))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("parts", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=Path(str(TABLE)))
    args = ap.parse_args(argv)
    try:
        text = assemble([p.read_text(encoding="utf-8") for p in args.parts], log=lambda m: print(m, file=sys.stderr))
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    args.out.write_text(text, encoding="utf-8")
    lists = parse_evokes(text)
    print(f"{args.out}: {len(lists)} clues, {sum(map(len, lists.values()))} associations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
