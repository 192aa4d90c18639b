"""The spymaster's data, and nothing else: what a game's cost model reads off a view
(:class:`Situation`), one turn's position (:class:`Position`), what simulated partners did
(:class:`Outcomes`), what that is worth (:class:`Valuation`), the clue offered
(:class:`ClueOption`) and the cost-model protocol. Labels are small ints: 0 is a word of
mine to find, 1 the assassin; the rest are the game's own (a cost model's ``names``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Protocol

import numpy as np

from ...rules import Clue
from ..ensemble import BoardSims
from ..reader import ReaderModel
from .legality import Legality

GREEN, ASSASSIN = 0, 1


@dataclass(frozen=True)
class Situation:
    """What a game's cost model reads off the spymaster's view."""

    eligible: np.ndarray
    """Board indices the partner may touch."""
    labels: np.ndarray
    """My label of each eligible word (int8; :data:`GREEN`, :data:`ASSASSIN`, the game's own)."""
    greens_total: int
    """Words of ours still to find in the game (Duet: both sides' greens)."""
    tokens: int = 0
    bystander_tokens: int = 0
    zero_clues: bool = False
    """Whether the game allows a zero clue now."""
    read: tuple[tuple[int, bool], ...] = ()
    """My earlier clues (not zero clues) that my partner guessed on, oldest first: (number,
    whether the partner missed within it)."""


@dataclass(frozen=True)
class Position:
    """One turn of the spymaster: the situation, the board's similarities, the legal clue
    words and the partner model for this turn."""

    situation: Situation
    sims: BoardSims
    legal: Legality
    partner: ReaderModel
    """The partner model for this turn (adapted to the history)."""
    rows: list[slice]
    """The simulated partners of each family (the random readers after them, left out)."""

    @property
    def eligible(self) -> np.ndarray:
        return self.situation.eligible

    @property
    def labels(self) -> np.ndarray:
        return self.situation.labels


@dataclass(frozen=True)
class Outcomes:
    """What the simulated partners did with each candidate clue (samples, candidates)."""

    above: np.ndarray
    """How many words of mine each partner finds before the first other word."""
    first_miss: np.ndarray
    """That other word's label (-1 if there is none)."""
    greens: int
    """Words of mine in play."""


@dataclass(frozen=True)
class Valuation:
    """A cost model's figures per candidate (rows) and number (column k-1: the clue of k)."""

    value: np.ndarray
    """The chance of winning after the clue (a ranking score)."""
    found: np.ndarray
    """Expected words of mine found."""
    p_assassin: np.ndarray
    p_bystander: np.ndarray
    """Chance the turn ends on a word that is neither mine nor the assassin."""
    by_family: np.ndarray | None = None
    """(families, candidates, numbers): each family's simulated readers' greens in their top
    k, read k deep (the honest number's yardstick); ``None`` where the game has none."""


@dataclass(frozen=True)
class ClueOption:
    """A suggested clue with its explanation."""

    clue: Clue
    targets: tuple[str, ...]
    score: float
    """Estimated chance of winning after this clue (a ranking score, not a promise)."""
    expected_greens: float
    p_assassin: float
    p_bystander: float
    dangers: tuple[tuple[str, str], ...] = ()
    """The most tempting non-targets: (word, label on my side), most dangerous first."""
    links: tuple[float, ...] = ()
    """How strong the link to each target is, in the order of ``targets``: the chance that a
    reader of the family that reads it worst puts the target before the most tempting word
    that is not mine to find (one pair, the partner model's perception noise). A person
    sees the weak link at a glance."""


class CostModel(Protocol):
    """What a game makes of a clue. The spymaster's search (screen, partner simulation, number
    policy, option ranking) is shared; the cost model says what the words are and what the
    simulated outcomes are worth. It receives data, never the spymaster."""

    names: ClassVar[Mapping[int, str]]
    """Each label's name in :attr:`ClueOption.dangers`."""
    links: ClassVar[bool]
    """Whether options carry link strengths."""

    def situation(self, view: Any) -> Situation:
        """What is in play this turn, and how it is labelled on my side."""
        ...

    def danger_bonus(self, assassin_margin: float) -> Mapping[int, float]:
        """How much more tempting than its similarity each label counts in the dangers list."""
        ...

    def values(self, position: Position, outcomes: Outcomes, max_number: int,
               tokens_after: int | None = None) -> Valuation:
        """The figures of each candidate and number; ``tokens_after`` sets the clock after
        the clue (a zero clue's)."""
        ...
