"""Classic Codenames runs on the simulation engine (:mod:`duetbot.simulation.engine`).

A :class:`ClassicRunSpec` meets :class:`~duetbot.simulation.Run`, so the same
:func:`~duetbot.simulation.run_local` / :func:`~duetbot.simulation.run_dask` (parallel,
results in game order whatever the number of workers) and
:func:`~duetbot.simulation.load_finished` (resume) play and read classic runs. Game ``i``
depends only on ``(seed, i)``: it is dealt by :func:`~duetbot.rules.classic.deal_classic`
from :func:`~duetbot.harness.game_seed`, red is built from that game's seed ``s`` and blue
from ``s + 1`` (as in ``benchmarks/bench_classic.py``).

:func:`write_classic_plot` draws a run's :class:`~duetbot.records.classic.ClassicTally`.

>>> from duetbot.bots.factory import PartnerSpec
>>> from duetbot.records.classic import ClassicTally
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
from typing import ClassVar

from ..bots.base import Partner
from ..bots.classic import classic_team
from ..bots.factory import PartnerSpec
from ..harness.base import game_seed
from ..harness.classic import play_classic_game
from ..records.classic import ClassicGameResult, ClassicRecord, ClassicTally
from ..rules.classic import ClassicDeal, ClassicRules, deal_classic
from .engine import plot_counts, plot_figure, plot_rates

__all__ = ["ClassicRunSpec", "write_classic_plot"]


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
    tally_type: ClassVar[type] = ClassicTally

    @property
    def players(self) -> dict[str, str]:
        """The ``players`` field of every record of this run."""
        names = {"red": self.player_a.label}
        if not self.rules.solo:
            names["blue"] = self.player_b.label
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
