"""What every game's harness shares: the seed of game ``i`` of a run, and the bot-error type."""

from __future__ import annotations

import hashlib


class BotError(RuntimeError):
    """A bot returned an action the rules refuse: a bug in that bot, not in the game."""


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game ``index`` in a run: stable, and independent of how games are split."""
    digest = hashlib.sha256(f"duetbot:{base_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
