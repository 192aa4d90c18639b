"""The run-time embedding model: word vectors, the clue vocabulary, board similarities.

>>> m = load_model("glove50")
>>> m.similarity(["dog"], ["puppy", "algebra"]).round(2)
array([[ 0.78, -0.05]], dtype=float32)
>>> m.clue_board_similarity(["LOCH NESS", "ICE CREAM"]).shape
(47698, 2)

Only numpy is needed; gensim is imported the first time :attr:`EmbeddingModel.keyed_vectors`
is used.
"""

from __future__ import annotations

import difflib
import os
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from . import store
from .store import ModelFormatError, ModelInfo
from ..words import fold_accents, word_key
from .vocab import entry_parts, phrase_key

if TYPE_CHECKING:  # pragma: no cover
    from gensim.models import KeyedVectors

__all__ = ["UnknownWordError", "EmbeddingModel", "load_model", "available_models", "model_info", "coverage",
           "translate_vectors", "fit_map"]


class UnknownWordError(ValueError):
    """A word the model has no vector for. One line naming the word, the model and close spellings."""

    def __init__(self, word: str, model: str, suggestions: Sequence[str] = (), missing: Sequence[str] = ()):
        self.word = word
        self.model = model
        self.suggestions = list(suggestions)[:5]
        self.missing = list(missing)
        msg = f"unknown word {word!r} for model {model!r}"
        if self.missing and self.missing != [word_key(word)]:
            msg += " (no vector for " + ", ".join(repr(m) for m in self.missing) + ")"
        if self.suggestions:
            msg += "; did you mean: " + ", ".join(self.suggestions) + "?"
        super().__init__(msg)


#: How many looked-up rows a model keeps normalised (a few hundred kilobytes a family).
ROW_CACHE_SIZE = 4096


