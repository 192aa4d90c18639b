"""What every view shares, Duet or classic: lookups over the board and the clue history."""

from __future__ import annotations

from typing import Any

from ..rules.base import Turn
from ..rules.keycard import find_word


class BoardLookups:
    """Lookups shared by every view, Duet or classic: needs ``words``, ``covered`` (positions)
    and ``turns`` (each with a ``giver``)."""

    words: tuple[str, ...]
    covered: Any
    turns: tuple[Turn[Any], ...]

    @property
    def visible(self) -> tuple[int, ...]:
        """Indices still in play (not covered)."""
        return tuple(i for i in range(len(self.words)) if i not in self.covered)

    def index(self, word: str) -> int:
        i = find_word(self.words, word)
        if i is None:
            raise ValueError(f"{word!r} is not on the board")
        return i

    def clues_given_by(self, giver: Any) -> tuple[Turn[Any], ...]:
        return tuple(t for t in self.turns if t.giver == giver)
