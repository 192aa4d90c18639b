"""One win-chance model for every bot: what a future turn is assumed to bring, and the chance of
winning it gives each position.

Both bots of both games value an action by the chance of winning after it: the Duet spymaster
(a clue's outcomes), the Duet guesser (stop or guess again), the classic spymaster and
operatives (the race between two teams, or one team alone against the clock). All of them
read it from a :class:`TurnModel`: the assumed number of words found on a future turn, the
chance such a turn ends on the assassin, and (Duet) the chance of each sudden-death guess.

>>> W = DUET_TURNS.duet_table()
>>> bool(W[1, 1] > W[5, 1] > W[9, 1])        # fewer greens left: better chances
True
>>> R = CLASSIC_TURNS.race_table()
>>> bool(R[3, 8] > 0.5 > R[8, 3])            # the team with fewer agents left leads the race
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..rules.duet import mistake_cost

__all__ = ["CLASSIC_TURNS", "DUET_TURNS", "TurnEnd", "TurnModel", "race_table", "solo_table", "win_table"]


@dataclass(frozen=True)
class TurnModel:
    """What a future turn is assumed to bring, for the win-chance tables."""

    turn_yield: tuple[float, ...] = (0.2, 0.25, 0.3, 0.2, 0.05)
    """Chance of finding 0, 1, 2 ... words on a future turn (normalised)."""
    turn_assassin: float = 0.03
    """Chance that a future turn ends on the assassin."""
    sudden_death_hit: float = 0.55
    """Duet: chance of each correct guess in sudden death."""

    def duet_table(self, max_tokens: int = 30) -> np.ndarray:
        """``W[g, t]``: Duet's chance to win with ``g`` greens left and ``t`` tokens (:func:`win_table`)."""
        return win_table(self.turn_yield, self.turn_assassin, self.sudden_death_hit, max_tokens)

    def race_table(self, n: int = 10) -> np.ndarray:
        """``R[m, o]``: classic's race between two teams (:func:`race_table`)."""
        return race_table(self.turn_yield, self.turn_assassin, n)

    def solo_table(self, discount: float, n: int = 10) -> np.ndarray:
        """``S[m]``: classic with one team alone against the clock (:func:`solo_table`)."""
        return solo_table(self.turn_yield, self.turn_assassin, discount, n)



@dataclass(frozen=True)
class TurnEnd:
    """What a Duet turn's end leaves on the clock: the one rule for what an outcome costs,
    used by the spymaster's clue values, the guesser's stop and its plan.

    >>> TurnEnd.after(tokens=3, bystander_tokens=0)      # a mission map's bystander tokens spent
    TurnEnd(ok=2, miss=1)
    >>> TurnEnd.after(tokens=1, bystander_tokens=0).miss is None      # a mistake now loses
    True
    """

    ok: int
    """Tokens left after the turn ends without a mistake (a stop, or greens only)."""
    miss: int | None
    """Tokens left after it ends on a bystander; ``None``: that loses the game."""

    @classmethod
    def after(cls, tokens: int, bystander_tokens: int) -> TurnEnd:
        """The turn now being played, with ``tokens`` left before it (:func:`~duetbot.rules.duet.mistake_cost`)."""
        cost = mistake_cost(tokens, bystander_tokens)
        return cls(max(tokens - 1, 0), None if cost is None else max(tokens - cost, 0))

    def value(self, W: np.ndarray, greens: np.ndarray | int, found: np.ndarray | int,
              missed: np.ndarray | bool) -> np.ndarray:
        """Chance of winning after the turn (no assassin): ``found`` of ``greens`` found, then
        a stop (``missed`` False) or a bystander."""
        left = np.clip(np.asarray(greens) - found, 0, W.shape[0] - 1)
        on_miss = 0.0 if self.miss is None else W[left, self.miss]
        return np.where(missed, on_miss, W[left, self.ok])

    def value_of_one(self, W: np.ndarray, left: int, missed: bool) -> float:
        """:meth:`value` of one outcome, ``left`` greens still to find, by plain indexing (on
        arrays it costs ten times as much, and the guesser's stop asks for single values)."""
        left = min(max(left, 0), W.shape[0] - 1)
        if missed:
            return 0.0 if self.miss is None else float(W[left, self.miss])
        return float(W[left, self.ok])

    def worth_guessing(self, W: np.ndarray, greens: int, p_green: float, p_bystander: float) -> bool:
        """Whether one more guess (green with ``p_green``, a bystander with ``p_bystander``, the
        rest the assassin) beats stopping now with ``greens`` left."""
        go = p_green * self.value_of_one(W, greens - 1, False) + p_bystander * self.value_of_one(W, greens, True)
        return go > self.value_of_one(W, greens, False)


