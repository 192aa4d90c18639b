"""What one classic Codenames player may see. Bots receive these views, never the state.

Public: the board, every covered card and what it turned out to be (the tiles lie on the
table), every clue and guess, the team to move, and how many agents each team has left
(9 and 8 are known, and the tiles say how many were found). Hidden: the key. A spymaster
sees the whole key (:class:`ClassicSpymasterView`); an operative sees none of it
(:class:`ClassicGuesserView` has no key field at all).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.classic import Card, ClassicResult, ClassicRules, ClassicState, Team
from ..rules.base import Phase, Turn
from .base import BoardLookups


@dataclass(frozen=True)
class ClassicPublicView(BoardLookups):
    team: Team
    """The viewer's team."""
    words: tuple[str, ...]
    covered: dict[int, Card]
    """Covered positions and the tile on each (public)."""
    turns: tuple[Turn[Team], ...]
    starting: Team
    my_left: int
    """How many of my team's agents are still uncovered (public: 9 or 8 minus tiles placed)."""
    opponent_left: int
    phase: Phase
    rules: ClassicRules



@dataclass(frozen=True)
class ClassicSpymasterView(ClassicPublicView):
    key: tuple[Card, ...] = ()
    """The whole key (spymasters see it)."""

    def _left(self, card: Card) -> frozenset[int]:
        return frozenset(i for i, lab in enumerate(self.key) if lab is card and i not in self.covered)

    @property
    def my_agents(self) -> frozenset[int]:
        return self._left(self.team.label)

    @property
    def opponent_agents(self) -> frozenset[int]:
        return self._left(self.team.other.label)

    @property
    def assassins(self) -> frozenset[int]:
        return self._left(Card.ASSASSIN)

    @property
    def bystanders(self) -> frozenset[int]:
        return self._left(Card.BYSTANDER)


@dataclass(frozen=True)
class ClassicGuesserView(ClassicPublicView):
    """An operative's view: no key."""

    guessable: tuple[int, ...] = ()
    guesses_left: int | None = None
    """Guesses left this turn (number + 1 cap), or ``None`` when unlimited."""
    guesses_this_turn: int = 0

    @property
    def clues_to_me(self) -> tuple[Turn[Team], ...]:
        """My spymaster's clues, oldest first."""
        return self.clues_given_by(self.team)


def _public(state: ClassicState, team: Team) -> dict[str, Any]:
    return dict(team=team, words=state.deal.words, covered=dict(state.covered), turns=tuple(state.turns),
                starting=state.starting, my_left=len(state.agents_left(team)),
                opponent_left=len(state.agents_left(team.other)), phase=state.phase, rules=state.rules)


def classic_spymaster_view(state: ClassicState, team: Team) -> ClassicSpymasterView:
    return ClassicSpymasterView(**_public(state, team), key=state.deal.key.labels)


def classic_guesser_view(state: ClassicState, team: Team) -> ClassicGuesserView:
    turn = state.current_turn
    return ClassicGuesserView(**_public(state, team), guessable=tuple(state.guessable()),
                              guesses_left=state.guesses_left(),
                              guesses_this_turn=len(turn.guesses) if turn is not None else 0)


__all__ = ["ClassicGuesserView", "ClassicPublicView", "ClassicSpymasterView", "ClassicResult",
           "classic_guesser_view", "classic_spymaster_view"]
