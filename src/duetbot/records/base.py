"""What the records of every game share: reading and writing them, their error, and rates with
Wilson intervals."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence, TypeVar

from ..jsonio import JSONInputError, loads
from ..rules import Clue, Event

R = TypeVar("R", bound="Record")


class RecordError(ValueError):
    """A game record that cannot be read or does not replay."""


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    >>> tuple(round(x, 3) for x in wilson(8, 10))
    (0.49, 0.943)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rate:
    count: int
    n: int

    @property
    def value(self) -> float:
        return self.count / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.n)

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{100 * self.value:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}]"


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def fmt(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2f}"


class Record:
    """The base of every game's record: its events, one JSON line out, read back safely.

    A record class sets :attr:`VERSION` (the newest format it reads) and implements
    ``to_json`` / ``from_json(data, check)``; this class gives both games the same line format,
    the same safe reader (:mod:`duetbot.jsonio`) and the same checks of the shared fields."""

    VERSION: ClassVar[int] = 1
    events: list[Event[Any]]

    def to_json(self) -> dict:
        raise NotImplementedError

    @classmethod
    def from_json(cls: type[R], data: dict, check: bool = True) -> R:
        raise NotImplementedError

    @staticmethod
    def read_partner(data: dict) -> str | None:
        """The ``partner`` field of a saved game: the partner spec its bots were built from
        (``None``: not recorded, as in simulations and saves older than the field)."""
        partner = data.get("partner")
        if partner is not None and not isinstance(partner, str):
            raise RecordError(f"bad game record: partner {str(partner)[:40]!r} is not a partner spec")
        return partner

    def dumps(self) -> str:
        """The record as one compact JSON line (no newline)."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def loads(cls: type[R], text: str | bytes, check: bool = True) -> R:
        """A record from JSON text (read safely: see :mod:`duetbot.jsonio`)."""
        try:
            data = loads(text, max_chars=None)
        except JSONInputError as exc:
            raise RecordError(str(exc)) from None
        return cls.from_json(data, check)

    @classmethod
    def check_header(cls, data: Any) -> int | None:
        """Check the fields every record has (an object, its ``version``, its ``game`` index)
        and return the game index; raises :class:`RecordError` naming the field."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        version = data.get("version", cls.VERSION)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise RecordError(f"bad game record: version {str(version)[:20]!r}")
        if version > cls.VERSION:
            raise RecordError(f"the record is of format {version}, newer than this duetbot reads "
                              f"({cls.VERSION}); upgrade duetbot")
        game = data.get("game")
        if game is not None and (isinstance(game, bool) or not isinstance(game, int)):
            raise RecordError(f"bad game record: 'game' must be a game number, not {str(game)[:20]!r}")
        return game

    @property
    def clues(self) -> list[Event[Any]]:
        """The clue events, in order."""
        return [e for e in self.events if isinstance(e.action, Clue)]

    @property
    def turns(self) -> int:
        """Clues given in the game (both players or teams)."""
        return len(self.clues)
