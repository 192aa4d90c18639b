"""The rule book's clue check for Codenames: Duet (classic Codenames uses it too).

Whether a one-word clue may be given while a set of words is visible on the grid: a clue is
a single word (:func:`normalize_clue`), not a visible word, not a form of one, not a
component of a visible compound and not a compound containing one. The forms and compounds
come from :mod:`duetbot.words.morphology`; docs/architecture.md ("Clue words") gives the
rules with the rule book's examples. Which words are visible is the caller's business, in
any case, entries may hold spaces. People are judged by this check; the bots hold their own
clues to a stricter one (:mod:`duetbot.bots.strict_clues`).

>>> check_clue("Quake", ["EARTHQUAKE", "PIANO"])
Traceback (most recent call last):
...
duetbot.rules.clues.IllegalClueError: illegal clue 'quake': clashes with visible word 'EARTHQUAKE': it is a component of that compound word
>>> check_clue("hearth", ["EARTHQUAKE", "PIANO"])
'hearth'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from ..words.keys import fold_accents
from ..words.morphology import (
    CACHE_SIZE,
    MIN_PIECE,
    Prefilter,
    board_stems,
    components,
    form_link,
    linking_forms,
    piece_info,
    raw_stems,
    splits,
)

__all__ = [
    "InvalidClueError",
    "IllegalClueError",
    "BoardWord",
    "board_entry",
    "normalize_clue",
    "normalized_or_empty",
    "check_clue",
    "clue_conflict",
    "is_legal_clue",
    "illegal_clues",
    "show",
]

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class InvalidClueError(ValueError):
    """The clue is malformed: empty, several words, punctuation, ...

    ``.clue`` is the text as given and ``.reason`` says which rule it
    breaks.  The message is one line.
    """

    def __init__(self, clue: object, reason: str) -> None:
        self.clue = clue
        self.reason = reason
        super().__init__(f"invalid clue {show(clue)}: {reason}")


class IllegalClueError(ValueError):
    """The clue is well formed but not allowed on this board.

    ``.clue`` is the normalised clue, ``.board_word`` the visible word it
    clashes with (as given) and ``.reason`` why.  The message is one line.
    """

    def __init__(self, clue: str, board_word: str, reason: str) -> None:
        self.clue = clue
        self.board_word = board_word
        self.reason = reason
        super().__init__(
            f"illegal clue {show(clue)}: clashes with visible word "
            f"{show(board_word)}: {reason}"
        )


def show(text: object, limit: int = 60) -> str:
    """repr() of *text*, shortened, always one line."""
    r = repr(text)
    if len(r) > limit:
        r = r[: limit - 4] + "...'"
    return r


# ---------------------------------------------------------------------------
# Normalisation / well-formedness
# ---------------------------------------------------------------------------

_APOSTROPHES: Final = frozenset("'\u2019\u2018\u02bc\uff07`\u00b4")


def _char_problem(ch: str) -> str | None:
    """Why *ch* may not appear inside a clue, or None if it may."""
    cat = unicodedata.category(ch)
    if cat[0] in "LM" or cat == "Nd":
        return None
    if ch.isspace() or cat in ("Zs", "Zl", "Zp"):
        return "it is more than one word (contains whitespace); a clue must be a single word"
    if cat == "Pd" or ch in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d":
        return "it is hyphenated; hyphenated compounds break the single-word rule"
    if ch in _APOSTROPHES:
        return (
            "it contains an apostrophe; contractions are two words and "
            "possessives are forms, so clues are plain letters and digits"
        )
    return (
        f"it contains the character {ch!r} (U+{ord(ch):04X}); a clue is a single "
        "word of letters and/or digits"
    )


def normalize_clue(text: str) -> str:
    """Return the canonical form of a clue: NFC, stripped, case-folded.

    Raises :class:`InvalidClueError` unless the result is a single token of
    Unicode letters (plus combining marks) and decimal digits.
    """
    if not isinstance(text, str):
        raise InvalidClueError(text, f"a clue must be text, not {type(text).__name__}")
    if text.isascii():
        s = text.strip().lower()  # casefold() == lower() on ASCII
        if s.isalnum():  # ASCII letters and digits only
            return s
    else:
        s = unicodedata.normalize("NFC", text).strip()
        s = unicodedata.normalize("NFC", s.casefold())
        if (
            s
            and unicodedata.category(s[0])[0] != "M"
            and all(_char_problem(ch) is None for ch in s)
        ):
            return s
    if not s:
        raise InvalidClueError(text, "it is empty; a clue must be a single word")
    # Report the first offending character; whitespace first, since "two
    # words" is the most useful message for "guinea pig".
    for ch in s:
        if ch.isspace():
            raise InvalidClueError(text, _char_problem(ch) or "")
    for ch in s:
        problem = _char_problem(ch)
        if problem is not None:
            raise InvalidClueError(text, problem)
    raise InvalidClueError(text, "it starts with a combining mark, not a letter or digit")


def _normalize_board_word(word: str) -> tuple[str, tuple[str, ...]]:
    """(closed form, words) of a board entry, as match keys.

    "Ice Cream" -> ("icecream", ("ice", "cream")); "CAFÉ" -> ("cafe", ("cafe",)).
    """
    s = unicodedata.normalize("NFC", str(word)).casefold()
    s = unicodedata.normalize("NFC", s)
    words: list[str] = []
    cur: list[str] = []
    for ch in s:
        cat = unicodedata.category(ch)
        if cat[0] in "LM" or cat == "Nd":
            cur.append(ch)
        elif ch in _APOSTROPHES:
            continue  # "JACK O'LANTERN" -> "jack", "olantern"
        elif cur:
            words.append("".join(cur))
            cur = []
    if cur:
        words.append("".join(cur))
    words = [fold_accents(w) for w in words]
    return "".join(words), tuple(words)


# ---------------------------------------------------------------------------
# Board words
# ---------------------------------------------------------------------------


class BoardWord:
    """Everything about one board entry that the clash tests need."""

    __slots__ = ("given", "closed", "words", "multi", "parts", "visible")

    def __init__(self, given: str) -> None:
        self.given = given
        closed, words = _normalize_board_word(given)
        self.closed = closed
        self.words = words
        self.multi = len(words) > 1
        # Components: every word of a multi-word entry (any length) and the
        # compound parts of the closed form and of each word.
        parts: list[str] = list(words) if self.multi else []
        for w in dict.fromkeys((closed, *words)):
            if w:
                parts.extend(components(w))
        self.parts = tuple(p for p in dict.fromkeys(parts) if p != closed)
        # Words that count as visible when the clue is a compound: the entry
        # and, for a multi-word entry, each of its words.
        self.visible = tuple(dict.fromkeys((closed, *words))) if closed else ()

    def _kind(self) -> str:
        return "multi-word entry" if self.multi else "compound word"

    def _what(self, v: str) -> str:
        return "that word" if v == self.closed else f"{v!r}, a word of that entry"

    def conflict(self, clue: str) -> str | None:
        if not self.closed:
            return None
        clue = fold_accents(clue)
        if clue == self.closed:
            return "it is that visible word"
        if clue in self.parts:
            return f"it is a component of that {self._kind()}"
        # A form of the entry itself, or of one of its components (for a
        # multi-word entry the words come first: "lochs" is a form of "loch").
        for p in (*self.parts, self.closed) if self.multi else (self.closed, *self.parts):
            link = form_link(clue, p)
            if link is None:
                continue
            if p == self.closed:
                return f"it is a form of that word (shared stem {link!r})"
            return (
                f"it is a form of {p!r} (shared stem {link!r}), "
                f"a component of that {self._kind()}"
            )
        for head, tail in splits(clue):
            for v in self.visible:
                if v == tail or head in linking_forms(v):
                    return (
                        f"it is a compound containing {self._what(v)} ({head} + {tail})"
                    )
                link = form_link(tail, v)
                if link is not None:
                    return (
                        f"it is a compound ({head} + {tail}) ending in a form of "
                        f"{self._what(v)} (shared stem {link!r})"
                    )
        return None


def board_entry(given: str) -> BoardWord:
    """The analysis of one board entry, memoised."""
    if not isinstance(given, str):
        raise TypeError(f"board words must be str, not {type(given).__name__}")
    return _board_word(given)


@lru_cache(maxsize=CACHE_SIZE)
def _board_word(given: str) -> BoardWord:
    return BoardWord(given)


def clue_conflict(clue: str, board_word: str) -> str | None:
    """Why the clue clashes with one visible board word, or None.

    *clue* should be the output of :func:`normalize_clue`; here it is only
    NFC-normalised, stripped and case-folded, not validated.  *board_word*
    may be in any case and may contain spaces ("ICE CREAM").
    """
    c = unicodedata.normalize("NFC", clue.strip().casefold())
    if not c:
        return None
    return board_entry(board_word).conflict(c)


def check_clue(word: str, visible: Iterable[str]) -> str:
    """Return the normalised clue, or raise why it may not be given.

    Raises :class:`InvalidClueError` for a malformed clue and
    :class:`IllegalClueError` (naming the first visible word, in the given
    order, that it clashes with) for a clue that breaks the visible-word
    rules.
    """
    clue = normalize_clue(word)
    for b in visible:
        reason = board_entry(b).conflict(clue)
        if reason is not None:
            raise IllegalClueError(clue, b, reason)
    return clue


def is_legal_clue(word: str, visible: Iterable[str]) -> bool:
    """True when :func:`check_clue` would accept *word*."""
    try:
        check_clue(word, visible)
    except (InvalidClueError, IllegalClueError):
        return False
    return True


def normalized_or_empty(text: object) -> str:
    """normalize_clue(text), or "" if it is malformed; memoised."""
    try:
        return _normalized_or_empty(text)
    except TypeError:  # unhashable: not a clue anyway
        return ""


@lru_cache(maxsize=CACHE_SIZE)
def _normalized_or_empty(text: object) -> str:
    try:
        return normalize_clue(text) if isinstance(text, str) else ""
    except InvalidClueError:
        return ""


class _BoardIndex:
    """What a whole board forbids, for checking many clues at once.

    ``clashes(c)`` is true exactly when some board word's
    :meth:`BoardWord.conflict` is not None:

    * ``keys``: board stems of every board word and of each of its
      components ("is", "is a form of", "is a component" tests);
    * ``heads``: visible words and their linking forms, against the heads
      of the clue's compound splits;
    * ``tails``: board stems of the visible words, against the raw stems of
      the tails of the clue's compound splits.

    The raw stems of a clue are only computed when :class:`Prefilter`
    says they might meet ``keys``.
    """

    __slots__ = ("keys", "heads", "tails", "prefilter")

    def __init__(self, board: Iterable[str]) -> None:
        keys: set[str] = set()
        heads: set[str] = set()
        tails: set[str] = set()
        for b in board:
            bw = board_entry(b)
            if not bw.closed:
                continue
            for x in (bw.closed, *bw.parts):
                keys |= board_stems(x)
            for v in bw.visible:
                heads.update(linking_forms(v))
                tails |= board_stems(v)
        self.keys = frozenset(keys)
        self.heads = frozenset(heads)
        self.tails = frozenset(tails)
        self.prefilter = Prefilter(self.keys)

    def clashes(self, clue: str) -> bool:
        clue = fold_accents(clue)
        if self.prefilter.may_reach(clue) and not raw_stems(clue).isdisjoint(self.keys):
            return True
        if len(clue) < 2 * MIN_PIECE:
            return False
        heads, tail_stems = piece_info(clue)
        return not (heads.isdisjoint(self.heads) and tail_stems.isdisjoint(self.tails))


def illegal_clues(candidates: Iterable[str], board_words: Iterable[str]) -> set[str]:
    """The candidates (as given) that :func:`check_clue` would reject.

    Malformed candidates are included.  Meant for masking a whole clue
    vocabulary once per board: each candidate costs a few set operations,
    and every per-word analysis is memoised across calls, so later boards
    only pay for the set operations.
    """
    index = _BoardIndex(board_words)
    clashes = index.clashes
    out: set[str] = set()
    for cand in candidates:
        # Inline fast path of normalize_clue for plain ASCII words.
        clue = cand.strip().lower() if type(cand) is str and cand.isascii() else ""
        if not clue.isalnum():
            clue = normalized_or_empty(cand)
        if not clue or clashes(clue):
            out.add(cand)
    return out
