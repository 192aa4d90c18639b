"""The English lexicon the clue checks read: package data, read once on first use.

``duetbot/data/lexicon/`` holds three generated files (rebuilt reproducibly by
``duetbot models build morphology``, from wordfreq and lemminflect, which are not runtime
dependencies): ``words.txt`` (common words and their inflections, lower case; no names or
places), ``irregular.txt`` (``form:lemma,lemma``: mice -> mouse, hid -> hide) and
``blocked.txt`` (``form:base,base``: the regular analyses lemminflect rejects, so "news"
is no form of "new").
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Final

__all__ = ["LEXICON_DIR", "blocked", "data_lines", "english_words", "irregular"]

LEXICON_DIR: Final = "data/lexicon"  # inside the duetbot package


def data_lines(name: str) -> list[str]:
    """The entries of one lexicon file: one per line, ``#`` header lines skipped."""
    text = resources.files("duetbot").joinpath(f"{LEXICON_DIR}/{name}").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


@cache
def english_words() -> frozenset[str]:
    """The common English words with their inflections, lower case (``words.txt``)."""
    return frozenset(data_lines("words.txt"))


@cache
def irregular() -> dict[str, tuple[str, ...]]:
    """Irregular forms and their lemmas: ``irregular()["mice"] == ("mouse",)``."""
    out: dict[str, tuple[str, ...]] = {}
    for entry in data_lines("irregular.txt"):
        form, _, lemmas = entry.partition(":")
        out[form] = tuple(lemmas.split(","))
    return out


@cache
def blocked() -> dict[str, frozenset[str]]:
    """For a form, the regular bases lemminflect rejects: ``"new" in blocked()["news"]``."""
    out: dict[str, frozenset[str]] = {}
    for entry in data_lines("blocked.txt"):
        form, _, bases = entry.partition(":")
        out[form] = frozenset(bases.split(","))
    return out
