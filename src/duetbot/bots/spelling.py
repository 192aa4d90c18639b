"""Does the bot know a word? A typo (``oceon``) or nonsense (``xkcdqq``) would be read by the
guesser's fallback as noise and spend the turn, so the faces ask first (:func:`unknown_clue`,
:func:`unknown_word`) and offer the word the person most likely meant.

A word is known when some family of the guesser reads it from its own table (a fallback that
embeds any string does not count). The suggestion is the word with the cheapest typing slip
(:func:`slip_cost`) once frequency is counted (:data:`FREQUENCY_WEIGHT`): ``oceon`` gets OCEAN,
not the rarer ODEON; ``polise`` POLICE, not POISE (a sound-alike letter beats a dropped one);
``heell`` HEEL, not HELL (a doubled key beats a doubled vowel, which changes the sound).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["UnknownClue", "closest_word", "slip_cost", "unknown_clue", "unknown_word"]

CLUE_MAX_COST = 2.0
"""Dearest slip suggested for a clue word: two plain slips (a missing letter and a wrong key);
the candidates are already within difflib's close-match cutoff of the typed word."""
BOARD_MAX_COST = 0.75
"""Dearest slip suggested for a board word: one cheap slip (a swap, a doubled key, a sound-alike
or neighbouring key). A card no model knows is more often a real card (TIPI, MUSKETEER) than a
typo, so only a near-certain typo (HOSPTIAL) gets a suggestion."""
FREQUENCY_WEIGHT = 0.3
"""Slip cost per tenfold drop in a word's frequency (its rank in the family's table, which lists
the most frequent words first): a word ten times rarer must be 0.3 of a slip closer. Chosen on
tests/test_spelling.py's list of common typos: 0.2 lets ODEON beat OCEAN, 0.5 lets frequent
words two slips away beat the word one slip away (e.g. ``wtaer`` -> WATER, not LATER)."""

_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_KEYS = {ch: (r, c + 0.3 * r) for r, row in enumerate(_ROWS) for c, ch in enumerate(row)}
_SOUND_ALIKE = {frozenset(p) for p in ("cs", "ck", "sz", "iy", "gj", "kq", "fv")}
_VOWELS = frozenset("aeiou")
FIRST_LETTER = 0.5
"""Extra cost of a slip at the first letter, which people rarely get wrong (chese is CHEESE,
not THESE)."""


def _substitution(a: str, b: str) -> float:
    """What typing ``a`` for ``b`` costs: a sound-alike letter 0.4, a neighbouring key 0.5, one
    vowel for another 0.6 (unstressed vowels sound alike), anything else 1."""
    if a == b:
        return 0.0
    if frozenset((a, b)) in _SOUND_ALIKE:
        return 0.4
    if a in _KEYS and b in _KEYS:
        (ra, ca), (rb, cb) = _KEYS[a], _KEYS[b]
        if abs(ra - rb) <= 1 and abs(ca - cb) <= 1:
            return 0.5
    if a in _VOWELS and b in _VOWELS:
        return 0.6
    return 1.0


def _doubled(word: str, i: int) -> bool:
    return (i > 0 and word[i - 1] == word[i]) or (i + 1 < len(word) and word[i + 1] == word[i])


def _extra(typed: str, i: int) -> float:
    """What an extra ``typed[i]`` costs: a doubled key 0.5, another letter 1; a doubled vowel
    0.5 more, as it changes how the word sounds (heell reads as heel, not hell)."""
    if not _doubled(typed, i):
        return 1.0
    return 1.0 if typed[i] in _VOWELS else 0.5


def _missing(word: str, j: int) -> float:
    """What leaving out ``word[j]`` costs: one of a double letter 0.5 (umbrela), another 1."""
    return 0.5 if _doubled(word, j) else 1.0