DUET_TURNS = TurnModel()
"""Duet, both bots: the spymaster's clues find 1-3 greens most turns (self-play and cross-play
games in benchmarks/RESULTS.md); the guesser's stop policy uses the same table, so a bystander
there costs the same token as stopping."""

CLASSIC_TURNS = TurnModel((0.2, 0.3, 0.3, 0.15, 0.05), 0.02)
"""Classic, both teams: one agent fewer on the long tail than Duet (a classic clue is followed
by at most number + 1 guesses and the other team's agent ends the turn), and the assassin a
little rarer (one card of 25, not three). Set with the classic bots (issue 8) and kept by
``bench_classic.py`` (RESULTS.md, "Classic Codenames"); not tuned since."""


@lru_cache(maxsize=64)
def win_table(cfg_yield: tuple[float, ...], assassin: float, sd_hit: float, max_tokens: int = 30) -> np.ndarray:
    """``W[g, t]``: chance to win with ``g`` greens left and ``t`` tokens, under the assumed
    per-turn yield. ``t = 0`` is sudden death."""
    q = np.asarray(cfg_yield, float)
    q = q / q.sum()
    W = np.zeros((16, max_tokens + 1))
    W[0, :] = 1.0
    W[1:, 0] = sd_hit ** np.arange(1, 16)
    for t in range(1, max_tokens + 1):
        for g in range(1, 16):
            W[g, t] = (1 - assassin) * sum(q[j] * W[max(g - j, 0), t - 1] for j in range(len(q)))
    return W


@lru_cache(maxsize=32)
def race_table(turn_yield: tuple[float, ...], assassin: float, n: int = 10) -> np.ndarray:
    """``R[m, o]``: chance that the team about to give a clue wins with ``m`` own and ``o``
    opposing agents left, both teams finding agents per turn as ``turn_yield`` and touching
    the assassin with chance ``assassin`` per turn (a fixed point: a blank turn hands the move
    over)."""
    q = np.asarray(turn_yield, float)
    q = q / q.sum()
    R = np.full((n, n), 0.5)
    R[0, :] = 1.0
    R[1:, 0] = 0.0
    for _ in range(500):
        new = R.copy()
        for m in range(1, n):
            for o in range(1, n):
                v = 0.0
                for j, p in enumerate(q):
                    v += p * (1.0 if m - j <= 0 else 1.0 - R[o, m - j])
                new[m, o] = (1 - assassin) * v
        if np.abs(new - R).max() < 1e-10:
            R = new
            break
        R = new
    return R


@lru_cache(maxsize=32)
def solo_table(turn_yield: tuple[float, ...], assassin: float, discount: float, n: int = 10) -> np.ndarray:
    """``S[m]``: discounted chance of winning alone with ``m`` agents left at the start of a turn."""
    q = np.asarray(turn_yield, float)
    q = q / q.sum()
    S = np.zeros(n)
    S[0] = 1.0
    k = discount * (1 - assassin)
    for m in range(1, n):
        S[m] = k * sum(q[j] * S[max(m - j, 0)] for j in range(1, len(q))) / (1 - k * q[0])
    return S
