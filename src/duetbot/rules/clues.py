"""Clue legality for Codenames: Duet.

This module decides whether a one-word clue may be given while a set of
words is visible on the 5x5 grid.  It is pure Python (standard library
only).  The only thing it reads is its own static package data: the word
lists in ``duetbot/data/lexicon/`` (``words.txt``, ``irregular.txt``,
``blocked.txt``), read once through :mod:`importlib.resources` on first
use and rebuilt reproducibly by ``scripts/build_morphology.py`` (from
wordfreq and lemminflect, which are *not* runtime dependencies).

Rules implemented (quoted from the rule book)
---------------------------------------------
* "The clue word itself cannot be any of the words visible in the 5x5 grid.
  Furthermore, you cannot use a form of a visible word as your clue."
* "If "HIDE" is visible, "hid," "hidden," or "rawhide" are not permissible.
  However, "hideous" would be acceptable."
* "Components of compound words visible on the grid cannot be used as
  intelligence. If "EARTHQUAKE" is visible, "earth," "quake," "earthy," or
  "quaking" are invalid. However, "hearth" and "ear" would be acceptable."
* The single-word constraint: multi-word and hyphenated clues ("guinea
  pig", "moth-eaten") are malformed; single-word proper nouns
  ("Michelangelo"), single letters ("B") and numbers ("7") are fine.

Which words are visible is the caller's business: every function here is
given the visible words (in any case; entries may hold spaces).

Well-formedness (:func:`normalize_clue`)
----------------------------------------
The text is NFC-normalised, stripped and case-folded.  What remains must
be one token made only of Unicode letters (with their combining marks)
and decimal digits: ``"café"``, ``"michelangelo"``, ``"b"``, ``"7"`` and
``"mp3"`` are fine.  Anything else raises :class:`InvalidClueError`:
empty text, inner whitespace (more than one word), hyphens and dashes
(hyphenated compounds), apostrophes, any other punctuation or symbol.
Apostrophes are rejected on purpose: a contraction ("don't") is two words
and a possessive ("earth's") is a form of its noun, so no legal clue
needs one.  Acronyms such as "IRS" break the single-word rule too but
cannot be told from words by their spelling; they are not detected here
(a clue vocabulary should not contain them).  Comparisons ignore accents
("cafe" clashes with "CAFÉ").

Forms ("a form of a visible word")
----------------------------------
Two words are forms of each other when they share a *stem*.  The stems of
a word are the word itself plus what at most two analysis *steps* reach:

* S, a suffix rule (:func:`regular_bases`): the inflections -s, -es, -ed,
  -ing, -est, and the close derivations -y (earthy), -ly, -er (runner,
  baker, comparatives), -ness, -less, -ful, -ment, -able; each with the
  spelling rules e-drop (quaking -> quake), consonant doubling
  (running -> run, sunny -> sun), y -> i (cities -> city) and
  ie -> y (dying -> die).  Suffixes such as -ous, -ish, -age, -ist, -ity
  are deliberately *not* analysed, so "hideous" stays legal;
* I, an irregular lemma from the generated table (mice -> mouse,
  ran -> run, hid/hidden -> hide, went -> go, saw -> see);
* P, a prefix strip (re-, un-, dis-, mis-, pre-, non-) leaving a lexicon
  word of >= 3 letters (rerun -> run, unlock -> lock).

A second step starts only from a lexicon word, and never takes an
irregular lemma after a suffix rule (else "liter" -> lit -> light).  For
words lemminflect knows, the inflectional analysis matches lemminflect:
the generated table blocks the regular analyses it rejects ("news" is no
form of "new", "seed" none of "see").  The derivational rules are
heuristics and over-generate a little ("corner" ~ corn, "carry" ~ car):
that errs on the safe side, as it can only forbid a clue.

A clue ``c`` is a form of a board word ``b`` when ``raw_stems(c)`` (all
bases, validated or not) meets the stems of ``b``: :func:`stems` (the
lexicon words among them) when ``b`` is in the lexicon, all of
:func:`raw_stems` otherwise (so "lochs" is a form of an off-lexicon
"LOCH").

Compounds ("components of compound words")
------------------------------------------
A word is a compound when it splits in two, both parts of at least three
letters, the first a lexicon word and the second a lexicon word or an
inflection of one (:func:`components`): "earthquake" -> earth + quake,
"rawhides" -> raw + hides; "hearth" has no split (hear + th: too short),
nor has "hideous" ("ous" is no word).  Every possible split counts.  A
board entry of several words ("ICE CREAM", "LOCH NESS") has each word as
a component whatever its length, and its closed form ("icecream") is the
visible word itself.  The clash is tested both ways:

* the clue is a component of a board word, or a form of one
  (EARTHQUAKE: earth, quake, earthy, quaking);
* the clue is a compound containing a visible word (HIDE: rawhide,
  hideaway).  The second part may be any form of the visible word
  (rawhides, outran for RUN); the first part must be the word itself or
  it plus a linking -s/-es (sportsman for SPORT), which keeps
  "ranking" (ran + king) legal while RUN is visible.  For a multi-word
  entry each of its words counts as visible ("iceberg" is illegal while
  "ICE CREAM" is); a one-word compound's parts do not (EARTHQUAKE leaves
  "earthworm" legal).

Case never matters anywhere.

The strict check (the bots' own clues)
--------------------------------------
People are judged by the rule book (:func:`check_clue`, :func:`is_legal_clue`,
:func:`illegal_clues`).  A bot's clue must be beyond dispute, so the bots hold
themselves to :func:`strict_conflict` / :func:`strict_illegal_clues` /
:func:`strict_illegal_by_word`: every rule-book clash, plus

* a clue that contains a visible word, or is contained in one, as a substring
  of 3 or more letters (letters only, case and accents ignored; for a
  multi-word entry each word and the joined form): "officers" with ICE,
  "cola" with CHOCOLATE, "doctoral" with DOCTOR, "novelist" with NOVEL,
  "tonight" with NIGHT, "biomass" with MASS, "mountains" with MOUNT;
* a derived form whose base changed its spelling, under suffixes the rule
  book does not analyse (-al, -ous, -ist, -ity, -ion, ...; base of 4+
  letters): "tribal" with TRIBE, "glorious" with GLORY, "detected" with
  DETECTIVE;
* a compound sharing a part (4+ letters) with a visible word, or whose part is
  a form of one: "earthworm" with EARTHQUAKE, "runaway" with RUNNING.

Performance
-----------
Per-word analyses are pure and memoised (bounded caches).
:func:`illegal_clues` builds, once per board, the set of stems the board
forbids, then tests each candidate with a couple of set operations; a
prefilter (:class:`_Prefilter`) proves most candidates unrelated without
analysing them.  50,000 candidates against 25 board words take about
0.2 s on the first call and about 0.05 s on later boards.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar

__all__ = [
    "InvalidClueError",
    "IllegalClueError",
    "normalize_clue",
    "check_clue",
    "clue_conflict",
    "is_legal_clue",
    "illegal_clues",
    "strict_conflict",
    "is_strictly_legal_clue",
    "strict_illegal_clues",
    "strict_illegal_by_word",
    "StrictIndex",
    "stems",
    "raw_stems",
    "components",
    "regular_bases",
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
        super().__init__(f"invalid clue {_show(clue)}: {reason}")


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
            f"illegal clue {_show(clue)}: clashes with visible word "
            f"{_show(board_word)}: {reason}"
        )


def _show(text: object, limit: int = 60) -> str:
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


def _match_key(word: str) -> str:
    """*word* with accents removed, for comparisons only ("café" matches "CAFE")."""
    if word.isascii():
        return word
    stripped = "".join(
        ch for ch in unicodedata.normalize("NFD", word) if unicodedata.category(ch) != "Mn"
    )
    return unicodedata.normalize("NFC", stripped) or word


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
    words = [_match_key(w) for w in words]
    return "".join(words), tuple(words)


# ---------------------------------------------------------------------------
# Word data (generated package data, read lazily)
# ---------------------------------------------------------------------------

_WORDS: frozenset[str] | None = None
_IRREGULAR: dict[str, tuple[str, ...]] | None = None
_BLOCKED: dict[str, frozenset[str]] | None = None
_MIN_PIECE: Final = 3  # shortest compound component (single-word compounds)


LEXICON_DIR: Final = "data/lexicon"  # inside the duetbot package


def _data_lines(name: str) -> list[str]:
    """The entries of one lexicon file: one per line, ``#`` header lines skipped."""
    from importlib import resources

    text = resources.files("duetbot").joinpath(f"{LEXICON_DIR}/{name}").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def _load() -> None:
    global _WORDS, _IRREGULAR, _BLOCKED
    if _WORDS is not None:
        return
    words = frozenset(_data_lines("words.txt"))
    irregular: dict[str, tuple[str, ...]] = {}
    for entry in _data_lines("irregular.txt"):
        form, _, lemmas = entry.partition(":")
        irregular[form] = tuple(lemmas.split(","))
    blocked: dict[str, frozenset[str]] = {}
    for entry in _data_lines("blocked.txt"):
        form, _, bases = entry.partition(":")
        blocked[form] = frozenset(bases.split(","))
    _IRREGULAR = irregular
    _BLOCKED = blocked
    _WORDS = words


