"""Word keys: the one way two spellings of a word are found to be the same word, and the
one way an entry is spelled for show.

>>> word_key("  Loch  NESS ")
'loch ness'
>>> word_key("Café", accents=False)
'cafe'
>>> spelling("  Loch  NESS ")
'Loch NESS'
"""

from __future__ import annotations

import unicodedata

__all__ = ["fold_accents", "spelling", "word_key"]


def spelling(text: str) -> str:
    """``text`` as a board, a word pool or a prompt shows it: stripped, inner whitespace
    collapsed to one space, case and accents kept. Two spellings are one word when their
    :func:`word_key` is the same."""
    return " ".join(text.split())


def word_key(text: str, *, accents: bool = True) -> str:
    """``text`` with inner whitespace collapsed and case folded: how a board, a key card, a
    word pool and an embedding table key their entries. ``accents=False`` folds accents too
    (:func:`fold_accents`), for comparisons where "CAFÉ" is "cafe"."""
    key = spelling(text).casefold()
    return key if accents else fold_accents(key)


def fold_accents(text: str) -> str:
    """``text`` without combining accents: ``"piñata crème brûlée"`` -> ``"pinata creme brulee"``.

    Called on its own where the text is already a key (a normalised clue, a table entry)
    and the check is on a hot path: an ASCII text comes back as it is.

    >>> fold_accents("piñata crème brûlée")
    'pinata creme brulee'
    """
    if text.isascii():
        return text
    stripped = "".join(ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFC", stripped) or text
