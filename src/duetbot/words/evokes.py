"""What a clue calls to a person's mind: free associations to the words the spymaster gives
(``duetbot/data/evokes.tsv``, read once on first use), read for danger only.

Each line is ``clue<TAB>association, association, ...``: the words and short phrases an ordinary
person thinks of on hearing the clue, roughly strongest first (compounds and set phrases
written as their other word, scenes, senses, slang, titles). A board word is *reached* by a
clue when one of the clue's associations is the word, a form of it, a word of a phrase or a
part of a compound ("hammerhead" reaches HEAD, "boats" BOAT).

The spymaster does not give a clue that reaches one of its own assassins still in play: some
of the person-like partners' losses on a bot clue came through links like these, which no
embedding family and no line of the association table holds (a cargo clue beside BOAT). They are never
read as targets: loose links lift a target as much as an assassin, and the table's looser
pass showed what reading them both ways costs. Where it came from: docs/models.md, "What a
clue calls to mind".

>>> table = Evokes.from_lists({"shark": ("fin", "hammerhead"), "sea": ("boats",)})
>>> table.clues("HEAD"), table.clues("boat"), table.clues("ship")
(('shark',), ('sea',), ())
"""

from __future__ import annotations

import io
import re
from functools import cache
from importlib import resources
from typing import Iterator, Mapping, Sequence

from .keys import word_key
from .morphology import components, stems

__all__ = ["Evokes", "EvokesError", "default_evokes", "parse_evokes", "reached"]

TABLE = resources.files("duetbot").joinpath("data/evokes.tsv")
"""The shipped lists' file."""

_WORD = re.compile(r"[^\W\d_]+")


class EvokesError(ValueError):
    """A line of the lists that cannot be read."""


def _lines(text: str, source: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each (clue key, associations) of the lists' text; a blank line or one starting with
    ``#`` is skipped, a bad line raises naming it."""
    for n, line in enumerate(io.StringIO(text), 1):
        line = line.rstrip("\r\n")
        if not line.strip() or line.startswith("#"):
            continue
        clue, tab, rest = line.partition("\t")
        found = tuple(a for a in (word_key(p) for p in rest.split(",")) if a)
        if not tab or not clue.strip() or not found:
            raise EvokesError(f"{source} line {n}: {line!r} is not 'clue<TAB>association, association, ...'")
        yield word_key(clue), found


def parse_evokes(text: str, source: str = "evokes") -> dict[str, tuple[str, ...]]:
    """``{clue key: associations}`` from the lists' text (a clue given twice: its lists joined)."""
    out: dict[str, tuple[str, ...]] = {}
    for clue, found in _lines(text, source):
        out[clue] = tuple(dict.fromkeys((*out.get(clue, ()), *found)))
    return out


def reached(association: str) -> frozenset[str]:
    """The word keys one association reaches: itself, each of its words, their forms in the
    lexicon and the parts of a compound word ("hammerheads" -> hammerhead, head, hammer...)."""
    key = word_key(association)
    out = {key}
    for token in _WORD.findall(key):
        for part in (token, *components(token)):
            out.update(stems(part))
    return frozenset(out)


class Evokes:
    """The lists, looked up by board word: which clues reach it (:meth:`clues`). Each word's
    clues are kept as one string, split when a board asks (a twentieth of the memory of
    tuples, and read back from a cache in a fifth of the time)."""

    def __init__(self, index: Mapping[str, Sequence[str]] | None = None) -> None:
        self._packed = {w: " ".join(c) for w, c in (index or {}).items()}

    @classmethod
    def from_lists(cls, lists: Mapping[str, Sequence[str]]) -> Evokes:
        """The index of ``{clue: associations}`` (every word each association reaches)."""
        index: dict[str, dict[str, None]] = {}
        for clue, found in lists.items():
            clue = word_key(clue)
            for association in found:
                for w in reached(association):
                    if w != clue:
                        index.setdefault(w, {})[clue] = None
        return cls({w: tuple(c) for w, c in index.items()})

    def clues(self, word: str) -> tuple[str, ...]:
        """The clue keys whose associations reach board word ``word`` (any case)."""
        packed = self._packed.get(word_key(word))
        return tuple(packed.split(" ")) if packed else ()

    def __len__(self) -> int:
        """How many (board word key, clue) pairs the index holds."""
        return sum(c.count(" ") + 1 for c in self._packed.values())

    def state(self) -> dict[str, str]:
        """The index as JSON can hold it (:meth:`from_state` reads it back)."""
        return dict(self._packed)

    @classmethod
    def from_state(cls, state: Mapping[str, str]) -> Evokes:
        out = cls()
        out._packed = dict(state)
        return out


@cache
def default_evokes() -> Evokes:
    """The shipped lists, indexed (the bots read the index back from the user's cache:
    :func:`duetbot.bots.factory.shipped_evokes`)."""
    return Evokes.from_lists(parse_evokes(TABLE.read_text(encoding="utf-8"), "duetbot/data/evokes.tsv"))
