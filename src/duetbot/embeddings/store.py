"""Where models live and how a model directory is laid out (numpy only).

A model is a directory holding these files::

    model.json    metadata: name, family, dim, sizes, sha256 checksum, provenance, build options
    vectors.npy   (V, d) float16 or float32, rows unit-normalised before the cast
    vocab.txt     V keys, one per line, row order (multiword keys use "_": "ice_cream")
    rows.npy      V records (zipf float32, proper bool, is_clue bool) in row order
    projection.npy  optional (source_dim, d) float32: the build's PCA, so raw source vectors
                    (e.g. a new word embedded with the full MiniLM) can be mapped into the table

Everything is plain numpy so the default model loads in well under half a second without
importing gensim; :attr:`EmbeddingModel.keyed_vectors` wraps the same rows in a gensim
``KeyedVectors`` on first use.

Models are found, in this order:

1. each directory in the ``DUETBOT_MODELS`` environment variable (``os.pathsep``-separated);
2. the per-user models directory (:func:`user_models_dir`: ``$XDG_DATA_HOME/duetbot/models``,
   by default ``~/.local/share/duetbot/models``), where ``duetbot models import`` writes
   when ``DUETBOT_MODELS`` is not set, so an imported model works without configuration;
3. ``duetbot/data/models/`` inside the installed package (what ``pip install`` ships).

``aliases.json`` in any of those directories maps alias names to model names; the first
directory that defines an alias wins. ``default`` is the alias the bots use.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "ENV_VAR",
    "FORMAT_VERSION",
    "META_FILE",
    "VECTORS_FILE",
    "VOCAB_FILE",
    "ROWS_FILE",
    "PROJECTION_FILE",
    "CLUE_ROLE_ROWS_FILE",
    "CLUE_ROLE_VECTORS_FILE",
    "ALIASES_FILE",
    "ROWS_DTYPE",
    "ModelInfo",
    "ModelNotFoundError",
    "ModelFormatError",
    "package_models_dir",
    "user_models_dir",
    "default_import_dir",
    "search_dirs",
    "resolve_model_dir",
    "read_meta",
    "info_from_dir",
    "list_model_dirs",
    "read_aliases",
    "sha256_file",
    "write_model",
]

ENV_VAR = "DUETBOT_MODELS"
FORMAT_VERSION = 1
META_FILE = "model.json"
VECTORS_FILE = "vectors.npy"
VOCAB_FILE = "vocab.txt"
ROWS_FILE = "rows.npy"
PROJECTION_FILE = "projection.npy"
#: Optional: words whose vector as a clue differs from their vector on the board (a two-sided
#: association table: ``smollm``): their rows (int32) and their clue-role vectors.
CLUE_ROLE_ROWS_FILE = "clue_role_rows.npy"
CLUE_ROLE_VECTORS_FILE = "clue_role_vectors.npy"
ALIASES_FILE = "aliases.json"
ROWS_DTYPE = np.dtype([("zipf", "<f4"), ("proper", "?"), ("is_clue", "?")])


class ModelNotFoundError(LookupError):
    """No model directory matches the given name or path."""


class ModelFormatError(ValueError):
    """A model directory is incomplete or its files disagree with each other."""


@dataclass(frozen=True)
class ModelInfo:
    """What ``duetbot models list`` shows; read from ``model.json`` without loading vectors."""

    name: str
    path: Path
    dim: int
    vocab_size: int
    clue_vocab_size: int
    family: str
    checksum: str
    description: str


def package_models_dir() -> Path:
    """``duetbot/data/models`` of the installed package (may not exist in a bare checkout)."""
    return Path(__file__).resolve().parent.parent / "data" / "models"


def user_models_dir() -> Path:
    """The per-user models directory (it need not exist): ``%LOCALAPPDATA%\\duetbot\\models``
    on Windows, ``~/Library/Application Support/duetbot/models`` on macOS, else
    ``$XDG_DATA_HOME/duetbot/models`` (``~/.local/share/duetbot/models`` when unset)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        # the XDG spec says to ignore a relative value
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "duetbot" / "models"


def _env_dirs() -> list[Path]:
    return [Path(part.strip()).expanduser() for part in os.environ.get(ENV_VAR, "").split(os.pathsep)
            if part.strip()]


def default_import_dir() -> tuple[Path, str]:
    """Where a new model goes by default, and why: the first ``DUETBOT_MODELS`` directory,
    else :func:`user_models_dir`. Both are searched, so the model is found by name."""
    env = _env_dirs()
    if env:
        return env[0], f"the first {ENV_VAR} directory"
    return user_models_dir(), "the per-user models directory"


def search_dirs() -> list[Path]:
    """Directories searched for models, highest priority first."""
    dirs = _env_dirs()
    user = user_models_dir()
    if user not in dirs:
        dirs.append(user)
    dirs.append(package_models_dir())
    return dirs


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_aliases() -> dict[str, str]:
    """Alias -> model name, merged over :func:`search_dirs` (earlier directories win)."""
    merged: dict[str, str] = {}
    for d in reversed(search_dirs()):
        f = d / ALIASES_FILE
        if f.is_file():
            try:
                data = json.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(data, dict):
                merged.update({str(k): str(v) for k, v in data.items()})
    return merged


def _is_model_dir(path: Path) -> bool:
    return (path / META_FILE).is_file()


def list_model_dirs() -> list[Path]:
    """Every model directory found, one per name (the first found wins), sorted by name."""
    found: dict[str, Path] = {}
    for d in search_dirs():
        if not d.is_dir():
            continue
        for sub in sorted(d.iterdir()):
            if sub.is_dir() and _is_model_dir(sub) and sub.name not in found:
                found[sub.name] = sub
    return [found[k] for k in sorted(found)]


