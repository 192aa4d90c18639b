"""What every game of the family shares: the actions, their parse and serialisation, the
phases, an applied event and a clue's turn; and the two refusals of an action.

Codenames: Duet (:mod:`duetbot.rules.duet`) and classic Codenames
(:mod:`duetbot.rules.classic`) are both played with clues, guesses and the end of a turn;
``Event`` and ``Turn`` are generic over who acts (a Duet player or a classic team).

>>> Clue.parse("Weather: 2"), Guess("OCEAN"), EndTurn()
(Clue('weather', 2), Guess('OCEAN'), EndTurn())
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, Union

from ..words import word_key
from .clues import InvalidClueError, normalize_clue
from .keycard import Player

__all__ = ["MAX_CLUE_NUMBER", "Action", "Clue", "EndTurn", "Event", "GameOverError", "Guess", "IllegalActionError",
           "Phase", "Seat", "Turn"]


class IllegalActionError(ValueError):
    """An action that is well formed but not allowed now (out of turn, covered word ...)."""


class GameOverError(IllegalActionError):
    """Any action after the game has ended."""


# --- actions -----------------------------------------------------------------------------

_CLUE_RE = re.compile(r"^\s*(?P<word>.+?)\s*[:\s]\s*(?P<number>[-+]?\d+)\s*$")


#: The largest clue number: no player has more than 9 words to find (a Duet key side has 9
#: greens, a classic team at most 9 agents), so a bigger number can only be a slip.
MAX_CLUE_NUMBER = 9


def _check_number(word: str, number: object) -> None:
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise InvalidClueError(f"{word} {number}", "the number must be a whole number >= 0, e.g. 'ocean 2'")
    if number > MAX_CLUE_NUMBER:
        raise InvalidClueError(f"{word} {number}", f"the number can be at most {MAX_CLUE_NUMBER}: "
                               f"no player has more than {MAX_CLUE_NUMBER} words to find")


@dataclass(frozen=True)
class Clue:
    """One word and a number. Syntax is checked here; legality on a board by the state.

    >>> Clue.parse("Weather: 2")
    Clue('weather', 2)
    >>> str(Clue("weather", 2))
    'WEATHER: 2'
    """

    word: str
    number: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "word", normalize_clue(self.word))
        _check_number(self.word, self.number)

    @classmethod
    def reported(cls, text: str, number: int) -> Clue:
        """A clue as a person reports their partner's clue ("Sci-Fi", "god's", "ice cream"):
        case and spacing are normalised but the word is not judged (legality is the clue
        giver's business; the guesser reads whatever was said). The number is checked.

        >>> Clue.reported("  Ice  Cream ", 2)
        Clue('ice cream', 2)
        """
        if not isinstance(text, str) or not text.strip():
            raise InvalidClueError(text, "a clue must be some text, e.g. 'ocean'")
        try:
            return cls(text, number)
        except InvalidClueError:
            clue = object.__new__(cls)
            word = word_key(unicodedata.normalize("NFC", text))
            _check_number(word, number)
            object.__setattr__(clue, "word", word)
            object.__setattr__(clue, "number", number)
            return clue

    @classmethod
    def parse(cls, text: str) -> Clue:
        """Parse ``"word number"`` or ``"word: number"``."""
        m = _CLUE_RE.match(text or "")
        if not m:
            raise InvalidClueError(text, "give one word and a number, e.g. 'ocean 2'")
        return cls(m["word"], int(m["number"]))

    @classmethod
    def parse_reported(cls, text: str) -> tuple[str, int]:
        """``"sci-fi 2"`` -> ``("sci-fi", 2)``: a reported clue's text and number, unjudged."""
        m = _CLUE_RE.match(text or "")
        if not m:
            raise InvalidClueError(text, "give the clue and a number, e.g. 'ocean 2'")
        return m["word"], int(m["number"])

    def __str__(self) -> str:
        return f"{self.word.upper()}: {self.number}"

    def __repr__(self) -> str:
        return f"Clue({self.word!r}, {self.number})"


@dataclass(frozen=True)
class Guess:
    """Touch one board word (any case)."""

    word: str

    def __repr__(self) -> str:
        return f"Guess({self.word!r})"


@dataclass(frozen=True)
class EndTurn:
    """End the turn voluntarily, allowed after at least one correct guess this turn."""

    def __repr__(self) -> str:
        return "EndTurn()"


Action = Union[Clue, Guess, EndTurn]


class Phase(str, enum.Enum):
    CLUE = "clue"
    """A clue giver is to give a clue."""
    GUESS = "guess"
    """The partner of the clue giver is guessing."""
    SUDDEN_DEATH = "sudden_death"
    """Tokens are gone: no clues, the remaining guesser(s) guess one word at a time."""
    OVER = "over"


Seat = TypeVar("Seat", bound=enum.Enum)
"""Who acts in a game: a Duet :class:`~duetbot.rules.keycard.Player` or a classic team."""


@dataclass(frozen=True)
class Event(Generic[Seat]):
    """One applied action and what it did; a game's record is its list of events."""

    player: Seat
    action: Action
    result: str = "ok"
    """``ok`` for a clue or end of turn, ``penalty`` for a penalised invalid clue, or the
    :class:`~duetbot.rules.duet.GuessResult` value of a guess (a classic result in classic)."""

    def to_json(self) -> dict[str, object]:
        a = self.action
        d: dict[str, object] = {"player": self.player.name}
        if isinstance(a, Clue):
            d.update(type="clue", word=a.word, number=a.number)
        elif isinstance(a, Guess):
            d.update(type="guess", word=a.word)
        else:
            d.update(type="end")
        d["result"] = self.result
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event[Player]:
        """A Duet event (the classic one is :func:`duetbot.rules.classic.event_from_json`)."""
        return Event(Player.parse(d["player"]), action_from_json(d), d.get("result", "ok"))


def action_from_json(d: dict[str, Any]) -> Action:
    """The action of an event's JSON (``type`` clue, guess or end), in either game."""
    kind = d.get("type")
    if kind == "clue":
        return Clue(d["word"], d["number"])
    if kind == "guess":
        return Guess(d["word"])
    if kind == "end":
        return EndTurn()
    raise ValueError(f"unknown event type {kind!r}: expected clue, guess or end")


@dataclass(frozen=True)
class Turn(Generic[Seat]):
    """A clue and the guesses made on it (public information)."""

    giver: Seat
    clue: Clue
    guesses: tuple[tuple[str, Any], ...] = ()
    """(word, result) in order: a :class:`GuessResult` in Duet, a
    :class:`~duetbot.rules.classic.ClassicResult` in classic."""
    penalised: bool = False
