"""Import people's own word vectors into the model store, read through gensim's loaders.

``duetbot models import PATH`` calls :func:`import_vectors`: it reads a word2vec file (text
or binary), a GloVe text file (no header line), a fastText ``.vec`` file or a gensim
``KeyedVectors`` file (``KeyedVectors.save``; a saved ``Word2Vec`` / ``FastText`` model gives
its ``.wv``), and writes a model directory in the store format (:mod:`.store`), so the bots
think with it like with a shipped family (``model=NAME`` in a partner spec).

For example, with a 300-dimensional file of one's own (``tests/test_import_vectors.py``
writes small ones of every format)::

    result = import_vectors("vectors.txt", name="myvectors")
    load_model("myvectors").vector("ocean").shape          # (300,)

What is kept, and why:

* **Lookup vocabulary and clue vocabulary**: :func:`.vocab.build_vocabulary`, as for the
  shipped models: the 50,000 most frequent lowercase alphabetic English words the file knows
  (keys are matched case-insensitively; the most frequent case form gives the vector), every
  word of the shipped pool and the parts and phrase keys (``ice_cream``) of its multiword
  entries, clue candidates by :func:`.vocab.clue_reject_reason`. Frequencies come from
  wordfreq when it is installed (the ``duetbot[build]`` extra); without it, from the file's own
  row order (word2vec, GloVe and fastText files are written most frequent first) on
  wordfreq's scale (:func:`.vocab.pseudo_zipf`), and ``model.json`` says so.
* **Proper-noun flags** come from the file's own case-sensitive keys where it has them (the
  rule the shipped builds apply to spaCy's key table); a lowercased file flags none.
* **Vectors** are unit-normalised and stored as float16, like the shipped tables (float16
  alone moves cosines by ~3e-5: docs/models.md); no dimensionality reduction.
* **Fallback for words the file lacks**: maps from the subword table into the new space are
  fitted here, measured on held-out words (:func:`.subword.fit_and_measure`) and kept in the
  model directory, so the first unknown board word costs no fitting at play time.

Only :func:`import_vectors` and :func:`read_vectors` import gensim (the ``duetbot[gensim]``
extra); the rest of the package never does.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import platform
import re
import shutil
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Sequence

import numpy as np

from ..embeddings import store
from ..embeddings.vocab import build_vocabulary, pool_entries, pseudo_zipf
from ..words import fold_accents, word_key
from .models import _quality, _unit

__all__ = [
    "FORMATS",
    "GENSIM_EXTRA",
    "MIN_BOARD_WORDS",
    "MIN_CLUE_WORDS",
    "GensimMissingError",
    "ImportResult",
    "VectorFileError",
    "check_name",
    "default_name",
    "detect_format",
    "import_vectors",
    "read_vectors",
]

#: The formats :func:`read_vectors` reads; ``auto`` picks one with :func:`detect_format`.
FORMATS = ("word2vec", "word2vec-binary", "glove", "fasttext", "keyedvectors")
GENSIM_EXTRA = "duetbot[gensim]"

#: Fewest lookup words: one board. Board words a model lacks still get vectors from the
#: fallback, but a table smaller than a board is not a model of English.
MIN_BOARD_WORDS = 25
#: Fewest clue candidates. A floor, not a quality bar: a board's 25 words and their forms
#: are illegal clues, and below ~100 candidates most boards leave a spymaster nothing
#: that reaches two of its greens.
MIN_CLUE_WORDS = 100
#: Rows kept from the file's most frequent words, as for the shipped models (pool words come on top).
DEFAULT_VOCAB_SIZE = 50000
#: Rarest zipf frequency kept (the shipped builds' setting).
MIN_ZIPF = 1.5
#: A capitalised key must come this many times earlier than the lowercase one to flag a
#: proper noun: the shipped builds' rule (``build.SpacyTable.CASE_RATIO``, chosen by eye on
#: spaCy's table) applied to the file's own key order.
CASE_RATIO = 10

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_COMPRESSION = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}
_KEYED_SUFFIXES = (".kv", ".model", ".wv", ".kvmodel", ".pkl", ".pickle")
#: The first four bytes of a fastText ``.bin`` model (its magic number, little-endian int32).
_FASTTEXT_MAGIC = struct.pack("<i", 793712314)
_WORDLIKE = re.compile(r"^[a-z]+([_-][a-z]+)*$")
_ALPHA = re.compile(r"^[a-z]+$")

Log = Callable[[str], None]


class VectorFileError(ValueError):
    """A vector file that cannot be imported; the message is one line saying what to do."""


class GensimMissingError(VectorFileError):
    """gensim is not installed."""

    def __init__(self) -> None:
        super().__init__(f"reading vector files needs gensim: pip install '{GENSIM_EXTRA}'")


@dataclass(frozen=True)
class ImportResult:
    """What :func:`import_vectors` wrote: the model directory and its ``model.json``."""

    name: str
    path: Path
    meta: dict[str, Any]
    #: why the model went where it did ("the per-user models directory", "--out")
    where: str
    #: the model directory ``load_model(name)`` finds (another one may shadow this one)
    resolves_to: Path | None
    #: one line on the fallback for words the file lacks (held-out agreement of its maps)
    fallback_note: str


def _gensim():
    try:
        from gensim.models import KeyedVectors
    except ImportError as exc:
        raise GensimMissingError() from exc
    return KeyedVectors


# ---------------------------------------------------------------------------------------
# Formats


def _opener(path: Path) -> Callable[..., IO[bytes]]:
    return _COMPRESSION.get(path.suffix.lower(), open)  # type: ignore[return-value]


def _inner_suffix(path: Path) -> str:
    """The suffix that names the format: ``vectors.vec.gz`` -> ``.vec``."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in _COMPRESSION:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def _check_file(path: Path) -> None:
    if not path.exists():
        raise VectorFileError(f"no file {path}")
    if path.is_dir():
        raise VectorFileError(f"{path} is a directory; pass the vector file itself")
    if not os.access(path, os.R_OK):
        raise VectorFileError(f"cannot read {path}: permission denied")


