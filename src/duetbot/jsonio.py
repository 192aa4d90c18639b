"""Reading JSON from outside (requests, ``--game`` files, saves, record files) safely.

Every reader of outside input goes through :func:`loads` (or :func:`read_json_file`), which
turns anything it cannot take into a one-line :class:`JSONInputError` instead of a crash:
bytes that are not UTF-8, a leading byte order mark (stripped, then read), lines longer
than a bound, text that is not JSON, ``NaN`` / ``Infinity`` and numbers beyond a float's
range (not JSON, or not a finite number), integers longer than Python's digit limit
(``sys.get_int_max_str_digits()``), and nesting deeper than :data:`MAX_DEPTH` (which would
otherwise end in a ``RecursionError`` here or in later code). :func:`dumps` writes strict
JSON (``allow_nan=False``). :func:`iter_lines` reads a byte stream line by line without
ever holding more than one bounded line in memory.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any, BinaryIO, Iterator

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted (a request needs 3)."""
MAX_LINE_BYTES = 1 << 20
"""Longest JSON line accepted (1 MiB; a request is a few kilobytes)."""
MAX_FILE_BYTES = 64 << 20
"""Largest JSON file read whole (a saved game is a few kilobytes)."""

BOM = "\ufeff"


class JSONInputError(ValueError):
    """Outside input that is not JSON we can read; the message is one line. ``syntax`` is
    true when the text is not UTF-8 JSON at all (as a write cut short leaves it), false when
    it is JSON beyond a bound (nesting, digits, length, NaN or Infinity)."""

    def __init__(self, message: str, syntax: bool = False) -> None:
        super().__init__(message)
        self.syntax = syntax


class LineTooLong:
    """What :func:`iter_lines` yields for a line over its bound (the line itself is skipped)."""

    def __init__(self, size: int) -> None:
        self.size = size


def _constant(name: str) -> Any:
    raise JSONInputError(f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is too large")
    return value


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (0 for a scalar), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((c, level + 1) for c in children if isinstance(c, (dict, list)))
    return deepest


def loads(text: str | bytes, max_chars: int | None = MAX_LINE_BYTES) -> Any:
    """``text`` (UTF-8 bytes or str, a leading BOM allowed) as a JSON value; raises
    :class:`JSONInputError` with a one-line reason for anything else."""
    if isinstance(text, (bytes, bytearray)):
        if max_chars is not None and len(text) > max_chars:
            raise JSONInputError(f"too long: {len(text)} bytes, more than {max_chars}")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError(f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at position {exc.start})",
                                 syntax=True) from None
    if text.startswith(BOM):
        text = text[1:]
    if max_chars is not None and len(text) > max_chars:
        raise JSONInputError(f"too long: {len(text)} characters, more than {max_chars}")
    try:
        value = json.loads(text, parse_constant=_constant, parse_float=_float)
    except JSONInputError as exc:
        raise JSONInputError(f"not JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}" if exc.lineno > 1 else f"column {exc.colno}"
        raise JSONInputError(f"not JSON: {exc.msg} at {where}", syntax=True) from None
    except RecursionError:
        raise JSONInputError(f"not JSON we read: nested more than {MAX_DEPTH} levels deep") from None
    except ValueError:  # an integer beyond the digit limit (sys.set_int_max_str_digits)
        raise JSONInputError(f"not JSON we read: a number has more than {_digit_limit()} digits") from None
    if depth(value) > MAX_DEPTH:
        raise JSONInputError(f"not JSON we read: nested more than {MAX_DEPTH} levels deep")
    return value


def _digit_limit() -> int:
    get = getattr(sys, "get_int_max_str_digits", None)
    return get() if get is not None else 4300


def read_json_file(path: Path, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The JSON value in the file ``path``. Raises :class:`JSONInputError` (one line, naming
    the file) if it cannot be read or is not JSON we can read."""
    try:
        with Path(path).open("rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise JSONInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise JSONInputError(f"{path} is larger than {max_bytes} bytes")
    try:
        return loads(data, max_chars=None)
    except JSONInputError as exc:
        raise JSONInputError(f"{path}: {exc}", exc.syntax) from None


def dumps(value: Any, **kwargs: Any) -> str:
    """Strict JSON (no NaN or Infinity); raises ``ValueError`` / ``TypeError`` otherwise."""
    return json.dumps(value, allow_nan=False, **kwargs)


def iter_lines(stream: BinaryIO, max_bytes: int = MAX_LINE_BYTES) -> Iterator[bytes | LineTooLong]:
    """The lines of a byte stream without their newline, each at most ``max_bytes`` long; a
    longer line is read past in chunks and yields :class:`LineTooLong` instead."""
    while True:
        line = stream.readline(max_bytes + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
            continue
        if len(line) <= max_bytes:  # the last line, without a newline
            yield line
            continue
        size = len(line)
        while not line.endswith(b"\n"):
            line = stream.readline(1 << 16)
            if not line:
                break
            size += len(line)
        yield LineTooLong(size - line.endswith(b"\n"))


__all__ = ["BOM", "JSONInputError", "LineTooLong", "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_LINE_BYTES", "depth",
           "dumps", "iter_lines", "loads", "read_json_file", "short"]


def short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for one-line error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