def _words() -> frozenset[str]:
    if _WORDS is None:
        _load()
    assert _WORDS is not None
    return _WORDS


def english_words() -> frozenset[str]:
    """The English lexicon the clue check reads (``data/lexicon/words.txt``): common words
    with their inflections, lower case; names, places and non-words are not in it."""
    return _words()


def _irregular() -> dict[str, tuple[str, ...]]:
    if _IRREGULAR is None:
        _load()
    assert _IRREGULAR is not None
    return _IRREGULAR


# ---------------------------------------------------------------------------
# Morphology
# ---------------------------------------------------------------------------

_VOWELS: Final = frozenset("aeiou")

# Suffix rules as (suffix, kind).  "infl" analyses are checked against
# lemminflect for the words it knows (see data/lexicon/blocked.txt); "deriv"
# ones are heuristics.  Suffixes starting with a vowel (or y) also get the
# e-restoration, undoubling and ie->y variants.
_SUFFIXES: Final[tuple[tuple[str, str], ...]] = (
    ("s", "infl"),
    ("es", "infl"),
    ("ed", "infl"),
    ("ing", "infl"),
    ("est", "infl"),
    ("er", "deriv"),
    ("y", "deriv"),
    ("ly", "deriv"),
    ("ally", "deriv"),
    ("ness", "deriv"),
    ("less", "deriv"),
    ("ful", "deriv"),
    ("ment", "deriv"),
    ("able", "deriv"),
)
# Dispatch on the last letter: (suffix, kind, starts with a vowel).
_BY_LAST: Final[dict[str, tuple[tuple[str, str, bool], ...]]] = {}
for _suf, _kind in _SUFFIXES:
    _BY_LAST[_suf[-1]] = (*_BY_LAST.get(_suf[-1], ()), (_suf, _kind, _suf[0] in "aeiouy"))
del _suf, _kind

# Prefixes stripped when the rest is a lexicon word of >= 3 letters
# ("rerun" -> run, "unlock" -> lock).
_PREFIXES: Final = ("re", "un", "dis", "mis", "pre", "non")
_PREFIX_BY_FIRST: Final[dict[str, tuple[str, ...]]] = {}
for _p in _PREFIXES:
    _PREFIX_BY_FIRST[_p[0]] = (*_PREFIX_BY_FIRST.get(_p[0], ()), _p)
del _p


