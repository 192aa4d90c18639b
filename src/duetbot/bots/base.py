"""The narrow protocols every bot meets. The harness knows nothing else about bots."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..rules import Clue, EndTurn, Guess
from ..views import GuesserView, SpymasterView


@runtime_checkable
class Spymaster(Protocol):
    def give_clue(self, view: SpymasterView) -> Clue:
        """A legal clue for the words green on ``view.my_side``."""
        ...


@runtime_checkable
class Guesser(Protocol):
    def guess(self, view: GuesserView) -> Guess | EndTurn:
        """One guess among ``view.guessable``, or ``EndTurn`` after a correct guess."""
        ...


@dataclass
class Partner:
    """One of the two players: a spymaster and a guesser, and a name for records."""

    spymaster: Spymaster
    guesser: Guesser
    name: str = "bot"
