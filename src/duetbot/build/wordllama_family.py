"""Build the ``wordllama`` family: WordLlama's token codebook read as a word table.

``duetbot models build wordllama`` runs it (maintainers; ``pip install 'duetbot[lm-build]'``).

WordLlama (``wordllama`` 0.4.0.post1, MIT; D. Miller) is a 32,000-token x 256 codebook
distilled from Llama 2's token embeddings for sentence similarity: a text's vector is the
mean of its tokens' vectors. Its ``WordLlama.load()`` looks for its files in the wrong folder
and then tries to download them, so the inference object is built here from the two files
inside the wheel (the safetensors codebook and the tokenizer configuration); nothing is
downloaded.

The table holds every word of both published boxes and of the shipped pool (as the other
families key them: single words, phrase keys such as ``loch_ness``) and the ``clue_words``
most frequent clue words of the glove50 table; each word is embedded alone. Vectors are
stored as int8, each row scaled to +-127 on its own (the loader renormalises rows, so
cosines keep three digits). Words the table lacks read through the subword fallback like
any family; its maps into this space are fitted here and kept in the model directory.
"""

from __future__ import annotations

import importlib.util
import platform
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..embeddings import store
from ..embeddings.vocab import is_clue_candidate
from .lm_associations import _version, _zipf, attach_fallback, to_int8, vocabulary

__all__ = ["DEFAULTS", "WEIGHTS", "TOKENIZER", "wheel_files", "inference", "build"]

WEIGHTS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
LICENCE = "MIT (wordllama 0.4.0.post1, D. Miller); codebook distilled from Llama 2 token embeddings"
#: The shipped settings: the vocabulary fits the size budget (about 7 MB as int8).
DEFAULTS: dict[str, Any] = {"clue_words": 25000}


def wheel_files() -> tuple[Path, Path]:
    """(codebook, tokenizer configuration) inside the installed ``wordllama`` wheel."""
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("wordllama is not installed: pip install 'duetbot[lm-build]'")
    root = Path(list(spec.submodule_search_locations)[0])
    weights, tokenizer = root / WEIGHTS, root / TOKENIZER
    for path in (weights, tokenizer):
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found: reinstall wordllama")
    return weights, tokenizer


def inference():
    """WordLlama's own inference object, made from the wheel's files (no download)."""
    from safetensors import safe_open
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

    weights, tokenizer = wheel_files()
    with safe_open(str(weights), framework="np", device="cpu") as fh:
        codebook = fh.get_tensor("embedding.weight")
    return WordLlamaInference(codebook, Tokenizer.from_file(str(tokenizer)))


def build(out: Path, clue_words: int = DEFAULTS["clue_words"],
          log: Callable[[str], None] = print) -> dict[str, Any]:
    """Embed the vocabulary with WordLlama and write the model directory ``out``."""
    from ..embeddings import load_model

    reference = load_model("glove50")
    keys, _, board = vocabulary(clue_words, reference)
    wl = inference()
    vectors = wl.embed([k.replace("_", " ") for k in keys], norm=True, batch_size=256)
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    vocab = [keys[i] for i in order]
    vec8 = to_int8(np.asarray(vectors, np.float32)[order])
    weights, tokenizer = wheel_files()
    meta: dict[str, Any] = {
        "name": out.name,
        "family": "wordllama",
        "description": "WordLlama l2_supercat 256-d token codebook: each word embedded alone (mean of its tokens)",
        "licence": LICENCE,
        "source": {"package": f"wordllama {_version('wordllama')}", "licence": "MIT",
                   "weights": WEIGHTS, "sha256": store.sha256_file(weights),
                   "tokenizer": TOKENIZER, "tokenizer_sha256": store.sha256_file(tokenizer)},
        "build": {
            "module": "duetbot.build.wordllama_family",
            "command": f"duetbot models build wordllama  (clue_words={clue_words})",
            "clue_words": clue_words, "board_words": len(board),
            "method": "WordLlamaInference(codebook, tokenizer) from the wheel's files; embed(word, norm=True); "
                      "int8 per row",
            "python": platform.python_version(),
            "versions": {"numpy": np.__version__, "wordllama": _version("wordllama"),
                         "tokenizers": _version("tokenizers"), "safetensors": _version("safetensors")},
        },
        "clue_vocabulary": {"filters": "duetbot.embeddings.vocab.is_clue_candidate",
                            "zipf": "the glove50 table's (wordfreq 'en', data CC BY-SA 4.0)"},
    }
    is_clue = np.array([is_clue_candidate(w) for w in vocab], bool)
    store.write_model(out, vocab, vec8, _zipf(vocab, reference), np.zeros(len(vocab), bool), is_clue, meta)
    log(f"wordllama: {len(vocab):,} words x {vec8.shape[1]} dims (int8)")
    return attach_fallback(out, log)
