"""Classic Codenames game records (JSON, exact replay) and their summary statistics."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar, Iterable

from ..rules import Event
from ..rules.classic import (
    ClassicDeal, ClassicRules, ClassicState, ClassicTermination, Team, event_from_json,
)
from .base import Rate, Record, RecordError, fmt, mean

CLASSIC_RECORD_VERSION = 1


@dataclass
class ClassicRecord(Record):
    """A classic game: its deal, rules and events (an unfinished one is a saved game)."""

    VERSION: ClassVar[int] = CLASSIC_RECORD_VERSION
    deal: ClassicDeal
    rules: ClassicRules
    events: list[Event[Team]]
    outcome: ClassicTermination | None = None
    winner: Team | None = None
    players: dict[str, str] = field(default_factory=dict)
    game: int | None = None
    partner: str | None = None
    """A saved game's partner spec (the label the bots were built from); written only when set."""

    @classmethod
    def from_state(cls, state: ClassicState, players: dict[str, str] | None = None,
                   game: int | None = None) -> ClassicRecord:
        return cls(state.deal, state.rules, list(state.events), state.outcome, state.winner,
                   dict(players or {}), game)

    def replay(self) -> ClassicState:
        try:
            return ClassicState.replay(self.deal, self.rules, self.events)
        except ValueError as exc:
            raise RecordError(f"the record does not replay: {exc}") from None

    @property
    def starting(self) -> Team:
        return self.deal.key.starting

    def clues_by(self, team: Team) -> int:
        return sum(1 for e in self.clues if e.player == team)

    @property
    def turns_to_win(self) -> int | None:
        """Clues the winning team gave (``None`` without a winner)."""
        return None if self.winner is None else self.clues_by(self.winner)

    def to_json(self) -> dict:
        return {"version": CLASSIC_RECORD_VERSION, "game_type": "classic", "game": self.game,
                "players": self.players, "rules": self.rules.to_json(), "deal": self.deal.to_json(),
                "events": [e.to_json() for e in self.events],
                "outcome": self.outcome.value if self.outcome else None,
                "winner": self.winner.name.lower() if self.winner is not None else None,
                **({"partner": self.partner} if self.partner is not None else {})}

    @classmethod
    def from_json(cls, data: dict, check: bool = True) -> ClassicRecord:
        """Read a record; with ``check`` it is replayed and must reproduce its own outcome."""
        game = cls.check_header(data)
        try:
            deal = ClassicDeal.from_json(data["deal"])
            rules = ClassicRules.from_json(data.get("rules") or {})
            events = [event_from_json(e) for e in data.get("events", [])]
            players = dict(data.get("players") or {})
        except KeyError as exc:
            raise RecordError(f"the game record lacks the field {exc.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError, IndexError) as exc:
            raise RecordError(f"bad classic game record: {exc}") from None
        rec = cls(deal, rules, events, players=players, game=game, partner=cls.read_partner(data))
        if check:
            state = rec.replay()
            rec.outcome, rec.winner = state.outcome, state.winner
            for name, got in (("outcome", state.outcome.value if state.outcome else None),
                              ("winner", state.winner.name.lower() if state.winner is not None else None)):
                if data.get(name) is not None and data[name] != got:
                    raise RecordError(f"the record says {name} {data[name]!r} but its events give {got!r}")
        else:
            try:
                rec.outcome = ClassicTermination(data["outcome"]) if data.get("outcome") else None
                rec.winner = Team.parse(data["winner"]) if data.get("winner") else None
            except (TypeError, ValueError) as exc:
                raise RecordError(f"bad classic game record: {exc}") from None
        return rec


@dataclass(frozen=True)
class ClassicSummary:
    games: int
    solo: bool
    starting_win: Rate
    """Two teams: the starting team won. One team alone: the team won."""
    red_win: Rate
    assassin: Rate
    """Games ended by the assassin."""
    opponent_last: Rate
    """Games won by a team whose last agent the other team uncovered."""
    turns_to_win: float
    """Mean clues given by the winning team."""
    turns_to_win_starting: float
    turns: float
    """Mean clues in a game (both teams)."""

    def rows(self) -> list[tuple[str, str]]:
        rows = [("games", str(self.games)),
                ("win (team alone)" if self.solo else "starting team wins", str(self.starting_win))]
        if not self.solo:
            rows.append(("red wins", str(self.red_win)))
        rows += [("assassin ends the game", str(self.assassin))]
        if not self.solo:
            rows.append(("won on the other team's guess", str(self.opponent_last)))
        rows += [("turns to win (winner's clues)", fmt(self.turns_to_win))]
        if not self.solo:
            rows += [("turns to win, starting team", fmt(self.turns_to_win_starting)),
                     ("clues per game (both teams)", fmt(self.turns))]
        return rows

    def to_json(self) -> dict:
        return {"games": self.games, "solo": self.solo, "starting_win": self.starting_win.value,
                "red_win": self.red_win.value, "assassin": self.assassin.value,
                "opponent_last": self.opponent_last.value, "turns_to_win": self.turns_to_win,
                "turns_to_win_starting": self.turns_to_win_starting, "turns": self.turns}


@dataclass(frozen=True, slots=True)
class ClassicGameResult:
    """One finished classic game: its record as a JSON line and the figures the reports need."""

    game: int
    line: str
    """The full, replayable :class:`~duetbot.records.classic.ClassicRecord` as one JSON line."""
    outcome: str | None
    """``agents`` or ``assassin`` (:class:`~duetbot.rules.classic.ClassicTermination`)."""
    winner: str | None
    """``red`` or ``blue``."""
    starting: str
    solo: bool
    turns: int
    """Clues in the game (both teams)."""
    winner_turns: int | None
    """Clues the winning team gave."""
    opponent_last: bool
    """Won with all agents found, the last one uncovered by the other team's guess."""

    @property
    def starting_won(self) -> bool:
        return self.winner is not None and self.winner == self.starting

    @property
    def by_agents(self) -> bool:
        return self.outcome == ClassicTermination.AGENTS.value

    @classmethod
    def from_record(cls, rec: ClassicRecord, line: str | None = None) -> ClassicGameResult:
        clues = rec.clues
        winner = rec.winner
        opponent_last = (rec.outcome is ClassicTermination.AGENTS and bool(rec.events)
                         and rec.events[-1].player != winner)
        return cls(rec.game if rec.game is not None else -1, rec.dumps() if line is None else line,
                   rec.outcome.value if rec.outcome else None,
                   winner.name.lower() if winner is not None else None, rec.starting.name.lower(),
                   rec.rules.solo, len(clues),
                   None if winner is None else sum(1 for e in clues if e.player == winner), opponent_last)


class ClassicTally:
    """Running totals over classic results: a :class:`ClassicSummary` and plot distributions.
    :func:`summarize_classic` is ``ClassicTally(results of the records).summary()``."""

    def __init__(self, results: Iterable[ClassicGameResult] = ()) -> None:
        self.games = 0
        self.solo = False
        self.starting_won = 0
        self.red_won = 0
        self.assassin = 0
        self.opponent_last = 0
        self.turns = 0
        self.win_turns: dict[bool, Counter[int]] = {True: Counter(), False: Counter()}
        """Won with all agents found: starting team? -> winner's clues -> count."""
        self.turns_by_outcome: dict[str, Counter[int]] = {}
        """``starting`` / ``other`` (all agents found) or ``assassin`` -> clues per game -> count."""
        for r in results:
            self.add(r)

    def add(self, r: ClassicGameResult) -> None:
        if not self.games:
            self.solo = r.solo
        self.games += 1
        self.starting_won += r.starting_won
        self.red_won += r.winner == Team.RED.name.lower()
        self.assassin += r.outcome == ClassicTermination.ASSASSIN.value
        self.opponent_last += r.opponent_last
        self.turns += r.turns
        if r.by_agents and r.winner_turns is not None:
            self.win_turns[r.starting_won][r.winner_turns] += 1
        kind = ("starting" if r.starting_won else "other") if r.by_agents else "assassin"
        self.turns_by_outcome.setdefault(kind, Counter())[r.turns] += 1

    @property
    def win(self) -> Rate:
        """The starting team's wins (one team alone: its wins)."""
        return Rate(self.starting_won, self.games)

    def summary(self) -> ClassicSummary:
        n = self.games

        def mean_of(counts: Iterable[Counter[int]]) -> float:
            return mean([x for c in counts for x in c.elements()])

        return ClassicSummary(
            n, self.solo, Rate(self.starting_won, n), Rate(self.red_won, n), Rate(self.assassin, n),
            Rate(self.opponent_last, n), mean_of(self.win_turns.values()), mean_of([self.win_turns[True]]),
            self.turns / n if n else float("nan"))


def summarize_classic(records: Iterable[ClassicRecord]) -> ClassicSummary:
    """The figures of a set of classic games (:class:`ClassicTally` over their results)."""
    return ClassicTally(ClassicGameResult.from_record(r, line="") for r in records).summary()
