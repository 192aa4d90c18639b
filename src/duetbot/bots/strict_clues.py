"""The strict clue check: what the bots hold their own clues to, beyond the rule book.

People are judged by the rule book (:mod:`duetbot.rules.clues`). A bot's clue must be
beyond dispute, so besides every rule-book clash it may not contain a visible word or be
contained in one (3+ letters: "officers" with ICE), be a derived form the rule book does
not analyse ("tribal" with TRIBE), or share a compound part with one ("earthworm" with
EARTHQUAKE). docs/architecture.md ("Clue words") gives the tests and their reasons.

>>> strict_conflict("officers", ["ICE", "PIANO"])
"it contains the visible word 'ICE'"
>>> is_strictly_legal_clue("hearth", ["EARTHQUAKE", "PIANO"])
True
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from ..rules.clues import (
    InvalidClueError,
    board_entry,
    normalize_clue,
    normalized_or_empty,
    show,
)
from ..words.keys import fold_accents
from ..words.lexicon import blocked, english_words, irregular
from ..words.morphology import (
    CACHE_SIZE,
    MIN_PIECE,
    NO_PIECES,
    PREFIXES,
    Prefilter,
    board_stems,
    irregular_chains,
    linking_forms,
    piece_info,
    raw_stems,
    regular_bases,
    stems,
)

__all__ = [
    "StrictIndex",
    "is_strictly_legal_clue",
    "strict_conflict",
    "strict_illegal_by_word",
    "strict_illegal_clues",
]

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


def _letters(word: str) -> str:
    """The letters of a match key, in order ("mp3" -> "mp")."""
    return word if word.isalpha() else _only_letters(word)


@lru_cache(maxsize=CACHE_SIZE)
def _only_letters(word: str) -> str:
    return "".join(ch for ch in word if ch.isalpha())


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


@lru_cache(maxsize=CACHE_SIZE)
def _ext_bases(word: str) -> frozenset[str]:
    """Derivational bases of *word* and of its lexicon stems ("nervously" -> nervous ->
    nerve), unvalidated; memoised.  Every base ``b`` has ``core(b)`` as a prefix of
    *word*, so :class:`~duetbot.words.morphology.Prefilter` stays a valid screen for them."""
    out: set[str] = set()
    for w in stems(word):
        out |= _ext_step(w)
    out.discard(word)
    return frozenset(out)


def _board_ext(word: str) -> frozenset[str]:
    """Board side of the derived-form test: the lexicon words *word* derives from
    ("famous" -> fame)."""
    words = english_words()
    return frozenset(b for b in _ext_step(word) if b in words)


def _infl_stems(word: str) -> set[str]:
    """*word* and the lexicon words it inflects (tribes -> tribe, mice -> mouse): what a
    clue's derivational bases are compared with (not the derivational stems, so "armor"
    stays clear of ARMY through "arm")."""
    words = english_words()
    rejected = blocked().get(word, ())
    out = {word}
    out.update(b for b, kind in regular_bases(word) if kind == "infl" and b in words and b not in rejected)
    out.update(irregular().get(word, ()))
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
            bw = board_entry(b)
            if not bw.closed:
                continue
            for s in (bw.closed, *bw.words):
                s = _letters(s)
                if len(s) >= _STRICT_MIN:
                    strings.add(s)
            for x in (bw.closed, *bw.parts):
                keys |= board_stems(x)
            own = (bw.closed, *bw.words, *(p for p in bw.parts if len(p) >= _STRICT_PART))
            for x in dict.fromkeys(own):
                keys |= _board_ext(x)
                ext_keys |= _infl_stems(x)
                part_keys |= board_stems(x)
            for v in bw.visible:
                heads.update(linking_forms(v))
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
        self.prefilter = Prefilter(self.keys)
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
        if not (self.prefilter.may_reach(clue) or clue.startswith(PREFIXES)
                or clue in irregular_chains()):
            return None
        common = (raw_stems(clue) & self.keys) | (_ext_bases(clue) & self.ext_keys)
        return min(common, key=lambda s: (-len(s), s)) if common else None

    def part_link(self, clue: str) -> str | None:
        """A key that a compound part of the clue (or a form of a tail) is, else None."""
        if len(clue) < 2 * MIN_PIECE:
            return None
        heads, tail_stems = piece_info(clue)
        common = (heads & self.heads) | (tail_stems & self.part_keys)
        return min(common, key=lambda s: (-len(s), s)) if common else None

    def clashes(self, clue: str) -> bool:
        """Beyond the rule book: *clue* (normalised, a match key) fails a strict test."""
        return (self.letters_clash(_letters(clue)) or self.form_link(clue) is not None
                or self.part_link(clue) is not None)


@lru_cache(maxsize=CACHE_SIZE)
def _strict_word(given: str) -> _Strict:
    return _Strict((given,))


def _strict_reason(clue: str, board_word: str) -> str | None:
    """Why normalised *clue* clashes with *board_word* under the strict check, or None."""
    bw = board_entry(board_word)
    reason = bw.conflict(clue)
    if reason is not None:
        return f"clashes with visible word {show(board_word)}: {reason}"
    st = _strict_word(board_word)
    c = fold_accents(clue)
    key = _letters(c)
    if st.letters_clash(key):
        for s in st.strings:
            where = "" if s == bw.closed else f", a word of the visible entry {show(board_word)}"
            what = show(board_word) if s == bw.closed else repr(s)
            if s in key:
                return f"it contains the visible word {what}{where}"
            if key in s:
                return f"it is contained in the visible word {what}{where}"
    link = st.form_link(c)
    if link is not None:
        return (f"it is a derived form sharing the base {link!r} with visible word "
                f"{show(board_word)}")
    link = st.part_link(c)
    if link is not None:
        return (f"it is a compound whose part {link!r} is (a form of) visible word "
                f"{show(board_word)} or one of its parts")
    return None


def strict_conflict(clue: str, visible: Iterable[str]) -> str | None:
    """Why the bot may not give *clue* while *visible* are on the grid, or None.

    Stricter than :func:`~duetbot.rules.clues.check_clue` (which judges people): besides every rule-book
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
    :func:`~duetbot.rules.clues.illegal_clues` rejects: the letters test is one set lookup and one precompiled
    regular-expression search per candidate; forms, derived forms and compound parts are
    a few set operations on memoised analyses, behind :class:`Prefilter`.  About 0.03 s
    for 15,000 candidates against 25 words once the analyses are memoised.
    """
    board = list(board_words)
    strict = _Strict(board)
    inside, keys, ext_keys = strict.inside, strict.keys, strict.ext_keys
    search = strict.pattern.search if strict.pattern is not None else None
    heads_ok, part_keys = strict.heads, strict.part_keys
    may_reach = strict.prefilter.may_reach
    irregular = irregular_chains()
    out: set[str] = set()
    for cand in candidates:
        # Inline fast path of normalize_clue for plain ASCII words.
        clue = cand.strip().lower() if type(cand) is str and cand.isascii() else ""
        if clue.isalpha():
            key = clue
        else:
            clue = fold_accents(normalized_or_empty(cand))
            if not clue:
                out.add(cand)
                continue
            key = _letters(clue)
        if len(key) >= _STRICT_MIN and (key in inside or (search is not None and search(key))):
            out.add(cand)
            continue
        if len(clue) >= 2 * MIN_PIECE:
            heads, tail_stems = piece_info(clue)
            if not (heads.isdisjoint(heads_ok) and tail_stems.isdisjoint(part_keys)):
                out.add(cand)
                continue
        if may_reach(clue) or clue.startswith(PREFIXES) or clue in irregular:
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
        c = fold_accents(normalized_or_empty(cand))
        if not c:
            malformed.append(cand)
            continue
        norm[cand] = c
        key = _letters(c)
        by_letters.setdefault(key, []).append(cand)
        if len(key) >= _STRICT_MIN:
            for s in _substrings(key):
                by_sub.setdefault(s, []).append(cand)
        heads, tail_stems = piece_info(c) if len(c) >= 2 * MIN_PIECE else NO_PIECES
        for k in raw_stems(c) | _ext_bases(c) | heads | tail_stems:
            by_link.setdefault(k, []).append(cand)
    for w in board:
        bw = board_entry(w)
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
            c = fold_accents(normalized_or_empty(cand))
            if not c:
                self._malformed.append(cand)
                continue
            self._norm[cand] = c
            key = _letters(c)
            self._by_letters.setdefault(key, []).append(cand)
            if len(key) >= _STRICT_MIN:
                owners.append(cand)
                keys.append(key)
            heads, tail_stems = piece_info(c) if len(c) >= 2 * MIN_PIECE else NO_PIECES
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
            bw = board_entry(w)
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
