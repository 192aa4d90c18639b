"""People's own associations as a second reading of the assassins.

The spymaster's families and the association table say how strongly a clue calls up each
board word, and a listed link is lifted. A link the table does not list gets no lift, even where
people make it: FREIGHT calls up BOAT, ELECTRIC calls up TAPE. A person who has found one
target then reaches for that word as the second, and on my side it is an assassin. The
Edinburgh Associative Thesaurus (the ``eat`` family, people's free associations, which the
guesser already reads) knows many of these links.

:class:`AssassinNorms` gives its z of a clue and a word, on the same per-board scale as the
families (:class:`~duetbot.bots.ensemble.BoardRows`), or NaN where the norms do not know the
clue or the word. The spymaster reads each assassin at least as strongly as the norms do
(``np.fmax``), in its simulated partners and its number rules. Only assassins are read this
way: a bystander costs a turn, an assassin the game, and reading every bad word more
strongly made the clues too cautious for the clock (benchmarks/RESULTS.md, "A partner model
fitted to the players, tried"). The greens keep the families' reading, so the norms never
make a clue look better than it is.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...embeddings import EmbeddingModel
from ..ensemble import Ensemble
from ...lru import BoundedCache


class AssassinNorms:
    """The norms' z of the spymaster's clue candidates and a board's words (NaN: unknown)."""

    def __init__(self, ensemble: Ensemble, norms: EmbeddingModel, cache_size: int = 8) -> None:
        self.norms = norms
        pos = dict(zip(norms.clue_words, range(len(norms.clue_words))))
        self.rows = np.fromiter((pos.get(w, -1) for w in ensemble.clue_words), np.int64, count=len(ensemble.clue_words))
        """Each of the spymaster's clue words' row in the norms (-1: the norms do not know it)."""
        vectors = norms.clue_vectors_at(np.arange(len(norms.clue_words))).astype(np.float64)
        self._vectors = vectors.astype(np.float32)
        self._mean = vectors.mean(axis=0)
        self._second = vectors.T @ vectors / len(vectors)
        self._boards: BoundedCache[tuple[str, ...], tuple[np.ndarray, np.ndarray, float, float]] = BoundedCache(cache_size)

    def _board(self, key: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, float, float]:
        """Which board words the norms know, the board's (dim, words) vectors (zero columns
        for the others), and the mean and spread of the norms' similarities between their
        whole vocabulary and the words they know."""
        known = np.array([self.norms.knows(w) for w in key], bool)
        board = np.zeros((self._vectors.shape[1], len(key)), np.float32)
        if not known.any():
            return known, board, 0.0, 1.0
        b = np.stack([self.norms.vector(w) for w, k in zip(key, known) if k]).astype(np.float64)
        board[:, known] = b.T
        mu = float((b @ self._mean).mean())
        var = float(((b @ self._second) * b).sum() / len(b)) - mu * mu
        return known, board, mu, (var ** 0.5 if var > 0 else 1.0)

    def z(self, words: Sequence[str], cand: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """(len(cand), len(cols)) the norms' z of clue candidates ``cand`` (the spymaster's
        clue indices) and board words ``cols`` (indices into ``words``)."""
        known, board, mu, sd = self._boards.get(tuple(words), self._board)
        rows = self.rows[cand]
        z = self._vectors[rows] @ board[:, cols]        # (a row of -1 reads the last clue: masked below)
        z -= mu
        z /= sd
        z[rows < 0] = np.nan
        z[:, ~known[cols]] = np.nan
        return z

    def raise_assassins(self, z: np.ndarray, words: Sequence[str], cand: np.ndarray, cols: np.ndarray,
                        assassin: np.ndarray) -> None:
        """Read each assassin in ``z`` ((families, candidates, cols), changed in place) at
        least as strongly as the norms do."""
        if not assassin.any():
            return
        a = np.flatnonzero(assassin)
        z[:, :, a] = np.fmax(z[:, :, a], self.z(words, cand, cols[a])[None])
