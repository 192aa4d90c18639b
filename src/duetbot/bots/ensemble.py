"""Several embedding families over one shared clue vocabulary, on one similarity scale.

Similarities from different models live on different scales (GloVe cosines spread wider than
MiniLM's), so each family's clue x board similarities are z-scored *per board*: with the
mean and spread of that family's similarities between the whole clue vocabulary and this
board. One scale per board, not per clue: per-clue scaling lets a weak clue look strong by
chance among tens of thousands of candidates (docs/architecture.md, "Where the defaults come from").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import islice
from pathlib import Path
from typing import Sequence

import numpy as np

from ..embeddings import EmbeddingModel, UnknownWordError
from ..embeddings import model as model_module
from ..embeddings.cache import DerivedCache, code_stamp, files_stamp
from ..embeddings import vocab
from ..embeddings.vocab import reading_forms
from ..lru import BoundedCache
from ..rules import clues
from ..rules.keycard import BOARD_SIZE
from ..words import keys, lexicon, morphology
from ..words.associations import Associations
from ..words.evokes import Evokes
from . import common_words, strict_clues
from .strict_clues import StrictIndex


@dataclass(frozen=True)
class BoardSims:
    """Per-board similarity data shared by every bot that uses the same ensemble."""

    words: tuple[str, ...]
    z: np.ndarray
    """(families, clues, board words) float32: z-scored similarities of every clue candidate."""
    mean: np.ndarray
    """(families,) mean similarity of clue vocabulary x board, for scoring other clue words."""
    std: np.ndarray
    board_vectors: tuple[np.ndarray, ...]
    """Per family, (board words, dim) unit vectors (zero rows for words it does not know)."""
    known: np.ndarray
    """(families, board words): which family has an opinion of which board word (its own
    vector or its fallback's)."""
    zbar: np.ndarray
    """(clues, board words): the family average of ``z``, for quick screening."""
    zbar_t: np.ndarray
    """``zbar`` transposed, (board words, clues) contiguous: the screen gathers whole rows."""
    unread: tuple[str, ...] = ()
    """Board words no family's own table knows: read through the fallback alone."""

    def row(self, i: int) -> np.ndarray:
        """(families, board words) z-scores of clue candidate ``i``."""
        return self.z[:, i, :]


class BoardRows:
    """What a guesser needs of a board: the z-scores of the few clues it is given, computed
    row by row on demand, on the same scale as :class:`BoardSims` (each family's mean and
    spread over the whole clue vocabulary x this board, from the vocabulary's moments, without
    the full product).
    """

    def __init__(self, words: tuple[str, ...], clue_vectors: Sequence[np.ndarray], board_vectors: tuple[np.ndarray, ...],
                 known: np.ndarray, mean: np.ndarray, std: np.ndarray, unread: tuple[str, ...],
                 lifts: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        self.words = words
        self.board_vectors = board_vectors
        self.known = known
        self.mean = mean
        self.std = std
        self.unread = unread
        self._clue_vectors = clue_vectors
        self._scaled = [(bv / sd).T.astype(np.float32) for bv, sd in zip(board_vectors, std)]  # (dim, words)
        self._shift = (mean / std).astype(np.float32)[:, None]
        self._borrow = list(zip(*np.nonzero(~known)))
        # the association table's lifts of this board (Ensemble._lifted), by clue row sorted
        rows, cols, values = lifts
        order = np.argsort(rows, kind="stable")
        self._lifts = rows[order], cols[order], values[order]
        self._rows: dict[int, np.ndarray] = {}

    def row(self, i: int) -> np.ndarray:
        hit = self._rows.get(i)
        if hit is not None:
            return hit
        z = np.stack([cv[i] @ sc for cv, sc in zip(self._clue_vectors, self._scaled)]) - self._shift
        for f, j in self._borrow:  # as in a full board: borrow the other families' view
            z[f, j] = z[self.known[:, j], j].mean()
        rows, cols, values = self._lifts
        lo, hi = np.searchsorted(rows, (i, i + 1))
        if hi > lo:
            z[:, cols[lo:hi]] += values[lo:hi]
        z.flags.writeable = False
        self._rows[i] = z
        return z


def _shared_clue_words(models: Sequence[EmbeddingModel]) -> list[str]:
    """The clue words every model has, in the first model's order (by frequency, so ties
    resolve to familiar words)."""
    common = set(models[0].clue_words)
    for m in models[1:]:
        common &= set(m.clue_words)
    return [w for w in models[0].clue_words if w in common]


def columns_agree(clue_vectors: Sequence[np.ndarray], boards: Sequence[np.ndarray], products: np.ndarray) -> bool:
    """Whether each family's product of the clue vectors with its board words in reverse order
    holds, column for column, the same numbers as ``products`` (the products in board order):
    whether this BLAS gives a word's column the same bits wherever it stands."""
    return all((cv @ bv[::-1].T)[:, ::-1].tobytes() == p.tobytes()
               for cv, bv, p in zip(clue_vectors, boards, products))


#: How far the association table lifts every family's z of a (clue, board word) pair, by the
#: pair's strength (0, 1, 2, 3): 1 and 2 z a point tie for the guesser on people's clues (half
#: the development games to fit, half to report); person-like readings of the spymaster's
#: clues chose 2 (3 and 4 read no better and hit more assassins: benchmarks/RESULTS.md, "The
#: association table").
DEFAULT_LIFT: tuple[float, float, float, float] = (0.0, 2.0, 4.0, 6.0)

#: Boards' worth of a pool's words multiplied at once by :meth:`Ensemble.keep_word_columns`
#: (a few tens of MB for the product and its copy by word, for a moment).
WIDE_BOARDS = 8

#: Board words whose vectors (mostly its models' own cached rows; at most about 3.5 kB a word
#: with the default guesser's families) and lifted pairs an ensemble keeps at hand: a
#: simulation's pool, as many as its kept word columns (``factory.POOL_WORDS``).
WORD_VECTORS = 640


def _store_columns(key: tuple[str, ...], out: np.ndarray, kept: BoundedCache[str, np.ndarray]) -> None:
    """Keep each word's column of the products ``out`` (families, clues, words), for the
    words of ``key`` that ``kept`` lacks."""
    by_word = np.ascontiguousarray(out.transpose(2, 0, 1))           # (words, families, clues)
    for j, w in enumerate(key):
        if w not in kept:
            kept[w] = by_word[j].copy()   # (a view would keep the whole block)


class Ensemble:
    """Embedding families aligned on the clue words that every one of them knows, each
    family's z of a clue and a board word lifted where the association table links them."""

    def __init__(self, models: Sequence[EmbeddingModel], cache_size: int = 8,
                 associations: Associations | None = None,
                 lift: Sequence[float] = DEFAULT_LIFT, evokes: Evokes | None = None) -> None:
        if not models:
            raise ValueError("an ensemble needs at least one embedding model")
        self.models = tuple(models)
        stamps = [files_stamp(getattr(m, "path", None)) for m in models]   # toy models have none
        # What follows depends on the model files (and the code that reads them) alone: kept
        # on disk for the next process, keyed also by the checksums the models' builds recorded.
        key = None if None in stamps else [stamps, [str(m.meta.get("checksum", "")) for m in models],
                                           code_stamp(Path(__file__), Path(model_module.__file__))]
        self._derived = DerivedCache("ensembles", key)
        self.clue_words = self._derived.words("clue_words", lambda: _shared_clue_words(models))
        if not self.clue_words:
            raise ValueError("the models share no clue word")
        self.index = dict(zip(self.clue_words, range(len(self.clue_words))))
        self.board_cache: BoundedCache[tuple[str, ...], BoardSims] = BoundedCache(cache_size)
        """The last boards' :meth:`board` (a game's board stays while it is played)."""
        self.rows_cache: BoundedCache[tuple[str, ...], BoardRows] = BoundedCache(cache_size)
        """The last boards' :meth:`board_rows`."""
        self.word_columns: BoundedCache[str, np.ndarray] | None = None
        """Off unless :meth:`keep_word_columns`: each board word's raw products with the clue
        vocabulary, (families, clues), from the boards of :attr:`_columns_size` words."""
        self._columns_size = 0
        self._wide_agrees: bool | None = None
        """Whether a column of a product wider than a board holds the numbers of a board's
        product (``None``: not yet checked; :meth:`_keep_wide`)."""
        self.associations = associations
        """The association table whose pairs lift every family's z (``None``: no lift)."""
        self.lift = np.asarray(lift, np.float32)
        """(4,) the lift of a pair of strength 0-3, in z units (fixed: each word's lifts are
        kept once worked out; another lift is another ensemble)."""
        self.evokes = evokes
        """What each clue calls to a person's mind, read for danger only: the spymaster gives
        no clue that reaches an assassin of its own (:meth:`reaching`; ``None``: not read)."""
        self._reaching: BoundedCache[str, np.ndarray] = BoundedCache(WORD_VECTORS)
        self._word_lifts: BoundedCache[str, tuple[np.ndarray, np.ndarray]] = BoundedCache(WORD_VECTORS)
        """Per board word, its lifted pairs' clue rows and lifts (:meth:`_lifted`)."""
        self._word_vectors: BoundedCache[str, tuple[tuple[np.ndarray | None, ...], bool]] = BoundedCache(WORD_VECTORS)
        """Per board word, each family's vector (``None``: it cannot read the word) and whether
        some family's own table knows it (:meth:`_board_vectors`)."""

    def _lifted(self, key: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The board's lifted pairs: clue rows, word columns, lifts (each (pairs,)). Each
        word's rows and lifts are kept (a few kB a word, the last :data:`WORD_VECTORS` words):
        a new board of known words costs a concatenation, not the table's lookups."""
        if self.associations is None:
            empty = np.zeros(0, np.int64)
            return empty, empty, np.zeros(0, np.float32)
        per_word = [self._word_lifts.get(w, self._word_lift) for w in key]
        cols = np.repeat(np.arange(len(key)), [len(r) for r, _ in per_word])
        return (np.concatenate([r for r, _ in per_word]), cols,
                np.concatenate([v for _, v in per_word]))

    def reaching(self, word: str) -> np.ndarray:
        """The clue rows whose associations reach board word ``word``
        (:meth:`~duetbot.words.evokes.Evokes.clues`; none without :attr:`evokes`)."""
        return self._reaching.get(word, self._reaching_rows)

    def _reaching_rows(self, word: str) -> np.ndarray:
        found = self.evokes.clues(word) if self.evokes is not None else ()
        return np.array([i for i in map(self.index.get, found) if i is not None], np.int64)

    def _word_lift(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        assert self.associations is not None
        rows, _, strength = self.associations.board((word,), self.index)
        return rows, self.lift[strength]

    def keep_word_columns(self, words: int, pool: Sequence[str] = ()) -> None:
        """Keep the raw products of the last ``words`` board words (about 170 kB a word with
        the default families), so that a board whose every word was on an earlier board of
        the same size is put together from them instead of multiplied again: a simulation
        deals its boards from one pool of a few hundred words, and the products were a fifth
        of a game (issue 39). The same numbers either way: a column of the product is the
        same whatever else the product holds, which the first board checks (its product
        against the product of its words in reverse order); where the BLAS in use does not
        keep that, nothing is kept.

        ``pool``: the words the boards are dealt from. When they fit, their products are made
        now, each word multiplied once: made board by board, a worker's first hundred boards
        or so each brought a new word and were multiplied whole (a second of a worker's
        time). The first block is a board's worth (it checks the BLAS as above), the rest
        :data:`WIDE_BOARDS` boards' worth at a time (a wider product runs at twice the speed),
        where a column holds the same numbers in the wider product as in a board's, which the
        first wide block checks; else board by board."""
        if self.word_columns is None:
            self.word_columns = BoundedCache(words)
        else:
            self.word_columns.size = max(self.word_columns.size, words)
        fresh = [w for w in dict.fromkeys(pool) if self.readable(w) and w not in self.word_columns]
        if not fresh or len(fresh) + len(self.word_columns) > self.word_columns.size:
            return
        size = self._columns_size or BOARD_SIZE
        products = np.empty((len(self.models), len(self.clue_words), size), np.float32)
        a = 0
        while a < len(fresh):
            if self.word_columns is None:   # the BLAS in use moves columns: nothing is kept
                return
            width = size
            if self._columns_size and self._wide_agrees is not False:
                width = max(size, min(WIDE_BOARDS * size, len(fresh) - a + len(self.word_columns)))
            block = fresh[a:a + width]
            # (the last block filled up to its width with words kept before it)
            key = (*islice(self.word_columns, width - len(block)), *block)
            if len(key) < width:
                return
            if width == size:
                self._products(key, self._board_vectors(key)[0], products)
            elif not self._keep_wide(key):
                continue   # (a wider product moves a column's numbers: board by board)
            a += len(block)

    def _keep_wide(self, key: tuple[str, ...]) -> bool:
        """Keep the columns of ``key``'s words (more than a board's worth) from one product
        per family. The first time, first checks that the first and the last board's worth
        of its columns hold the numbers of a board's product of their words; returns False,
        keeping nothing (and never trying again), where they do not."""
        boards = self._board_vectors(key)[0]
        out = np.empty((len(self.models), len(self.clue_words), len(key)), np.float32)
        for f, (cv, bv) in enumerate(zip(self.clue_vectors, boards)):
            np.matmul(cv, bv.T, out=out[f])
        if self._wide_agrees is None:
            size = self._columns_size
            self._wide_agrees = all((cv @ bv[s].T).tobytes() == np.ascontiguousarray(o[:, s]).tobytes()
                                    for cv, bv, o in zip(self.clue_vectors, boards, out)
                                    for s in (slice(0, size), slice(len(key) - size, len(key))))
            if not self._wide_agrees:
                return False
        assert self.word_columns is not None
        _store_columns(key, out, self.word_columns)
        return True

    @cached_property
    def _aligned(self) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
        """Each family's clue vectors in the shared order, the mean zipf, the proper-noun
        flags. Built on first use: a guesser that only reads clues from its families'
        tables (``clue_z`` on words no family has as a clue) never pays for them."""
        names = [f"vectors{f}" for f in range(len(self.models))] + ["zipf", "proper"]
        *vecs, zipf, proper = self._derived.arrays(names, self._align)
        return tuple(vecs), zipf, proper

    def _align(self) -> list[np.ndarray]:
        n = len(self.clue_words)
        vecs, zipf, proper = [], np.zeros(n, np.float32), np.zeros(n, bool)
        for m in self.models:
            pos = dict(zip(m.clue_words, range(len(m.clue_words))))
            rows = np.fromiter((pos[w] for w in self.clue_words), dtype=np.int64, count=n)
            vecs.append(m.clue_vectors_at(rows))
            zipf += np.asarray(m.clue_zipf, np.float32)[rows] / len(self.models)
            proper |= np.asarray(m.clue_is_proper, bool)[rows]
        return [*vecs, zipf, proper]

    @property
    def clue_vectors(self) -> tuple[np.ndarray, ...]:
        """Per family, (clues, dim) unit vectors of the shared clue words."""
        return self._aligned[0]

    @property
    def zipf(self) -> np.ndarray:
        """(clues,) the families' mean zipf frequency of each clue word."""
        return self._aligned[1]

    @property
    def is_proper(self) -> np.ndarray:
        """(clues,) whether any family flags the clue word as a proper noun."""
        return self._aligned[2]

    @cached_property
    def strict_index(self) -> StrictIndex:
        """The strict clue check's index of the clue vocabulary (built on first use, about
        0.3 s; kept on disk beside the ensemble's arrays, keyed also by the check's code and
        word lists, and read back in a fraction of that)."""
        code = [Path(str(m.__file__)) for m in (strict_clues, clues, keys, lexicon, morphology)]
        try:
            data = code[0].parent.parent.joinpath(lexicon.LEXICON_DIR)
            stamp = code_stamp(*code, *sorted(data.iterdir()))
        except OSError:   # the check's files cannot be read as files: build it here
            stamp = None
        if self._derived.dir is None or stamp is None:
            return StrictIndex(self.clue_words)
        cache = DerivedCache("strict", [self._derived.dir.name, stamp])
        return StrictIndex.from_state(cache.json("index", lambda: StrictIndex(self.clue_words).state()))

    @cached_property
    def people_would_say(self) -> np.ndarray:
        """(clues,) which clue words a person would say
        (:func:`~duetbot.bots.common_words.people_would_say`: about 0.1 s to work out, so
        kept on disk beside the ensemble's arrays, keyed also by that code and its lists)."""
        def make() -> list[np.ndarray]:
            return [common_words.people_would_say(self.clue_words, self.zipf, self.is_proper)]

        code = [Path(str(m.__file__)) for m in (common_words, lexicon, vocab)]
        try:
            stamp = code_stamp(*code, *sorted(code[1].parent.parent.joinpath(lexicon.LEXICON_DIR).iterdir()),
                               code[2].parent.parent / "data" / "profanity.txt")
        except OSError:
            stamp = None
        if self._derived.dir is None or stamp is None:
            return make()[0]
        return DerivedCache("said", [self._derived.dir.name, stamp]).arrays(["mask"], make)[0]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.models)

    def __len__(self) -> int:
        return len(self.models)

    def reads(self, word: str) -> bool:
        """True if some family's own table knows ``word``."""
        return any(m.knows(word) for m in self.models)

    def readable(self, word: str) -> bool:
        """True if some family knows ``word`` or has a fallback."""
        return self.reads(word) or any(m.has_fallback for m in self.models)

    def require(self, word: str, own: bool = False) -> None:
        """Raise :class:`UnknownWordError` (naming the word, these families and close
        spellings) unless some family knows ``word`` or has a fallback (``own``: unless some
        family's own table knows it, e.g. for a word that describes another)."""
        if (self.reads(word) if own else self.readable(word)):
            return
        m = self.models[0]
        missing = m.fallback_parts(word) or [word]
        raise UnknownWordError(word, "+".join(self.names), m.suggestions(missing[0]), missing)

    def _board_vectors(self, key: tuple[str, ...]) -> tuple[tuple[np.ndarray, ...], np.ndarray, tuple[str, ...]]:
        """Per family the board's (words, dim) vectors (zero rows for words it cannot read),
        which family reads which word, and the words only fallbacks read; raises for a word
        no family can read."""
        # (each word's vectors looked up in its families once and kept: the lookups cost more
        # than copying the rows)
        entries = [self._word_vectors.get(w, self._word_entry) for w in key]
        boards = []
        known = np.zeros((len(self.models), len(key)), bool)
        for f, cv in enumerate(self.clue_vectors):
            bv = np.zeros((len(key), cv.shape[1]), np.float32)
            for j, (vectors, _) in enumerate(entries):
                v = vectors[f]
                if v is not None:
                    bv[j] = v
                    known[f, j] = True
            boards.append(bv)
        missing = ~known.any(axis=0)
        if missing.any():
            self.require(key[int(np.argmax(missing))])
        return tuple(boards), known, tuple(w for w, (_, read) in zip(key, entries) if not read)

    def _word_entry(self, word: str) -> tuple[tuple[np.ndarray | None, ...], bool]:
        """``word``'s vector in each family that can read it (``None`` where it cannot), and
        whether some family's own table knows it."""
        return (tuple(m.vector(word) if m.has_fallback or m.knows(word) else None for m in self.models),
                self.reads(word))

    @cached_property
    def _means(self) -> list[np.ndarray]:
        """Per family the clue vocabulary's mean vector (float64): the mean similarity to a
        board follows from it."""
        return [cv.mean(axis=0, dtype=np.float64) for cv in self.clue_vectors]

    @cached_property
    def _moments(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per family the mean vector and the second moment matrix (float64): the mean and
        spread of the similarities to any board follow from them, without the product. Not
        kept on disk: the product's last bits depend on the BLAS threads of the process that
        computes it, so a stored one would make a game depend on which process ran first."""
        return [(mu, cv.astype(np.float64).T @ cv.astype(np.float64) / len(cv))
                for mu, cv in zip(self._means, self.clue_vectors)]

    def board_rows(self, words: Sequence[str]) -> BoardRows:
        """The board as a guesser reads it: its rows of clue z-scores on demand (cached).
        Always these rows, never a full board that happens to be cached: the two agree only
        to float rounding, and a guesser's reading must not depend on what else ran."""
        return self.rows_cache.get(tuple(words), self._board_rows)

    def _board_rows(self, key: tuple[str, ...]) -> BoardRows:
        boards, known, unread = self._board_vectors(key)
        means, stds = np.ones(len(boards)), np.ones(len(boards))
        for f, ((mu_v, second), bv) in enumerate(zip(self._moments, boards)):
            b = bv[known[f]].astype(np.float64)
            if len(b):
                mu = float((b @ mu_v).mean())
                var = float(((b @ second) * b).sum() / len(b)) - mu * mu
                means[f], stds[f] = mu, (var ** 0.5 if var > 0 else 1.0)
        return BoardRows(key, self.clue_vectors, boards, known, means.astype(np.float32), stds.astype(np.float32),
                         unread, self._lifted(key))

    def board(self, words: Sequence[str]) -> BoardSims:
        """Similarities of every clue candidate to ``words`` (computed once per board, cached)."""
        return self.board_cache.get(tuple(words), self._board)

    def _board(self, key: tuple[str, ...]) -> BoardSims:
        means, stds = [], []
        boards, known, unread = self._board_vectors(key)
        # One (clues, words) product per family, z-scored in place in one preallocated block:
        # fresh copies of this size (stacking, casting) cost more than the products.
        z = np.empty((len(self.models), len(self.clue_words), len(key)), np.float32)
        # The mean from the vocabulary's mean vector, where the family reads every word: the
        # products come centred on it (from kept columns, in the same pass that puts them
        # together).
        shift = [float((bv.astype(np.float64) @ self._means[f]).mean()) if known[f].all() else None
                 for f, bv in enumerate(boards)]
        self._products(key, boards, z, shift)
        for f, mu in enumerate(shift):
            s = z[f]
            if mu is not None:
                # The spread from one dot product of the centred block: two passes fewer than
                # mean() and std().
                flat = s.reshape(-1)
                sd = float(np.sqrt(np.dot(flat, flat) / flat.size)) or 1.0
            else:
                seen = s[:, known[f]]
                mu, sd = float(seen.mean()), float(seen.std()) or 1.0
                s -= mu
            s /= sd
            means.append(mu)
            stds.append(sd)
        # A family that does not know a board word borrows the other families' view of it.
        for f, j in zip(*np.nonzero(~known)):
            z[f, :, j] = z[known[:, j], :, j].mean(axis=0)
        rows, cols, lifts = self._lifted(key)
        z[:, rows, cols] += lifts
        zbar = np.add(z[0], z[1], out=np.empty_like(z[0])) if len(z) > 1 else z[0].copy()
        for f in range(2, len(z)):
            zbar += z[f]
        zbar /= len(z)
        return BoardSims(key, z, np.array(means, np.float32), np.array(stds, np.float32), boards, known,
                         zbar, np.ascontiguousarray(zbar.T), unread)

    def _products(self, key: tuple[str, ...], boards: tuple[np.ndarray, ...], out: np.ndarray,
                  shift: Sequence[float | None] = ()) -> None:
        """``out[f] = clue_vectors[f] @ boards[f].T - shift[f]`` for every family (no shift
        where ``shift`` has none), from the kept word columns when each word has them
        (:meth:`keep_word_columns`)."""
        shift = list(shift) + [None] * (len(out) - len(shift))
        # the kept columns, where this board may use them (a board of the kept boards' size)
        kept = self.word_columns if self._columns_size in (0, len(key)) and len(key) > 1 else None
        if kept is not None and all(w in kept for w in key):
            # A family's columns gathered as rows, then transposed into place (shifted on the
            # way): a (words, clues) block stays in cache, where stacking every family's rows
            # first wrote and read back a block the size of the board's.
            columns = [kept[w] for w in key]                   # each (families, clues)
            rows = np.empty((len(key), out.shape[1]), out.dtype)
            for f, mu in enumerate(shift):
                for j, c in enumerate(columns):
                    rows[j] = c[f]
                if mu is None:
                    out[f] = rows.T
                else:
                    np.subtract(rows.T, mu, out=out[f])
            return
        for f, (cv, bv) in enumerate(zip(self.clue_vectors, boards)):
            np.matmul(cv, bv.T, out=out[f])
        if kept is not None:
            self._keep_columns(key, boards, out, kept)
        for f, mu in enumerate(shift):
            if mu is not None:
                out[f] -= mu

    def _keep_columns(self, key: tuple[str, ...], boards: tuple[np.ndarray, ...], out: np.ndarray,
                      kept: BoundedCache[str, np.ndarray]) -> None:
        """Keep the columns of a board's fresh products ``out`` (not yet shifted) of the
        words ``kept`` lacks; the first board checks that this BLAS gives a word's column the
        same numbers wherever it stands, else nothing is ever kept."""
        if self._columns_size == 0:   # the first board
            if not columns_agree(self.clue_vectors, boards, out):
                self.word_columns = None
                return
            self._columns_size = len(key)
        _store_columns(key, out, kept)

    def clue_z(self, clue: str, sims: BoardSims | BoardRows) -> np.ndarray:
        """(families, board words) z-scored similarities of any clue string, as a person may
        report it ("Sci-Fi", "god's", "ice cream"): each family reads the first of
        :func:`reading_forms` it knows, else its fallback reads the first form. NaN rows for
        families with neither. Raises if no family can read it."""
        forms = reading_forms(clue)
        i = self.index.get(forms[0]) if forms else None
        if i is not None:
            return sims.row(i)
        out = np.full((len(self.models), len(sims.words)), np.nan, np.float32)
        known = False
        for f, m in enumerate(self.models):
            # (not try/except: the error's spelling suggestions are slow)
            form = next((x for x in forms if m.knows(x)), forms[0] if forms and m.has_fallback else None)
            if form is None:
                continue
            v = m.vector(form)
            out[f] = np.where(sims.known[f], (sims.board_vectors[f] @ v - sims.mean[f]) / sims.std[f], np.nan)
            known = True
        if not known:
            self.require(clue)
        if self.associations is not None:
            out += self.lift[self.associations.strengths(forms[0], sims.words)]
        return out
