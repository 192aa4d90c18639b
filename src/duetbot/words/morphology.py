"""The forms of a word: suffix rules, irregular lemmas, prefixes and compounds.

Two words are forms of each other when they share a *stem*: the word itself or what at most
two analysis steps reach (suffix rules, irregular lemmas, prefix strips). A compound splits
in two lexicon words of three letters or more. docs/architecture.md ("Clue words") gives the
rules and the reasons; ``rules.clues`` applies them to the rule book and
``bots.strict_clues`` to the bots' own clues. Every function takes a normalised word (a
clue key: case-folded, one token) and is memoised.

>>> sorted(stems("quaking"))
['quake', 'quaking']
>>> components("earthquake")
('earth', 'quake')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .lexicon import blocked, english_words, irregular

__all__ = [
    "CACHE_SIZE",
    "MIN_PIECE",
    "NO_PIECES",
    "PREFIXES",
    "PREFIX_BY_FIRST",
    "Prefilter",
    "board_stems",
    "components",
    "core",
    "form_link",
    "irregular_chains",
    "linking_forms",
    "piece_info",
    "prefix_step",
    "raw_stems",
    "regular_bases",
    "splits",
    "step",
    "stems",
    "suffix_step",
]

#: Shortest compound component (single-word compounds).
MIN_PIECE: Final = 3
#: Bound on each memo: far above a clue vocabulary plus a session's boards.
CACHE_SIZE: Final = 1 << 19

_VOWELS: Final = frozenset("aeiou")

# Suffix rules as (suffix, kind).  "infl" analyses are checked against lemminflect for the
# words it knows (see data/lexicon/blocked.txt); "deriv" ones are heuristics.  Suffixes
# starting with a vowel (or y) also get the e-restoration, undoubling and ie->y variants.
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

#: Prefixes stripped when the rest is a lexicon word of >= 3 letters ("rerun" -> run).
PREFIXES: Final = ("re", "un", "dis", "mis", "pre", "non")
PREFIX_BY_FIRST: Final[dict[str, tuple[str, ...]]] = {}
for _p in PREFIXES:
    PREFIX_BY_FIRST[_p[0]] = (*PREFIX_BY_FIRST.get(_p[0], ()), _p)
del _p


def regular_bases(word: str) -> list[tuple[str, str]]:
    """Candidate bases of *word* under the suffix rules, unvalidated.

    Returns ``(base, kind)`` pairs, ``kind`` being ``"infl"`` or ``"deriv"``.  Many
    candidates are not words ("quak", "runn"); callers validate them against the lexicon
    where that matters.  Every base ``b`` satisfies: ``b[:-1]`` (``b[:-2]`` if ``b`` ends
    in "ie") is a prefix of *word*.  The morphology build uses exactly these rules.
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


@lru_cache(maxsize=CACHE_SIZE)
def suffix_step(word: str) -> tuple[str, ...]:
    """Suffix-rule bases of *word* (unvalidated), minus lemminflect-rejected ones."""
    rejected = blocked().get(word, ())
    out: list[str] = []
    for base, kind in regular_bases(word):
        if base != word and base not in out and not (kind == "infl" and base in rejected):
            out.append(base)
    return tuple(out)


def prefix_step(word: str) -> tuple[str, ...]:
    """*word* minus a prefix from PREFIXES, where the rest is a lexicon word."""
    prefixes = PREFIX_BY_FIRST.get(word[:1])
    if prefixes is None:
        return ()
    words = english_words()
    out = []
    for p in prefixes:
        if word.startswith(p):
            rest = word[len(p) :]
            if len(rest) >= MIN_PIECE and rest in words:
                out.append(rest)
    return tuple(out)


@lru_cache(maxsize=CACHE_SIZE)
def step(word: str) -> tuple[str, ...]:
    """Bases of *word* after any one analysis step: suffix, irregular, prefix."""
    out = list(suffix_step(word))
    for b in (*irregular().get(word, ()), *prefix_step(word)):
        if b != word and b not in out:
            out.append(b)
    return tuple(out)


@lru_cache(maxsize=CACHE_SIZE)
def raw_stems(word: str) -> frozenset[str]:
    """*word* plus every base reachable from it in at most two analysis steps.

    A step is a suffix rule (S), an irregular lemma (I) or a prefix strip (P).  The second
    step only starts from a lexicon word, and an irregular lemma is never taken after a
    suffix rule (that would make "liter" -> lit -> light).  Final suffix bases are not
    validated, so the result may hold non-words such as "quak".
    """
    words = english_words()
    out = {word}
    for b in suffix_step(word):
        out.add(b)
        if b in words:
            out.update(suffix_step(b))
            out.update(prefix_step(b))
    for b in (*irregular().get(word, ()), *prefix_step(word)):
        out.add(b)
        if b in words:
            out.update(step(b))
    return frozenset(out)


@lru_cache(maxsize=CACHE_SIZE)
def stems(word: str) -> frozenset[str]:
    """*word* plus those of its :func:`raw_stems` that are lexicon words."""
    words = english_words()
    return frozenset(s for s in raw_stems(word) if s == word or s in words)


def board_stems(word: str) -> frozenset[str]:
    """Stems of a board word: validated ones, or all raw ones for an off-lexicon word (so
    "lochs" clashes with "LOCH", which the lexicon lacks)."""
    return stems(word) if word in english_words() else raw_stems(word)