def _head(path: Path, size: int = 1 << 16) -> bytes:
    try:
        with _opener(path)(path, "rb") as fh:
            return fh.read(size)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise VectorFileError(f"cannot read {path}: {exc}") from exc


def _floats(fields: Sequence[str]) -> bool:
    try:
        [float(f) for f in fields]
    except ValueError:
        return False
    return True


def _header(line: bytes) -> tuple[int, int] | None:
    """``(count, dim)`` from a word2vec/fastText header line, else ``None``."""
    parts = line.split()
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        return int(parts[0]), int(parts[1])
    return None


def _text_rows(rest: bytes, dim: int) -> bool:
    """Do the bytes after a header look like text rows (rather than word2vec binary)?"""
    if b"\0" in rest:
        return False
    lines = rest.split(b"\n")
    complete = lines[:-1] if len(lines) > 1 else lines  # the last piece may be cut mid-row
    for raw in complete[:20]:
        try:
            fields = raw.decode("utf-8").split()
        except UnicodeDecodeError:
            return False  # raw float32 bytes are almost never valid UTF-8
        if fields and not _floats(fields[1:]):
            return False
    return True


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of a vector file, from its content and suffix (compressed files too).

    Raises :class:`VectorFileError` naming ``--format`` when the file does not say.
    """
    p = Path(path)
    _check_file(p)
    head = _head(p)
    if not head.strip():
        raise VectorFileError(f"{p} is empty")
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return "keyedvectors"  # a pickle: what KeyedVectors.save / Word2Vec.save write
    if head[:4] == _FASTTEXT_MAGIC:
        raise VectorFileError(f"{p} is a fastText binary model; import the .vec file fastText writes "
                              "beside it (same name, .vec)")
    suffix = _inner_suffix(p)
    first, _, rest = head.partition(b"\n")
    dims = _header(first)
    if dims is not None:
        if _text_rows(rest, dims[1]):
            return "fasttext" if suffix == ".vec" else "word2vec"
        return "word2vec-binary"
    try:
        fields = first.decode("utf-8").split()
    except UnicodeDecodeError:
        fields = []
    if len(fields) >= 3 and _floats(fields[1:]):
        return "glove"
    if suffix in _KEYED_SUFFIXES:
        return "keyedvectors"
    shown = first[:40].decode("utf-8", "replace")
    raise VectorFileError(f"cannot tell the format of {p} (its first line starts {shown!r}); "
                          "pass --format word2vec, word2vec-binary, glove, fasttext or keyedvectors")


# ---------------------------------------------------------------------------------------
# Reading through gensim


def _diagnose_text(path: Path, header: bool) -> str | None:
    """The first line of a text vector file that gensim could not read, as one sentence (the
    slow scan runs only after gensim failed, so a good file is read once)."""
    dim = None
    promised = None
    rows = 0
    try:
        with _opener(path)(path, "rb") as fh:
            for n, raw in enumerate(fh, 1):
                fields = raw.decode("utf-8", "replace").split()
                if n == 1 and header:
                    hd = _header(raw)
                    if hd is None:
                        return "line 1 is not a 'count dimensions' header (is it GloVe text? pass --format glove)"
                    promised, dim = hd
                    continue
                if not fields:
                    continue
                rows += 1
                values = fields[1:]
                if dim is None:
                    dim = len(values)
                if len(values) != dim:
                    return (f"line {n}: {len(values)} numbers after {fields[0][:30]!r} where the file's vectors "
                            f"have {dim} (dimension mismatch)")
                bad = next((v for v in values if not _floats([v])), None)
                if bad is not None:
                    return f"line {n}: {bad[:20]!r} after {fields[0][:30]!r} is not a number"
    except (OSError, EOFError, lzma.LZMAError) as exc:
        return f"cannot read it: {exc}"
    if promised is not None and rows < promised:
        return f"the header promises {promised} vectors but the file holds {rows} (is it cut short?)"
    return None


def read_vectors(path: str | os.PathLike[str], fmt: str = "auto",
                 limit: int | None = None) -> tuple[list[str], np.ndarray, str]:
    """``(keys, float32 vectors, format)`` of a vector file, read with gensim's own loaders:
    ``KeyedVectors.load_word2vec_format`` (``binary`` for word2vec-binary, ``no_header`` for
    GloVe text) or ``KeyedVectors.load``. ``limit``: read only the first ``limit`` vectors.

    Raises :class:`GensimMissingError` or :class:`VectorFileError` (one line each).
    """
    p = Path(path)
    _check_file(p)
    if fmt == "auto":
        fmt = detect_format(p)
    elif fmt not in FORMATS:
        raise VectorFileError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)} or auto")
    KeyedVectors = _gensim()
    binary = fmt == "word2vec-binary"
    try:
        if fmt == "keyedvectors":
            # a pickle: gensim's own format, which runs code when loaded: the caller trusts the file
            obj = KeyedVectors.load(str(p), mmap="r")
            kv = getattr(obj, "wv", obj)
            if not isinstance(kv, KeyedVectors):
                raise VectorFileError(f"{p} holds a {type(obj).__name__}, not gensim KeyedVectors")
            keys = list(kv.index_to_key[:limit] if limit else kv.index_to_key)
            vectors = np.asarray(kv.vectors[: len(keys)], dtype=np.float32)
        else:
            # unicode_errors="replace": one badly encoded key (common in word2vec binaries)
            # should cost that key, not the file; such keys are not alphabetic and drop out
            kv = KeyedVectors.load_word2vec_format(str(p), binary=binary, no_header=fmt == "glove",
                                                   limit=limit, unicode_errors="replace")
            keys = list(kv.index_to_key)
            vectors = np.asarray(kv.vectors, dtype=np.float32)
    except VectorFileError:
        raise
    except MemoryError as exc:
        raise VectorFileError(f"{p} does not fit in memory; read fewer vectors with --limit N") from exc
    except Exception as exc:  # gensim's errors name no line and no fix: say what went wrong
        raise VectorFileError(_explain(p, fmt, exc)) from exc
    if vectors.ndim != 2 or vectors.shape[0] != len(keys):
        raise VectorFileError(f"{p}: {len(keys)} keys but vectors of shape {vectors.shape}")
    _check_keys(p, fmt, keys)
    return keys, vectors, fmt


def _explain(path: Path, fmt: str, exc: Exception) -> str:
    text = f"{type(exc).__name__}: {exc}".replace("\n", " ")
    if fmt == "keyedvectors":
        return (f"{path} is not a gensim KeyedVectors file ({text[:120]}); for a text or binary vector "
                "file pass --format word2vec, word2vec-binary, glove or fasttext")
    if fmt == "word2vec-binary":
        if isinstance(exc, (EOFError, ValueError)):
            return (f"{path} does not read as word2vec-binary ({text[:120]}); if it is text, pass "
                    "--format word2vec (with a 'count dimensions' first line) or glove (without)")
        return f"cannot read {path} as word2vec-binary: {text[:160]}"
    if isinstance(exc, UnicodeDecodeError):
        return f"{path} is not UTF-8 text; if it is word2vec binary, pass --format word2vec-binary"
    found = _diagnose_text(path, header=fmt != "glove")
    if found:
        return f"{path} ({fmt}): {found}"
    return f"cannot read {path} as {fmt}: {text[:160]}"


def _check_keys(path: Path, fmt: str, keys: Sequence[str]) -> None:
    """A file read in the wrong format can "succeed" with garbage keys (text read as binary
    swallows several rows per key): refuse it rather than import noise."""
    sample = keys[:1000]
    broken = sum(1 for k in sample if not k or any(ch.isspace() for ch in k))
    if sample and broken > len(sample) // 10:
        hint = ("pass --format word2vec or glove if it is text" if fmt == "word2vec-binary"
                else "pass the --format it was written in")
        raise VectorFileError(f"{path} does not read as {fmt}: {broken} of its first {len(sample)} keys hold "
                              f"spaces or line breaks; {hint}")


# ---------------------------------------------------------------------------------------
# Names and places


def default_name(path: str | os.PathLike[str]) -> str:
    """A model name from a file name: ``GoogleNews-vectors-negative300.bin.gz`` ->
    ``googlenews-vectors-negative300``."""
    name = Path(path).name.lower()
    for _ in range(2):
        stem, dot, suffix = name.rpartition(".")
        if dot and ("." + suffix in _COMPRESSION or "." + suffix in (".txt", ".vec", ".bin", *_KEYED_SUFFIXES)):
            name = stem
    name = re.sub(r"[^a-z0-9_.-]+", "-", name).strip("-._")
    return name[:64] or "vectors"


def _shipped_families() -> set[str]:
    out = set()
    for d in store.package_models_dir().iterdir() if store.package_models_dir().is_dir() else ():
        if (d / store.META_FILE).is_file():
            try:
                out.add(str(store.read_meta(d).get("family", d.name)))
            except (store.ModelFormatError, store.ModelNotFoundError):
                continue
    return out


def check_name(name: str, out_dir: Path, force: bool = False) -> None:
    """Refuse a model name that cannot be written to ``out_dir`` or used in a partner spec.

    An alias (``default``) or a shipped family's name (the bots give those families roles
    of their own: ``minilm`` is the space of the fallback) is never taken; an existing model
    of that name is replaced or shadowed only with ``force``; a directory that is not a model
    is never replaced.
    """
    if not _NAME.match(name):
        raise VectorFileError(f"bad model name {name!r}: use letters, digits, '-', '_' and '.', starting with a "
                              "letter or digit (a partner spec reads '+', ',' and '=')")
    aliases = store.read_aliases()
    if name in aliases:
        raise VectorFileError(f"{name!r} is an alias (of {aliases[name]!r}); choose another --name")
    if name in _shipped_families():
        raise VectorFileError(f"{name!r} is the family of a shipped model; choose another --name")
    target = out_dir / name
    if target.exists() and not (target / store.META_FILE).is_file():
        raise VectorFileError(f"{target} exists and is not a model directory; choose another --name")
    if force:
        return
    for d in store.search_dirs() + [out_dir]:
        if (d / name / store.META_FILE).is_file():
            raise VectorFileError(f"a model named {name!r} already exists at {d / name}; pass --force to replace "
                                  "it, or --name to choose another name")


# ---------------------------------------------------------------------------------------
# The file's own vocabulary


class _FileVocabulary:
    """Case-insensitive access to a file's keys, in its row order (most frequent first)."""

    def __init__(self, keys: Sequence[str], usable: np.ndarray | None = None) -> None:
        self.row: dict[str, int] = {}      # lowercase key -> row of its first (most frequent) form
        self.position: dict[str, int] = {}  # exact key -> row
        self.best_form: dict[str, str] = {}
        self.cased = False
        for i, key in enumerate(keys):
            if usable is not None and not usable[i]:
                continue
            self.position.setdefault(key, i)
            low = key.lower()
            if low != key:
                self.cased = True
            for k in (low, fold_accents(low)):  # CAFÉ's vector also answers for "cafe"
                if k not in self.row:
                    self.row[k] = i
                    self.best_form[k] = key
        # word-like keys in row order, each once: the file's own frequency ranking
        self.ranked = [k for k in self.row if _WORDLIKE.match(k)]
        self.rank = {k: r for r, k in enumerate(self.ranked, 1)}

    def knows(self, word: str) -> bool:
        return word in self.row

    def knows_phrase(self, entry: str) -> bool:
        return "_".join(entry.split()) in self.row

    def frequent(self) -> list[str]:
        return [k for k in self.ranked if _ALPHA.match(k)]

    def zipf(self, text: str) -> float:
        parts = text.split()
        for key in ("_".join(parts), "-".join(parts), "".join(parts)):
            r = self.rank.get(key)
            if r is not None:
                return pseudo_zipf(r)
        return 0.0

    def case_form(self, word: str) -> str | None:
        """How ``word`` is usually written in the file (the shipped builds' rule: a capitalised
        or upper-case form wins when it comes :data:`CASE_RATIO` times earlier)."""
        if not self.cased:
            return None
        lower = self.position.get(word)
        others = []
        for form in {self.best_form.get(word, word), word[:1].upper() + word[1:], word.upper()}:
            pos = self.position.get(form)
            if pos is not None and form != word:
                others.append((pos, form))
        if not others:
            return None if lower is None else "lower"
        pos, best = min(others)
        # positions count from 0: add 1 so the top row is comparable at all
        if lower is None or (pos + 1) * CASE_RATIO < lower + 1:
            if len(best) > 1 and best.isupper():
                return "upper"
            if best[:1].isupper() and best[1:].islower():
                return "title"
            return "mixed"
        return "lower"


