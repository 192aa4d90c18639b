"""The narrow protocols every bot meets, in every game. The harness knows nothing else about bots.

A spymaster turns a spymaster view into a clue, a guesser a guesser view into a guess or the
end of its turn: Duet's views (:mod:`duetbot.views.duet`) or classic's
(:mod:`duetbot.views.classic`), the protocols are the same. A person playing through the game
loop meets them too (``duetbot play``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from ..rules import Clue, EndTurn, Guess

SV = TypeVar("SV", contravariant=True)
GV = TypeVar("GV", contravariant=True)


@runtime_checkable
class Spymaster(Protocol[SV]):
    def give_clue(self, view: SV) -> Clue:
        """A legal clue for the spymaster's own words still to find (Duet: green on ``view.my_side``)."""
        ...


@runtime_checkable
class Guesser(Protocol[GV]):
    def guess(self, view: GV) -> Guess | EndTurn:
        """One guess among ``view.guessable``, or ``EndTurn`` when the rules allow it."""
        ...


@dataclass
class Partner(Generic[SV, GV]):
    """One player (Duet) or one team (classic): a spymaster and a guesser, and a name for records."""

    spymaster: Spymaster[Any]
    guesser: Guesser[Any]
    name: str = "bot"
