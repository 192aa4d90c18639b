"""``clue: 0``: warn the partner off an assassin (``SpymasterConfig.zero``).

Considered when the best positive clue risks the assassin (``zero.trigger``): the zero clue
names the assassin that most endangers it, with a word that points at that assassin by
``zero.min_margin`` over any other word, and is given when the best clue without that
assassin in play, one turn later, beats the best clue now.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from ...rules import Clue
from ..ensemble import Ensemble
from .config import SpymasterConfig
from .legality import ClueWords, Legality
from .position import ClueOption, Position, Valuation


class Search(Protocol):
    """What the zero clue uses of the search (:class:`~.search.EmbeddingSpymaster`)."""

    ensemble: Ensemble
    config: SpymasterConfig
    words: ClueWords

    def shortlist(self, pos: Position, legal: Legality, in_play: np.ndarray | None = None) -> np.ndarray: ...

    def valuation(self, pos: Position, cand: np.ndarray, in_play: np.ndarray | None = None,
                  tokens_after: int | None = None) -> Valuation: ...


def zero_option(sm: Search, view: Any, pos: Position, current: ClueOption) -> ClueOption | None:
    """The zero clue for the assassin that most endangers ``current``, or ``None``."""
    cfg = sm.config.zero
    threat = next((w for w, label in current.dangers if label == "assassin"), None)
    if threat is None:
        return None
    a = [view.words[i] for i in pos.eligible].index(threat)
    others = np.ones(len(pos.eligible), bool)
    others[a] = False
    # From the transposed block, a row per word (the same numbers as the columns of zbar,
    # read whole rows instead of gathering 24 columns of every candidate).
    rows = pos.sims.zbar_t[pos.eligible]
    rest = rows[others]
    nearest = rest[0].copy()
    for r in rest[1:]:
        np.maximum(nearest, r, out=nearest)
    margin = rows[a] - nearest
    margin[~pos.legal.ok] = -np.inf
    while True:
        c = int(np.argmax(margin))
        if margin[c] < cfg.min_margin:
            return None
        if len(pos.legal.resolve([c])):
            break
        margin[c] = -np.inf
    cand = sm.shortlist(pos, pos.legal.without(c), others)
    if len(cand) == 0:
        return None
    value = sm.valuation(pos, cand, others, tokens_after=pos.situation.tokens - 2).value
    value = value + sm.words.prior[cand][:, None]
    value[:, int((pos.labels[others] == 0).sum()):] = -np.inf
    score = (1 - cfg.guess_risk) * float(value.max()) + float(sm.words.prior[c])
    if score <= current.score:
        return None
    return ClueOption(Clue(sm.ensemble.clue_words[c], 0), (), score, 0.0,
                      cfg.guess_risk, 0.0, ((threat, "assassin"),))
