"""Classic Codenames runs on the simulation engine of :mod:`duetbot.simulation`.

A :class:`ClassicRunSpec` meets :class:`~duetbot.simulation.Run`, so the same
:func:`~duetbot.simulation.run_local` / :func:`~duetbot.simulation.run_dask` (parallel,
results in game order whatever the number of workers) and
:func:`~duetbot.simulation.load_finished` (resume) play and read classic runs. Game ``i``
depends only on ``(seed, i)``: it is dealt by :func:`~duetbot.rules.classic.deal_classic`
from :func:`~duetbot.harness.game_seed`, red is built from that game's seed ``s`` and blue
from ``s + 1`` (as in ``benchmarks/bench_classic.py``).

:class:`ClassicTally` is to :func:`~duetbot.classic_harness.summarize_classic` what
:class:`~duetbot.simulation.Tally` is to :func:`~duetbot.records.summarize`: the same
figures from running totals. :func:`write_classic_plot` draws them.

>>> from duetbot.bots.factory import PartnerSpec
>>> from duetbot.simulation import run_local
>>> from duetbot.wordpool import default_pool
>>> rand = PartnerSpec.parse("bot=random")
>>> run = ClassicRunSpec(3, rand, rand, default_pool())
>>> results = list(run_local(run, 4, workers=1))
>>> [r.game for r in results], ClassicTally(results).summary().games
([0, 1, 2, 3], 4)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar, Iterable

from .bots.base import Partner
from .bots.classic import classic_team
from .bots.factory import PartnerSpec
from .classic_harness import ClassicRecord, ClassicSummary, play_classic_game
from .harness import game_seed
from .records import Rate, _mean
from .rules import Clue
from .rules.classic import ClassicDeal, ClassicRules, ClassicTermination, Team, deal_classic
from .simulation import plot_counts, plot_figure, plot_rates, spec_label

__all__ = ["ClassicGameResult", "ClassicRunSpec", "ClassicTally", "write_classic_plot"]


@dataclass(frozen=True, slots=True)
class ClassicGameResult:
    """One finished classic game: its record as a JSON line and the figures the reports need."""

    game: int
    line: str
    """The full, replayable :class:`~duetbot.classic_harness.ClassicRecord` as one JSON line."""
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
        clues = [e for e in rec.events if isinstance(e.action, Clue)]
        winner = rec.winner
        opponent_last = (rec.outcome is ClassicTermination.AGENTS and bool(rec.events)
                         and rec.events[-1].player != winner)
        return cls(rec.game if rec.game is not None else -1, rec.dumps() if line is None else line,
                   rec.outcome.value if rec.outcome else None,
                   winner.name.lower() if winner is not None else None, rec.starting.name.lower(),
                   rec.rules.solo, len(clues),
                   None if winner is None else sum(1 for e in clues if e.player == winner), opponent_last)


@dataclass(frozen=True)
class ClassicRunSpec:
    """Everything a classic game of a run depends on, besides its index. Small and picklable.

    ``player_a`` is red, ``player_b`` blue (a spec's spymaster families clue its own
    guesser families). With ``rules.solo`` blue never plays and is no part of the run.
    """

    seed: int
    player_a: PartnerSpec
    player_b: PartnerSpec
    pool: tuple[str, ...]
    rules: ClassicRules = field(default_factory=ClassicRules)

    game_type: ClassVar[str] = "classic"
    record_type: ClassVar[type] = ClassicRecord

    @property
    def players(self) -> dict[str, str]:
        """The ``players`` field of every record of this run."""
        names = {"red": spec_label(self.player_a)}
        if not self.rules.solo:
            names["blue"] = spec_label(self.player_b)
        return names

    @property
    def label(self) -> str:
        names = self.players
        who = f"red {names['red']}" + (f" vs blue {names['blue']}" if "blue" in names else " alone")
        return f"classic {self.rules}, {who}"

    def check(self) -> None:
        """Load every model the teams need (raises for unknown names) and test the pool."""
        self.player_a.check()
        if not self.rules.solo:
            self.player_b.check()
        self.deal(0)

    def teams(self, seed: int) -> tuple[Partner, Partner]:
        names = self.players
        red = replace(classic_team(self.player_a, seed), name=names["red"])
        if self.rules.solo:
            return red, red  # blue never moves
        return red, replace(classic_team(self.player_b, seed + 1), name=names["blue"])

    def deal(self, index: int) -> ClassicDeal:
        return deal_classic(game_seed(self.seed, index), self.pool)

    def play(self, index: int) -> ClassicGameResult:
        rec = play_classic_game(self.deal(index), self.teams(game_seed(self.seed, index)), self.rules, index)
        rec.players = self.players
        return ClassicGameResult.from_record(rec)

    def rules_differ(self, record: ClassicRecord) -> str | None:
        return None if record.rules == self.rules else f"classic variant {record.rules}, not {self.rules}"

    def result(self, record: ClassicRecord, line: str) -> ClassicGameResult:
        return ClassicGameResult.from_record(record, line)


class ClassicTally:
    """Running totals over classic results: a :class:`ClassicSummary` and plot distributions.

    ``ClassicTally(results).summary()`` equals ``summarize_classic(records)`` for the same games.
    """

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

        def mean(counts: Iterable[Counter[int]]) -> float:
            return _mean([x for c in counts for x in c.elements()])

        return ClassicSummary(
            n, self.solo, Rate(self.starting_won, n), Rate(self.red_won, n), Rate(self.assassin, n),
            Rate(self.opponent_last, n), mean(self.win_turns.values()), mean([self.win_turns[True]]),
            self.turns / n if n else float("nan"))


def write_classic_plot(path: Path, tally: ClassicTally, title: str = "") -> None:
    """The classic run's rates (with Wilson 95% intervals), the winner's clues in games won
    by finding all agents, and the game length by outcome; the format follows the suffix."""
    fig, (ax_out, ax_win, ax_turns) = plot_figure(3)
    s = tally.summary()
    start, other, black = "#2e8b57", "#4169e1", "#222222"
    if s.solo:
        bars = [("win", s.starting_win, start), ("assassin", s.assassin, black)]
        win_series = [("won", tally.win_turns[True], start)]
    else:
        bars = [("starting team\nwins", s.starting_win, start), ("red wins", s.red_win, "#b22222"),
                ("assassin", s.assassin, black), ("won on the other\nteam's guess", s.opponent_last, other)]
        win_series = [("starting team", tally.win_turns[True], start),
                      ("other team", tally.win_turns[False], other)]
    plot_rates(ax_out, bars, "outcomes")
    plot_counts(ax_win, win_series, "clues given by the winning team", "games won with all agents found",
                "turns to win", empty="no game won by agents")
    labels = {"starting": "team alone finds all agents" if s.solo else "starting team finds all agents",
              "other": "other team finds all agents", "assassin": "assassin"}
    colours = {"starting": start, "other": other, "assassin": black}
    plot_counts(ax_turns, [(labels[k], tally.turns_by_outcome.get(k, Counter()), colours[k])
                           for k in ("starting", "other", "assassin")],
                "clues per game" + ("" if s.solo else " (both teams)"), "games", "game length by outcome")
    if title:
        fig.suptitle(title)
    fig.savefig(path, dpi=110)