def resolve_model_dir(name_or_path: str | os.PathLike[str] = "default") -> Path:
    """A model directory from a path, a model name or an alias (``default``)."""
    text = os.fspath(name_or_path)
    path = Path(text).expanduser()
    if _is_model_dir(path):
        return path
    if os.sep in text or text.startswith("."):
        raise ModelNotFoundError(f"no model at {text}: expected a directory containing {META_FILE}")
    aliases = read_aliases()
    name = aliases.get(text, text)
    for d in search_dirs():
        cand = d / name
        if _is_model_dir(cand):
            return cand
    names = sorted({p.name for p in list_model_dirs()} | set(aliases))
    where = ", ".join(str(d) for d in search_dirs())
    shown = ", ".join(names) if names else "none"
    alias_note = f" (alias of {name!r})" if name != text else ""
    raise ModelNotFoundError(
        f"unknown model {text!r}{alias_note}; available: {shown}; searched {where} (set {ENV_VAR} to add directories)"
    )


def read_meta(model_dir: Path) -> dict[str, Any]:
    try:
        meta = json.loads((model_dir / META_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ModelNotFoundError(f"no {META_FILE} in {model_dir}") from exc
    except ValueError as exc:
        raise ModelFormatError(f"{model_dir / META_FILE} is not valid JSON: {exc}") from exc
    if not isinstance(meta, dict) or int(meta.get("format_version", 0)) > FORMAT_VERSION:
        raise ModelFormatError(f"{model_dir / META_FILE}: unsupported model format; upgrade duetbot")
    return meta


def info_from_dir(model_dir: Path) -> ModelInfo:
    meta = read_meta(model_dir)
    try:
        return ModelInfo(
            name=str(meta.get("name", model_dir.name)),
            path=model_dir,
            dim=int(meta["dim"]),
            vocab_size=int(meta["vocab_size"]),
            clue_vocab_size=int(meta["clue_vocab_size"]),
            family=str(meta["family"]),
            checksum=str(meta["checksum"]),
            description=str(meta.get("description", "")),
        )
    except KeyError as exc:
        raise ModelFormatError(f"{model_dir / META_FILE} lacks the field {exc.args[0]!r}") from exc


def write_model(
    out_dir: Path,
    words: list[str],
    vectors: np.ndarray,
    zipf: np.ndarray,
    proper: np.ndarray,
    is_clue: np.ndarray,
    meta: dict[str, Any],
    projection: np.ndarray | None = None,
    clue_roles: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict[str, Any]:
    """Write a model directory; returns the metadata as written (with sizes and checksums).

    ``vectors`` are written as given (cast and normalise before calling). The checksum is
    the sha256 of ``vectors.npy``, so ``sha256sum vectors.npy`` verifies it.
    """
    if any("\n" in w or not w for w in words):
        raise ValueError("vocabulary keys must be non-empty and contain no newline")
    if len(set(words)) != len(words):
        raise ValueError("vocabulary keys must be unique")
    n = len(words)
    if vectors.shape[0] != n or len(zipf) != n or len(proper) != n or len(is_clue) != n:
        raise ValueError("words, vectors and row records must have the same length")
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = np.zeros(n, dtype=ROWS_DTYPE)
    rows["zipf"] = zipf
    rows["proper"] = proper
    rows["is_clue"] = is_clue
    np.save(out_dir / VECTORS_FILE, np.ascontiguousarray(vectors), allow_pickle=False)
    np.save(out_dir / ROWS_FILE, rows, allow_pickle=False)
    (out_dir / VOCAB_FILE).write_text("\n".join(words) + "\n", encoding="utf-8")
    proj = out_dir / PROJECTION_FILE
    if projection is not None:
        np.save(proj, np.ascontiguousarray(projection, dtype=np.float32), allow_pickle=False)
    elif proj.exists():
        proj.unlink()
    files = [VECTORS_FILE, VOCAB_FILE, ROWS_FILE] + ([PROJECTION_FILE] if projection is not None else [])
    if clue_roles is not None:  # (rows, vectors): those words' vectors when read as clues
        role_rows, role_vectors = clue_roles
        if len(role_rows) != len(role_vectors) or role_vectors.shape[1:] != vectors.shape[1:]:
            raise ValueError("clue-role rows and vectors disagree")
        np.save(out_dir / CLUE_ROLE_ROWS_FILE, np.asarray(role_rows, np.int32), allow_pickle=False)
        np.save(out_dir / CLUE_ROLE_VECTORS_FILE, np.ascontiguousarray(role_vectors), allow_pickle=False)
        files += [CLUE_ROLE_ROWS_FILE, CLUE_ROLE_VECTORS_FILE]
    else:
        for stale in (CLUE_ROLE_ROWS_FILE, CLUE_ROLE_VECTORS_FILE):
            (out_dir / stale).unlink(missing_ok=True)
    full = dict(meta)
    full.update(
        format_version=FORMAT_VERSION,
        dim=int(vectors.shape[1]),
        dtype=str(vectors.dtype),
        vocab_size=n,
        clue_vocab_size=int(np.count_nonzero(is_clue)),
        proper_clue_words=int(np.count_nonzero(np.asarray(is_clue) & np.asarray(proper))),
        checksum=sha256_file(out_dir / VECTORS_FILE),
        files={f: {"sha256": sha256_file(out_dir / f), "bytes": (out_dir / f).stat().st_size} for f in files},
    )
    (out_dir / META_FILE).write_text(json.dumps(full, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    return full
