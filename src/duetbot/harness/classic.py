"""Plays classic Codenames games between any two teams that meet the bot protocols.

A team is a :class:`~duetbot.bots.base.Partner`: its spymaster clues its own operatives
(``guesser``). Game ``i`` of a run depends only on ``(seed, i)``
(:func:`~duetbot.harness.base.game_seed`). Records: :mod:`duetbot.records.classic`.

>>> from duetbot.bots.classic import classic_random_team
>>> rec = play_classic_game(deal_classic(1, [f"W{i}" for i in range(30)]),
...                         (classic_random_team(1), classic_random_team(2)))
>>> rec.winner is not None and rec.replay().winner == rec.winner
True
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

from ..bots.base import Partner
from ..records.classic import ClassicRecord
from ..rules.classic import ClassicDeal, ClassicRules, ClassicState, deal_classic
from ..views.classic import classic_guesser_view, classic_spymaster_view
from . import base
from .base import Game, game_seed


CLASSIC: Game[ClassicState] = Game("classic", classic_spymaster_view, classic_guesser_view,
                                  lambda team: f"the {team.name.lower()} team", guesser_role="operatives")
"""Classic Codenames for the game loop: each team's spymaster and operative views."""


def play_classic(state: ClassicState, teams: Sequence[Partner], max_actions: int = 1000) -> ClassicState:
    """Play ``state`` to the end. ``teams[0]`` is red, ``teams[1]`` blue."""
    return base.play(state, CLASSIC, teams, max_actions=max_actions)


def play_classic_game(deal: ClassicDeal, teams: Sequence[Partner], rules: ClassicRules | None = None,
                      index: int | None = None) -> ClassicRecord:
    """One full game; ``teams[0]`` plays red, ``teams[1]`` blue (either may start)."""
    state = play_classic(ClassicState(deal, rules or ClassicRules()), teams)
    return ClassicRecord.from_state(state, {"red": teams[0].name, "blue": teams[1].name}, index)


TeamFactory = Callable[[int], Sequence[Partner]]


def simulate_classic(games: int, seed: int, pool: Sequence[str], teams: TeamFactory,
                     rules: ClassicRules | None = None, start: int = 0) -> Iterator[ClassicRecord]:
    """Games ``start .. games-1``; game ``i`` depends only on ``seed`` and ``i``."""
    for i in range(start, games):
        s = game_seed(seed, i)
        yield play_classic_game(deal_classic(s, pool), teams(s), rules, i)
