"""Plays games between any players that meet the bot protocols, one module per game.

The Duet harness is re-exported here (``from duetbot.harness import play_game``); classic
Codenames is :mod:`duetbot.harness.classic`.
"""

from .base import BotError, Game, GameState, Observer, game_seed
from .duet import DUET, PartnerFactory, play, play_game, simulate, step

__all__ = ["BotError", "DUET", "Game", "GameState", "Observer", "PartnerFactory", "game_seed", "play", "play_game",
           "simulate", "step"]
