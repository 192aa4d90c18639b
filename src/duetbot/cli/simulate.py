"""``duetbot simulate``: bot-vs-bot games at scale (the work is in :mod:`duetbot.simulation`).

Every check happens before the first game: variant, word pool, partner specs (models are
loaded), output paths, and with ``--resume`` the existing record file. Records are appended
and flushed one game at a time, in game order, so an interrupted run keeps every game it
wrote and ``--resume`` carries on from there.
"""

from __future__ import annotations

import enum
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional, Sequence

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
)
from rich.table import Table

from .. import __version__
from ..harness import BotError
from ..records.classic import ClassicTally
from ..rules.classic import ClassicRules
from .common import VECTOR, VECTOR_HELP, GameKind, fail, parse_variant, read_pool, vector_hint

if TYPE_CHECKING:  # pragma: no cover
    from ..bots.factory import PartnerSpec

# The bots, the models and the engines (numpy and the rest) are imported when a run starts,
# not with the command: ``duetbot --help`` stays as fast as typer itself.

console = Console(highlight=False)


class BotKind(str, enum.Enum):
    random = "random"


class Engine(str, enum.Enum):
    local = "local"
    dask = "dask"


def _spec(option: str, text: str, vectors: Sequence[str] | None = None) -> PartnerSpec:
    from ..bots.factory import PartnerSpec, SpecError

    try:
        spec = PartnerSpec.parse(text)
        return spec if spec.random else spec.describe(vectors or ())
    except SpecError as exc:
        fail(f"{option} {text!r}: {exc}")


def _check_paths(out: Path | None, csv: Path | None, plot: Path | None) -> None:
    from ..simulation import SimulationError, check_writable, plot_formats

    named = [(opt, p) for opt, p in (("--out", out), ("--csv", csv), ("--plot", plot)) if p is not None]
    seen: dict[Path, str] = {}
    for opt, p in named:
        key = p.expanduser().resolve()
        if key in seen:
            fail(f"{opt} and {seen[key]} name the same file {p}; give each output its own path")
        seen[key] = opt
    for opt, p in named:
        try:
            check_writable(p)
        except SimulationError as exc:
            fail(f"cannot write {opt} {p}: {exc}; choose a writable path")
    if plot is not None:
        suffix = plot.suffix.lower().lstrip(".")
        formats = plot_formats()
        if suffix not in formats:
            fail(f"--plot {plot}: unknown image format {suffix or '(none)'!r}; end the name in .png, .svg or .pdf")


def time_left(played: int, left: int, took: float) -> str:
    """The time the run still needs, at the pace of the whole run so far (``took`` seconds for
    ``played`` games, start-up included): a pace measured over the last few seconds swings
    wildly, as workers hand in a chunk of games at once. ``-:--:--`` before the first game.

    >>> time_left(32, 968, 10.0), time_left(0, 1000, 3.0)
    ('0:05:02 left', '-:--:-- left')
    """
    if not played:
        return "-:--:-- left"
    seconds = round(left * took / played)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d} left"


def simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games in the run.")] = 100,
    seed: Annotated[int, typer.Option(help="Base seed; game i depends only on (seed, i).")] = 0,
    variant: Annotated[str, typer.Option(metavar="VARIANT", help="standard, easy, easier, mission:N:M, seed003; add modifiers with + (cap, nozero, loose, penalty).")] = "standard",
    player_a: Annotated[Optional[str], typer.Option("--player-a", "-a", metavar="SPEC", help="Player A's partner spec, e.g. default, model=glove50,noise=0.2, spymaster=glove50+minilm,guesser=spacy300, bot=random, bot=threshold,model=glove50 (a plain clue bot). A's spymaster clues B's guesser.")] = None,
    player_b: Annotated[Optional[str], typer.Option("--player-b", "-b", metavar="SPEC", show_default="default", help="Player B's partner spec. B's spymaster clues A's guesser.")] = None,
    bots: Annotated[Optional[BotKind], typer.Option(help="Shortcut: --bots random sets both players to bot=random.")] = None,
    words: Annotated[Optional[Path], typer.Option("--words", show_default="the shipped pool", help="Word pool file, one entry per line.")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", "-w", min=1, show_default="the number of CPUs", help="Worker processes; 1 plays in this process.")] = None,
    chunk_size: Annotated[Optional[int], typer.Option("--chunk-size", min=1, show_default="at most 32, fewer near the end", help="Games per work unit.")] = None,
    engine: Annotated[Engine, typer.Option(help="local: a process pool on this machine; dask: a dask.distributed cluster (pip install 'duetbot\\[dask]').")] = Engine.local,
    scheduler: Annotated[Optional[str], typer.Option(metavar="ADDRESS", show_default="a local cluster of --workers processes", help="With --engine dask: the scheduler address.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write every game record as JSON lines here, in game order, flushed per game (an existing file is replaced unless --resume).")] = None,
    csv: Annotated[Optional[Path], typer.Option("--csv", help="Write the summary as CSV: one header row and one row for the run.")] = None,
    plot: Annotated[Optional[Path], typer.Option("--plot", help="Draw outcome shares and score / turns distributions to this image (.png, .svg, .pdf).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the run in --out: keep its finished games (they must be of this seed, variant, players and word pool) and play the rest.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    game: Annotated[GameKind, typer.Option("--game", help="duet, or classic (two teams; --player-a is red, --player-b blue; --variant standard or solo).")] = GameKind.duet,
    vector: Annotated[Optional[list[str]], typer.Option("--vector", metavar=VECTOR, help=VECTOR_HELP + ", for both players (repeatable; the same as vector=... in a partner spec).")] = None,
) -> None:
    """Play bot-vs-bot games in parallel and report win rates with 95% intervals."""
    from .. import simulation as sim
    from ..embeddings import UnknownWordError
    from ..simulation.classic import ClassicRunSpec, write_classic_plot
    from .classic import parse_rules

    classic = game is GameKind.classic
    rules = parse_rules(variant) if classic else parse_variant(variant)
    pool = read_pool(words)
    if bots is not None and (player_a is not None or player_b is not None):
        fail("--bots random sets both players; leave out either --bots or --player-a/--player-b")
    if bots is BotKind.random:
        player_a = player_b = "bot=random"
    spec_a = _spec("--player-a", player_a or "default", vector)
    spec_b = _spec("--player-b", player_b or "default", vector)
    if resume and out is None:
        fail("--resume needs --out, the record file of the run to continue")
    if scheduler and engine is not Engine.dask:
        fail("--scheduler needs --engine dask")
    _check_paths(out, csv, plot)
    if engine is Engine.local and not resume:
        sim.start_workers_early(workers)   # its imports overlap the checks below (a resumed run may have none to play)
    solo = isinstance(rules, ClassicRules) and rules.solo  # blue never plays
    if solo and player_b is not None and bots is None:
        fail("--player-b has no effect with --variant solo (blue never plays); leave it out")
    for option, spec in (("--player-a", spec_a), *(() if solo else (("--player-b", spec_b),))):
        try:
            spec.check(pool)
        except UnknownWordError as exc:
            fail(f"{option} {spec.text!r}: {exc}; {vector_hint(exc.word)}")
        except (ValueError, LookupError, OSError) as exc:
            fail(f"{option} {spec.text!r}: {exc}")
    run = (ClassicRunSpec if classic else sim.RunSpec)(seed, spec_a, spec_b, pool, rules)  # type: ignore[arg-type]
    try:
        run.check()
    except ValueError as exc:
        fail(str(exc))

    bar = Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("win {task.fields[win]}"), TextColumn("{task.fields[rate]}"),
                   TimeElapsedColumn(), TextColumn("{task.fields[left]}"),
                   console=Console(stderr=True), disable=quiet, transient=True)
    task = bar.add_task("games", total=games, win="-", rate="", left=time_left(0, games, 0))
    finished = 0  # games in the record file when a run stops early

    def show(status: sim.RunStatus) -> None:
        nonlocal finished
        finished = status.tally.games
        bar.update(task, completed=finished, win=str(status.tally.win) if finished else "-",
                   rate=f"{status.rate:.1f} games/s" if status.played else "",
                   left=time_left(status.played, games - finished, status.elapsed))

    try:
        with bar:
            status = sim.simulate(run, games, out=out, resume=resume, workers=workers, chunk_size=chunk_size,
                                  engine=engine.value, scheduler=scheduler, progress=show)
    except sim.RecordFileError as exc:
        if exc.written is None:
            fail(f"cannot write --out {out}: {exc.reason}; choose a writable path")
        fail(f"cannot write --out {out}: {exc.reason}; stopped after {exc.written} games "
             f"(--resume continues from the records written)", code=1)
    except sim.SimulationError as exc:  # a record file of another run, a dask cluster that cannot start
        fail(str(exc))
    except KeyboardInterrupt:
        where = f"; rerun with --resume to finish (the finished games are in {out})" if out else ""
        fail(f"interrupted after {finished} of {games} games{where}", code=130)
    except BotError as exc:
        fail(str(exc), code=1)
    except (LookupError, ValueError) as exc:  # e.g. a dask worker that lacks a model
        fail(f"a worker could not play: {exc}", code=1)
    except BrokenProcessPool as exc:
        fail(f"a worker process died ({exc}); {finished} games finished"
             + (f"; rerun with --resume to finish them in {out}" if out else ""), code=1)
    tally = status.tally

    summary = tally.summary()
    title = f"{summary.games} games, {run.label}, seed {seed}"
    console.print(escape(title))
    table = Table()
    table.add_column("measure")
    table.add_column("value (95% interval)", justify="right")
    for name, value in summary.rows():
        table.add_row(name, value)
    console.print(table)
    if status.played:
        console.print(f"{status.played} games played in {status.elapsed:.1f} s ({status.rate:.1f} games/s)"
                      + (f", {status.resumed} resumed from {out}" if status.resumed else ""))
    if csv is not None:
        meta = {"seed": seed, "variant": str(rules), "player_a": spec_a.label, "player_b": spec_b.label,
                "words": str(words) if words else "default", "duetbot": __version__}
        if classic:
            meta = {"game": "classic", **meta}
        try:
            sim.write_csv(csv, summary, meta)
        except OSError as exc:
            fail(f"cannot write --csv {csv}: {exc.strerror}", code=1)
    if plot is not None:
        try:
            if isinstance(tally, ClassicTally):
                write_classic_plot(plot, tally, title)
            else:
                sim.write_plot(plot, tally, title, None if isinstance(rules, ClassicRules) else rules)
        except (OSError, ValueError) as exc:
            fail(f"cannot write --plot {plot}: {exc}", code=1)
    for label, path in (("records", out), ("summary", csv), ("plots", plot)):
        if path is not None:
            console.print(f"{label} written to {path}")