# ---------------------------------------------------------------------------------------
# Importing


def _version(dist: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _have_wordfreq() -> bool:
    import importlib.util

    return importlib.util.find_spec("wordfreq") is not None


def _fallback_maps(model_dir: Path, log: Log) -> tuple[dict[str, Any] | None, str]:
    """Fit, measure and store the subword fallback maps of the model at ``model_dir``;
    returns ``(model.json's subword_map record or None, a line for the user)``."""
    from ..embeddings.model import load_model
    from ..embeddings.subword import MODEL_MAP_FILE, SOURCE_FAMILY, fit_and_measure, load_subword, save_model_maps

    try:
        subword = load_subword()
        source = load_model(SOURCE_FAMILY)
    except (store.ModelNotFoundError, store.ModelFormatError) as exc:
        return None, f"no fallback maps: {exc} (words the model lacks will be fitted when first needed)"
    model = load_model(model_dir, mmap=False)
    sub_map, real_map, report = fit_and_measure(subword, model, source)
    if sub_map is None:
        return None, "no fallback maps needed"
    save_model_maps(model_dir, sub_map, real_map)
    record = {"file": MODEL_MAP_FILE, "model_checksum": model.meta.get("checksum"),
              "subword_sha256": subword.identity, "minilm_checksum": source.meta.get("checksum"),
              "maps": ["sub"] + (["real"] if real_map is not None else []), "held_out": report}

    def fig(key: str) -> str | None:
        f = report.get(key)
        return None if not f else f"r {f['r']:.2f}, top-10 overlap {f['top10']:.2f}"

    parts = [f"{label} {text}" for label, text in (("from the spelling", fig("from_spelling")),
                                                   ("from MiniLM's vector", fig("from_minilm"))) if text]
    line = (f"fallback for words it lacks: held-out agreement ({report['held_out_words']} words) "
            + ("; ".join(parts) if parts else "not measured (too few words)"))
    return record, line


def import_vectors(
    path: str | os.PathLike[str],
    name: str | None = None,
    *,
    fmt: str = "auto",
    out_dir: Path | None = None,
    limit: int | None = None,
    vocab_size: int = DEFAULT_VOCAB_SIZE,
    force: bool = False,
    fallback: bool = True,
    log: Log = lambda s: None,
) -> ImportResult:
    """Read a vector file with gensim and write it to ``out_dir/name`` as a model.

    ``out_dir`` defaults to :func:`.store.default_import_dir` (the first ``DUETBOT_MODELS``
    directory, else the per-user models directory); ``name`` to the file's name. With
    ``fallback`` the subword maps for words the file lacks are fitted and measured now.
    The directory appears whole or not at all (it is written beside and renamed).
    Raises :class:`VectorFileError` (or :class:`GensimMissingError`) with a one-line message.
    """
    started = time.perf_counter()
    src = Path(path).expanduser()
    _check_file(src)
    if limit is not None and limit < 1:
        raise VectorFileError("--limit must be at least 1")
    if out_dir is None:
        out_root, where = store.default_import_dir()
    else:
        out_root, where = Path(out_dir).expanduser(), "the --out directory"
    name = name or default_name(src)
    check_name(name, out_root, force)
    _gensim()  # say "pip install" before reading a large file

    if fmt == "auto":
        fmt = detect_format(src)
        log(f"{src.name}: {fmt} format (pass --format to override)")
    log(f"reading {src} with gensim ...")
    keys, vectors, fmt = read_vectors(src, fmt, limit)
    n_read, dim = vectors.shape
    log(f"read {n_read:,} vectors of {dim} dimensions ({time.perf_counter() - started:.1f} s)")
    if n_read < MIN_BOARD_WORDS:
        raise VectorFileError(f"{src} holds {n_read} vectors; a model needs at least {MIN_BOARD_WORDS} words "
                              f"and {MIN_CLUE_WORDS} clue candidates")
    if dim < 2:
        raise VectorFileError(f"{src} holds vectors of {dim} dimension; a model needs at least 2")

    finite = np.all(np.isfinite(vectors), axis=1)
    nonzero = np.any(vectors != 0, axis=1)
    # a zero or non-finite row has no direction: its key is left out rather than given a made-up one
    usable = finite & nonzero
    dropped = {"non_finite": int((~finite).sum()), "zero": int((finite & ~nonzero).sum())}

    fv = _FileVocabulary(keys, usable)
    pool_raw = _pool()
    with_wordfreq = _have_wordfreq()
    log("choosing the vocabulary" + (" (wordfreq frequencies) ..." if with_wordfreq else
                                     " (wordfreq not installed: ranking by the file's own order) ..."))
    vocab = build_vocabulary(fv.knows, vocab_size, pool_raw, fv.case_form, MIN_ZIPF, fv.knows_phrase,
                             frequent=None if with_wordfreq else fv.frequent(),
                             zipf_of=None if with_wordfreq else fv.zipf)
    n_clue = int(sum(vocab.is_clue))
    if len(vocab.words) < MIN_BOARD_WORDS or n_clue < MIN_CLUE_WORDS:
        raise VectorFileError(f"only {len(vocab.words)} of the {n_read:,} keys in {src.name} are English words the "
                              f"bots can use ({n_clue} clue candidates); a model needs at least {MIN_BOARD_WORDS} "
                              f"words and {MIN_CLUE_WORDS} clue candidates")
    log(f"vocabulary: {len(vocab.words):,} words, {n_clue:,} clue candidates")

    raw = _unit(vectors[[fv.row[w] for w in vocab.words]])
    stored = raw.astype(np.float16)
    quality = _quality(raw, _unit(stored), vocab.words, np.flatnonzero(np.asarray(vocab.is_clue)))
    pool_norm = {word_key(p) for p in pool_raw}
    gensim_call = ("KeyedVectors.load(mmap='r')" if fmt == "keyedvectors" else
                   f"KeyedVectors.load_word2vec_format(binary={fmt == 'word2vec-binary'}, "
                   f"no_header={fmt == 'glove'}, limit={limit}, unicode_errors='replace')")
    frequencies = ("wordfreq 'en' zipf frequencies (data CC BY-SA 4.0)" if with_wordfreq else
                   "pseudo-frequencies from the file's own row order (wordfreq not installed): "
                   "duetbot.embeddings.vocab.pseudo_zipf(rank among its word-like keys)")
    meta: dict[str, Any] = {
        "name": name,
        "family": name,
        "description": f"imported from {src.name} ({fmt}, {dim}d)",
        "source": {
            "file": src.name, "path": str(src.resolve()), "format": fmt, "bytes": src.stat().st_size,
            "sha256": store.sha256_file(src), "vectors_read": int(n_read), "limit": limit,
            "package": "gensim", "version": _version("gensim"), "loader": f"gensim {gensim_call}",
            "licence": "that of the imported file (not recorded)", "attribution": "",
        },
        "source_dim": int(dim),
        "reduction": None,
        "imported": True,
        "build": {
            "command": "duetbot models import",
            "vocab_size": vocab_size,
            "min_zipf": MIN_ZIPF,
            "pca": None,
            "dtype": "float16",
            "frequencies": frequencies,
            "frequencies_from_wordfreq": with_wordfreq,
            "rows_dropped": dropped,
            "pool_file": "words.txt",
            "pool_entries": len(pool_norm),
            "pool_not_covered": sorted(vocab.missing_pool),
            "vocabulary_stats": vocab.stats,
            "versions": {d: _version(d) for d in ("gensim", "numpy", "wordfreq")},
            "python": platform.python_version(),
        },
        "clue_vocabulary": {
            "source": frequencies,
            "filters": "lowercase alphabetic, length >= 3, no stopword/junk/acronym/blocklisted word",
            "proper_noun_flag": ("the file's most frequent written form is Capitalised or MiXed "
                                 f"({CASE_RATIO}x earlier than the lowercase key)" if fv.cased else
                                 "none: the file's keys are all lowercase"),
        },
        "quality_vs_full_precision_source": quality,
    }

    out_root.mkdir(parents=True, exist_ok=True)
    final = out_root / name
    tmp = out_root / f".{name}.importing-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        log(f"writing {final} ...")
        written = store.write_model(tmp, vocab.words, stored, np.asarray(vocab.zipf, np.float32),
                                    np.asarray(vocab.proper, bool), np.asarray(vocab.is_clue, bool), meta)
        note = "no fallback maps (--no-fallback)"
        if fallback:
            log("fitting the fallback for words it lacks ...")
            record, note = _fallback_maps(tmp, log)
            if record is not None:
                written = _add_to_meta(tmp, {"subword_map": record}, record["file"])
        if final.exists():
            shutil.rmtree(final)  # check_name let it through: a model, and --force was given
        os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    try:
        resolves_to: Path | None = store.resolve_model_dir(name)
    except store.ModelNotFoundError:
        resolves_to = None
    log(f"done in {time.perf_counter() - started:.1f} s")
    return ImportResult(name, final, written, where, resolves_to, note)


def _pool() -> list[str]:
    """The shipped pool's entries (the vocabulary covers them, as the shipped builds do)."""
    from importlib import resources

    text = resources.files("duetbot").joinpath("data/words.txt").read_text(encoding="utf-8")
    return pool_entries(text.splitlines())


def _add_to_meta(model_dir: Path, fields: dict[str, Any], new_file: str) -> dict[str, Any]:
    """Add fields and one more file's checksum to a written ``model.json``."""
    meta = store.read_meta(model_dir)
    meta.update(fields)
    f = model_dir / new_file
    meta.setdefault("files", {})[new_file] = {"sha256": store.sha256_file(f), "bytes": f.stat().st_size}
    (model_dir / store.META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
    return meta
