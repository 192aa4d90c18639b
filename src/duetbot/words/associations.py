"""The association table: which clue words call up which board words for a person, and how
readily (``duetbot/data/associations.tsv``, read once on first use).

Each line is ``board word<TAB>clue<TAB>strength``: hearing ``clue``, an ordinary player reaches
``board word`` at once (3), without effort (2) or after a moment's thought (1). The table
covers the default pool and the development boards' words, 60-75 clues each, set phrases and
every common sense included (STATION <- police, gas, train). Where it came from and what it
lifts: docs/models.md, "The association table".

>>> table = Associations({"station": {"police": 3, "train": 2}})
>>> table.strengths("Police", ("STATION", "LAMP")).tolist()
[3, 0]
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources
from itertools import groupby
from operator import itemgetter
from typing import Iterator, Mapping, Sequence

import numpy as np

from .keys import word_key

__all__ = ["Associations", "AssociationsError", "default_associations", "parse_associations"]

STRENGTHS = (1, 2, 3)

TABLE = resources.files("duetbot").joinpath("data/associations.tsv")
"""The shipped table's file."""


class AssociationsError(ValueError):
    """A table line that cannot be read."""


def _lines(text: str, source: str) -> Iterator[tuple[str, str, int]]:
    """Each (board word key, clue key, strength) of the table's text, a line at a time (a
    server's memory stays small); a blank line or one starting with ``#`` is skipped, a bad
    line raises naming it."""
    for n, line in enumerate(io.StringIO(text), 1):
        line = line.rstrip("\r\n")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or not parts[2].strip().isdigit() or int(parts[2]) not in STRENGTHS:
            raise AssociationsError(f"{source} line {n}: {line!r} is not 'board word<TAB>clue<TAB>1|2|3'")
        yield word_key(parts[0]), word_key(parts[1]), int(parts[2])


def parse_associations(text: str, source: str = "associations") -> dict[str, dict[str, int]]:
    """``{board word key: {clue key: strength}}`` from the table's text (see :func:`_lines`).
    A pair given twice keeps its greater strength."""
    out: dict[str, dict[str, int]] = {}
    for word, clue, strength in _lines(text, source):
        row = out.setdefault(word, {})
        row[clue] = max(row.get(clue, 0), strength)
    return out


class Associations:
    """The table, looked up by clue for a board's words. Each word's clues are kept packed
    (one string and one bytes: about 0.4 MB for the shipped table, where dictionaries took
    five) and unpacked when a board asks for them."""

    def __init__(self, rows: Mapping[str, Mapping[str, int]] | None = None) -> None:
        self._packed: dict[str, tuple[str, bytes]] = {}
        for word, clues in (rows or {}).items():
            self._add(word, clues)

    @classmethod
    def from_text(cls, text: str, source: str = "associations") -> Associations:
        """The table of ``text``, read a word's lines at a time (as :func:`parse_associations`)."""
        out = cls()
        for word, lines in groupby(_lines(text, source), key=itemgetter(0)):
            row: dict[str, int] = {}
            for _, clue, strength in lines:
                row[clue] = max(row.get(clue, 0), strength)
            out._add(word, row)
        return out

    def _add(self, word: str, clues: Mapping[str, int]) -> None:
        """Add ``word``'s clues (merged with any it has, the greater strength kept)."""
        row = {**self.row(word)}
        for clue, strength in clues.items():
            row[clue] = max(row.get(clue, 0), strength)
        self._packed[word] = (" ".join(row), bytes(row.values()))

    def row(self, word: str) -> dict[str, int]:
        """``{clue key: strength}`` of one board word key (empty if the table lacks it)."""
        packed = self._packed.get(word)
        return dict(zip(packed[0].split(" "), packed[1])) if packed else {}

    @property
    def words(self) -> frozenset[str]:
        """The board word keys the table covers."""
        return frozenset(self._packed)

    def __len__(self) -> int:
        return sum(len(strengths) for _, strengths in self._packed.values())

    def strengths(self, clue: str, words: Sequence[str]) -> np.ndarray:
        """(words,) int8: how readily ``clue`` calls up each board word (0: not in the table)."""
        clue = word_key(clue)
        return np.array([self.row(word_key(w)).get(clue, 0) for w in words], np.int8)

    def board(self, words: Sequence[str], index: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every pair of a clue in ``index`` (clue key -> row) with a board word: the clues'
        rows, the words' columns and the strengths, each (pairs,)."""
        rows, cols, strength = [], [], []
        for j, w in enumerate(words):
            for clue, s in self.row(word_key(w)).items():
                i = index.get(clue)
                if i is not None:
                    rows.append(i)
                    cols.append(j)
                    strength.append(s)
        return np.array(rows, np.int64), np.array(cols, np.int64), np.array(strength, np.int8)

    def state(self) -> dict[str, list[str]]:
        """The packed table as JSON can hold it (:meth:`from_state` reads it back)."""
        return {w: [clues, strengths.decode("latin-1")] for w, (clues, strengths) in self._packed.items()}

    @classmethod
    def from_state(cls, state: Mapping[str, Sequence[str]]) -> Associations:
        out = cls()
        out._packed = {w: (clues, strengths.encode("latin-1")) for w, (clues, strengths) in state.items()}
        return out


@cache
def default_associations() -> Associations:
    """The shipped table (parsed; the bots read it back packed from the user's cache:
    :func:`duetbot.bots.factory.shipped_associations`)."""
    return Associations.from_text(TABLE.read_text(encoding="utf-8"), "duetbot/data/associations.tsv")
