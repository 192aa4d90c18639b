"""The rules of Codenames: Duet: pure Python, no embeddings, no randomness but a given seed.

No I/O but one kind of read: :mod:`.clues` reads its own static package data (the word lists
in ``duetbot/data/lexicon/``, through :mod:`importlib.resources`, once) to judge clue legality.
"""

from .clues import IllegalClueError, InvalidClueError, check_clue, is_legal_clue, normalize_clue
from .duet import (
    Action, Clue, EndTurn, Event, GameOverError, Guess, GuessResult, IllegalActionError, Phase,
    State, Termination, Turn,
)
from .keycard import (
    CROSS_COUNTS, BoardError, Deal, KeyCard, KeyCardError, Label, Player, UnknownBoardWordError,
    deal, make_deal,
)
from .variants import InvalidCluePolicy, Variant, VariantError

__all__ = [
    "Action", "BoardError", "CROSS_COUNTS", "Clue", "Deal", "EndTurn", "Event", "GameOverError",
    "Guess", "GuessResult", "IllegalActionError", "IllegalClueError", "InvalidClueError",
    "InvalidCluePolicy", "KeyCard", "KeyCardError", "Label", "Phase", "Player", "State",
    "Termination", "Turn", "UnknownBoardWordError", "Variant", "VariantError", "check_clue",
    "deal", "is_legal_clue", "make_deal", "normalize_clue",
]
