"""Bounded caches: the helper, and a long-running process's ensemble over many boards."""

from __future__ import annotations

import tracemalloc
import zlib

import numpy as np
import pytest

from duetbot.bots.ensemble import Ensemble
from duetbot.embeddings import EmbeddingModel
from duetbot.embeddings.store import ROWS_DTYPE
from duetbot.lru import BoundedCache


def test_the_least_recently_used_entry_goes_first():
    made: list[str] = []

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    cache: BoundedCache[str, str] = BoundedCache(2)
    assert [cache.get(k, make) for k in "aba"] == ["A", "B", "A"] and made == ["a", "b"]
    assert cache.get("c", make) == "C" and list(cache) == ["a", "c"]  # b was the least recent
    assert cache.get("b", make) == "B" and made == ["a", "b", "c", "b"] and len(cache) == 2


def test_a_failed_make_keeps_nothing():
    cache: BoundedCache[str, str] = BoundedCache(2)
    with pytest.raises(KeyError):
        cache.get("a", lambda k: {}[k])
    assert len(cache) == 0
    with pytest.raises(ValueError):
        BoundedCache(0)


def _letters(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 26)
        out += chr(97 + r)
        if not n:
            return out + "x"


def _toy_model(name: str, seed: int, dim: int = 16) -> EmbeddingModel:
    """A family of 300 clue words that reads every other word through its fallback."""
    rng = np.random.default_rng(seed)
    words = [f"clue{_letters(i)}" for i in range(300)]
    rows = np.zeros(len(words), ROWS_DTYPE)
    rows["is_clue"] = True

    def fallback(word: str) -> np.ndarray:
        return np.sin(np.arange(1, dim + 1, dtype=np.float32) * (zlib.crc32(word.encode()) % 9973 + seed))

    return EmbeddingModel(name, name, None, words, rng.standard_normal((len(words), dim)).astype(np.float32),
                          rows, fallback=fallback)


def test_an_ensemble_keeps_bounded_caches_over_many_boards():
    """A server answers boards of words it has never seen, for as long as it runs: the
    ensemble's board caches never pass their bound, and memory stays flat once the per-word
    caches are full."""
    ens = Ensemble([_toy_model("one", 1), _toy_model("two", 2)], cache_size=8)
    try:
        for b in range(500):
            if b == 300:  # the per-word caches are full by now (25 new words a board)
                tracemalloc.start()
            words = [_letters(25 * b + j) for j in range(25)]
            ens.board(words)
            ens.board_rows(words)
            assert len(ens.board_cache) <= 8 and len(ens.rows_cache) <= 8
            if b == 350:  # what is traced and alive from now on is what the caches keep
                before = tracemalloc.get_traced_memory()[0]
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 100_000, f"{grown} bytes more after 150 more boards"
