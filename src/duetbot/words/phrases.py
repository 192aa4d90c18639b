"""Two-word phrases a clue and a board word make (POLICE -> STATION, GAS -> LAMP): package data
(``duetbot/data/phrases.txt``, built from WordNet by ``python -m duetbot.build.phrases``), read
once on first use.

>>> in_phrase("police", "STATION"), in_phrase("station", "police"), in_phrase("police", "lamp")
(True, True, False)
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Sequence

from .keys import word_key

__all__ = ["in_phrase", "phrase_row", "phrases"]


@cache
def phrases() -> frozenset[tuple[str, str]]:
    """Every phrase as a (first, second) pair of word keys."""
    text = resources.files("duetbot").joinpath("data/phrases.txt").read_text(encoding="utf-8")
    out = set()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            a, _, b = line.partition(" ")
            out.add((a, b))
    return frozenset(out)


def in_phrase(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` make a two-word phrase, in either order."""
    return phrase_row(a, (b,))[0]


def phrase_row(a: str, words: Sequence[str]) -> list[bool]:
    """:func:`in_phrase` of ``a`` with each of ``words`` (``a``'s key worked out once)."""
    ka, table = word_key(a), phrases()
    out = []
    for w in words:
        kb = word_key(w)
        out.append((ka, kb) in table or (kb, ka) in table)
    return out
