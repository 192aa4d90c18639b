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
from ..rules import Deal, Phase, State, Variant, deal
from ..views import guesser_view, spymaster_view
from .base import BotError, game_seed


def step(state: State, partners: Sequence[Partner], sd_turn: int = 0) -> None:
    """Ask the right bot for one action and apply it."""
    if state.phase is Phase.CLUE:
        giver = state.to_move()[0]
        action = partners[giver].spymaster.give_clue(spymaster_view(state, giver))
        who, role = giver, "spymaster"
    else:
        movers = state.to_move()
        who = movers[sd_turn % len(movers)] if state.phase is Phase.SUDDEN_DEATH else movers[0]
        action = partners[who].guesser.guess(guesser_view(state, who))
        role = "guesser"
    try:
        state.apply(action, who)
    except ValueError as exc:
        raise BotError(f"player {who.name}'s {role} ({partners[who].name}) played {action!r}: {exc}") from exc


def play(state: State, partners: Sequence[Partner], max_actions: int = 10_000) -> State:
    """Play ``state`` to the end (it may be a resumed game)."""
    sd_turn = 0
    for _ in range(max_actions):
        if state.is_over():
            return state
        step(state, partners, sd_turn)
        if state.phase is Phase.SUDDEN_DEATH:
            sd_turn += 1
    raise BotError(f"the game did not end within {max_actions} actions")


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
