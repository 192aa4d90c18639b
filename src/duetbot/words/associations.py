"""The association table: which clue words call up which board words for a person, and how
readily (``duetbot/data/associations.tsv``, read once on first use).

Each line is ``board word<TAB>clue<TAB>strength``: hearing ``clue``, an ordinary player reaches
``board word`` at once (3), without effort (2) or after a moment's thought (1). The table
covers the default pool and the development boards' words, 30-40 clues each, set phrases and
every common sense included (STATION <- police, gas, train). Where it came from and what it
lifts: docs/architecture.md, "The association table".

>>> table = Associations({"station": {"police": 3, "train": 2}})
>>> table.strengths("Police", ("STATION", "LAMP")).tolist()
[3, 0]
"""

from __future__ import annotations

import io
import sys
from functools import cache
from importlib import resources
from typing import Mapping, Sequence

import numpy as np

from .keys import word_key

__all__ = ["Associations", "AssociationsError", "default_associations", "parse_associations"]

STRENGTHS = (1, 2, 3)


class AssociationsError(ValueError):
    """A table line that cannot be read."""


def parse_associations(text: str, source: str = "associations") -> dict[str, dict[str, int]]:
    """``{board word key: {clue key: strength}}`` from the table's text; a blank line or one
    starting with ``#`` is skipped, a bad line raises naming it. A pair given twice keeps its
    greater strength."""
    out: dict[str, dict[str, int]] = {}
    for n, line in enumerate(io.StringIO(text), 1):   # a line at a time: a server's memory stays small
        line = line.rstrip("\r\n")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or not parts[2].strip().isdigit() or int(parts[2]) not in STRENGTHS:
            raise AssociationsError(f"{source} line {n}: {line!r} is not 'board word<TAB>clue<TAB>1|2|3'")
        word, clue, strength = word_key(parts[0]), sys.intern(word_key(parts[1])), int(parts[2])
        row = out.setdefault(word, {})
        row[clue] = max(row.get(clue, 0), strength)
    return out


class Associations:
    """The table, looked up by clue for a board's words."""

    def __init__(self, rows: Mapping[str, Mapping[str, int]]) -> None:
        self.by_word = {word: clues if isinstance(clues, dict) else dict(clues) for word, clues in rows.items()}
        """``{board word key: {clue key: strength}}``."""

    def __len__(self) -> int:
        return sum(len(v) for v in self.by_word.values())

    def strengths(self, clue: str, words: Sequence[str]) -> np.ndarray:
        """(words,) int8: how readily ``clue`` calls up each board word (0: not in the table)."""
        clue = word_key(clue)
        return np.array([self.by_word.get(word_key(w), {}).get(clue, 0) for w in words], np.int8)

    def board(self, words: Sequence[str], index: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every pair of a clue in ``index`` (clue key -> row) with a board word: the clues'
        rows, the words' columns and the strengths, each (pairs,)."""
        rows, cols, strength = [], [], []
        for j, w in enumerate(words):
            for clue, s in self.by_word.get(word_key(w), {}).items():
                i = index.get(clue)
                if i is not None:
                    rows.append(i)
                    cols.append(j)
                    strength.append(s)
        return np.array(rows, np.int64), np.array(cols, np.int64), np.array(strength, np.int8)


@cache
def default_associations() -> Associations:
    """The shipped table."""
    text = resources.files("duetbot").joinpath("data/associations.tsv").read_text(encoding="utf-8")
    return Associations(parse_associations(text, "duetbot/data/associations.tsv"))
