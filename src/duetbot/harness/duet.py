"""Plays games between any two partners that meet the bot protocols.

>>> from duetbot.bots import random_partner
>>> from duetbot.rules import deal
>>> rec = play_game(deal(1, [f"W{i}" for i in range(30)]), (random_partner(1), random_partner(2)))
>>> rec.outcome is not None
True
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

from ..bots.base import Partner
from ..records import GameRecord
from ..rules import Deal, Event, Player, State, Variant, deal
from ..views import guesser_view, spymaster_view
from . import base
from .base import Game, Observer, game_seed


DUET: Game[State] = Game("duet", spymaster_view, guesser_view, lambda p: f"player {p.name}")
"""Codenames: Duet for the game loop: each player's spymaster and guesser views."""


def step(state: State, partners: Sequence[Partner], observe: Observer | None = None) -> Event[Player]:
    """Ask the player to move (:meth:`State.mover`) for one action, through its view, and apply it."""
    return base.step(state, DUET, partners, observe)


def play(state: State, partners: Sequence[Partner], observe: Observer | None = None,
         max_actions: int = 10_000) -> State:
    """Play ``state`` to the end (it may be a resumed game)."""
    return base.play(state, DUET, partners, observe, max_actions)


def play_game(game: Deal, partners: Sequence[Partner], variant: Variant | None = None,
              index: int | None = None) -> GameRecord:
    """One full game; partner ``A`` is ``partners[0]``."""
    state = play(State(game, variant or Variant()), partners)
    return GameRecord.from_state(state, {"A": partners[0].name, "B": partners[1].name}, index)


PartnerFactory = Callable[[int], Sequence[Partner]]
"""Builds the two partners for a game from that game's seed."""


def simulate(games: int, seed: int, pool: Sequence[str], partners: PartnerFactory,
             variant: Variant | None = None, start: int = 0) -> Iterator[GameRecord]:
    """Play games ``start .. games-1`` of a run; game ``i`` depends only on ``seed`` and ``i``."""
    for i in range(start, games):
        s = game_seed(seed, i)
        yield play_game(deal(s, pool), partners(s), variant, i)
