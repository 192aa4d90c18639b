"""Which clue words the spymaster may say: the words it knows and would say (familiar, base
forms, family-friendly), the score prior that prefers common words, and each turn's legality
on the visible board (the strict check the bot holds its own clues to, or the rule book's).

The vocabulary-wide parts (rarity, people's words) are worked out once per ensemble
(:attr:`~duetbot.bots.ensemble.Ensemble.people_would_say`); what a board word forbids is cached
per word, in a bounded cache (a long ``duetbot serve`` meets new board words for ever).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ...lru import BoundedCache
from ...rules.clues import clue_conflict, illegal_clues
from ...words import word_key
from ..ensemble import Ensemble
from ..strict_clues import strict_illegal_clues
from .config import WordsConfig

#: Board words checked one by one before the spymaster indexes its vocabulary for the
#: strict clue check (:class:`~duetbot.bots.strict_clues.StrictIndex`): two boards.
INDEX_AFTER_WORDS = 50

#: Board words whose forbidden clue words are kept: a simulation deals from a few hundred.
ILLEGAL_CACHE_WORDS = 4096


class Legality:
    """Which clue candidates are legal this turn, checked only as far as the search asks.

    ``ok`` is False for every candidate known to be illegal and True for the rest; ``known``
    marks the candidates whose legality is settled. A candidate not yet known is checked
    (``check``: candidate indices -> which of them are illegal) when :meth:`resolve` reaches
    it. The answers are those of the full mask: a search that only ever trusts known
    candidates (as the spymaster's screen does) picks what it would have picked with every
    candidate checked.
    """

    def __init__(self, ok: np.ndarray, known: np.ndarray | None = None,
                 check: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        self.ok = ok
        self.known = known if known is not None else np.ones(len(ok), bool)
        self._check = check

    @property
    def complete(self) -> bool:
        """Whether every candidate is settled already."""
        return self._check is None

    def resolve(self, cols: np.ndarray | Sequence[int]) -> np.ndarray:
        """Settle ``cols`` (candidate indices); returns those of them that are legal."""
        cols = np.asarray(cols, dtype=np.int64)
        new = cols[~self.known[cols]]
        if len(new):
            assert self._check is not None
            self.ok[new[self._check(new)]] = False
            self.known[new] = True
        return cols[self.ok[cols]]

    def full(self) -> np.ndarray:
        """The whole mask, every candidate checked."""
        self.resolve(np.flatnonzero(~self.known))
        return self.ok

    def forbid(self, cols: np.ndarray) -> None:
        """Make candidates ``cols`` illegal (and settled) for this turn."""
        self.ok[cols], self.known[cols] = False, True

    def without(self, c: int) -> Legality:
        """A copy in which candidate ``c`` is illegal too."""
        out = Legality(self.ok.copy(), self.known.copy(), self._check)
        out.ok[c], out.known[c] = False, True
        return out


class ClueWords:
    """The spymaster's clue words: which it may ever say, the prior that prefers familiar
    ones, and which are legal on a given turn (:meth:`legal`)."""

    def __init__(self, ensemble: Ensemble, config: WordsConfig) -> None:
        self.ensemble = ensemble
        self.config = config
        z = ensemble.zipf
        self.prior = (-config.familiarity * np.clip(4.5 - z, 0, None)
                      - config.proper_penalty * ensemble.is_proper).astype(np.float32)
        """Score added to every clue candidate: familiar words first, famous names last."""
        self.never = (z < config.min_zipf) | (~ensemble.people_would_say if config.base_forms else False)
        """Words never given: too rare, or not words a person would say."""
        self._illegal: BoundedCache[str, np.ndarray] = BoundedCache(ILLEGAL_CACHE_WORDS)
        self._met: set[str] = set()   # board words met (folded) while the index is not built

    def forbid(self, words: Sequence[str]) -> None:
        """Cache, for each board word, the clue-candidate indices it forbids: the strict check
        the bot holds its own clues to (``config.strict_clues``), else the rule book's."""
        index = self.ensemble.index
        if self.config.strict_clues:
            # The vocabulary is indexed once (~0.3 s), after which a new word costs ~0.3 ms.
            found = {word_key(w): sorted(index[c] for c in flagged)
                     for w, flagged in self.ensemble.strict_index.by_word(words).items()}
        else:
            bad = sorted(illegal_clues(self.ensemble.clue_words, words))
            found = {word_key(w): [index[c] for c in bad if clue_conflict(c, w)] for w in words}
        for k, cols in found.items():
            self._illegal[k] = np.array(cols, dtype=np.int64)

    def legal(self, view: Any) -> Legality:
        """Clue candidates allowed now: words the bot may say, legal on the visible words, not
        given before. A session's first boards (up to :data:`INDEX_AFTER_WORDS` words) are
        checked lazily, only for the candidates the search reaches (a few hundred of the
        vocabulary, so one request or one game never waits for the whole vocabulary's
        check); later boards' words are checked against the whole vocabulary once each and
        cached."""
        legal = ~self.never
        for t in view.turns:
            j = self.ensemble.index.get(t.clue.word)
            if j is not None:
                legal[j] = False
        words = [view.words[i] for i in view.visible]
        keys = [word_key(w) for w in words]
        new = {k: w for k, w in zip(keys, words) if k not in self._illegal}
        for k in keys:
            if k not in new:
                legal[self._illegal[k]] = False
        if len(self._met) <= INDEX_AFTER_WORDS:
            self._met.update(new)
        if new and (not self.config.strict_clues or len(self._met) > INDEX_AFTER_WORDS):
            self.forbid(list(new.values()))
            for k in new:
                legal[self._illegal[k]] = False
            new = {}
        if not new:
            return Legality(legal)
        unchecked, clue_words = list(new.values()), self.ensemble.clue_words

        def check(cols: np.ndarray) -> np.ndarray:
            cands = [clue_words[c] for c in cols.tolist()]
            flagged = strict_illegal_clues(cands, unchecked)
            return np.fromiter((c in flagged for c in cands), bool, count=len(cands))

        return Legality(legal, ~legal, check)
