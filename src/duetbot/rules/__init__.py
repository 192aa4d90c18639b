"""The rules of Codenames: Duet: pure Python, no embeddings, no randomness but a given seed.

No I/O but one kind of read: :mod:`.clues` judges clue legality with the word lists in
``duetbot/data/lexicon/`` (package data, read once through :mod:`duetbot.words.lexicon`).
:mod:`.base` holds what both games share (the actions, phases, events and turns);
:mod:`.duet` and :mod:`.classic` are the two games.
"""

from .clues import IllegalClueError, InvalidClueError, check_clue, is_legal_clue, normalize_clue
from .base import Action, Clue, EndTurn, Event, GameOverError, Guess, IllegalActionError, Phase, Turn
from .duet import GuessResult, History, State, Termination
from .keycard import (
    CROSS_COUNTS, BoardError, Deal, KeyCard, KeyCardError, Label, Player, UnknownBoardWordError,
    deal, make_deal, pool_words,
)
from .variants import InvalidCluePolicy, Variant, VariantError

__all__ = [
    "Action", "BoardError", "CROSS_COUNTS", "Clue", "Deal", "EndTurn", "Event", "GameOverError",
    "Guess", "GuessResult", "History", "IllegalActionError", "IllegalClueError", "InvalidClueError",
    "InvalidCluePolicy", "KeyCard", "KeyCardError", "Label", "Phase", "Player", "State",
    "Termination", "Turn", "UnknownBoardWordError", "Variant", "VariantError", "check_clue",
    "deal", "is_legal_clue", "make_deal", "normalize_clue", "pool_words",
]
