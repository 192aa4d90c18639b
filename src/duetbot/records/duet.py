"""Game records (JSON in and out, exact replay) and summary statistics over many games.

A record holds everything needed to replay a game: the deal (seed, words, both key-card
sides), the variant and every event. A record of an unfinished game is a saved game:
:meth:`GameRecord.replay` rebuilds its state and play goes on from there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar, Iterable

from ..rules import Clue, Deal, Event, Guess, Player, State, Termination, Variant
from .base import Rate, Record, RecordError, fmt

RECORD_VERSION = 1


@dataclass
class GameRecord(Record):
    """A Duet game: its deal, variant and events (an unfinished one is a saved game)."""

    VERSION: ClassVar[int] = RECORD_VERSION
    deal: Deal
    variant: Variant
    events: list[Event[Player]]
    outcome: Termination | None = None
    score: int | None = None
    tokens_left: int = 0
    sudden_death: bool = False
    players: dict[str, str] = field(default_factory=dict)
    """A description of who played each side, e.g. ``{"A": "random", "B": "random"}``."""
    game: int | None = None
    """Index of this game in a simulation run."""
    partner: str | None = None
    """A saved game's partner spec (the label the bot was built from); written only when set."""

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
            **({"partner": self.partner} if self.partner is not None else {}),
        }

    @classmethod
    def from_json(cls, data: dict, check: bool = True) -> GameRecord:
        """Read a record; with ``check`` it is replayed and must reproduce its own outcome."""
        game = cls.check_header(data)
        try:
            deal = Deal.from_json(data["deal"])
            variant = Variant.from_json(data.get("variant", "standard"))
            events = [Event.from_json(e) for e in data.get("events", [])]
            players = dict(data.get("players") or {})
        except KeyError as exc:
            raise RecordError(f"the game record lacks the field {exc.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError, IndexError) as exc:
            raise RecordError(f"bad game record: {exc}") from None
        rec = cls(deal, variant, events, players=players, game=game, partner=cls.read_partner(data))
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
            ("tokens left (wins)", fmt(self.mean_tokens_left_on_win)),
            ("rule-book score (wins)", fmt(self.mean_score_on_win)),
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


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: its record as a JSON line and the figures the reports need."""

    game: int
    line: str
    """The full, replayable :class:`~duetbot.records.GameRecord` as one JSON line (no newline)."""
    outcome: str | None
    score: int | None
    tokens_left: int
    sudden_death: bool
    turns: int
    clue_numbers: tuple[int, ...]
    greens: int

    @property
    def won(self) -> bool:
        return self.outcome == Termination.WIN.value

    @classmethod
    def from_record(cls, rec: GameRecord, line: str | None = None) -> GameResult:
        numbers = tuple(e.action.number for e in rec.clues if isinstance(e.action, Clue))
        return cls(rec.game if rec.game is not None else -1, rec.dumps() if line is None else line,
                   rec.outcome.value if rec.outcome else None, rec.score, rec.tokens_left,
                   rec.sudden_death, len(numbers), numbers, rec.greens_found)


class Tally:
    """Running totals over game results: a :class:`Summary` and the distributions for plots, in
    memory that does not grow with the number of games. The one way figures are computed:
    :func:`summarize` is ``Tally(results of the records).summary()``."""

    def __init__(self, results: Iterable[GameResult] = ()) -> None:
        self.games = 0
        self.outcomes: Counter[str | None] = Counter()
        self.sudden_death = 0
        self.wins = 0
        self.tokens_on_win = 0
        self.score_on_win = 0
        self.turns = 0
        self.clues = 0
        self.clue_number_sum = 0
        self.greens = 0
        self.scores: Counter[int] = Counter()
        """Rule-book score of won games -> count."""
        self.turns_by_outcome: dict[str | None, Counter[int]] = {}
        for r in results:
            self.add(r)

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.outcomes[r.outcome] += 1
        self.sudden_death += r.sudden_death
        if r.won:
            self.wins += 1
            self.tokens_on_win += r.tokens_left
            self.score_on_win += r.score or 0
            self.scores[r.score or 0] += 1
        self.turns += r.turns
        self.clues += len(r.clue_numbers)
        self.clue_number_sum += sum(r.clue_numbers)
        self.greens += r.greens
        self.turns_by_outcome.setdefault(r.outcome, Counter())[r.turns] += 1

    def rate(self, outcome: Termination) -> Rate:
        return Rate(self.outcomes[outcome.value], self.games)

    @property
    def win(self) -> Rate:
        return self.rate(Termination.WIN)

    def summary(self) -> Summary:
        nan = float("nan")
        n = self.games
        return Summary(
            games=n,
            win=self.rate(Termination.WIN),
            assassin=self.rate(Termination.ASSASSIN),
            sudden_death_loss=self.rate(Termination.SUDDEN_DEATH_MISS),
            mission_failed=self.rate(Termination.MISSION_FAILED),
            sudden_death_needed=Rate(self.sudden_death, n),
            mean_tokens_left_on_win=self.tokens_on_win / self.wins if self.wins else nan,
            mean_score_on_win=self.score_on_win / self.wins if self.wins else nan,
            mean_turns=self.turns / n if n else nan,
            mean_clue_number=self.clue_number_sum / self.clues if self.clues else nan,
            greens_per_turn=self.greens / self.turns if self.turns else 0.0,
        )


def summarize(records: Iterable[GameRecord]) -> Summary:
    """The figures of a set of games (:class:`Tally` over their results)."""
    return Tally(GameResult.from_record(r, line="") for r in records).summary()