def regular_bases(word: str) -> list[tuple[str, str]]:
    """Candidate bases of *word* under the suffix rules, unvalidated.

    Returns ``(base, kind)`` pairs, ``kind`` being ``"infl"`` or
    ``"deriv"``.  Many candidates are not words ("quak", "runn"); callers
    validate them against the lexicon where that matters.  Every base
    ``b`` satisfies: ``b[:-1]`` (``b[:-2]`` if ``b`` ends in "ie") is a
    prefix of *word*.  Exposed for scripts/build_morphology.py, which must
    use exactly these rules.
    """
    rules = _BY_LAST.get(word[-1:])
    if not rules:
        return []
    out: list[tuple[str, str]] = []
    n = len(word)
    for suf, kind, vowel in rules:
        k = len(suf)
        if n - k < 2 or not word.endswith(suf):
            continue
        b = word[:-k]
        last = b[-1]
        if suf == "s":
            if last == "s":
                continue  # "glass" is no plural; "glasses" goes through -es
        elif suf == "es":
            if not (last in "sxzoi" or b.endswith(("ch", "sh"))):
                continue  # "tones" is tone+s, not ton+es
        elif suf == "y":
            if last in _VOWELS or last == "y":
                continue  # "key", "toy" are not X+y
        elif suf == "ly" and b.endswith("b"):
            out.append((word[:-1] + "e", kind))  # probably -> probable
        out.append((b, kind))
        if last == "i":
            out.append((b[:-1] + "y", kind))  # cities, happily, carrier
        if vowel:
            out.append((b + "e", kind))  # quaking, baker, noisy, agreed
            if len(b) >= 3 and last == b[-2] and last not in _VOWELS:
                out.append((b[:-1], kind))  # running, sunny, biggest
            if suf == "ing" and last == "y":
                out.append((b[:-1] + "ie", kind))  # dying, lying
    return out


_SUFFIX_CACHE: dict[str, tuple[str, ...]] = {}
_STEP_CACHE: dict[str, tuple[str, ...]] = {}
_RAW_CACHE: dict[str, frozenset[str]] = {}
_STEM_CACHE: dict[str, frozenset[str]] = {}
_SPLIT_CACHE: dict[str, tuple[tuple[str, str], ...]] = {}
_INFO_CACHE: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
_CACHE_LIMIT: Final = 500_000


_K = TypeVar("_K")
_V = TypeVar("_V")


def _remember(cache: dict[_K, _V], key: _K, value: _V) -> _V:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _suffix_step(word: str) -> tuple[str, ...]:
    """Suffix-rule bases of *word* (unvalidated), minus lemminflect-rejected ones."""
    hit = _SUFFIX_CACHE.get(word)
    if hit is not None:
        return hit
    if _BLOCKED is None:
        _load()
    assert _BLOCKED is not None
    blocked = _BLOCKED.get(word, ())
    out: list[str] = []
    for base, kind in regular_bases(word):
        if base != word and base not in out and not (kind == "infl" and base in blocked):
            out.append(base)
    return _remember(_SUFFIX_CACHE, word, tuple(out))


def _prefix_step(word: str) -> tuple[str, ...]:
    """*word* minus a prefix from _PREFIXES, where the rest is a lexicon word."""
    prefixes = _PREFIX_BY_FIRST.get(word[:1])
    if prefixes is None:
        return ()
    words = _words()
    out = []
    for p in prefixes:
        if word.startswith(p):
            rest = word[len(p) :]
            if len(rest) >= _MIN_PIECE and rest in words:
                out.append(rest)
    return tuple(out)


def _step(word: str) -> tuple[str, ...]:
    """Bases of *word* after any one analysis step: suffix, irregular, prefix."""
    hit = _STEP_CACHE.get(word)
    if hit is not None:
        return hit
    out = list(_suffix_step(word))
    for b in (*_irregular().get(word, ()), *_prefix_step(word)):
        if b != word and b not in out:
            out.append(b)
    return _remember(_STEP_CACHE, word, tuple(out))


def raw_stems(word: str) -> frozenset[str]:
    """*word* plus every base reachable from it in at most two analysis steps.

    A step is a suffix rule (S), an irregular lemma (I) or a prefix strip
    (P).  The second step only starts from a lexicon word, and an
    irregular lemma is never taken after a suffix rule (that would make
    "liter" -> lit -> light).  Final suffix bases are not validated, so the
    result may hold non-words such as "quak".  *word* must be normalised.
    """
    hit = _RAW_CACHE.get(word)
    if hit is not None:
        return hit
    words = _words()
    out = {word}
    for b in _suffix_step(word):
        out.add(b)
        if b in words:
            out.update(_suffix_step(b))
            out.update(_prefix_step(b))
    for b in (*_irregular().get(word, ()), *_prefix_step(word)):
        out.add(b)
        if b in words:
            out.update(_step(b))
    return _remember(_RAW_CACHE, word, frozenset(out))


def stems(word: str) -> frozenset[str]:
    """*word* plus those of its :func:`raw_stems` that are lexicon words."""
    hit = _STEM_CACHE.get(word)
    if hit is not None:
        return hit
    words = _words()
    out = frozenset(s for s in raw_stems(word) if s == word or s in words)
    return _remember(_STEM_CACHE, word, out)


def _board_stems(word: str) -> frozenset[str]:
    """Stems of a board word: validated ones, or all raw ones for an
    off-lexicon word (so "lochs" clashes with "LOCH", which the lexicon lacks)."""
    return stems(word) if word in _words() else raw_stems(word)


def _is_tail(piece: str) -> bool:
    """May *piece* end a compound: a lexicon word or an inflection of one."""
    words = _words()
    if piece in words or piece in _irregular():
        return True
    return any(b in words for b, kind in regular_bases(piece) if kind == "infl")


