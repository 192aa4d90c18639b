"""Command definitions."""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .. import __version__
from ..bots import random_partner
from ..harness import BotError, simulate as run_simulation
from ..records import summarize
from .common import fail, parse_variant, read_pool
from .play import play

app = typer.Typer(
    name="duetbot",
    help="AI partners for Codenames: Duet: play, simulate, and get suggestions at a real table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)


def _version(value: bool) -> None:
    if value:
        console.print(f"duetbot {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Show the version and exit.")] = None,
) -> None:
    """AI partners for Codenames: Duet."""


class BotKind(str, enum.Enum):
    random = "random"


@app.command()
def simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Base seed; game i depends only on (seed, i).")] = 0,
    variant: Annotated[str, typer.Option(help="standard, easy, easier, mission:N:M, seed003; add modifiers with + (cap, nozero, loose, penalty).")] = "standard",
    bots: Annotated[BotKind, typer.Option(help="Which bots play both sides.")] = BotKind.random,
    words: Annotated[Optional[Path], typer.Option("--words", help="Word pool file, one entry per line (default: the shipped pool).")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write every game record as JSON lines here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play bot-vs-bot games and print a summary."""
    rules = parse_variant(variant)
    pool = read_pool(words)
    sink = None
    if out is not None:
        try:
            sink = out.open("w", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror}; choose a writable --out path")

    def partners(game_seed: int):
        return (random_partner(game_seed), random_partner(game_seed + 2))

    records = []
    progress = Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("win {task.fields[win]}"), TimeRemainingColumn(),
                        console=Console(stderr=True), disable=quiet, transient=True)
    try:
        with progress:
            task = progress.add_task("games", total=games, win="-")
            for rec in run_simulation(games, seed, pool, partners, rules):
                records.append(rec)
                if sink:
                    sink.write(rec.dumps() + "\n")
                    sink.flush()
                wins = sum(r.won for r in records)
                progress.update(task, advance=1, win=f"{100 * wins / len(records):.0f}%")
    except BotError as exc:
        fail(str(exc), code=1)
    finally:
        if sink:
            sink.close()

    summary = summarize(records)
    table = Table(title=f"{games} games, {bots.value} vs {bots.value}, variant {rules}")
    table.add_column("measure")
    table.add_column("value (95% interval)", justify="right")
    for name, value in summary.rows():
        table.add_row(name, value)
    console.print(table)
    if out is not None:
        console.print(f"records written to {out}")


app.command()(play)
