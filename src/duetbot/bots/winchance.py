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
import math
from functools import lru_cache

import numpy as np

from ..rules.duet import mistake_cost

__all__ = ["CLASSIC_TURNS", "DUET_TURNS", "TurnEnd", "TurnModel", "plan_table", "race_table", "solo_table", "win_table"]


@dataclass(frozen=True)
class TurnModel:
    """What a future turn is assumed to bring, for the win-chance tables."""

    turn_yield: tuple[float, ...] = (0.2, 0.25, 0.3, 0.2, 0.05)
    """Chance of finding 0, 1, 2 ... words on a future turn (normalised)."""
    turn_assassin: float = 0.03
    """Chance that a future turn ends on the assassin."""
    sudden_death_hit: float = 0.55
    """Duet: chance of each correct guess in sudden death."""
    sudden_death_aimed: float = 0.58
    """Duet, the spymaster's plan (:meth:`duet_plan`): chance that my partner, guessing blind in
    sudden death, finds a green of mine when every green of mine still hidden is one my clues
    aimed at (a leftover target): 11 of 19 such guesses in person-like games
    (benchmarks/RESULTS.md, "Planning across turns")."""
    sudden_death_unaimed: float = 0.3
    """... when some green of mine still hidden is one no clue of mine aimed at: 10 of 33."""
    sudden_death_partner: float = 0.48
    """... and my chance of finding one of my partner's greens: 15 of 31."""
    aims_past: float = 0.5
    """Duet, the plan: chance that a future clue of mine aims at one green more than its
    partner finds (that green becomes a leftover target)."""

    def duet_table(self, max_tokens: int = 30) -> np.ndarray:
        """``W[g, t]``: Duet's chance to win with ``g`` greens left and ``t`` tokens (:func:`win_table`)."""
        return win_table(self.turn_yield, self.turn_assassin, self.sudden_death_hit, max_tokens)

    def duet_plan(self, max_tokens: int = 30) -> np.ndarray:
        """``V[t, u, c, p]``: Duet's chance to win when my partner is about to give a clue with
        ``t`` tokens left (:func:`plan_table`)."""
        return plan_table(self.turn_yield, self.turn_assassin, self.sudden_death_aimed, self.sudden_death_unaimed,
                          self.sudden_death_partner, self.aims_past, max_tokens)

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


PLAN_MINE = 10
"""The plan's counts of my greens (0-9: a side has 9)."""
PLAN_PARTNER = 16
"""... and of my partner's greens not mine (0-15)."""


@lru_cache(maxsize=16)
def plan_table(turn_yield: tuple[float, ...], assassin: float, sd_aimed: float, sd_unaimed: float,
               sd_partner: float, aims_past: float, max_tokens: int = 30) -> np.ndarray:
    """``V[t, u, c, p]``: Duet's chance to win with ``t`` tokens left when my partner is about
    to give a clue, ``u`` greens of mine that no clue of mine has aimed at, ``c`` that one
    did (leftover targets) and ``p`` greens of my partner's that are not mine.

    :func:`win_table` pools both sides' greens; this keeps them apart, because each side's
    greens are found on that side's clues: the clue givers alternate (and once one side has
    nothing left, the other gives every clue), a turn finds ``turn_yield`` greens of its
    giver's side, and what is left when the tokens run out is guessed blind, one word at a
    time: a leftover target of mine with ``sd_aimed``, a green of mine never aimed at with
    ``sd_unaimed``, a green of my partner's with ``sd_partner``. So a green of mine left
    without a clue costs more than one a clue has pointed at, and planning a clue by what it
    leaves pays. A future clue of mine finds its greens among the aimed and the unaimed alike
    (hypergeometric), and with ``aims_past`` leaves one more unaimed green aimed.

    >>> V = DUET_TURNS.duet_plan()
    >>> bool(V[0, 0, 1, 0] > V[0, 1, 0, 0])     # sudden death: a leftover target beats a blind guess
    True
    >>> bool(V[1, 1, 0, 3] < V[1, 0, 1, 3])     # my partner's clue is the last: mine go blind
    True
    """
    q = np.asarray(turn_yield, float)
    q = q / q.sum()
    U = C = PLAN_MINE
    P = PLAN_PARTNER
    u = np.arange(U)[:, None, None]
    c = np.arange(C)[None, :, None]
    p = np.arange(P)[None, None, :]
    mine_none = (u + c == 0)
    partner_none = (p == 0)
    sudden = sd_unaimed ** u * sd_aimed ** c * sd_partner ** p
    # My turn as a matrix over (u, c) -> (u', c'): j greens found with q (the rest of the tail
    # on all that are left), split between aimed and unaimed as drawn, then one more aimed.
    mine = np.zeros((U * C, U * C))
    for uu in range(U):
        for cc in range(C):
            m = uu + cc
            if m == 0 or m >= PLAN_MINE:    # (a side has 9 greens: no state holds more)
                continue
            for j in range(min(m, len(q) - 1) + 1):
                w_j = q[j] if j < m else q[j:].sum()
                for jc in range(max(0, j - uu), min(j, cc) + 1):
                    w = w_j * math.comb(cc, jc) * math.comb(uu, j - jc) / math.comb(m, j)
                    u1, c1 = uu - (j - jc), cc - jc
                    if u1 > 0 and aims_past:
                        mine[uu * C + cc, (u1 - 1) * C + c1 + 1] += w * aims_past
                        w *= 1 - aims_past
                    mine[uu * C + cc, u1 * C + c1] += w
    theirs = np.zeros((P, P))
    for pp in range(1, P):
        for j, qj in enumerate(q):
            theirs[pp, max(pp - j, 0)] += qj
    V_me = np.empty((max_tokens + 1, U, C, P))
    V_pa = np.empty_like(V_me)
    V_me[0] = V_pa[0] = sudden
    for t in range(1, max_tokens + 1):
        me = (1 - assassin) * (mine @ V_pa[t - 1].reshape(U * C, P)).reshape(U, C, P)
        pa = (1 - assassin) * (V_me[t - 1] @ theirs.T)
        V_me[t] = np.where(mine_none, pa, me)       # my greens done: my partner gives every clue
        V_pa[t] = np.where(partner_none, me, pa)    # and the other way round
        V_me[t][mine_none & partner_none] = V_pa[t][mine_none & partner_none] = 1.0
    V_pa.flags.writeable = False
    return V_pa


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