def _splits(word: str) -> tuple[tuple[str, str], ...]:
    """Every split of *word* into a compound ``(head, tail)``.

    Both parts have at least three letters; the head is a lexicon word,
    the tail a lexicon word or an inflection of one ("rawhides" -> raw +
    hides, "hideaways" -> hide + aways).
    """
    hit = _SPLIT_CACHE.get(word)
    if hit is not None:
        return hit
    n = len(word)
    if n < 2 * _MIN_PIECE:
        return ()
    words = _words()
    out = [
        (word[:i], word[i:])
        for i in range(_MIN_PIECE, n - _MIN_PIECE + 1)
        if word[:i] in words and _is_tail(word[i:])
    ]
    return _remember(_SPLIT_CACHE, word, tuple(out))


def components(word: str) -> tuple[str, ...]:
    """Compound components of a normalised word, heads first.

    A compound is split in two, each part at least three letters long: a
    lexicon word followed by a lexicon word or an inflection of one.
    Every part of every such split is returned: "earthquake" -> ("earth",
    "quake"); "rawhides" -> ("raw", "hides"); "hearth" -> () since "th" is
    too short; "hideous" -> () since "ous" is no word.
    """
    splits = _splits(word)
    if not splits:
        return ()
    return tuple(dict.fromkeys([h for h, _ in splits] + [t for _, t in splits]))


def _form_link(x: str, y: str) -> str | None:
    """A stem shared by clue-side *x* and board-side *y*, else None.

    The relation: ``raw_stems(x) & _board_stems(y)`` is not empty.
    """
    common = raw_stems(x) & _board_stems(y)
    if not common:
        return None
    return min(common, key=lambda s: (s not in (x, y), -len(s), s))


def _linking_forms(v: str) -> tuple[str, ...]:
    """How a visible word may appear as the head of a compound: sportsman, salesman."""
    return (v, v + "s", v + "es")


def _piece_info(clue: str) -> tuple[frozenset[str], frozenset[str]]:
    """(compound heads, union of the raw stems of compound tails), memoised."""
    hit = _INFO_CACHE.get(clue)
    if hit is not None:
        return hit
    splits = _splits(clue)
    if not splits:
        return _NO_PIECES
    tail_stems: set[str] = set()
    for _, t in splits:
        tail_stems |= raw_stems(t)
    info = (frozenset(h for h, _ in splits), frozenset(tail_stems))
    return _remember(_INFO_CACHE, clue, info)


_NO_PIECES: Final[tuple[frozenset[str], frozenset[str]]] = (frozenset(), frozenset())


# ---------------------------------------------------------------------------
# Board words
# ---------------------------------------------------------------------------


class _BoardWord:
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
        clue = _match_key(clue)
        if clue == self.closed:
            return "it is that visible word"
        if clue in self.parts:
            return f"it is a component of that {self._kind()}"
        # A form of the entry itself, or of one of its components (for a
        # multi-word entry the words come first: "lochs" is a form of "loch").
        for p in (*self.parts, self.closed) if self.multi else (self.closed, *self.parts):
            link = _form_link(clue, p)
            if link is None:
                continue
            if p == self.closed:
                return f"it is a form of that word (shared stem {link!r})"
            return (
                f"it is a form of {p!r} (shared stem {link!r}), "
                f"a component of that {self._kind()}"
            )
        for head, tail in _splits(clue):
            for v in self.visible:
                if v == tail or head in _linking_forms(v):
                    return (
                        f"it is a compound containing {self._what(v)} ({head} + {tail})"
                    )
                link = _form_link(tail, v)
                if link is not None:
                    return (
                        f"it is a compound ({head} + {tail}) ending in a form of "
                        f"{self._what(v)} (shared stem {link!r})"
                    )
        return None


_BOARD_CACHE: dict[str, _BoardWord] = {}


def _board_word(given: str) -> _BoardWord:
    bw = _BOARD_CACHE.get(given)
    if bw is None:
        if not isinstance(given, str):
            raise TypeError(f"board words must be str, not {type(given).__name__}")
        bw = _remember(_BOARD_CACHE, given, _BoardWord(given))
    return bw


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------


def clue_conflict(clue: str, board_word: str) -> str | None:
    """Why the clue clashes with one visible board word, or None.

    *clue* should be the output of :func:`normalize_clue`; here it is only
    NFC-normalised, stripped and case-folded, not validated.  *board_word*
    may be in any case and may contain spaces ("ICE CREAM").
    """
    c = unicodedata.normalize("NFC", clue.strip().casefold())
    if not c:
        return None
    return _board_word(board_word).conflict(c)


def check_clue(word: str, visible: Iterable[str]) -> str:
    """Return the normalised clue, or raise why it may not be given.

    Raises :class:`InvalidClueError` for a malformed clue and
    :class:`IllegalClueError` (naming the first visible word, in the given
    order, that it clashes with) for a clue that breaks the visible-word
    rules.
    """
    clue = normalize_clue(word)
    for b in visible:
        reason = _board_word(b).conflict(clue)
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


_NORM_CACHE: dict[object, str] = {}


def _normalize_or_invalid(text: object) -> str:
    """normalize_clue(text), or "" if it is malformed; memoised."""
    try:
        hit = _NORM_CACHE.get(text)
    except TypeError:  # unhashable: not a clue anyway
        return ""
    if hit is not None:
        return hit
    try:
        value = normalize_clue(text) if isinstance(text, str) else ""
    except InvalidClueError:
        value = ""
    return _remember(_NORM_CACHE, text, value)


_IRR_CHAIN: dict[str, frozenset[str]] | None = None


def _irregular_chains() -> dict[str, frozenset[str]]:
    """For each irregular form: its lemmas plus one further step from each."""
    global _IRR_CHAIN
    if _IRR_CHAIN is None:
        words = _words()
        chains: dict[str, frozenset[str]] = {}
        for z, lemmas in _irregular().items():
            reach = set(lemmas)
            for y in lemmas:
                if y in words:
                    reach.update(_step(y))
            chains[z] = frozenset(reach)
        _IRR_CHAIN = chains
    return _IRR_CHAIN


