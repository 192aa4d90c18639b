"""Word pools: the lists that boards are dealt from.

The default pool ships as package data (``duetbot/data/words.txt``, built by
``duetbot models build pool``): a few hundred common, concrete English nouns,
upper-cased like the physical cards. Users may supply their own pool file.

Pool file format (UTF-8, a leading byte-order mark is tolerated):

* one entry per line; blank lines and lines whose first non-blank character is
  ``#`` are ignored;
* surrounding whitespace is stripped and inner runs of whitespace become one
  space, so multiword entries such as ``ICE CREAM`` are allowed;
* an entry consists of letters (any script, accents included), digits, spaces,
  hyphens (``-``), apostrophes (``'`` or ``’``), full stops (``ST.PATRICK``) and
  ampersands (``ROCK&ROLL``), with at least one letter: what the printed cards hold.
  Underscores (the models' phrase separator) and other symbols are refused;
* entries keep the spelling and case of the file, but two entries that differ
  only in case are duplicates, which is an error;
* at least :data:`MIN_POOL_SIZE` (25, one board) distinct entries.

Every problem raises :class:`WordPoolError` with a one-line message naming the
file, the line and the fix. This module does file I/O; it is not part of the
pure rules engine.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources

from .words import spelling, word_key

__all__ = [
    "DEFAULT_POOL_NAME",
    "MIN_POOL_SIZE",
    "WordPoolError",
    "default_pool",
    "load_pool",
    "parse_pool",
    "PUBLISHED_BOXES",
    "published_box",
    "published_cards",
]

DEFAULT_POOL_NAME = "default"
"""Name that stands for the shipped pool (e.g. in game records); :func:`load_pool`
loads it for ``None`` and treats every other argument as a file path."""

MIN_POOL_SIZE = 25
"""A pool must fill at least one 5x5 board."""

_DEFAULT_RESOURCE = ("duetbot", "data/words.txt")

PUBLISHED_BOXES = ("codenames_duet", "codenames_original")
"""The published boxes' card lists shipped as package data (``data/cards/NAME.txt``): the 400
words of the Codenames: Duet box (as listed in GitHub ``jbowens/codenamesgreen``,
``wordlists/green.txt``) and the 400 of the original box (``jbowens/codenames``,
``assets/original.txt``). A photo's words are matched to them; nothing else may depend on a
word being on them."""
_PUNCTUATION = frozenset(" -'\u2019.&")


class WordPoolError(ValueError):
    """A word pool file is missing, unreadable or malformed (one-line message)."""


@cache
def default_pool() -> tuple[str, ...]:
    """The shipped pool, read once via :mod:`importlib.resources` and cached."""
    package, name = _DEFAULT_RESOURCE
    resource = resources.files(package).joinpath(name)
    label = f"{package}/{name}"
    try:
        data = resource.read_bytes()
    except OSError as exc:
        raise WordPoolError(f"{label}: cannot read the default word pool ({_reason(exc)}); reinstall duetbot") from exc
    return parse_pool(_decode(data, label), label)


@cache
def published_box(name: str) -> tuple[str, ...]:
    """The cards of one of :data:`PUBLISHED_BOXES`, in file order.

    >>> published_box("codenames_duet")[:3]
    ('DRUM', 'BRIDE', 'WAGON')
    """
    if name not in PUBLISHED_BOXES:
        raise WordPoolError(f"{name}: no such published box; use one of {', '.join(PUBLISHED_BOXES)}")
    label = f"duetbot/data/cards/{name}.txt"
    return parse_pool(_decode(resources.files("duetbot").joinpath(f"data/cards/{name}.txt").read_bytes(), label), label)


@cache
def published_cards() -> tuple[str, ...]:
    """Both published boxes' cards, each word once (a word in both boxes is one card)."""
    return tuple(dict.fromkeys(w for name in PUBLISHED_BOXES for w in published_box(name)))


def load_pool(path: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """Load a word pool: ``None`` gives :func:`default_pool`, anything else is a pool file."""
    if path is None:
        return default_pool()
    label = os.fspath(path)
    if not os.path.exists(label):
        raise WordPoolError(f"{label}: no such word pool file; check the path or omit it to use the default pool")
    if not os.path.isfile(label):
        raise WordPoolError(f"{label}: not a file; give the path of a text file with one word per line")
    try:
        with open(label, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise WordPoolError(f"{label}: cannot read the word pool ({_reason(exc)}); check the file's permissions") from exc
    return parse_pool(_decode(data, label), label)


def parse_pool(text: str, source: str = "<pool>") -> tuple[str, ...]:
    """Parse pool text (already decoded); ``source`` names it in error messages."""
    entries: list[str] = []
    first_line: dict[str, int] = {}
    for lineno, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        entry = spelling(raw)
        if not entry or entry.startswith("#"):
            continue
        bad = next((ch for ch in entry if not (ch.isalpha() or ch.isdigit() or ch in _PUNCTUATION)), None)
        if bad is not None:
            raise WordPoolError(
                f"{source}:{lineno}: entry {entry!r} contains {bad!r} (U+{ord(bad):04X}); "
                "use only letters, digits, spaces, hyphens (-), apostrophes ('), full stops (.) and ampersands (&)"
            )
        if not any(ch.isalpha() for ch in entry):
            raise WordPoolError(f"{source}:{lineno}: entry {entry!r} has no letters; remove the line or write a word")
        key = word_key(entry)
        if key in first_line:
            raise WordPoolError(
                f"{source}:{lineno}: duplicate entry {entry!r} (same as line {first_line[key]}, ignoring case); "
                "delete one of the two lines"
            )
        first_line[key] = lineno
        entries.append(entry)
    if len(entries) < MIN_POOL_SIZE:
        raise WordPoolError(
            f"{source}: only {len(entries)} distinct entries, a pool needs at least {MIN_POOL_SIZE} "
            "(one board); add more words, one per line"
        )
    return tuple(entries)


def _decode(data: bytes, label: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        body = exc.object  # without the byte-order mark, if there was one
        offset = exc.start + len(data) - len(body)
        line = body[: exc.start].count(b"\n") + 1
        raise WordPoolError(
            f"{label}:{line}: not valid UTF-8 (byte 0x{body[exc.start]:02X} at offset {offset}); save the file as UTF-8"
        ) from exc


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__