def _unit_rows(a: np.ndarray) -> np.ndarray:
    """float32 copy of ``a`` with unit-norm rows (zero rows stay zero)."""
    out = np.array(a, dtype=np.float32, order="C", copy=True)
    norms = np.linalg.norm(out, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    out /= norms
    return out


class EmbeddingModel:
    """Unit-normalised word vectors plus the clue vocabulary of one embedding family.

    Attributes: ``name``, ``family`` (e.g. ``"glove"``; partners of another family think
    differently), ``path``, ``dim``, ``words`` (the lookup vocabulary, row order),
    ``clue_words`` / ``clue_zipf`` / ``clue_is_proper`` / ``clue_vectors`` (the clue
    candidates, their zipf frequencies, proper-noun flags and a C x d float32 matrix).
    """

    def __init__(
        self,
        name: str,
        family: str,
        path: Path | None,
        words: list[str],
        vectors: np.ndarray,
        rows: np.ndarray,
        meta: Mapping[str, Any] | None = None,
        projection: np.ndarray | None = None,
        extra: Mapping[str, np.ndarray] | None = None,
        index: dict[str, int] | None = None,
        fallback: Callable[[str], np.ndarray] | None = None,
        clue_roles: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        if vectors.ndim != 2 or vectors.shape[0] != len(words) or rows.shape[0] != len(words):
            raise ModelFormatError(
                f"model {name!r}: {len(words)} words, vectors {vectors.shape}, {rows.shape[0]} row records disagree"
            )
        self.name = name
        self.family = family
        self.path = path
        self.meta: dict[str, Any] = dict(meta or {})
        self.words = words
        self._raw = vectors
        self._rows = rows
        self._projection = projection
        self._index = index if index is not None else dict(zip(words, range(len(words))))
        self._extra: dict[str, np.ndarray] = dict(extra or {})
        self._shared: dict[str, Any] = {}
        self._fallback = fallback
        # (rows, vectors) of words read differently as clues than on the board (store.CLUE_ROLE_*)
        self._clue_roles = clue_roles
        self._fallback_cache: dict[str, np.ndarray] = {}
        self._word_cache: dict[str, np.ndarray] = {}  # word as given -> its vector (read-only)
        self._known_cache: dict[str, bool] = {}
        self.dim = int(vectors.shape[1])

    # -- identity --------------------------------------------------------------------

    def __repr__(self) -> str:
        return (f"<EmbeddingModel {self.name!r} family={self.family!r} dim={self.dim} "
                f"vocab={len(self.words)} clues={len(self.clue_words)}>")

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(
            name=self.name,
            path=self.path if self.path is not None else Path("."),
            dim=self.dim,
            vocab_size=len(self.words),
            clue_vocab_size=len(self.clue_words),
            family=self.family,
            checksum=str(self.meta.get("checksum", "")),
            description=str(self.meta.get("description", "")),
        )

    # -- the clue vocabulary ---------------------------------------------------------

    def _cached(self, key: str, make: Callable[[], Any]) -> Any:
        # clue caches live in a dict shared with every with_extra_vectors() clone
        value = self._shared.get(key)
        if value is None:
            value = self._shared[key] = make()
        return value

    @property
    def _clue_rows(self) -> np.ndarray:
        return self._cached("clue_rows", lambda: np.flatnonzero(self._rows["is_clue"]))

    @property
    def clue_words(self) -> list[str]:
        return self._cached("clue_words", lambda: [self.words[i] for i in self._clue_rows.tolist()])

    @property
    def clue_zipf(self) -> np.ndarray:
        return self._cached("clue_zipf", lambda: np.ascontiguousarray(self._rows["zipf"][self._clue_rows],
                                                                      dtype=np.float32))

    @property
    def clue_is_proper(self) -> np.ndarray:
        return self._cached("clue_is_proper", lambda: np.ascontiguousarray(self._rows["proper"][self._clue_rows],
                                                                           dtype=bool))

    @property
    def clue_vectors(self) -> np.ndarray:
        """(C, d) float32, unit-norm rows, C-contiguous: one row per clue word (built on first use)."""
        return self._cached("clue_vectors", lambda: self.clue_vectors_at(np.arange(len(self._clue_rows))))

    def clue_vectors_at(self, rows: np.ndarray) -> np.ndarray:
        """``clue_vectors[rows]``, normalising only those rows unless the whole matrix is
        built already (an ensemble needs only the clue words every family knows). A word with
        a clue-role vector of its own (a two-sided table) gives that one."""
        whole = self._shared.get("clue_vectors")
        if whole is not None:
            return np.ascontiguousarray(whole[rows])
        table = self._clue_rows[rows]
        out = _unit_rows(self._raw[table])
        if self._clue_roles is not None:
            role_rows, role_vectors = self._clue_roles
            pos = np.searchsorted(role_rows, table)
            pos = np.minimum(pos, len(role_rows) - 1)
            hit = np.flatnonzero(role_rows[pos] == table)
            if len(hit):
                out[hit] = _unit_rows(role_vectors[pos[hit]])
        return out

    @property
    def clue_index(self) -> dict[str, int]:
        """Clue word -> its row in :attr:`clue_vectors`."""
        return self._cached("clue_index", lambda: dict(zip(self.clue_words, range(len(self.clue_words)))))

    def zipf(self, word: str) -> float | None:
        """The word's zipf frequency as recorded at build time (``None`` if not a vocabulary key)."""
        i = self._index.get(word_key(word).replace(" ", "_"))
        return None if i is None else float(self._rows["zipf"][i])

    # -- lookups ---------------------------------------------------------------------

    def _row_vector(self, i: int) -> np.ndarray:
        """Row ``i`` normalised, kept read-only for the next lookup: boards are dealt from a
        few hundred words, and each board looks every word up in every family."""
        cache = self._shared.setdefault("row_vectors", {})
        v = cache.get(i)
        if v is None:
            v = _unit_rows(self._raw[i])
            v.flags.writeable = False
            if len(cache) < ROW_CACHE_SIZE:
                cache[i] = v
        return v

    def _lookup_exact(self, key: str) -> np.ndarray | None:
        v = self._extra.get(key)
        if v is not None:
            return v
        i = self._index.get(key)
        return None if i is None else self._row_vector(i)

    def _resolve(self, word: str, fallback: bool = False) -> tuple[np.ndarray | None, list[str]]:
        """(vector or None, the parts that had no vector of their own). With ``fallback`` a
        part the table lacks is read through the model's fallback (if it has one)."""
        entry = word_key(word)
        if not entry:
            return None, [word]
        v = self._lookup_exact(entry)
        if v is not None:
            return v, []
        folded = fold_accents(entry)  # CAFÉ is the table's "cafe"
        if folded != entry:
            v = self._lookup_exact(folded)
            if v is not None:
                return v, []
            entry = folded
        parts = entry_parts(entry)
        if len(parts) > 1:
            for key in (phrase_key(entry), "-".join(parts), "".join(parts)):
                v = self._lookup_exact(key)
                if v is not None:
                    return v, []
        part_vecs = []
        missing = []
        for p in parts or [entry]:
            pv = self._lookup_exact(p)
            if pv is None:
                missing.append(p)
                if fallback and self._fallback is not None:
                    part_vecs.append(self._fallback_vector(p))
            else:
                part_vecs.append(pv)
        if len(part_vecs) < len(parts or [entry]):
            return None, missing
        return _unit_rows(np.mean(part_vecs, axis=0)), missing

    def _fallback_vector(self, word: str) -> np.ndarray:
        v = self._fallback_cache.get(word)
        if v is None:
            assert self._fallback is not None
            v = _unit_rows(np.asarray(self._fallback(word), np.float32).reshape(-1))
            if len(self._fallback_cache) < ROW_CACHE_SIZE:  # a server meets new words for ever
                self._fallback_cache[word] = v
        return v

    def knows(self, word: str) -> bool:
        """True if the model's own table (or an extra vector) gives ``word`` a vector, not its fallback."""
        hit = self._known_cache.get(word)
        if hit is None:
            hit = self._resolve(word)[0] is not None
            if len(self._known_cache) < ROW_CACHE_SIZE:
                self._known_cache[word] = hit
        return hit

    @property
    def has_fallback(self) -> bool:
        """True if every word gets a vector (:meth:`with_fallback`)."""
        return self._fallback is not None

    def fallback_parts(self, word: str) -> list[str]:
        """The parts of ``word`` this model reads through its fallback (empty if it knows them all)."""
        v, missing = self._resolve(word)
        return [] if v is not None else missing

    def suggestions(self, word: str, n: int = 5) -> list[str]:
        """Up to ``n`` vocabulary words spelled like ``word`` (difflib)."""
        target = word_key(word).replace(" ", "_")
        pool = [w for w in self.words if abs(len(w) - len(target)) <= 3] + list(self._extra)
        return difflib.get_close_matches(target, pool, n=n, cutoff=0.75)

    def vector(self, word: str) -> np.ndarray:
        """Unit-norm float32 vector of a word or board entry (case-insensitive).

        Multiword entries ("ICE CREAM", "LOCH NESS") use the phrase key (``ice_cream``) if
        the model has one, else the hyphenated or joined form, else the mean of the parts.
        A word or part the table lacks comes from the model's fallback (:meth:`with_fallback`);
        without one, raises :class:`UnknownWordError`.
        """
        v = self._word_cache.get(word)
        if v is not None:  # boards are dealt from a few hundred words: each is resolved once
            return v
        v, missing = self._resolve(word, fallback=True)
        if v is None:
            probe = missing[0] if missing else word
            raise UnknownWordError(word, self.name, self.suggestions(probe), missing)
        if len(self._word_cache) < ROW_CACHE_SIZE:
            v.flags.writeable = False
            self._word_cache[word] = v
        return v

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        """(n, d) float32, unit-norm rows; raises :class:`UnknownWordError` on the first unknown word."""
        if isinstance(words, str):
            raise TypeError("vectors() takes a sequence of words, not a single string")
        out = np.empty((len(words), self.dim), dtype=np.float32)
        for j, w in enumerate(words):
            out[j] = self.vector(w)
        return out

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        """Cosine similarity matrix, shape (len(a), len(b))."""
        return self.vectors(a) @ self.vectors(b).T

    def clue_board_similarity(self, board: Sequence[str]) -> np.ndarray:
        """(C, n) cosine similarities of every clue word with every board entry: one matrix product."""
        return self.clue_vectors @ self.vectors(board).T

    # -- extension -------------------------------------------------------------------

    def with_extra_vectors(self, extra: Mapping[str, np.ndarray | Sequence[float]]) -> "EmbeddingModel":
        """A model that also knows ``extra`` (word -> vector), e.g. board words this model lacks.

        Vectors must have this model's ``dim``; a model built with PCA also accepts vectors
        of the source model's full width and projects them. Keys are case-insensitive;
        the vectors are unit-normalised. Extra words never become clue candidates.
        """
        merged = dict(self._extra)
        src_dim = self._projection.shape[0] if self._projection is not None else None
        for key, vec in extra.items():
            arr = np.asarray(vec, dtype=np.float32).reshape(-1)
            if arr.shape[0] != self.dim:
                if self._projection is not None and arr.shape[0] == src_dim:
                    arr = arr @ self._projection
                else:
                    want = f"{self.dim}" + (f" or {src_dim}" if src_dim else "")
                    raise ValueError(f"extra vector for {key!r} has {arr.shape[0]} dimensions; model "
                                     f"{self.name!r} needs {want}")
            if not np.all(np.isfinite(arr)) or not np.any(arr):
                raise ValueError(f"extra vector for {key!r} must be finite and non-zero")
            k = word_key(key)
            if not k:
                raise ValueError("extra vector with an empty word")
            merged[k] = _unit_rows(arr)
        return self._clone(extra=merged)

    def with_fallback(self, fallback: Callable[[str], np.ndarray] | None) -> "EmbeddingModel":
        """A model that reads any word its table lacks through ``fallback`` (word -> vector
        of this model's ``dim``), e.g. :meth:`duetbot.embeddings.subword.SubwordModel.fallback_for`."""
        return self._clone(fallback=fallback)

    def without_words(self, words: Sequence[str]) -> "EmbeddingModel":
        """A model whose table has forgotten ``words`` (for measuring a fallback on held-out words)."""
        drop = {word_key(w).replace(" ", "_") for w in words}
        return self._clone(index={w: i for w, i in self._index.items() if w not in drop},
                           extra={k: v for k, v in self._extra.items() if k.replace(" ", "_") not in drop})

    def _clone(self, **changes: Any) -> "EmbeddingModel":
        kw: dict[str, Any] = dict(extra=self._extra, index=self._index, fallback=self._fallback,
                                  clue_roles=self._clue_roles)
        kw.update(changes)
        clone = EmbeddingModel(self.name, self.family, self.path, self.words, self._raw, self._rows, self.meta,
                               self._projection, **kw)
        clone._shared = self._shared  # the clue matrix is the same: build it once
        return clone

    # -- gensim ----------------------------------------------------------------------

    @cached_property
    def keyed_vectors(self) -> "KeyedVectors":
        """The whole vocabulary (plus extra words) as a gensim ``KeyedVectors``, float32, unit-norm:
        ``kv[word]`` is :meth:`vector` for every key, so gensim's tools (``most_similar``,
        ``save``) see what the bots see.

        An extra vector for a word the table has replaces that row (:meth:`vector` reads the
        extra first); a new multiword extra is keyed like the table's phrases (``ice_cream``).
        Words the table forgot (:meth:`without_words`) are left out. Needs gensim
        (``pip install 'duetbot[gensim]'``).
        """
        try:
            from gensim.models import KeyedVectors
        except ImportError as exc:
            raise ImportError("EmbeddingModel.keyed_vectors needs gensim: pip install 'duetbot[gensim]'") from exc

        rows = sorted(self._index.values())
        keys = [self.words[i] for i in rows]
        matrix = _unit_rows(self._raw[rows])
        position = {k: j for j, k in enumerate(keys)}
        new_keys: list[str] = []
        new_vecs: list[np.ndarray] = []
        for key, vec in self._extra.items():
            table_key = key if key in position else key.replace(" ", "_")
            j = position.get(table_key)
            if j is not None:
                matrix[j] = vec
            elif table_key not in new_keys:
                new_keys.append(table_key)
                new_vecs.append(vec)
        kv = KeyedVectors(self.dim, count=0, dtype=np.float32)
        kv.add_vectors(keys + new_keys, np.vstack([matrix, *new_vecs]) if new_vecs else matrix)
        return kv


def load_model(name_or_path: str | os.PathLike[str] = "default", mmap: bool = True) -> EmbeddingModel:
    """Load a model by name (``default``, ``minilm``, ...) or by directory path.

    With ``mmap`` the vector table stays memory-mapped (shared between processes, read
    lazily); only the clue matrix is materialised as float32.
    Raises :class:`~duetbot.embeddings.store.ModelNotFoundError` or
    :class:`~duetbot.embeddings.store.ModelFormatError`.
    """
    model_dir = store.resolve_model_dir(name_or_path)
    meta = store.read_meta(model_dir)
    try:
        words = (model_dir / store.VOCAB_FILE).read_text(encoding="utf-8").split("\n")
        if words and words[-1] == "":
            words.pop()
        vectors = np.load(model_dir / store.VECTORS_FILE, mmap_mode="r" if mmap else None, allow_pickle=False)
        rows = np.load(model_dir / store.ROWS_FILE, allow_pickle=False)
        proj_file = model_dir / store.PROJECTION_FILE
        projection = np.load(proj_file, allow_pickle=False) if proj_file.is_file() else None
        roles_file = model_dir / store.CLUE_ROLE_ROWS_FILE
        clue_roles = (np.load(roles_file, allow_pickle=False),
                      np.load(model_dir / store.CLUE_ROLE_VECTORS_FILE, allow_pickle=False)) \
            if roles_file.is_file() else None
    except FileNotFoundError as exc:
        raise ModelFormatError(f"model {model_dir} is incomplete: {Path(exc.filename).name} is missing") from exc
    except ValueError as exc:
        raise ModelFormatError(f"model {model_dir} has an unreadable file: {exc}") from exc
    if rows.dtype != store.ROWS_DTYPE:
        raise ModelFormatError(f"{model_dir / store.ROWS_FILE}: unexpected record layout {rows.dtype}")
    if not mmap:
        vectors = _unit_rows(vectors)
    name = str(meta.get("name", model_dir.name))
    if clue_roles is not None and (len(clue_roles[0]) != len(clue_roles[1]) or np.any(np.diff(clue_roles[0]) <= 0)):
        raise ModelFormatError(f"model {model_dir}: clue-role rows must be increasing, one per clue-role vector")
    return EmbeddingModel(name, str(meta.get("family", name)), model_dir, words, vectors, rows, meta, projection,
                          clue_roles=clue_roles)


def available_models() -> list[ModelInfo]:
    """Every model found in the search directories (see :mod:`duetbot.embeddings.store`)."""
    out = []
    for d in store.list_model_dirs():
        try:
            out.append(store.info_from_dir(d))
        except (ModelFormatError, store.ModelNotFoundError):
            continue
    return out


def model_info(name_or_path: str | os.PathLike[str] = "default") -> ModelInfo:
    """Metadata of one model without loading its vectors."""
    return store.info_from_dir(store.resolve_model_dir(name_or_path))


def coverage(model: EmbeddingModel, words: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split ``words`` into (known, unknown) for ``model``, keeping order and spelling."""
    known: list[str] = []
    unknown: list[str] = []
    for w in words:
        (known if model.knows(w) else unknown).append(w)
    return known, unknown


def default_model_name() -> str:
    """The model name the ``default`` alias points to."""
    return store.read_aliases().get("default", "default")



def fit_map(src: np.ndarray, dst: np.ndarray, ridge: float = 1.0) -> np.ndarray:
    """Ridge-regularised least-squares map ``W`` with ``src @ W ~ dst`` (rows unit vectors)."""
    src64 = np.asarray(src, np.float64)
    gram = src64.T @ src64 + ridge * np.eye(src64.shape[1])
    return np.linalg.solve(gram, src64.T @ np.asarray(dst, np.float64)).astype(np.float32)


def translate_vectors(target: EmbeddingModel, donor: EmbeddingModel, words: Sequence[str],
                      max_pairs: int = 20000) -> dict[str, np.ndarray]:
    """Stand-in vectors in ``target``'s space for ``words`` that ``target`` lacks, via ``donor``.

    Fits a linear map donor -> target by least squares on up to ``max_pairs`` of the most
    frequent words both models know (Mikolov et al. 2013, "Exploiting similarities among
    languages"), then maps the donor's vectors. Use with :meth:`EmbeddingModel.with_extra_vectors`
    when a board word is missing (spaCy's table lacks e.g. ``zebra``). The result carries
    some of the donor family's associations, so prefer a donor the partner does not use.
    Raises :class:`UnknownWordError` if the donor lacks a word too.
    """
    wanted = [w for w in words if not target.knows(w)]
    if not wanted:
        return {}
    shared = [w for w in target.words if "_" not in w and w in donor._index][:max_pairs]
    if len(shared) < max(donor.dim, target.dim):
        raise ValueError(f"models {target.name!r} and {donor.name!r} share too few words to map between them")
    mapping = fit_map(_unit_rows(donor._raw[[donor._index[w] for w in shared]]),
                      _unit_rows(target._raw[[target._index[w] for w in shared]]), ridge=0.0)
    out = {}
    for w in wanted:
        out[word_key(w)] = _unit_rows(donor.vector(w) @ mapping)
    return out


def described_vectors(model: EmbeddingModel, descriptions: Mapping[str, Sequence[str]]) -> dict[str, np.ndarray]:
    """Vectors for words described by other words, e.g. ``{"GRYFFINDOR": ["lion", "wizard"]}``.

    Each described word gets the normalised mean of the unit vectors of its describing words
    that ``model`` knows (the centroid of what it is like); a word none of whose describing
    words the model knows is left out. Use with :meth:`EmbeddingModel.with_extra_vectors`:
    this is how a user supplies a vector for a word no model knows, in every family at once.
    """
    out = {}
    for word, like in descriptions.items():
        vecs = [model.vector(w) for w in like if model.knows(w)]
        if vecs:
            out[word_key(word)] = _unit_rows(np.mean(vecs, axis=0))
    return out