def _core(stem: str) -> str:
    """The part of *stem* that every suffix-analysed word of it starts with.

    Each suffix rule yields a base ``b`` with ``b[:-1]`` a prefix of the
    analysed word (``b[:-2]`` for bases in "ie": dying -> die), and this
    carries over to two suffix steps.  See :func:`regular_bases`.
    """
    return stem[:-2] if stem.endswith("ie") else stem[:-1]


class _Prefilter:
    """A cheap necessary condition for ``raw_stems(c) & targets`` being non-empty.

    An element of ``raw_stems(c)`` is reached from ``c`` by at most two
    steps, each a suffix rule (S), an irregular lemma (I) or a prefix strip
    (P), never S then I.  If the chain ends in a target ``t``:

    * S or S,S: ``c`` starts with ``_core(t)``;
    * I, or I then anything: ``c`` is an irregular form whose chain
      (:func:`_irregular_chains`) meets the targets (``self.exact``);
    * S,P: ``c`` minus the prefix starts with ``_core(t)``;
    * P then anything: the tests above hold for ``c`` minus the prefix,
      and P,P means ``c`` minus two prefixes is a target.

    Candidates failing all of these cannot clash through forms, so their
    analysis is skipped; the others get the exact test.
    """

    __slots__ = ("targets", "exact", "short", "by2")

    def __init__(self, targets: frozenset[str]) -> None:
        chains = _irregular_chains()
        irr_any = {z for z, reach in chains.items() if not targets.isdisjoint(reach)}
        self.targets = targets
        self.exact = frozenset(targets | irr_any)
        cores = {_core(t) for t in targets if len(t) >= 2}
        cores.discard("")
        # Cores grouped by their first two letters; one-letter cores apart.
        self.short = frozenset(c for c in cores if len(c) == 1)
        by2: dict[str, list[str]] = {}
        for c in cores:
            if len(c) >= 2:
                by2.setdefault(c[:2], []).append(c)
        self.by2 = {k: tuple(v) for k, v in by2.items()}

    def _direct(self, word: str) -> bool:
        if word in self.exact or word[:1] in self.short:
            return True
        cores = self.by2.get(word[:2])
        if cores is not None:
            for c in cores:
                if word.startswith(c):
                    return True
        return False

    def may_reach(self, word: str) -> bool:
        if self._direct(word):
            return True
        prefixes = _PREFIX_BY_FIRST.get(word[:1])
        if prefixes is not None:
            for p in prefixes:
                if word.startswith(p):
                    rest = word[len(p) :]
                    if self._direct(rest):
                        return True
                    for p2 in _PREFIXES:
                        if rest.startswith(p2) and rest[len(p2) :] in self.targets:
                            return True
        return False


class _BoardIndex:
    """What a whole board forbids, for checking many clues at once.

    ``clashes(c)`` is true exactly when some board word's
    :meth:`_BoardWord.conflict` is not None:

    * ``keys``: board stems of every board word and of each of its
      components ("is", "is a form of", "is a component" tests);
    * ``heads``: visible words and their linking forms, against the heads
      of the clue's compound splits;
    * ``tails``: board stems of the visible words, against the raw stems of
      the tails of the clue's compound splits.

    The raw stems of a clue are only computed when :class:`_Prefilter`
    says they might meet ``keys``.
    """

    __slots__ = ("keys", "heads", "tails", "prefilter")

    def __init__(self, board: Iterable[str]) -> None:
        keys: set[str] = set()
        heads: set[str] = set()
        tails: set[str] = set()
        for b in board:
            bw = _board_word(b)
            if not bw.closed:
                continue
            for x in (bw.closed, *bw.parts):
                keys |= _board_stems(x)
            for v in bw.visible:
                heads.update(_linking_forms(v))
                tails |= _board_stems(v)
        self.keys = frozenset(keys)
        self.heads = frozenset(heads)
        self.tails = frozenset(tails)
        self.prefilter = _Prefilter(self.keys)

    def clashes(self, clue: str) -> bool:
        clue = _match_key(clue)
        raw = _RAW_CACHE.get(clue)
        if raw is None and self.prefilter.may_reach(clue):
            raw = raw_stems(clue)
        if raw is not None and not raw.isdisjoint(self.keys):
            return True
        if len(clue) < 2 * _MIN_PIECE:
            return False
        heads, tail_stems = _piece_info(clue)
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
            clue = _normalize_or_invalid(cand)
        if not clue or clashes(clue):
            out.add(cand)
    return out


# ---------------------------------------------------------------------------
# The strict check: what the bot holds its own clues to
# ---------------------------------------------------------------------------
#
# The rule book judges people (above).  A bot's clue must be beyond dispute,
# so it must also pass three tests a strict table would argue about:
#
# * letters: the clue contains a visible word, or is contained in one, as a
#   substring of at least 3 letters (accents and non-letters ignored); for a
#   multi-word entry, each of its words and the joined form count
#   ("officers" with ICE, "cola" with CHOCOLATE, "doctoral" with DOCTOR,
#   "tonight" with NIGHT, "scream" with ICE CREAM);
# * derived forms the rule book does not analyse, where the spelling of the
#   base changes ("tribal" with TRIBE, "glorious" with GLORY, "famous" with
#   FAME, and the other way round "fame" with FAMOUS): :func:`_ext_bases`;
# * shared compound parts: the clue's compound parts are (forms of) the
#   visible word's parts ("earthworm" with EARTHQUAKE).
#
# Everything the rule book forbids stays forbidden.

_STRICT_MIN: Final = 3  # shortest substring that counts
_STRICT_PART: Final = 4  # shortest compound part of a board word that counts

# Derivational suffixes starting with a vowel, whose base may have lost a
# final -e or turned -y into -i ("tribal", "glorious").  Bases that keep
# their spelling are substrings of the clue and caught by the letters test.
_EXT_SUFFIXES: Final = (
    "al", "ial", "ual", "ous", "ious", "eous", "ic", "ical", "ist", "ism", "ity", "ian",
    "ion", "ation", "ition", "ive", "ative", "ize", "ise", "ish", "ary", "ory", "ure",
    "ance", "ence", "ancy", "ency", "ant", "ent", "age", "ify", "ine", "ar", "or", "ee",
    "ery", "ology", "ette", "ete",
)
_EXT_BY_LAST: Final[dict[str, tuple[str, ...]]] = {}
for _suf in _EXT_SUFFIXES:
    _EXT_BY_LAST[_suf[-1]] = (*_EXT_BY_LAST.get(_suf[-1], ()), _suf)
