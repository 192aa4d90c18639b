"""A vector for any string: static WordPiece token vectors distilled from MiniLM (numpy only).

Some board words are in no family's table (``MUSKETEER``, ``TIPI``, a home-made card, a
partner's clue as reported: ``sci-fi``, ``god's``). For those the bots need each family's
opinion anyway, so every family gets a fallback:

1. **Subword vectors** (the approach of the ``model2vec`` package): at build time every
   WordPiece token of all-MiniLM-L6-v2 is embedded on its own by the real encoder, then the
   token table is refined by least squares so that the mean of a word's token vectors comes
   close to the real MiniLM vector of the word (over ~90k words). At run time a string is
   split by the same BERT tokenizer rules (lower case, accents stripped, punctuation split,
   greedy longest-match WordPiece) and its vector is the mean of its token vectors: a point
   in the shipped ``minilm`` table's space for any string.
2. **Maps into each family** (Mikolov et al. 2013): a ridge-regularised linear map from that
   space into each family's space, fitted on the words both know. A word the ``minilm``
   table knows is mapped from its real vector; any other from its subword vector.

How close the fallback comes to real vectors, and what it costs in full games, is measured
by ``benchmarks/bench_fallback.py`` (figures in benchmarks/RESULTS.md). The build is
``duetbot models build subword``.

Where a family's maps come from: the shipped families' maps ship in ``maps.npz``, keyed by
model name and the checksum of the table they were fitted on; a model imported with
``duetbot models import`` keeps its own maps in its directory (:data:`MODEL_MAP_FILE`,
fitted and measured at import by :func:`fit_and_measure`); any other model (a rebuilt or
hand-made one) gets maps fitted when its fallback is first needed.

>>> sub = load_subword()
>>> sub.tokenize("St. Patrick's Piñata")
['st', 'patrick', 's', 'pin', '##ata']
>>> sub.vector("musketeer").shape
(224,)
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from . import store
from .model import EmbeddingModel, fit_map

__all__ = ["SubwordModel", "FamilyFallback", "load_subword", "subword_dir", "basic_tokens",
           "fit_family_maps", "fit_and_measure", "save_model_maps", "MODEL_MAP_FILE"]

SUBWORD_DIR = "subword"
TOKENS_FILE = "tokens.txt"
MAPS_FILE = "maps.npz"
SCALES_FILE = "scales.npy"
#: An imported model's own fallback maps, in its model directory (arrays ``sub`` and, when
#: fitted, ``real``); ``model.json`` records what they were fitted against under
#: ``subword_map``.
MODEL_MAP_FILE = "subword_map.npz"
#: The family whose space the token vectors live in.
SOURCE_FAMILY = "minilm"
_MAX_WORD_CHARS = 100  # BERT's limit: a longer "word" is one unknown token


def subword_dir() -> Path:
    """``duetbot/data/subword`` of the installed package."""
    return Path(__file__).resolve().parent.parent / "data" / SUBWORD_DIR


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    # BERT treats every non-alphanumeric ASCII character as punctuation
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def basic_tokens(text: str) -> list[str]:
    """BERT's basic (uncased) tokenizer: lower case, accents stripped, whitespace and
    punctuation split; punctuation is dropped (it carries no meaning for a card or clue).

    >>> basic_tokens("Rock'n'Roll, CAFÉ")
    ['rock', 'n', 'roll', 'cafe']
    """
    text = unicodedata.normalize("NFD", text.lower())
    out: list[str] = []
    word: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Mn" or cat in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        if ch.isspace() or _is_punct(ch) or _is_cjk(ord(ch)):
            if word:
                out.append("".join(word))
                word = []
            if _is_cjk(ord(ch)):
                out.append(ch)
            continue
        word.append(ch)
    if word:
        out.append("".join(word))
    return out


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


class SubwordModel:
    """Token vectors in the ``minilm`` table's space; any string -> a unit vector.

    ``maps`` holds, per family name, the fitted ``(sub, real)`` maps and the checksum of the
    family model they were fitted against (a rebuilt model gets a map fitted at run time).
    """

    def __init__(self, tokens: Sequence[str], vectors: np.ndarray,
                 maps: dict[str, tuple[str, np.ndarray, np.ndarray | None]] | None = None,
                 meta: dict[str, Any] | None = None, scales: np.ndarray | None = None) -> None:
        if vectors.ndim != 2 or vectors.shape[0] != len(tokens):
            raise store.ModelFormatError(f"subword table: {len(tokens)} tokens but vectors {vectors.shape}")
        self.tokens = list(tokens)
        self.index = dict(zip(self.tokens, range(len(self.tokens))))
        # A shipped table is int8 codes times a float32 scale per row: kept so (6 MB, not the
        # 23 MB of float32), each word's few rows worked out when it is read, with the same
        # products as the whole table's (issue 39: suggest's memory).
        self._codes = vectors if scales is not None else None
        self._scales = scales
        self._vectors = np.asarray(vectors, dtype=np.float32) if scales is None else None
        self.dim = int(vectors.shape[1])
        self.maps = dict(maps or {})
        self.meta = dict(meta or {})
        centre = self.vectors.mean(axis=0)
        self._centre = (centre / (np.linalg.norm(centre) or 1.0)).astype(np.float32)
        # The longest window the greedy match tries: a bound (a "##" piece counts its marker
        # too); longer windows match nothing, so any bound gives the same pieces.
        self._longest = max(map(len, self.tokens), default=0)

    @property
    def vectors(self) -> np.ndarray:
        """(tokens, dim) float32 token vectors (a shipped table's worked out afresh each time)."""
        if self._vectors is not None:
            return self._vectors
        assert self._codes is not None and self._scales is not None
        return self._codes * self._scales

    def rows(self, ids: list[int]) -> np.ndarray:
        """(len(ids), dim) float32: ``vectors[ids]``, of a shipped table from those rows alone."""
        if self._vectors is not None:
            return self._vectors[ids]
        assert self._codes is not None and self._scales is not None
        return self._codes[ids] * self._scales[ids]

    def _wordpiece(self, word: str) -> list[int]:
        """Greedy longest-match-first WordPiece; a word with an unmatchable piece gives []."""
        if len(word) > _MAX_WORD_CHARS:
            return []
        ids: list[int] = []
        start = 0
        while start < len(word):
            end = min(len(word), start + self._longest)
            found = -1
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.index.get(piece, -1)
                if found >= 0:
                    break
                end -= 1
            if found < 0:
                return []
            ids.append(found)
            start = end
        return ids

    def token_ids(self, text: str) -> list[int]:
        ids: list[int] = []
        for word in basic_tokens(text):
            pieces = self._wordpiece(word)
            if not pieces:  # e.g. a letter outside the token table: try it without that letter
                pieces = self._wordpiece("".join(ch for ch in word if ch.isascii()))
            ids += pieces
        return ids

    def tokenize(self, text: str) -> list[str]:
        """The WordPiece tokens a string is read as."""
        return [self.tokens[i] for i in self.token_ids(text)]

    def vector(self, text: str) -> np.ndarray:
        """Unit vector (minilm table space) of any string: the mean of its token vectors.
        A string with no readable token (only punctuation, or a script the table lacks)
        gets the centre of the table, a word with no particular meaning."""
        ids = self.token_ids(text)
        if not ids:
            return self._centre.copy()
        v = self.rows(ids).mean(axis=0)
        n = float(np.linalg.norm(v))
        return (v / n).astype(np.float32) if n > 0 else self._centre.copy()

    def matrix(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) unit vectors of many strings."""
        out = np.empty((len(texts), self.dim), np.float32)
        for j, t in enumerate(texts):
            out[j] = self.vector(t)
        return out

    @property
    def identity(self) -> str:
        """The sha256 of the token table's ``vectors.npy`` ("" for a table built in memory):
        maps fitted against another table are stale."""
        return str(self.meta.get("files", {}).get(store.VECTORS_FILE, {}).get("sha256", ""))

    def fallback_for(self, model: EmbeddingModel, source: EmbeddingModel | None) -> FamilyFallback:
        """The fallback that gives ``model`` a vector for any word (``source``: the ``minilm``
        table, whose real vectors are mapped when it knows the word)."""
        fitted = self.maps.get(model.name)
        sub_map: np.ndarray | None
        if fitted is not None and fitted[0] == str(model.meta.get("checksum", "")):
            sub_map, real_map = fitted[1], fitted[2]
        elif (stored := self.stored_maps(model, source)) is not None:
            sub_map, real_map = stored
        else:
            sub_map, real_map = fit_family_maps(self, model, source)
        return FamilyFallback(self, sub_map, real_map, source)

    def stored_maps(self, model: EmbeddingModel,
                    source: EmbeddingModel | None) -> tuple[np.ndarray, np.ndarray | None] | None:
        """The maps kept in ``model``'s own directory (:data:`MODEL_MAP_FILE`), or ``None`` when
        there are none or they were fitted against another table, token table or source."""
        record = model.meta.get("subword_map")
        if model.path is None or not isinstance(record, dict) or not (model.path / MODEL_MAP_FILE).is_file():
            return None
        if (record.get("model_checksum") != model.meta.get("checksum")
                or record.get("subword_sha256") != self.identity):
            return None
        try:
            with np.load(model.path / MODEL_MAP_FILE, allow_pickle=False) as z:
                sub_map = z["sub"]
                real_map = z["real"] if "real" in z.files else None
        except (OSError, ValueError, KeyError):
            return None  # unreadable: fit afresh rather than fail a game
        if sub_map.shape != (self.dim, model.dim):
            return None
        if source is None:
            return sub_map, None
        if real_map is not None and record.get("minilm_checksum") != source.meta.get("checksum"):
            return None  # the minilm table was rebuilt: its real vectors need a new map
        return sub_map, real_map


class FamilyFallback:
    """One family's fallback: a word's vector in that family's space (see module docstring)."""

    def __init__(self, subword: SubwordModel, sub_map: np.ndarray | None, real_map: np.ndarray | None,
                 source: EmbeddingModel | None) -> None:
        self.subword = subword
        self.sub_map = sub_map
        self.real_map = real_map
        self.source = source

    def __call__(self, word: str) -> np.ndarray:
        if self.real_map is not None and self.source is not None and self.source.knows(word):
            v = self.source.vector(word) @ self.real_map
        else:
            v = self.subword.vector(word)
            if self.sub_map is not None:
                v = v @ self.sub_map
        n = float(np.linalg.norm(v))
        return (v / n).astype(np.float32) if n > 0 else v.astype(np.float32)




def _shared_words(model: EmbeddingModel, limit: int) -> list[str]:
    return [w for w in model.words if w.isalpha()][:limit]


def fit_family_maps(subword: SubwordModel, model: EmbeddingModel, source: EmbeddingModel | None,
                    limit: int = 20000, ridge: float = 1.0,
                    exclude: frozenset[str] = frozenset()) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(sub_map, real_map) for ``model`` fitted on up to ``limit`` of its most frequent
    single words (``exclude``: words held out for measurement). The ``minilm`` family needs
    no map: the token vectors live in its space."""
    if model.family == SOURCE_FAMILY:
        return None, None
    words = [w for w in _shared_words(model, limit + len(exclude)) if w not in exclude][:limit]
    dst = np.stack([model.vector(w) for w in words])
    sub_map = fit_map(subword.matrix(words), dst, ridge)
    real_map = None
    if source is not None:
        both = [j for j, w in enumerate(words) if source.knows(w)]
        if len(both) >= 2 * source.dim:
            real_map = fit_map(np.stack([source.vector(words[j]) for j in both]), dst[both], ridge)
    return sub_map, real_map


def _agreement(real: np.ndarray, rebuilt: np.ndarray, clue_vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``real`` / ``rebuilt`` (n, d): the correlation of the two vectors' similarities
    to the clue vocabulary and the overlap of their 10 nearest clue words (the figures of
    ``benchmarks/bench_fallback.py``, computed for all rows in two matrix products)."""
    a = (np.asarray(real, np.float32) @ clue_vectors.T).astype(np.float64)
    b = (np.asarray(rebuilt, np.float32) @ clue_vectors.T).astype(np.float64)
    a -= a.mean(axis=1, keepdims=True)
    b -= b.mean(axis=1, keepdims=True)
    r = (a * b).sum(axis=1) / np.sqrt((a * a).sum(axis=1) * (b * b).sum(axis=1))
    top_a = np.argpartition(-a, 10, axis=1)[:, :10]
    top_b = np.argpartition(-b, 10, axis=1)[:, :10]
    overlap = np.array([len(set(x.tolist()) & set(y.tolist())) / 10 for x, y in zip(top_a, top_b)])
    return r, overlap


def fit_and_measure(subword: SubwordModel, model: EmbeddingModel, source: EmbeddingModel | None,
                    limit: int = 20000, ridge: float = 1.0, held_share: float = 0.1, max_held: int = 500,
                    max_clues: int = 8000) -> tuple[np.ndarray | None, np.ndarray | None, dict[str, Any]]:
    """``model``'s fallback maps, fitted on its words exactly as :func:`fit_family_maps` fits
    them, and how well they do on words held out of a second fit: ``(sub_map, real_map, report)``.

    Every tenth word of the fitting words (at most ``max_held``) is held out; maps fitted on
    the rest rebuild the held words' vectors, from the spelling and (where the ``minilm`` table
    knows the word) from MiniLM's real vector; each rebuilt vector's similarities to the clue
    vocabulary (held words left out) are compared with the real vector's. The token table
    itself is not refitted (that needs the MiniLM encoder), so it has seen the held words'
    MiniLM vectors, though never this family's.
    """
    words = _shared_words(model, limit)
    step = max(2, round(1 / held_share))
    held_rows = np.arange(step // 2, len(words), step)[:max_held]
    report: dict[str, Any] = {"fit_words": len(words), "held_out_words": int(len(held_rows)), "limit": limit,
                              "ridge": ridge, "measure": "mean correlation of real and rebuilt similarities "
                              "to the clue vocabulary (held-out words excluded), and mean overlap of the "
                              "10 nearest clue words, on held-out words"}
    if model.family == SOURCE_FAMILY or not words:
        return None, None, report
    # one pass over the words: both fits below are least-squares solves on rows of these
    sub_x = subword.matrix(words)
    dst = np.stack([model.vector(w) for w in words])
    known = np.array([j for j, w in enumerate(words) if source is not None and source.knows(w)], dtype=np.int64)
    real_x = np.stack([source.vector(words[j]) for j in known]) if source is not None and len(known) else None

    def fit(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        sub_map = fit_map(sub_x[rows], dst[rows], ridge)
        if real_x is None or source is None:
            return sub_map, None
        use = np.isin(known, rows)
        if use.sum() < 2 * source.dim:  # fit_family_maps' floor: fewer shared words overfit the map
            return sub_map, None
        return sub_map, fit_map(real_x[use], dst[known[use]], ridge)

    if len(held_rows) >= 5:
        held = np.zeros(len(words), bool)
        held[held_rows] = True
        sub_map, real_map = fit(np.flatnonzero(~held))
        held_words = {words[j] for j in held_rows}
        keep = [i for i, w in enumerate(model.clue_words) if w not in held_words]
        clues = np.ascontiguousarray(model.clue_vectors[keep][:: max(1, len(keep) // max_clues)])
        if len(clues) > 10:
            def figures(real: np.ndarray, rebuilt: np.ndarray) -> dict[str, Any]:
                r, top10 = _agreement(real, rebuilt, clues)
                return {"words": int(len(r)), "r": round(float(r.mean()), 3), "top10": round(float(top10.mean()), 3)}

            report["from_spelling"] = figures(dst[held_rows], sub_x[held_rows] @ sub_map)
            in_source = np.flatnonzero(held[known]) if real_x is not None else np.array([], np.int64)
            if real_map is not None and real_x is not None and len(in_source):
                report["from_minilm"] = figures(dst[known[in_source]], real_x[in_source] @ real_map)
    sub_map, real_map = fit(np.arange(len(words)))
    return sub_map, real_map, report


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return (v / n).astype(np.float32) if n > 0 else v.astype(np.float32)


def save_model_maps(model_dir: Path, sub_map: np.ndarray, real_map: np.ndarray | None) -> None:
    """Write :data:`MODEL_MAP_FILE` into a model directory (float32)."""
    sub = np.asarray(sub_map, np.float32)
    with open(model_dir / MODEL_MAP_FILE, "wb") as fh:
        if real_map is None:
            np.savez(fh, sub=sub)
        else:
            np.savez(fh, sub=sub, real=np.asarray(real_map, np.float32))


@lru_cache(maxsize=1)
def load_subword(path: str | None = None) -> SubwordModel:
    """The shipped subword table (or one at ``path``). Raises ``ModelNotFoundError`` /
    ``ModelFormatError``."""
    d = Path(path) if path else subword_dir()
    if not (d / store.META_FILE).is_file():
        raise store.ModelNotFoundError(f"no subword table in {d}: rebuild it with duetbot models build subword")
    try:
        meta = json.loads((d / store.META_FILE).read_text(encoding="utf-8"))
        tokens = (d / TOKENS_FILE).read_text(encoding="utf-8").split("\n")
        if tokens and tokens[-1] == "":
            tokens.pop()
        vectors = np.load(d / store.VECTORS_FILE, allow_pickle=False)
        scales = np.load(d / SCALES_FILE, allow_pickle=False)
        if vectors.dtype.kind != "i" or scales.dtype != np.float32 or scales.shape != (len(vectors), 1):
            vectors, scales = (vectors * scales).astype(np.float32), None   # not codes and row scales
        maps: dict[str, tuple[str, np.ndarray, np.ndarray | None]] = {}
        with np.load(d / MAPS_FILE, allow_pickle=False) as z:
            for name, checksum in meta.get("maps", {}).items():
                real = z[f"{name}.real"] if f"{name}.real" in z.files else None
                maps[name] = (str(checksum), z[f"{name}.sub"], real)
    except (OSError, ValueError, KeyError) as exc:
        raise store.ModelFormatError(f"subword table in {d} is unreadable: {exc}") from exc
    return SubwordModel(tokens, vectors, maps, meta, scales)
