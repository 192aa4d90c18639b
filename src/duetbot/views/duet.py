"""What one player may see. Bots receive views, never the state.

Everything on the table is public: the board, covered words, the timer tokens and their
sides, who marked which bystander, every clue and every guess with its result. Hidden is the
key card: each player sees only their own side. A guesser is told its own side too (the rule
book lets every player look at their side at any time), never its partner's.

>>> from duetbot.rules import State, deal, Player
>>> s = State(deal(3, [f"W{i}" for i in range(40)]))
>>> v = spymaster_view(s, Player.A)
>>> len(v.my_side), v.tokens
(25, 9)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.base import Phase, Turn
from ..rules.duet import State
from ..rules.keycard import TOTAL_GREENS, Label, Player
from ..rules.variants import Variant
from .base import BoardLookups


@dataclass(frozen=True)
class PublicView(BoardLookups):
    """Public information plus the viewing player's own side of the key card."""

    player: Player
    words: tuple[str, ...]
    my_side: tuple[Label, ...]
    covered: frozenset[int]
    """Covered words: green agents found and words marked bystander by both players."""
    covered_green: frozenset[int]
    my_marks: frozenset[int]
    """Words I touched as guesser that were bystanders on my partner's side."""
    partner_marks: frozenset[int]
    """Words my partner touched as guesser that were bystanders on my side."""
    turns: tuple[Turn[Player], ...]
    tokens: int
    bystander_tokens: int
    variant: Variant
    partner_done: bool
    """My partner announced that all their greens are covered (public by the rules)."""
    i_am_done: bool
    phase: Phase


    def my_labels(self, label: Label) -> frozenset[int]:
        return frozenset(i for i, lab in enumerate(self.my_side) if lab is label)

    @property
    def greens_to_win(self) -> int:
        """Greens still to find, both sides together (the game is won at none)."""
        return TOTAL_GREENS - len(self.covered_green)


@dataclass(frozen=True)
class SpymasterView(PublicView):
    """The clue giver's view: my side is the one that judges my partner's guesses."""

    @property
    def greens_left(self) -> frozenset[int]:
        """My greens not yet covered: what my partner still has to find."""
        return self.my_labels(Label.GREEN) - self.covered_green


@dataclass(frozen=True)
class GuesserView(PublicView):
    """The guesser's view. My partner's side judges my guesses; I do not see it."""

    guessable: tuple[int, ...] = ()
    """Words I may touch now (not covered, not already a bystander on my own guess)."""
    guesses_left: int | None = None
    """Guesses left this turn under the number+1 cap, or ``None``."""
    correct_this_turn: int = 0
    sudden_death: bool = False

    @property
    def clues_to_me(self) -> tuple[Turn[Player], ...]:
        """Clues my partner gave me, oldest first."""
        return self.clues_given_by(self.player.other)


def _public(state: State, player: Player) -> dict[str, Any]:
    return dict(
        player=player,
        words=state.deal.words,
        my_side=state.deal.key.side(player),
        covered=state.covered(),
        covered_green=frozenset(state.covered_green),
        my_marks=frozenset(state.marks[player]),
        partner_marks=frozenset(state.marks[player.other]),
        turns=tuple(state.turns),
        tokens=state.tokens,
        bystander_tokens=state.bystander_tokens,
        variant=state.variant,
        partner_done=state.is_done(player.other),
        i_am_done=state.is_done(player),
        phase=state.phase,
    )


def spymaster_view(state: State, player: Player) -> SpymasterView:
    return SpymasterView(**_public(state, player))


def guesser_view(state: State, player: Player) -> GuesserView:
    turn = state.current_turn
    correct = sum(1 for _, r in turn.guesses if r.value == "green") if turn else 0
    return GuesserView(
        **_public(state, player),
        guessable=tuple(state.guessable(player)),
        guesses_left=state.guesses_left(),
        correct_this_turn=correct,
        sudden_death=state.phase is Phase.SUDDEN_DEATH,
    )