del _suf

_EXT_CACHE: dict[str, frozenset[str]] = {}
_LETTERS_CACHE: dict[str, str] = {}


def _letters(word: str) -> str:
    """The letters of a match key, in order ("mp3" -> "mp")."""
    if word.isalpha():
        return word
    hit = _LETTERS_CACHE.get(word)
    if hit is None:
        hit = _remember(_LETTERS_CACHE, word, "".join(ch for ch in word if ch.isalpha()))
    return hit


def _ext_step(word: str) -> set[str]:
    """Bases of *word* under the derivational suffixes, unvalidated: the rest, the rest
    plus -e, and -i turned back into -y ("tribal" -> trib, tribe; "glorious" -> glori,
    glory)."""
    out: set[str] = set()
    for suf in _EXT_BY_LAST.get(word[-1:], ()):
        if not word.endswith(suf):
            continue
        rest = word[: -len(suf)]
        if len(rest) < _STRICT_PART:  # "coming" is no form of COMIC, "minor" none of MINE
            continue
        out.add(rest)
        out.add(rest + "e")
        if rest.endswith("i"):
            out.add(rest[:-1] + "y")
    return out


def _ext_bases(word: str) -> frozenset[str]:
    """Derivational bases of *word* and of its lexicon stems ("nervously" -> nervous ->
    nerve), unvalidated; memoised.  Every base ``b`` has ``_core(b)`` as a prefix of
    *word*, so :class:`_Prefilter` stays a valid screen for them."""
    hit = _EXT_CACHE.get(word)
    if hit is not None:
        return hit
    out: set[str] = set()
    for w in stems(word):
        out |= _ext_step(w)
    out.discard(word)
    return _remember(_EXT_CACHE, word, frozenset(out))


def _board_ext(word: str) -> frozenset[str]:
    """Board side of the derived-form test: the lexicon words *word* derives from
    ("famous" -> fame)."""
    words = _words()
    return frozenset(b for b in _ext_step(word) if b in words)


def _infl_stems(word: str) -> set[str]:
    """*word* and the lexicon words it inflects (tribes -> tribe, mice -> mouse): what a
    clue's derivational bases are compared with (not the derivational stems, so "armor"
    stays clear of ARMY through "arm")."""
    if _BLOCKED is None or _IRREGULAR is None:
        _load()
    assert _BLOCKED is not None and _IRREGULAR is not None
    words = _words()
    blocked = _BLOCKED.get(word, ())
    out = {word}
    out.update(b for b, kind in regular_bases(word) if kind == "infl" and b in words and b not in blocked)
    out.update(_IRREGULAR.get(word, ()))
    return out


def _substrings(s: str) -> set[str]:
    """Every substring of *s* with at least _STRICT_MIN letters."""
    n = len(s)
    return {s[i:j] for i in range(n - _STRICT_MIN + 1) for j in range(i + _STRICT_MIN, n + 1)}


class _Strict:
    """What one board entry, or a whole board, forbids beyond the rule book.

    * ``strings``: letter strings of the entries (each word, and the joined form of a
      multi-word entry) with at least 3 letters; a clue containing one clashes;
    * ``inside``: their substrings of at least 3 letters; a clue among them clashes;
    * ``keys``: the rule book's keys (board stems of the entries and of their compound
      parts) plus the lexicon words the entries derive from ("famous" -> fame); a clue
      whose stems meet them clashes;
    * ``ext_keys``: the entries, their words and their compound parts of 4+ letters, with
      what they inflect; a clue whose derivational bases (:func:`_ext_bases`) meet them
      clashes ("tribal" with TRIBE);
    * ``part_keys``: board stems of those; a clue with a compound part among them clashes
      ("earthworm" with EARTHQUAKE); ``heads`` adds the rule book's linking forms
      ("sportsman" with SPORT).

    Only compound parts of 4+ letters count here: the 3-letter ones the splitter finds are
    too often chance ("ion" in MANSION, "son" in POISON, which would forbid every "-tion"
    and "grandson"); the rule book's own component test still covers them.
    """

    __slots__ = ("strings", "inside", "keys", "ext_keys", "part_keys", "heads", "prefilter",
                 "pattern")

    def __init__(self, board: Iterable[str]) -> None:
        strings: set[str] = set()
        keys: set[str] = set()
        ext_keys: set[str] = set()
        part_keys: set[str] = set()
        heads: set[str] = set()
        for b in board:
            bw = _board_word(b)
            if not bw.closed:
                continue
            for s in (bw.closed, *bw.words):
                s = _letters(s)
                if len(s) >= _STRICT_MIN:
                    strings.add(s)
            for x in (bw.closed, *bw.parts):
                keys |= _board_stems(x)
            own = (bw.closed, *bw.words, *(p for p in bw.parts if len(p) >= _STRICT_PART))
            for x in dict.fromkeys(own):
                keys |= _board_ext(x)
                ext_keys |= _infl_stems(x)
                part_keys |= _board_stems(x)
            for v in bw.visible:
                heads.update(_linking_forms(v))
        self.strings = tuple(sorted(strings, key=lambda s: (-len(s), s)))
        inside: set[str] = set()
        for s in strings:
            inside |= _substrings(s)
        self.inside = frozenset(inside)
        self.ext_keys = frozenset(ext_keys)
        # ext_keys are board stems too, so the prefilter on keys screens both tests.
        self.keys = frozenset(keys | ext_keys)
        self.part_keys = frozenset(part_keys)
        self.heads = frozenset(heads | part_keys)
        self.prefilter = _Prefilter(self.keys)
        self.pattern = re.compile("|".join(map(re.escape, self.strings))) if strings else None

    def letters_clash(self, key: str) -> bool:
        """The letters test on a clue's letter string."""
        if len(key) < _STRICT_MIN:
            return False
        return key in self.inside or (self.pattern is not None and self.pattern.search(key) is not None)

    def form_link(self, clue: str) -> str | None:
        """A key the clue's stems or derivational bases reach, else None (match key)."""
        # The prefilter is a necessary condition for stems and for derivational bases
        # reached by suffixes (see _ext_bases); irregular forms and prefixed words get
        # the full test.
        if not (self.prefilter.may_reach(clue) or clue.startswith(_PREFIXES)
                or clue in _irregular_chains()):
            return None
        common = (raw_stems(clue) & self.keys) | (_ext_bases(clue) & self.ext_keys)
        return min(common, key=lambda s: (-len(s), s)) if common else None

    def part_link(self, clue: str) -> str | None:
        """A key that a compound part of the clue (or a form of a tail) is, else None."""
        if len(clue) < 2 * _MIN_PIECE:
            return None
        heads, tail_stems = _piece_info(clue)
        common = (heads & self.heads) | (tail_stems & self.part_keys)
        return min(common, key=lambda s: (-len(s), s)) if common else None

    def clashes(self, clue: str) -> bool:
        """Beyond the rule book: *clue* (normalised, a match key) fails a strict test."""
        return (self.letters_clash(_letters(clue)) or self.form_link(clue) is not None
                or self.part_link(clue) is not None)