def _is_tail(piece: str) -> bool:
    """May *piece* end a compound: a lexicon word or an inflection of one."""
    words = english_words()
    if piece in words or piece in irregular():
        return True
    return any(b in words for b, kind in regular_bases(piece) if kind == "infl")


@lru_cache(maxsize=CACHE_SIZE)
def splits(word: str) -> tuple[tuple[str, str], ...]:
    """Every split of *word* into a compound ``(head, tail)``.

    Both parts have at least three letters; the head is a lexicon word, the tail a lexicon
    word or an inflection of one ("rawhides" -> raw + hides, "hideaways" -> hide + aways).
    """
    n = len(word)
    if n < 2 * MIN_PIECE:
        return ()
    words = english_words()
    return tuple(
        (word[:i], word[i:])
        for i in range(MIN_PIECE, n - MIN_PIECE + 1)
        if word[:i] in words and _is_tail(word[i:])
    )


def components(word: str) -> tuple[str, ...]:
    """Compound components of a normalised word, heads first: every part of every split.

    "earthquake" -> ("earth", "quake"); "rawhides" -> ("raw", "hides"); "hearth" -> ()
    since "th" is too short; "hideous" -> () since "ous" is no word.
    """
    found = splits(word)
    if not found:
        return ()
    return tuple(dict.fromkeys([h for h, _ in found] + [t for _, t in found]))


def form_link(x: str, y: str) -> str | None:
    """A stem shared by clue-side *x* and board-side *y* (``raw_stems(x) & board_stems(y)``),
    the most telling one, else None."""
    common = raw_stems(x) & board_stems(y)
    if not common:
        return None
    return min(common, key=lambda s: (s not in (x, y), -len(s), s))


def linking_forms(v: str) -> tuple[str, ...]:
    """How a visible word may appear as the head of a compound: sportsman, salesman."""
    return (v, v + "s", v + "es")


NO_PIECES: Final[tuple[frozenset[str], frozenset[str]]] = (frozenset(), frozenset())


@lru_cache(maxsize=CACHE_SIZE)
def piece_info(clue: str) -> tuple[frozenset[str], frozenset[str]]:
    """(compound heads, union of the raw stems of compound tails)."""
    found = splits(clue)
    if not found:
        return NO_PIECES
    tail_stems: set[str] = set()
    for _, t in found:
        tail_stems |= raw_stems(t)
    return (frozenset(h for h, _ in found), frozenset(tail_stems))


@lru_cache(maxsize=1)
def irregular_chains() -> dict[str, frozenset[str]]:
    """For each irregular form: its lemmas plus one further step from each."""
    words = english_words()
    chains: dict[str, frozenset[str]] = {}
    for z, lemmas in irregular().items():
        reach = set(lemmas)
        for y in lemmas:
            if y in words:
                reach.update(step(y))
        chains[z] = frozenset(reach)
    return chains


@lru_cache(maxsize=1)
def _irregular_by_reach() -> dict[str, frozenset[str]]:
    """:func:`irregular_chains` the other way round: for each word a chain reaches, the
    irregular forms whose chains reach it (a board word's check looks up its few targets
    instead of testing every chain)."""
    out: dict[str, set[str]] = {}
    for z, reach in irregular_chains().items():
        for y in reach:
            out.setdefault(y, set()).add(z)
    return {y: frozenset(zs) for y, zs in out.items()}


def core(stem: str) -> str:
    """The part of *stem* that every suffix-analysed word of it starts with.

    Each suffix rule yields a base ``b`` with ``b[:-1]`` a prefix of the analysed word
    (``b[:-2]`` for bases in "ie": dying -> die), and this carries over to two suffix
    steps.  See :func:`regular_bases`.
    """
    return stem[:-2] if stem.endswith("ie") else stem[:-1]


class Prefilter:
    """A cheap necessary condition for ``raw_stems(c) & targets`` being non-empty.

    An element of ``raw_stems(c)`` is reached from ``c`` by at most two steps, each a
    suffix rule (S), an irregular lemma (I) or a prefix strip (P), never S then I.  If the
    chain ends in a target ``t``:

    * S or S,S: ``c`` starts with ``core(t)``;
    * I, or I then anything: ``c`` is an irregular form whose chain
      (:func:`irregular_chains`) meets the targets (``self.exact``);
    * S,P: ``c`` minus the prefix starts with ``core(t)``;
    * P then anything: the tests above hold for ``c`` minus the prefix, and P,P means
      ``c`` minus two prefixes is a target.

    Candidates failing all of these cannot clash through forms, so their analysis is
    skipped; the others get the exact test.
    """

    __slots__ = ("targets", "exact", "short", "by2")

    def __init__(self, targets: frozenset[str]) -> None:
        by_reach = _irregular_by_reach()
        irr_any = {z for t in targets for z in by_reach.get(t, ())}
        self.targets = targets
        self.exact = frozenset(targets | irr_any)
        cores = {core(t) for t in targets if len(t) >= 2}
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
        prefixes = PREFIX_BY_FIRST.get(word[:1])
        if prefixes is not None:
            for p in prefixes:
                if word.startswith(p):
                    rest = word[len(p) :]
                    if self._direct(rest):
                        return True
                    for p2 in PREFIXES:
                        if rest.startswith(p2) and rest[len(p2) :] in self.targets:
                            return True
        return False
