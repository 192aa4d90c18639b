"""Plays classic Codenames games between any two teams that meet the bot protocols, records
them (JSON, exact replay) and summarises many of them.

A team is a :class:`~duetbot.bots.base.Partner`: its spymaster clues its own operatives
(``guesser``). Game ``i`` of a run depends only on ``(seed, i)`` (the Duet harness's
:func:`~duetbot.harness.game_seed`).

>>> from duetbot.bots.classic import classic_random_team
>>> rec = play_classic_game(deal_classic(1, [f"W{i}" for i in range(30)]),
...                         (classic_random_team(1), classic_random_team(2)))
>>> rec.winner is not None and rec.replay().winner == rec.winner
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

from .bots.base import Partner
from .classic_views import classic_guesser_view, classic_spymaster_view
from .harness import BotError, game_seed
from .records import Rate, RecordError, _fmt, _mean
from .rules import Clue, Event, Phase
from .rules.classic import (
    ClassicDeal, ClassicRules, ClassicState, ClassicTermination, Team, deal_classic, event_from_json,
)

CLASSIC_RECORD_VERSION = 1


def step_classic(state: ClassicState, teams: Sequence[Partner]) -> None:
    team = state.team
    if state.phase is Phase.CLUE:
        action = teams[team].spymaster.give_clue(classic_spymaster_view(state, team))  # type: ignore[arg-type]
        role = "spymaster"
    else:
        action = teams[team].guesser.guess(classic_guesser_view(state, team))  # type: ignore[arg-type]
        role = "operatives"
    try:
        state.apply(action, team)
    except ValueError as exc:
        raise BotError(f"the {team.name.lower()} {role} ({teams[team].name}) played {action!r}: {exc}") from exc


def play_classic(state: ClassicState, teams: Sequence[Partner], max_actions: int = 1000) -> ClassicState:
    """Play ``state`` to the end. ``teams[0]`` is red, ``teams[1]`` blue."""
    for _ in range(max_actions):
        if state.is_over():
            return state
        step_classic(state, teams)
    raise BotError(f"the game did not end within {max_actions} actions")


@dataclass
class ClassicRecord:
    deal: ClassicDeal
    rules: ClassicRules
    events: list[Event]
    outcome: ClassicTermination | None = None
    winner: Team | None = None
    players: dict[str, str] = field(default_factory=dict)
    game: int | None = None

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
        return sum(1 for e in self.events if isinstance(e.action, Clue) and e.player == team)

    @property
    def turns(self) -> int:
        return sum(1 for e in self.events if isinstance(e.action, Clue))

    @property
    def turns_to_win(self) -> int | None:
        """Clues the winning team gave (``None`` without a winner)."""
        return None if self.winner is None else self.clues_by(self.winner)

    def to_json(self) -> dict:
        return {"version": CLASSIC_RECORD_VERSION, "game_type": "classic", "game": self.game,
                "players": self.players, "rules": self.rules.to_json(), "deal": self.deal.to_json(),
                "events": [e.to_json() for e in self.events],
                "outcome": self.outcome.value if self.outcome else None,
                "winner": self.winner.name.lower() if self.winner is not None else None}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: dict, check: bool = True) -> ClassicRecord:
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        try:
            deal = ClassicDeal.from_json(data["deal"])
            rules = ClassicRules.from_json(data.get("rules") or {})
            events = [event_from_json(e) for e in data.get("events", [])]
        except KeyError as exc:
            raise RecordError(f"the game record lacks the field {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise RecordError(f"bad classic game record: {exc}") from None
        rec = cls(deal, rules, events, players=dict(data.get("players") or {}), game=data.get("game"))
        if check:
            state = rec.replay()
            rec.outcome, rec.winner = state.outcome, state.winner
            for name, got in (("outcome", state.outcome.value if state.outcome else None),
                              ("winner", state.winner.name.lower() if state.winner is not None else None)):
                if data.get(name) is not None and data[name] != got:
                    raise RecordError(f"the record says {name} {data[name]!r} but its events give {got!r}")
        else:
            rec.outcome = ClassicTermination(data["outcome"]) if data.get("outcome") else None
            rec.winner = Team.parse(data["winner"]) if data.get("winner") else None
        return rec

    @classmethod
    def loads(cls, text: str, check: bool = True) -> ClassicRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc.msg}") from None
        return cls.from_json(data, check)


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
        rows += [("turns to win (winner's clues)", _fmt(self.turns_to_win))]
        if not self.solo:
            rows += [("turns to win, starting team", _fmt(self.turns_to_win_starting)),
                     ("clues per game (both teams)", _fmt(self.turns))]
        return rows

    def to_json(self) -> dict:
        return {"games": self.games, "solo": self.solo, "starting_win": self.starting_win.value,
                "red_win": self.red_win.value, "assassin": self.assassin.value,
                "opponent_last": self.opponent_last.value, "turns_to_win": self.turns_to_win,
                "turns_to_win_starting": self.turns_to_win_starting, "turns": self.turns}


def summarize_classic(records: Iterable[ClassicRecord]) -> ClassicSummary:
    recs = list(records)
    n = len(recs)
    solo = bool(recs) and recs[0].rules.solo
    start_won = [r for r in recs if r.winner is not None and r.winner == r.starting]
    red = sum(1 for r in recs if r.winner is Team.RED)
    assassin = sum(1 for r in recs if r.outcome is ClassicTermination.ASSASSIN)

    def by_opponent(r: ClassicRecord) -> bool:
        if r.outcome is not ClassicTermination.AGENTS or not r.events:
            return False
        return r.events[-1].player != r.winner

    return ClassicSummary(
        n, solo, Rate(len(start_won), n), Rate(red, n), Rate(assassin, n),
        Rate(sum(1 for r in recs if by_opponent(r)), n),
        _mean([r.turns_to_win for r in recs if r.outcome is ClassicTermination.AGENTS]),  # type: ignore[misc]
        _mean([r.turns_to_win for r in start_won if r.outcome is ClassicTermination.AGENTS]),  # type: ignore[misc]
        _mean([r.turns for r in recs]))