def slip_cost(typed: str, word: str) -> float:
    """How costly a typing slip turns ``word`` into ``typed``: a weighted edit distance with
    swapped neighbours (0.5), keyboard neighbours and sound-alike letters, doubled keys, a
    dearer first letter.

    >>> slip_cost("hosptial", "hospital"), slip_cost("heell", "heel"), slip_cost("heell", "hell")
    (0.5, 0.5, 1.0)
    >>> slip_cost("polise", "police") < slip_cost("polise", "poise")
    True
    """
    n, m = len(typed), len(word)
    d = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        d[i][0] = d[i - 1][0] + _extra(typed, i - 1) + (FIRST_LETTER if i == 1 else 0.0)
    for j in range(1, m + 1):
        d[0][j] = d[0][j - 1] + _missing(word, j - 1) + (FIRST_LETTER if j == 1 else 0.0)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            first = FIRST_LETTER if i == 1 or j == 1 else 0.0
            best = min(d[i - 1][j] + _extra(typed, i - 1) + first, d[i][j - 1] + _missing(word, j - 1) + first,
                       d[i - 1][j - 1] + _substitution(typed[i - 1], word[j - 1]) * (1.0 + (i == j == 1)))
            if i > 1 and j > 1 and typed[i - 1] == word[j - 2] and typed[i - 2] == word[j - 1]:
                best = min(best, d[i - 2][j - 2] + 0.5)
            d[i][j] = best
    return round(d[n][m], 6)


@dataclass(frozen=True)
class UnknownClue:
    """A word the bot does not know, and the word the person most likely meant (or ``None``)."""

    word: str
    suggestion: str | None

    def __str__(self) -> str:
        """``OCEON: not a word I know. Did you mean OCEAN?``"""
        said = f"{self.word.upper()}: not a word I know."
        return said + (f" Did you mean {self.suggestion.upper()}?" if self.suggestion else "")


@lru_cache(maxsize=4096)
def closest_word(ensemble: Any, word: str, max_cost: float = CLUE_MAX_COST) -> str | None:
    """The word of ``ensemble``'s first two tables the person most likely meant by ``word``
    (lowercase), or ``None`` when no word is within ``max_cost`` of a slip. Only letters are
    looked up (the suggestions are plain words; a search takes a few hundredths of a second,
    so each answer is kept: a server meets the same board words again and again)."""
    typed = word.lower()
    if not typed.isalpha():
        return None
    best: tuple[float, str] | None = None
    for m in [m for m in ensemble.models if hasattr(m, "suggestions") and hasattr(m, "words")][:2]:
        index = getattr(m, "_index", None)  # word -> row: tables list the most frequent words first
        for hit in m.suggestions(typed, n=12):
            if "_" in hit or not hit.isalpha():
                continue
            cost = slip_cost(typed, hit)
            if cost > max_cost:
                continue
            rank = index.get(hit, len(m.words)) if isinstance(index, dict) else m.words.index(hit)
            score = (cost + FREQUENCY_WEIGHT * math.log10(rank + 1), hit)
            if best is None or score < best:
                best = score
    return best[1] if best else None


def unknown_word(ensemble: Any, word: str, max_cost: float = CLUE_MAX_COST) -> UnknownClue | None:
    """``None`` when some family of ``ensemble`` (a guesser's) reads ``word`` from its own
    table; else the word and what the person most likely meant."""
    if ensemble.reads(word):
        return None
    return UnknownClue(word, closest_word(ensemble, word, max_cost))


def unknown_clue(bot: Any, word: str) -> UnknownClue | None:
    """``None`` when ``bot`` (a :class:`~duetbot.bots.Partner`) knows the clue word ``word``
    (as normalised by the rules) or has no vocabulary to ask; else what to tell the person.

    >>> from duetbot.bots.factory import default_bots
    >>> from duetbot.bots import Partner
    >>> bot = Partner(*default_bots())
    >>> unknown_clue(bot, "ocean") is None
    True
    >>> str(unknown_clue(bot, "oceon"))
    'OCEON: not a word I know. Did you mean OCEAN?'
    """
    ensemble = getattr(getattr(bot, "guesser", None), "ensemble", None)
    return None if ensemble is None else unknown_word(ensemble, word)
