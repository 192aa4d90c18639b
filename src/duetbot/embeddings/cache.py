"""A per-user cache of what the bots derive from their models when a process starts.

An ensemble aligns its families on the clue words they share and turns each family's
float16 table into unit float32 rows (about 0.1 s of every start: ``duetbot play``,
``suggest``, ``serve``, each simulation worker), and a long session indexes those words for
the strict clue check (0.3 s). The results depend on the model files alone, so they are kept
on disk under a key made of the models' files (path, size, modification time), the code that
derives them and :data:`VERSION`, and later processes read them back.

An entry never changes once written: a writer writes a temporary file and renames it into
place, so concurrent processes at worst compute the same thing twice. An entry that cannot
be read is computed again and rewritten; a cache directory that cannot be written is skipped
(the values are computed as without a cache). Loaded values are identical to computed ones.

Where: ``$DUETBOT_CACHE`` if set (``off`` disables the cache), else the platform's per-user
cache directory: ``$XDG_CACHE_HOME/duetbot`` (``~/.cache/duetbot`` when unset),
``~/Library/Caches/duetbot`` on macOS, ``%LOCALAPPDATA%\\duetbot\\cache`` on Windows. It is
safe to delete at any time; it keeps the :data:`KEEP` newest entries of each kind.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from .store import ROWS_FILE, VECTORS_FILE, VOCAB_FILE

CACHE_ENV = "DUETBOT_CACHE"

#: Part of every key: raise it when what is derived (or how) changes.
VERSION = 1

#: Entries kept of each kind (the newest; an older one is computed again if it is needed).
KEEP = 12

#: The kinds of entry this package writes (the directories under the cache directory):
#: ensembles' arrays, the strict clue check's index, which clue words a person would say,
#: the packed association table.
KINDS = ("ensembles", "strict", "said", "associations")


def cache_dir() -> Path | None:
    """The cache directory (it need not exist), or None when ``DUETBOT_CACHE=off``."""
    value = os.environ.get(CACHE_ENV)
    if value is not None and value.strip():
        return None if value.strip().lower() == "off" else Path(value.strip()).expanduser()
    try:
        if sys.platform == "win32":
            return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "duetbot" / "cache"
        if sys.platform == "darwin":
            return Path.home() / "Library" / "Caches" / "duetbot"
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    except RuntimeError:   # no home directory to be found: go on without the cache
        return None
    return base / "duetbot"


def files_stamp(model_dir: Path | None) -> list | None:
    """What identifies a model's files: their resolved path, sizes and modification times
    (None for a model that is not a directory of files)."""
    if model_dir is None:
        return None
    try:
        stats = [(f, s.st_size, s.st_mtime_ns) for f in (VOCAB_FILE, VECTORS_FILE, ROWS_FILE)
                 for s in [(model_dir / f).stat()]]
    except OSError:
        return None
    return [str(model_dir.resolve()), stats]


@lru_cache(maxsize=32)
def code_stamp(*paths: Path) -> str:
    """A digest of the files (source code, data) that compute or feed a derived value, for
    its key: a change to any of them makes a new entry, so an old one is never read by new
    code. Read once per process."""
    h = hashlib.sha256()
    for p in paths:
        h.update(str(p).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


class DerivedCache:
    """One cache entry: named arrays and word lists derived from fixed inputs (``key``:
    JSON-able, None for inputs that cannot be identified, which disables the entry)."""

    def __init__(self, kind: str, key: object | None) -> None:
        base = cache_dir()
        if base is None or key is None:
            self.dir: Path | None = None
        else:
            digest = hashlib.sha256(json.dumps([VERSION, key]).encode()).hexdigest()[:32]
            self.dir = base / kind / digest

    def arrays(self, names: Sequence[str], make: Callable[[], Sequence[np.ndarray]]) -> list[np.ndarray]:
        """The arrays ``names`` (read-only), read from the entry when it has them all, else
        ``make()``'s, written to it. Read whole rather than memory-mapped: the board's
        products over mapped pages ran about 9% slower."""
        values: list[np.ndarray] | None = None
        if self.dir is not None:
            try:
                values = [np.load(self.dir / f"{n}.npy", allow_pickle=False) for n in names]
            except (OSError, ValueError):
                pass
        if values is None:
            values = [np.ascontiguousarray(v) for v in make()]
            for n, v in zip(names, values):
                self._write(f"{n}.npy", lambda f, v=v: np.save(f, v, allow_pickle=False))
        for v in values:
            v.flags.writeable = False
        return values

    def words(self, name: str, make: Callable[[], Iterable[str]]) -> list[str]:
        """A list of words (none empty or with a line break), read or made and written."""
        if self.dir is not None:
            try:
                text = (self.dir / f"{name}.txt").read_text(encoding="utf-8")
                if text.endswith("\n"):      # written whole: a list of words ends with one
                    return text.split("\n")[:-1]
            except (OSError, UnicodeDecodeError):
                pass
        words = list(make())
        self._write(f"{name}.txt", lambda f: f.write(("\n".join(words) + "\n").encode("utf-8")))
        return words

    def json(self, name: str, make: Callable[[], Any]) -> Any:
        """A JSON value, read or made and written."""
        if self.dir is not None:
            try:
                return json.loads((self.dir / f"{name}.json").read_bytes())
            except (OSError, ValueError):
                pass
        value = make()
        self._write(f"{name}.json", lambda f: f.write(json.dumps(value, separators=(",", ":")).encode("utf-8")))
        return value

    def _write(self, name: str, write: Callable) -> None:
        if self.dir is None:
            return
        tmp = None
        try:
            if not self.dir.is_dir():
                self.dir.mkdir(parents=True, exist_ok=True)
                _prune(self.dir.parent)
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=f".{name}.")
            with os.fdopen(fd, "wb") as f:
                write(f)
            os.replace(tmp, self.dir / name)
        except OSError:   # a read-only or full disk: go on without the cache
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


def _entry_dirs(kind_dir: Path) -> list[Path]:
    """The entries of one kind, oldest first (none if the directory cannot be read)."""
    try:
        return sorted((p for p in kind_dir.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime_ns)
    except OSError:
        return []


def entries() -> list[tuple[str, Path, int]]:
    """(kind, directory, bytes) of every entry in the cache, oldest first."""
    base = cache_dir()
    if base is None:
        return []
    return [(kind, d, sum(f.stat().st_size for f in d.iterdir() if f.is_file()))
            for kind in KINDS for d in _entry_dirs(base / kind)]


def clear() -> tuple[int, int]:
    """Delete every entry; returns (entries, bytes) deleted."""
    found = entries()
    for _, d, _ in found:
        shutil.rmtree(d, ignore_errors=True)
    return len(found), sum(n for _, _, n in found)


def _prune(kind_dir: Path) -> None:
    """Delete all but the :data:`KEEP` newest entries of one kind (a new model or new code
    makes new entries; the old ones would pile up)."""
    for old in _entry_dirs(kind_dir)[:-KEEP]:
        shutil.rmtree(old, ignore_errors=True)
