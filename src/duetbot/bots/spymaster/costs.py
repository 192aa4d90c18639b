"""Duet's cost model (:class:`DuetCost`): what a clue's simulated outcomes are worth.

Greens, the assassin and bystanders on my side of the key; a clue is worth the chance of
winning after it, from the win table over (greens left, tokens left) (:mod:`..winchance`):
a bystander costs what the rule book says (:class:`~duetbot.bots.winchance.TurnEnd`), the
assassin the game. Classic's cost model is ``ClassicCost`` in :mod:`..classic`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Mapping

import numpy as np

from ...rules import GuessResult, Label
from ...views import SpymasterView
from ..winchance import DUET_TURNS, TurnEnd, TurnModel
from .position import ASSASSIN, GREEN, Outcomes, Position, Situation, Valuation
from .readers import depth_table

BYSTANDER = 2
_CODE = {Label.GREEN: GREEN, Label.ASSASSIN: ASSASSIN, Label.BYSTANDER: BYSTANDER}


def read_clues(view: SpymasterView) -> list:
    """My clues (not zero clues) that my partner has guessed on, oldest first."""
    return [t for t in view.turns if t.giver == view.player and t.clue.number > 0 and t.guesses]


def misread(turn) -> bool:
    """Whether the partner missed within the clue's number (a miss on a guess past the
    number, after every target was found, is the usual end of a good turn)."""
    return any(r is not GuessResult.GREEN for _, r in turn.guesses[:turn.clue.number])


@lru_cache(maxsize=512)
def _outcome_tables(turns: TurnModel, A: int, max_number: int, greens_total: int,
                    end: TurnEnd) -> tuple[np.ndarray, ...]:
    """(2A, D) per outcome (a greens before the first other word, whether that word is the
    assassin) and depth d: the win chance after it, greens found, assassin hit, bystander
    hit. The same for every turn of this clock and these counts, so worked out once."""
    W = turns.duet_table()
    a = np.arange(A)[:, None, None]
    ds = np.arange(max_number + 2)[None, None, :]
    found = np.broadcast_to(np.minimum(a, ds), (A, 2, ds.shape[2]))              # (A, 2, D)
    missed = np.broadcast_to(a < ds, found.shape)
    assassin = missed & (np.arange(2)[None, :, None] == 1)
    value = (1 - assassin) * end.value(W, greens_total, found, missed)
    out = tuple(x.reshape(2 * A, -1) for x in (value, found, assassin, missed & ~assassin))
    for x in out:
        x.flags.writeable = False
    return out


@dataclass(frozen=True)
class DuetCost:
    """Duet's cost model (:class:`~.position.CostModel`)."""

    turns: TurnModel = DUET_TURNS
    """What a future turn is assumed to bring, for the win-chance table (:mod:`..winchance`)."""

    names: ClassVar[Mapping[int, str]] = {GREEN: "green", ASSASSIN: "assassin", BYSTANDER: "bystander"}
    links: ClassVar[bool] = True

    def situation(self, view: SpymasterView) -> Situation:
        excluded = set(view.covered) | set(view.partner_marks)
        eligible = np.array([i for i in range(len(view.words)) if i not in excluded], dtype=np.int64)
        labels = np.array([_CODE[view.my_side[i]] for i in eligible], dtype=np.int8)
        return Situation(eligible, labels, view.greens_to_win, view.tokens, view.bystander_tokens,
                         zero_clues=view.variant.zero_clues,
                         read=tuple((t.clue.number, misread(t)) for t in read_clues(view)))

    def danger_bonus(self, assassin_margin: float) -> Mapping[int, float]:
        return {ASSASSIN: assassin_margin, BYSTANDER: 0.0}

    def values(self, position: Position, outcomes: Outcomes, max_number: int,
               tokens_after: int | None = None) -> Valuation:
        s = position.situation
        if tokens_after is None:
            end = TurnEnd.after(s.tokens, s.bystander_tokens)
        else:   # a zero clue: the clock after it, its guess's miss already counted
            end = TurnEnd(max(tokens_after, 0), max(tokens_after, 0))
        # A simulated partner's outcome is (a: greens before the first other word, x: whether
        # that word is the assassin); the clue's figures are the share of each outcome times
        # what it brings. The partner goes d deep (d = 0 .. max_number + 1) unless a miss stops
        # them first; the partner model says how likely each depth is for a clue of k.
        above, first_miss = outcomes.above, outcomes.first_miss
        M, n = above.shape
        A = int(above.max()) + 1
        key = above * 2 + (first_miss == ASSASSIN) + (2 * A) * np.arange(n)
        share = np.bincount(key.ravel(), minlength=2 * A * n).reshape(n, 2 * A) / M   # (n, 2A)
        tables = _outcome_tables(self.turns, A, max_number, s.greens_total, end)
        depth = depth_table(position.partner, outcomes.greens, max_number)            # (K, D)
        value, found_k, p_a, p_b = ((share @ x) @ depth.T for x in tables)
        # The honest number's yardstick: each family's simulated partners' greens in their top
        # k (read k deep; the random readers left out).
        to_k = tables[1][:, 1:max_number + 1]                                         # (2A, K)
        by_family = []
        for rows in position.rows:
            if rows.stop > rows.start:
                k = key[rows]
                f = np.bincount(k.ravel(), minlength=2 * A * n).reshape(n, 2 * A) / len(k)
                by_family.append(f @ to_k)
        return Valuation(value, found_k, p_a, p_b, np.array(by_family) if by_family else None)
