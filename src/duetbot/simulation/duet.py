"""Duet runs on the simulation engine (:mod:`duetbot.simulation.engine`).

A run is described by a :class:`RunSpec` (seed, variant, the two players' partner specs and
the word pool). Game ``i`` of a run depends only on ``(seed, i)``: it is dealt from
:func:`~duetbot.harness.game_seed` and both partners are built from that game's seed
(player A from ``s``, player B from ``s + 2``). Player A's spymaster clues player B's guesser
and the other way round, as at a real table: each :class:`~duetbot.bots.Partner` is one
player (its spymaster and its guesser). :func:`write_plot` draws a run's
:class:`~duetbot.records.Tally`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Callable, ClassVar, Sequence

from ..bots.base import Partner
from ..bots.factory import PartnerSpec
from ..harness import game_seed, play_game
from ..records import GameRecord, GameResult, Tally
from ..rules import Termination, Variant, deal, pool_words
from .engine import plot_counts, plot_figure, plot_rates

__all__ = ["OUTCOMES", "PartnersRun", "RunSpec", "write_plot"]

OUTCOMES: tuple[Termination, ...] = (Termination.WIN, Termination.ASSASSIN,
                                     Termination.SUDDEN_DEATH_MISS, Termination.MISSION_FAILED)
OUTCOME_LABELS = {Termination.WIN: "win", Termination.ASSASSIN: "assassin",
                  Termination.SUDDEN_DEATH_MISS: "sudden-death miss",
                  Termination.MISSION_FAILED: "mission-map loss"}
_TICK_LABELS = {Termination.WIN: "win", Termination.ASSASSIN: "assassin",
                Termination.SUDDEN_DEATH_MISS: "sudden-death\nmiss", Termination.MISSION_FAILED: "mission-map\nloss"}


class _DuetRun:
    """What every Duet run shares: game ``i`` is dealt from ``(seed, i)`` and played by
    ``partners(game seed)``; records are :class:`~duetbot.records.GameRecord` lines."""

    seed: int
    pool: tuple[str, ...]
    variant: Variant

    game_type: ClassVar[str] = "duet"
    record_type: ClassVar[type] = GameRecord
    tally_type: ClassVar[type] = Tally

    @property
    def players(self) -> dict[str, str]:
        raise NotImplementedError

    def partners(self, seed: int) -> tuple[Partner, Partner]:
        raise NotImplementedError

    def rules_differ(self, record: GameRecord) -> str | None:
        return None if record.variant == self.variant else f"variant {record.variant}, not {self.variant}"

    def result(self, record: GameRecord, line: str) -> GameResult:
        return GameResult.from_record(record, line)

    def deal(self, index: int):
        return deal(game_seed(self.seed, index), self.pool)

    def play(self, index: int) -> GameResult:
        s = game_seed(self.seed, index)
        rec = play_game(deal(s, self.pool), self.partners(s), self.variant, index)
        return GameResult.from_record(rec)


@dataclass(frozen=True)
class RunSpec(_DuetRun):
    """Everything a game of a run depends on, besides its index. Small and picklable."""

    seed: int
    player_a: PartnerSpec
    player_b: PartnerSpec
    pool: tuple[str, ...]
    variant: Variant = field(default_factory=Variant)

    @property
    def players(self) -> dict[str, str]:
        """The ``players`` field of every record of this run."""
        return {"A": self.player_a.label, "B": self.player_b.label}

    @property
    def label(self) -> str:
        names = self.players
        return f"A {names['A']} vs B {names['B']}, variant {self.variant}"

    def check(self) -> None:
        """Load every model both players need (raises for unknown names) and test the pool."""
        self.player_a.check()
        self.player_b.check()
        deal(game_seed(self.seed, 0), self.pool)

    @cached_property
    def dealt_words(self) -> tuple[str, ...]:
        """The words games are dealt from (:func:`~duetbot.rules.pool_words`), worked out once
        per process where the games are played, not per game."""
        return tuple(pool_words(self.pool))

    def partners(self, seed: int) -> tuple[Partner, Partner]:
        names = self.players
        return (replace(self.player_a.build(seed, self.dealt_words), name=names["A"]),
                replace(self.player_b.build(seed + 2, self.dealt_words), name=names["B"]))


def write_plot(path: Path, tally: Tally, title: str = "", variant: Variant | None = None) -> None:
    """Outcome shares (with Wilson 95% intervals), the score distribution of won games and
    the turns distribution by outcome, side by side; the format follows the file suffix. The
    mission-map loss is drawn only for a ``variant`` with a mission map (or none given): in
    other games it can never happen, and its bar would always be empty."""
    outcomes = [t for t in OUTCOMES if t is not Termination.MISSION_FAILED
                or variant is None or variant.bystander_tokens is not None]
    fig, (ax_out, ax_score, ax_turns) = plot_figure(3)
    colours = {Termination.WIN: "#2e8b57", Termination.ASSASSIN: "#222222",
               Termination.SUDDEN_DEATH_MISS: "#d2691e", Termination.MISSION_FAILED: "#8a2be2"}
    plot_rates(ax_out, [(_TICK_LABELS[t], tally.rate(t), colours[t]) for t in outcomes], "outcomes")
    plot_counts(ax_score, [("won", tally.scores, colours[Termination.WIN])], "rule-book score", "won games",
                "score of won games", empty="no wins")
    plot_counts(ax_turns, [(OUTCOME_LABELS[t], tally.turns_by_outcome.get(t.value, Counter()), colours[t])
                           for t in outcomes], "turns (clues) per game", "games", "game length by outcome")
    if title:
        fig.suptitle(title)
    fig.savefig(path, dpi=110)


@dataclass(frozen=True)
class PartnersRun(_DuetRun):
    """A Duet run whose two partners come from a factory, for players no partner spec describes
    (a benchmark's bots with their own configs or models). Game ``i`` is dealt from
    ``(seed, i)`` like a :class:`RunSpec` game, and ``factory(game seed)`` builds both players.
    The factory must pickle (a module-level function or a ``functools.partial`` of one) so that
    worker processes can build the same bots.
    """

    seed: int
    pool: tuple[str, ...]
    factory: Callable[[int], Sequence[Partner]]
    variant: Variant = field(default_factory=Variant)
    name: str = "custom"

    @property
    def players(self) -> dict[str, str]:
        return {"A": f"{self.name} A", "B": f"{self.name} B"}

    def partners(self, seed: int) -> tuple[Partner, Partner]:
        a, b = self.factory(seed)
        names = self.players
        return replace(a, name=names["A"]), replace(b, name=names["B"])
