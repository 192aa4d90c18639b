"""Game records (JSON in and out, exact replay) and summary statistics over many games.

A record holds everything needed to replay a game: the deal (seed, words, both key-card
sides), the variant and every event. A record of an unfinished game is a saved game:
:meth:`GameRecord.replay` rebuilds its state and play goes on from there.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from .jsonio import JSONInputError, loads
from .rules import Clue, Deal, Event, Guess, State, Termination, Variant

RECORD_VERSION = 1


class RecordError(ValueError):
    """A game record that cannot be read or does not replay."""


@dataclass
class GameRecord:
    deal: Deal
    variant: Variant
    events: list[Event]
    outcome: Termination | None = None
    score: int | None = None
    tokens_left: int = 0
    sudden_death: bool = False
    players: dict[str, str] = field(default_factory=dict)
    """A description of who played each side, e.g. ``{"A": "random", "B": "random"}``."""
    game: int | None = None
    """Index of this game in a simulation run."""

    @classmethod
    def from_state(cls, state: State, players: dict[str, str] | None = None, game: int | None = None) -> GameRecord:
        return cls(state.deal, state.variant, list(state.events), state.outcome, state.score(),
                   state.tokens, state.sudden_death, dict(players or {}), game)

    def replay(self) -> State:
        """The state after all recorded events (raises :class:`RecordError` if they do not replay)."""
        try:
            return State.replay(self.deal, self.variant, self.events)
        except ValueError as exc:
            raise RecordError(f"the record does not replay: {exc}") from None

    # --- derived figures -------------------------------------------------------------------
    @property
    def won(self) -> bool:
        return self.outcome is Termination.WIN

    @property
    def clues(self) -> list[Event]:
        return [e for e in self.events if isinstance(e.action, Clue)]

    @property
    def turns(self) -> int:
        return len(self.clues)

    @property
    def greens_found(self) -> int:
        return sum(1 for e in self.events if isinstance(e.action, Guess) and e.result == "green")

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "version": RECORD_VERSION,
            "game": self.game,
            "players": self.players,
            "variant": self.variant.to_json(),
            "deal": self.deal.to_json(),
            "events": [e.to_json() for e in self.events],
            "outcome": self.outcome.value if self.outcome else None,
            "score": self.score,
            "tokens_left": self.tokens_left,
            "sudden_death": self.sudden_death,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: dict, check: bool = True) -> GameRecord:
        """Read a record; with ``check`` it is replayed and must reproduce its own outcome."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        version = data.get("version", RECORD_VERSION)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise RecordError(f"bad game record: version {str(version)[:20]!r}")
        if version > RECORD_VERSION:
            raise RecordError(f"the record is of format {version}, newer than this duetbot reads "
                              f"({RECORD_VERSION}); upgrade duetbot")
        try:
            deal = Deal.from_json(data["deal"])
            variant = Variant.from_json(data.get("variant", "standard"))
            events = [Event.from_json(e) for e in data.get("events", [])]
            players = dict(data.get("players") or {})
        except KeyError as exc:
            raise RecordError(f"the game record lacks the field {exc.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError, IndexError) as exc:
            raise RecordError(f"bad game record: {exc}") from None
        game = data.get("game")
        if game is not None and (isinstance(game, bool) or not isinstance(game, int)):
            raise RecordError(f"bad game record: 'game' must be a game number, not {str(game)[:20]!r}")
        rec = cls(deal, variant, events, players=players, game=game)
        state = rec.replay() if check else None
        if state is not None:
            rec.outcome, rec.score = state.outcome, state.score()
            rec.tokens_left, rec.sudden_death = state.tokens, state.sudden_death
            recorded = data.get("outcome")
            if recorded is not None and recorded != (state.outcome.value if state.outcome else None):
                raise RecordError(f"the record says {recorded!r} but its events give {state.outcome}")
        else:
            out = data.get("outcome")
            try:
                rec.outcome = Termination(out) if out else None
            except (TypeError, ValueError):
                raise RecordError(f"bad game record: outcome {str(out)[:20]!r}") from None
            rec.score, rec.tokens_left = data.get("score"), data.get("tokens_left", 0)
            rec.sudden_death = bool(data.get("sudden_death"))
        return rec

    @classmethod
    def loads(cls, text: str | bytes, check: bool = True) -> GameRecord:
        """A record from JSON text (read safely: see :mod:`duetbot.jsonio`)."""
        try:
            data = loads(text, max_chars=None)
        except JSONInputError as exc:
            raise RecordError(str(exc)) from None
        return cls.from_json(data, check)


# --- summary statistics ------------------------------------------------------------------


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


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def _fmt(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2f}"


@dataclass(frozen=True)
class Summary:
    games: int
    win: Rate
    assassin: Rate
    sudden_death_loss: Rate
    mission_failed: Rate
    sudden_death_needed: Rate
    mean_tokens_left_on_win: float
    mean_score_on_win: float
    mean_turns: float
    mean_clue_number: float
    greens_per_turn: float

    def rows(self) -> list[tuple[str, str]]:
        return [
            ("games", str(self.games)),
            ("win", str(self.win)),
            ("assassin", str(self.assassin)),
            ("lost in sudden death", str(self.sudden_death_loss)),
            ("mission-map loss", str(self.mission_failed)),
            ("sudden death needed", str(self.sudden_death_needed)),
            ("tokens left (wins)", _fmt(self.mean_tokens_left_on_win)),
            ("rule-book score (wins)", _fmt(self.mean_score_on_win)),
            ("turns per game", f"{self.mean_turns:.2f}"),
            ("mean clue number", f"{self.mean_clue_number:.2f}"),
            ("greens per turn", f"{self.greens_per_turn:.2f}"),
        ]

    def to_json(self) -> dict:
        out: dict = {}
        for name, value in self.__dict__.items():
            if isinstance(value, Rate):
                lo, hi = value.interval
                out[name] = {"rate": value.value, "count": value.count, "low95": lo, "high95": hi}
            else:
                out[name] = value
        return out


def summarize(records: Iterable[GameRecord]) -> Summary:
    recs = list(records)
    n = len(recs)
    finished = [r for r in recs if r.outcome is not None]

    def count(t: Termination) -> Rate:
        return Rate(sum(1 for r in finished if r.outcome is t), n)

    wins = [r for r in recs if r.won]
    numbers = [e.action.number for r in recs for e in r.clues]  # type: ignore[attr-defined]
    turns = sum(r.turns for r in recs)
    return Summary(
        games=n,
        win=count(Termination.WIN),
        assassin=count(Termination.ASSASSIN),
        sudden_death_loss=count(Termination.SUDDEN_DEATH_MISS),
        mission_failed=count(Termination.MISSION_FAILED),
        sudden_death_needed=Rate(sum(1 for r in recs if r.sudden_death), n),
        mean_tokens_left_on_win=_mean([r.tokens_left for r in wins]),
        mean_score_on_win=_mean([r.score or 0 for r in wins]),
        mean_turns=_mean([r.turns for r in recs]),
        mean_clue_number=_mean(numbers),
        greens_per_turn=sum(r.greens_found for r in recs) / turns if turns else 0.0,
    )