_STRICT_CACHE: dict[str, _Strict] = {}


def _strict_word(given: str) -> _Strict:
    hit = _STRICT_CACHE.get(given)
    if hit is None:
        hit = _remember(_STRICT_CACHE, given, _Strict((given,)))
    return hit


def _strict_reason(clue: str, board_word: str) -> str | None:
    """Why normalised *clue* clashes with *board_word* under the strict check, or None."""
    bw = _board_word(board_word)
    reason = bw.conflict(clue)
    if reason is not None:
        return f"clashes with visible word {_show(board_word)}: {reason}"
    st = _strict_word(board_word)
    c = _match_key(clue)
    key = _letters(c)
    if st.letters_clash(key):
        for s in st.strings:
            where = "" if s == bw.closed else f", a word of the visible entry {_show(board_word)}"
            what = _show(board_word) if s == bw.closed else repr(s)
            if s in key:
                return f"it contains the visible word {what}{where}"
            if key in s:
                return f"it is contained in the visible word {what}{where}"
    link = st.form_link(c)
    if link is not None:
        return (f"it is a derived form sharing the base {link!r} with visible word "
                f"{_show(board_word)}")
    link = st.part_link(c)
    if link is not None:
        return (f"it is a compound whose part {link!r} is (a form of) visible word "
                f"{_show(board_word)} or one of its parts")
    return None


def strict_conflict(clue: str, visible: Iterable[str]) -> str | None:
    """Why the bot may not give *clue* while *visible* are on the grid, or None.

    Stricter than :func:`check_clue` (which judges people): besides every rule-book
    clash, a clue may not contain a visible word or be contained in one as a substring of
    3 or more letters (letters only, case and accents ignored; for a multi-word entry each
    word and the joined form count), nor be a derived form of one ("tribal" with TRIBE),
    nor share a compound part with one ("earthworm" with EARTHQUAKE).  The reason names
    the first visible word (in the given order) that the clue clashes with; a malformed
    clue gets the reason it is malformed.
    """
    try:
        c = normalize_clue(clue)
    except InvalidClueError as exc:
        return f"invalid clue: {exc.reason}"
    for b in visible:
        reason = _strict_reason(c, b)
        if reason is not None:
            return reason
    return None


def is_strictly_legal_clue(word: str, visible: Iterable[str]) -> bool:
    """True when :func:`strict_conflict` finds nothing against *word*."""
    return strict_conflict(word, visible) is None


def strict_illegal_clues(candidates: Iterable[str], board_words: Iterable[str]) -> set[str]:
    """The candidates (as given) that :func:`strict_conflict` would flag on this board.

    Malformed candidates are included.  The bulk form of the strict check, for masking a
    whole clue vocabulary once per board, in one pass that also covers everything
    :func:`illegal_clues` rejects: the letters test is one set lookup and one precompiled
    regular-expression search per candidate; forms, derived forms and compound parts are
    a few set operations on memoised analyses, behind :class:`_Prefilter`.  About 0.03 s
    for 15,000 candidates against 25 words once the analyses are memoised.
    """
    board = list(board_words)
    strict = _Strict(board)
    inside, keys, ext_keys = strict.inside, strict.keys, strict.ext_keys
    search = strict.pattern.search if strict.pattern is not None else None
    heads_ok, part_keys = strict.heads, strict.part_keys
    may_reach = strict.prefilter.may_reach
    irregular = _irregular_chains()
    out: set[str] = set()
    for cand in candidates:
        # Inline fast path of normalize_clue for plain ASCII words.
        clue = cand.strip().lower() if type(cand) is str and cand.isascii() else ""
        if clue.isalpha():
            key = clue
        else:
            clue = _match_key(_normalize_or_invalid(cand))
            if not clue:
                out.add(cand)
                continue
            key = _letters(clue)
        if len(key) >= _STRICT_MIN and (key in inside or (search is not None and search(key))):
            out.add(cand)
            continue
        if len(clue) >= 2 * _MIN_PIECE:
            heads, tail_stems = _piece_info(clue)
            if not (heads.isdisjoint(heads_ok) and tail_stems.isdisjoint(part_keys)):
                out.add(cand)
                continue
        if may_reach(clue) or clue.startswith(_PREFIXES) or clue in irregular:
            if not (raw_stems(clue).isdisjoint(keys) and _ext_bases(clue).isdisjoint(ext_keys)):
                out.add(cand)
    return out


