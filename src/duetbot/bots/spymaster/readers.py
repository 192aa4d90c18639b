"""Simulated partners reading candidate clues: no game rules, only who reads what.

A simulated partner of one family ranks the words by that family's z plus Gumbel perception
noise (Plackett-Luce, the partner model's temperature); a share of them (the lapse) reads a
clue as if it said nothing. Per candidate clue the simulation says how many words of mine
each partner finds before the first other word, and which label that word has
(:class:`~.position.Outcomes`); how deep a partner goes is :func:`depth_table`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np

from ..reader import ReaderModel
from .position import Outcomes


class PartnerSimulation:
    """Fixed noise for ``samples`` simulated partners over up to ``shortlist`` candidates,
    drawn once (``seed``) so every turn's candidates are judged by the same partners."""

    def __init__(self, temperature: float, samples: int, shortlist: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        u = rng.random((samples, shortlist, 25))
        # (samples, words, candidates): see run()
        self._eps = np.ascontiguousarray((-temperature * np.log(-np.log(u))).astype(np.float32)
                                         .transpose(0, 2, 1))

    @property
    def samples(self) -> int:
        return len(self._eps)

    def rows(self, partner: ReaderModel) -> list[slice]:
        """Simulated partners in blocks, one per family by weight (the random readers last,
        left out: their rows keep only the noise)."""
        counts = allocate(self.samples, [(1 - partner.lapse) * w for w in partner.weights] + [partner.lapse])
        bounds = np.concatenate([[0], np.cumsum(counts)])
        return [slice(int(a), int(b)) for a, b in zip(bounds, bounds[1:])][:-1]

    def run(self, zt: np.ndarray, good: np.ndarray, labels: np.ndarray,
            family_rows: list[slice]) -> Outcomes:
        """Simulated partners reading each candidate clue. ``zt`` is (families, words,
        candidates); ``good`` marks the words of mine, ``labels`` every word's label."""
        e, n = zt.shape[1], zt.shape[2]
        M = len(self._eps)
        bad, good_cols = np.flatnonzero(~good), np.flatnonzero(good)
        if len(bad) == 0:
            return Outcomes(np.full((M, n), e), np.full((M, n), -1), len(good_cols))
        # A label's words at a time: (samples, words, candidates) per family, a block small
        # enough to stay in cache (the whole (samples, words, candidates) block written first
        # and read back was slower in a game, where other work evicts it between turns), and
        # one reduction over its words (a maximum or a count: exact in any order) in place of
        # a few calls a word.
        eps = self._eps[:, :e, :n]
        end = family_rows[-1].stop if family_rows else 0
        parts = [(rows, zt[f]) for f, rows in enumerate(family_rows)] + [(slice(end, M), None)]

        def perceived(rows: slice, z: np.ndarray | None, words: np.ndarray) -> np.ndarray:
            """(rows, words, candidates): these simulated partners' perception of ``words``
            (the random readers, ``z`` None: the noise alone)."""
            p = eps[rows][:, words]
            if z is not None:
                np.add(p, z[words], out=p)
            return p

        # The first other word is the highest-ranked one: the best of each label's best.
        # (argmax over a stacked (kinds, M, n) array reduces across its slow axis: a running
        # best and a strict "beats it" keep the first kind on ties, as argmax does, at a
        # fraction of the cost.)
        kinds = unique(labels[bad])
        top = np.empty((M, n), np.float32)
        best = np.empty((M, n), np.float32)
        first = np.zeros((M, n), np.intp)
        for i, kind in enumerate(kinds):
            words = bad[labels[bad] == kind]
            out = best if i == 0 else top
            for rows, z in parts:
                perceived(rows, z, words).max(axis=1, out=out[rows])
            if i:   # first = i where this kind beats the earlier ones (i exceeds their indices)
                np.maximum(first, (top > best) * i, out=first)
                np.maximum(best, top, out=best)
        above = np.empty((M, n), np.intp)
        for rows, z in parts:
            np.sum(perceived(rows, z, good_cols) > best[rows, None], axis=1, out=above[rows])
        return Outcomes(above, kinds[first], len(good_cols))


def depth_table(partner: ReaderModel, greens: int, max_number: int) -> np.ndarray:
    """(max_number, max_number + 2): chance that the partner goes d deep for a clue of k
    (row k-1), never deeper than the ``greens`` they can find."""
    return _depth_table(min(greens, max_number + 1), max_number, partner.stop_early, partner.bonus)


@lru_cache(maxsize=256)
def _depth_table(deepest: int, max_number: int, stop_early: float, bonus: float) -> np.ndarray:
    reader = ReaderModel(("any",), (1.0,), 1.0, 0.0, stop_early, bonus)
    out = np.zeros((max_number, max_number + 2))
    for k in range(1, max_number + 1):
        out[k - 1, :deepest + 1] = reader.depth_chances(k, deepest)
    out.flags.writeable = False
    return out


def allocate(total: int, shares: Sequence[float]) -> list[int]:
    """``total`` rows shared by ``shares`` (largest remainders), at least one row for every
    positive share.

    >>> allocate(64, [0.5, 0.3, 0.2])
    [32, 19, 13]
    """
    shares_ = np.asarray(shares, float)
    exact = total * shares_ / shares_.sum()
    out = np.floor(exact).astype(int)
    out[(shares_ > 0) & (out == 0)] = 1
    while out.sum() > total:
        out[np.argmax(out)] -= 1
    for i in np.argsort(-(exact - np.floor(exact))):
        if out.sum() >= total:
            break
        out[i] += 1
    return [int(x) for x in out]


def unique(a: np.ndarray) -> np.ndarray:
    """``np.unique`` (of the flattened array), without its check for masked arrays (which
    imports ``numpy.ma``, 20 ms, on a process's first call)."""
    a = np.sort(a, axis=None)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) else a
