"""Does the bot know a clue word? A typo (``oceon``) or nonsense (``xkcdqq``) would be read by
the guesser's fallback as noise and spend the turn, so the faces ask first (:func:`unknown_clue`)
and offer the closest word the bot does know.

A word is known when some family of the guesser reads it from its own table (a fallback that
embeds any string does not count). The suggestion is the most frequent word spelled most like
it, so ``oceon`` gets OCEAN, not the rarer ODEON.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

__all__ = ["UnknownClue", "unknown_clue"]

CUTOFF = 0.75
"""Least difflib ratio of a suggestion (``oceon``/``ocean`` is 0.8; unrelated words score below
0.5): difflib's usual close-match cutoff, which lets one slip of a five-letter word through."""


@dataclass(frozen=True)
class UnknownClue:
    """A clue word the bot does not know, and the closest word it does (or ``None``)."""

    word: str
    suggestion: str | None

    def __str__(self) -> str:
        """``OCEON: not a word I know. Did you mean OCEAN?``"""
        said = f"{self.word.upper()}: not a word I know."
        return said + (f" Did you mean {self.suggestion.upper()}?" if self.suggestion else "")


def _closest(models: Any, word: str) -> str | None:
    best: tuple[float, int, str] | None = None
    for m in models:
        index = getattr(m, "_index", None)  # word -> row: tables list the most frequent words first
        for hit in m.suggestions(word, n=8):
            if "_" in hit or not hit.isalpha():
                continue
            ratio = round(difflib.SequenceMatcher(None, word, hit).ratio(), 2)
            if ratio < CUTOFF:
                continue
            rank = index.get(hit, len(m.words)) if isinstance(index, dict) else m.words.index(hit)
            key = (ratio, -rank, hit)
            if best is None or key[:2] > best[:2]:
                best = key
    return best[2] if best else None


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
    if ensemble is None or ensemble.reads(word):
        return None
    own = [m for m in ensemble.models if hasattr(m, "suggestions") and hasattr(m, "words")]
    return UnknownClue(word, _closest(own[:2], word.lower()))