def strict_illegal_by_word(candidates: Iterable[str], board_words: Iterable[str]) -> dict[str, set[str]]:
    """For each board word (as given), the candidates that :func:`strict_conflict` flags
    because of that word alone: ``strict_illegal_clues(candidates, [w])`` for every ``w``,
    at about the cost of one bulk call.

    For masks cached per board word (a spymaster covering words turn after turn).  The
    flagged candidates of the whole board are indexed once by their letter substrings and
    their analyses (stems, derivational bases, compound parts); each word then checks
    exactly only the few candidates that share one of its keys.  Malformed candidates are
    listed under every word.
    """
    board = list(dict.fromkeys(board_words))
    bad = strict_illegal_clues(candidates, board)
    out: dict[str, set[str]] = {w: set() for w in board}
    if not bad or not board:
        return out
    norm: dict[str, str] = {}
    by_letters: dict[str, list[str]] = {}  # letter string -> candidates
    by_sub: dict[str, list[str]] = {}      # substring (3+) -> candidates containing it
    by_link: dict[str, list[str]] = {}     # stem / base / compound part -> candidates
    malformed: list[str] = []
    for cand in bad:
        c = _match_key(_normalize_or_invalid(cand))
        if not c:
            malformed.append(cand)
            continue
        norm[cand] = c
        key = _letters(c)
        by_letters.setdefault(key, []).append(cand)
        if len(key) >= _STRICT_MIN:
            for s in _substrings(key):
                by_sub.setdefault(s, []).append(cand)
        heads, tail_stems = _piece_info(c) if len(c) >= 2 * _MIN_PIECE else _NO_PIECES
        for k in raw_stems(c) | _ext_bases(c) | heads | tail_stems:
            by_link.setdefault(k, []).append(cand)
    for w in board:
        bw = _board_word(w)
        found = out[w]
        found.update(malformed)
        if not bw.closed:
            continue
        st = _strict_word(w)
        suspects: set[str] = set()
        for s in st.strings:
            suspects.update(by_sub.get(s, ()))
        for s in st.inside:
            suspects.update(by_letters.get(s, ()))
        links = st.keys | st.heads
        for k in links:
            suspects.update(by_link.get(k, ()))
        for cand in suspects:
            c = norm[cand]
            if bw.conflict(c) is not None or st.clashes(c):
                found.add(cand)
    return out


class StrictIndex:
    """:func:`strict_illegal_by_word` for one fixed candidate list (a bot's clue vocabulary),
    indexed once, so that a new board word costs lookups instead of a pass over every
    candidate: the same per-word test on the candidates that share a key with the word.

    The index is the one :func:`strict_illegal_by_word` builds over a board's flagged
    candidates, built over them all: letter strings, derivational and compound links, and
    the letter strings joined in one text, searched for a word's strings (a clue containing
    the word).  Building it analyses every candidate once (about 0.3 s for 15,000); each
    board word then takes a fraction of a millisecond.
    """

    def __init__(self, candidates: Sequence[str]) -> None:
        self._norm: dict[str, str] = {}
        self._malformed: list[str] = []
        self._by_letters: dict[str, list[str]] = {}
        self._by_link: dict[str, list[str]] = {}
        owners: list[str] = []
        keys: list[str] = []
        for cand in candidates:
            c = _match_key(_normalize_or_invalid(cand))
            if not c:
                self._malformed.append(cand)
                continue
            self._norm[cand] = c
            key = _letters(c)
            self._by_letters.setdefault(key, []).append(cand)
            if len(key) >= _STRICT_MIN:
                owners.append(cand)
                keys.append(key)
            heads, tail_stems = _piece_info(c) if len(c) >= 2 * _MIN_PIECE else _NO_PIECES
            for k in raw_stems(c) | _ext_bases(c) | heads | tail_stems:
                self._by_link.setdefault(k, []).append(cand)
        self._set_text(owners, keys)

    def _set_text(self, owners: list[str], keys: list[str]) -> None:
        self._owners = owners
        self._keys = keys
        self._text = "\n".join(keys)
        self._starts = [0] * len(keys)
        at = 0
        for i, k in enumerate(keys):
            self._starts[i] = at
            at += len(k) + 1

    def state(self) -> dict[str, Any]:
        """The index as JSON-able data (:meth:`from_state` rebuilds it without analysing a
        candidate): for keeping it on disk between processes."""
        return {"norm": self._norm, "malformed": self._malformed, "by_letters": self._by_letters,
                "by_link": self._by_link, "owners": self._owners, "keys": self._keys}

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> StrictIndex:
        index = cls.__new__(cls)
        index._norm, index._malformed = state["norm"], state["malformed"]
        index._by_letters, index._by_link = state["by_letters"], state["by_link"]
        index._set_text(state["owners"], state["keys"])
        return index

    def _containing(self, s: str) -> Iterable[str]:
        """The candidates whose letter string contains ``s``."""
        i = self._text.find(s)
        while i >= 0:
            j = bisect_right(self._starts, i) - 1
            yield self._owners[j]
            nxt = self._starts[j + 1] if j + 1 < len(self._starts) else len(self._text)
            i = self._text.find(s, max(i + 1, nxt))

    def by_word(self, board_words: Iterable[str]) -> dict[str, set[str]]:
        """What :func:`strict_illegal_by_word` gives for these candidates and words."""
        out: dict[str, set[str]] = {}
        for w in dict.fromkeys(board_words):
            found = out[w] = set(self._malformed)
            bw = _board_word(w)
            if not bw.closed:
                continue
            st = _strict_word(w)
            suspects: set[str] = set()
            for s in st.strings:
                suspects.update(self._containing(s))
            for s in st.inside:
                suspects.update(self._by_letters.get(s, ()))
            for k in st.keys | st.heads:
                suspects.update(self._by_link.get(k, ()))
            for cand in suspects:
                if bw.conflict(self._norm[cand]) is not None or st.clashes(self._norm[cand]):
                    found.add(cand)
        return out
