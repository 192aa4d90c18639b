"""The one game loop, for every game and every kind of player.

A game (Duet, classic) meets :class:`GameState`: it says who moves (:meth:`GameState.mover`),
what phase it is in, and takes actions through ``apply``. A :class:`Game` says which view a
seat gets for each role. The loop asks the mover's spymaster for a clue or its guesser for a
guess, through that view only, applies the answer and tells an observer. The players are bots
or people: a person is a player whose ``give_clue`` / ``guess`` read input, and who may be told
that the rules refused an answer (``refused``) and asked again; a bot is never asked twice (a
refused bot action is a :class:`BotError`). ``duetbot play``, the harness, the simulation and
the web app all play through :func:`step` and :func:`play`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Generic, Mapping, Protocol, Sequence, TypeVar, Union

from ..bots.base import Partner
from ..rules import Event, Phase
from ..rules.base import Action

__all__ = ["BotError", "Game", "GameState", "Observer", "game_seed", "play", "step"]


class BotError(RuntimeError):
    """A bot returned an action the rules refuse: a bug in that bot, not in the game."""


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game ``index`` in a run: stable, and independent of how games are split."""
    digest = hashlib.sha256(f"duetbot:{base_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


S = TypeVar("S")  # a seat: a Duet player, a classic team
St = TypeVar("St", bound="GameState[Any]")


class GameState(Protocol[S]):
    """What the loop needs of a game in progress."""

    phase: Phase
    events: list[Event[Any]]

    def is_over(self) -> bool: ...

    def mover(self) -> S:
        """The seat to act now (its spymaster in the clue phase, else its guesser)."""
        ...

    def apply(self, action: Action, player: S) -> object:
        """Apply ``action`` by ``player`` or raise a ``ValueError`` with the state unchanged."""
        ...


@dataclass(frozen=True)
class Game(Generic[St]):
    """One kind of game as the loop sees it: the view each role of a seat is given."""

    name: str
    spymaster_view: Callable[[St, Any], Any]
    guesser_view: Callable[[St, Any], Any]
    seat_name: Callable[[Any], str]
    """How errors name a seat: ``player A``, ``the red team``."""
    guesser_role: str = "guesser"


Observer = Callable[[Any, Event[Any]], None]
"""Called with the state and each event the loop applied (to show it, to save it ...)."""

Players = Union[Sequence[Partner], Mapping[Any, Partner]]


def step(state: St, game: Game[St], players: Players, observe: Observer | None = None) -> Event[Any]:
    """Ask the mover for one action, through its view, and apply it; returns its event.

    A player whose actions the rules refuse is asked again if it has a ``refused(action,
    error)`` method (a person: tell them why); otherwise that is a :class:`BotError`.
    """
    seat = state.mover()
    partner = players[seat]
    clue_phase = state.phase is Phase.CLUE
    actor: Any = partner.spymaster if clue_phase else partner.guesser
    while True:
        if clue_phase:
            action = actor.give_clue(game.spymaster_view(state, seat))
        else:
            action = actor.guess(game.guesser_view(state, seat))
        try:
            state.apply(action, seat)
            break
        except ValueError as exc:
            refused = getattr(actor, "refused", None)
            if refused is None:
                role = "spymaster" if clue_phase else game.guesser_role
                raise BotError(f"{game.seat_name(seat)}'s {role} ({partner.name}) played {action!r}: {exc}") from exc
            refused(action, exc)
    event = state.events[-1]
    if observe is not None:
        observe(state, event)
    return event


def play(state: St, game: Game[St], players: Players, observe: Observer | None = None,
         max_actions: int = 10_000) -> St:
    """Play ``state`` to the end (a new or a resumed game)."""
    for _ in range(max_actions):
        if state.is_over():
            return state
        step(state, game, players, observe)
    raise BotError(f"the game did not end within {max_actions} actions")
