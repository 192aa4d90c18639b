"""Word embeddings for the bots: model loading, board-word vectors, the clue vocabulary.

>>> from duetbot.embeddings import load_model
>>> m = load_model("glove50")
>>> m.vector("Loch Ness").shape
(50,)
>>> m.clue_board_similarity(["LOCH NESS", "ICE CREAM", "SHIP"]).shape
(47698, 3)

Run time needs numpy only. gensim (the ``duetbot[gensim]`` extra) is imported only by
:attr:`EmbeddingModel.keyed_vectors` and by :mod:`duetbot.build.importer` (``duetbot models
import``: people's own word2vec, GloVe, fastText or KeyedVectors files). Building what ships
(:mod:`duetbot.build`, ``duetbot models build``) needs the ``duetbot[build]`` extra. Where models are looked for: :mod:`duetbot.embeddings.store`.
"""

from .model import (
    EmbeddingModel,
    UnknownWordError,
    available_models,
    coverage,
    default_model_name,
    described_vectors,
    load_model,
    model_info,
    translate_vectors,
)
from .store import ModelFormatError, ModelInfo, ModelNotFoundError

__all__ = [
    "EmbeddingModel",
    "ModelFormatError",
    "ModelInfo",
    "ModelNotFoundError",
    "UnknownWordError",
    "available_models",
    "coverage",
    "default_model_name",
    "described_vectors",
    "load_model",
    "model_info",
    "translate_vectors",
]
