"""The simulation engine: parallel runs, ordered output, resume, CSV and plot helpers.

It knows no particular game: anything that meets :class:`Run` plays through it (Duet runs
are :class:`~duetbot.simulation.duet.RunSpec`, classic ones
:class:`~duetbot.simulation.classic.ClassicRunSpec`). Game ``i`` of a run depends only on
``(seed, i)``, so a run gives the same records whatever the number of worker processes, the
chunking or the engine.

Engines (all yield the run's results in game order, whatever order chunks finish in):

- :func:`run_local`: ``workers=1`` plays in this process; otherwise a
  :class:`~concurrent.futures.ProcessPoolExecutor` (forkserver start method where available)
  plays chunks of consecutive games, at most ``4 * workers`` chunks in flight. Each worker
  process builds partners from the specs itself, so embedding models are loaded once per
  process (the factory's ``lru_cache``, memory-mapped vectors).
- :func:`run_dask`: the same :func:`play_chunk` on a ``dask.distributed`` client.

Out-of-order chunks are buffered until every earlier game is out, so the record file is
always a prefix ``0 .. k-1`` of the run. That is what makes :func:`load_finished` (resume)
simple: it reads the prefix, validates that every record belongs to this run (game index,
players, variant, and the deal, which pins seed and word pool), drops a torn last line and
returns the finished games; the run goes on from ``k``.

Reports: the records' tallies (:class:`~duetbot.records.Tally`) hold the figures;
:func:`write_csv` and the plot helpers write them. This module never prints.
"""

from __future__ import annotations

import contextlib
import csv
import math
import os
import signal
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import fields
from pathlib import Path
from typing import Any, ClassVar, Iterable, Iterator, Protocol, Sequence

from ..jsonio import JSONInputError, loads
from ..records import Rate, RecordError

__all__ = [
    "MAX_CHUNK",
    "ResumeError",
    "Run",
    "SimulationError",
    "check_writable",
    "chunk_ranges",
    "csv_row",
    "guided_ranges",
    "default_workers",
    "load_finished",
    "play_chunk",
    "plot_counts",
    "plot_figure",
    "plot_formats",
    "plot_rates",
    "run_dask",
    "run_local",
    "start_workers_early",
    "write_csv",
]

MAX_CHUNK = 32
"""Largest number of games in one chunk (bounds the latency of progress and of Ctrl-C)."""

class SimulationError(ValueError):
    """A run that cannot start or go on: bad output path, bad options (one-line message)."""


class ResumeError(SimulationError):
    """An existing record file that does not belong to this run or cannot be read."""


# --- one run, one game, one chunk ---------------------------------------------------------------


class Run(Protocol):
    """What the engines and :func:`load_finished` need of a run, whatever the game.

    ``play(i)`` returns a result with ``game`` (its index) and ``line`` (its record as one
    JSON line); records are read back with ``record_type.from_json(obj, check=False)`` and
    must have ``game``, ``players``, ``deal`` and ``outcome``; ``tally_type(results)`` sums
    results up. Implementations must pickle.
    """

    game_type: ClassVar[str]
    """The ``game_type`` field of the run's records (absent means ``"duet"``)."""
    record_type: ClassVar[Any]
    tally_type: ClassVar[Any]

    @property
    def players(self) -> dict[str, str]: ...

    def deal(self, index: int) -> Any: ...

    def play(self, index: int) -> Any: ...

    def rules_differ(self, record: Any) -> str | None:
        """How ``record``'s rules differ from the run's (``None``: they do not)."""

    def result(self, record: Any, line: str) -> Any: ...


def play_chunk(run: Run, start: int, stop: int) -> list[Any]:
    """Play games ``start .. stop-1`` of ``run`` (the unit of work of every engine)."""
    return [run.play(i) for i in range(start, stop)]


def default_workers() -> int:
    return os.cpu_count() or 1


def chunk_ranges(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` cut into consecutive ranges of ``size`` games (the last may be shorter)."""
    return [(a, min(a + size, stop)) for a in range(start, stop, max(1, size))]


def guided_ranges(start: int, stop: int, workers: int, least: int = 1) -> list[tuple[int, int]]:
    """``[start, stop)`` cut into consecutive ranges that shrink as the run nears its end: a
    quarter of each worker's share of the games left, at most :data:`MAX_CHUNK` and at least
    ``least`` games. Workers then finish together (fixed chunks leave one worker idle for up
    to a chunk's time at the end) at the cost of a few more hand-overs."""
    out = []
    a = start
    while a < stop:
        size = max(least, 1, min(MAX_CHUNK, math.ceil((stop - a) / (4 * max(1, workers)))))
        out.append((a, min(a + size, stop)))
        a += size
    return out


def _in_order(done: Iterable[tuple[int, Sequence[Any]]], start: int) -> Iterator[Any]:
    """Results of chunks that finish in any order, yielded in game order from ``start``."""
    pending: dict[int, Sequence[Any]] = {}
    nxt = start
    for first, results in done:
        pending[first] = results
        while nxt in pending:
            chunk = pending.pop(nxt)
            yield from chunk
            nxt += len(chunk)


_blas_limit: Any = None


def _limit_blas(threads: int | None) -> Any:
    """Cap the threads of numpy's BLAS (threadpoolctl) until the returned object is exited."""
    if threads is None:
        return contextlib.nullcontext()
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(threads)


def _worker_init(blas_threads: int | None) -> None:
    global _blas_limit
    # Ctrl-C is handled by the parent alone: it stops handing out chunks and shuts the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _blas_limit = _limit_blas(blas_threads)


def _mp_context():
    import multiprocessing as mp

    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        # Workers fork from a server that has already imported duetbot (and numpy).
        ctx.set_forkserver_preload(["duetbot.simulation"])
        return ctx
    return mp.get_context("spawn")


def start_workers_early(workers: int | None = None) -> None:
    """Start the server that :func:`run_local`'s worker processes fork from now, when it will
    be needed (``workers`` above one, forkserver start method): it imports duetbot (about a
    quarter of a second) while this process goes on checking the run, not after. Nothing
    else changes: the pool still starts its workers when it is handed the first games."""
    workers = default_workers() if workers is None else workers
    ctx = _mp_context()
    if workers > 1 and ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def run_local(run: Run, games: int, start: int = 0, workers: int | None = None,
              chunk_size: int | None = None, blas_threads: int | None = 1) -> Iterator[Any]:
    """Play games ``start .. games-1`` of ``run``; results come in game order.

    ``workers=1`` plays in this process; more use a process pool (its processes re-import
    the caller's ``__main__`` unless that is a package's ``__main__``: guard scripts with
    ``if __name__ == "__main__":``). Closing the iterator (or an exception, e.g.
    ``KeyboardInterrupt``) cancels chunks not yet started and waits for the running ones.

    ``blas_threads`` caps numpy's BLAS threads in every process that plays (``None``: leave
    them alone). One is the default: it keeps N worker processes from oversubscribing the
    cores, and the bots' matrix products are small (in process, one BLAS thread was measured
    as fast as two on an idle 2-core machine and up to 1.7x faster on a loaded one).
    """
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise SimulationError("workers must be at least 1")
    if start >= games:
        return
    if workers == 1:
        with _limit_blas(blas_threads):
            for i in range(start, games):
                yield run.play(i)
        return
    ranges = chunk_ranges(start, games, chunk_size) if chunk_size else guided_ranges(start, games, workers)
    workers = min(workers, len(ranges))
    window = 4 * workers
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context(), initializer=_worker_init,
                               initargs=(blas_threads,))

    def completed() -> Iterator[tuple[int, list[Any]]]:
        todo = iter(ranges)
        running: dict[Future, int] = {}

        def top_up() -> None:
            while len(running) < window:
                r = next(todo, None)
                if r is None:
                    return
                running[pool.submit(play_chunk, run, *r)] = r[0]

        top_up()
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in finished:
                first = running.pop(fut)
                yield first, fut.result()
            top_up()

    try:
        yield from _in_order(completed(), start)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_dask(run: Run, games: int, client: Any, start: int = 0,
             chunk_size: int | None = None) -> Iterator[Any]:
    """Like :func:`run_local`, on a ``dask.distributed`` :class:`~distributed.Client`.

    Every dask worker must be able to import duetbot and find the models the specs name.
    Use one thread per worker process for embedding bots (a spymaster keeps per-board caches).
    """
    from distributed import as_completed

    if start >= games:
        return
    nworkers = max(1, len(client.scheduler_info().get("workers", {})))
    # a dask task costs more to hand over than a local one: no chunk under 8 games
    ranges = chunk_ranges(start, games, chunk_size) if chunk_size else guided_ranges(start, games, nworkers, 8)
    window = max(8, 4 * nworkers)
    [run_f] = client.scatter([run], broadcast=True, hash=False)
    todo = iter(ranges)
    live: dict[str, tuple[Any, int]] = {}

    def submit() -> Any | None:
        r = next(todo, None)
        if r is None:
            return None
        fut = client.submit(play_chunk, run_f, *r, pure=False)
        live[fut.key] = (fut, r[0])
        return fut

    initial = [f for f in (submit() for _ in range(window)) if f is not None]
    ac = as_completed(initial)

    def completed() -> Iterator[tuple[int, list[Any]]]:
        for fut in ac:
            results = fut.result()
            _, first = live.pop(fut.key)
            nxt = submit()
            if nxt is not None:
                ac.add(nxt)
            yield first, results

    try:
        yield from _in_order(completed(), start)
    finally:
        for fut, _ in live.values():
            fut.cancel()
        live.clear()


# --- resume ---------------------------------------------------------------------------------------


def _who(players: dict[str, str]) -> str:
    return " ".join(f"{k}={v!r}" for k, v in players.items())


def load_finished(path: Path, run: Run, games: int, repair: bool = True) -> list[Any]:
    """The finished games of ``run`` in the record file ``path`` (a prefix ``0 .. k-1``).

    Every record must belong to this run: its kind of game, game index ``i`` on line
    ``i + 1``, the run's players, its variant, and the deal of ``(seed, i)`` from its word pool. A last line that
    is incomplete (no newline, or not JSON: a crash mid-write) is dropped and, with
    ``repair``, cut from the file so that appending goes on from a clean line. A missing file
    holds no games. Raises :class:`ResumeError` otherwise.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ResumeError(f"cannot read {path}: {exc.strerror}") from None
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" if the file ends with a newline, else a torn last line
    keep = len(data) - len(tail)
    players = run.players
    out: list[Any] = []
    for i, raw in enumerate(lines):
        last = i == len(lines) - 1 and not tail
        try:
            obj = loads(raw, max_chars=None)
            text = raw.decode("utf-8")
        except JSONInputError as exc:
            if last and exc.syntax:  # a torn write that happened to end in a newline
                keep -= len(raw) + 1
                break
            raise ResumeError(f"{path} line {i + 1} is not a JSON game record ({exc}); "
                              f"it is not a record file of duetbot simulate") from None
        where = f"{path} line {i + 1}"
        kind = obj.get("game_type", "duet") if isinstance(obj, dict) else run.game_type
        if kind != run.game_type:
            raise ResumeError(f"{where} is a {kind} game record, not {run.game_type}; "
                              f"use --game {kind} or another --out")
        if not isinstance(obj, dict):
            raise ResumeError(f"{where} is not a game record (not a JSON object)")
        try:
            rec = run.record_type.from_json(obj, check=False)
        except RecordError as exc:
            raise ResumeError(f"{where}: {exc}") from None
        except (TypeError, ValueError, KeyError, AttributeError) as exc:  # fields of the wrong type
            raise ResumeError(f"{where}: bad game record ({type(exc).__name__}: {exc})") from None
        if rec.game != i:
            raise ResumeError(f"{where} holds game {rec.game}, expected game {i}: "
                              f"not a record file written by duetbot simulate")
        if i >= games:
            raise ResumeError(f"{path} already holds more than --games {games} games; "
                              f"raise --games or choose another --out")
        if rec.players != players:
            raise ResumeError(f"{where} was played by {_who(rec.players)}, "
                              f"not {_who(players)}; use the same players or another --out")
        problem = run.rules_differ(rec)
        if problem:
            raise ResumeError(f"{where} was played with {problem}")
        expected = run.deal(i)
        if rec.deal.seed != expected.seed:
            raise ResumeError(f"{where} was dealt from another --seed; use the same seed or another --out")
        if rec.deal != expected:
            raise ResumeError(f"{where} was dealt from another word pool; use the same --words or another --out")
        if rec.outcome is None:
            raise ResumeError(f"{where} is an unfinished game")
        out.append(run.result(rec, text))
    if repair and keep < len(data):
        try:
            with path.open("r+b") as fh:
                fh.truncate(keep)
        except OSError as exc:
            raise ResumeError(f"cannot repair {path}: {exc.strerror}") from None
    return out


# --- reports ------------------------------------------------------------------------------------


def check_writable(path: Path) -> None:
    """Raise :class:`SimulationError` unless ``path`` can be written (never truncates it)."""
    if path.is_dir():
        raise SimulationError(f"{path} is a directory")
    parent = path.parent
    if not parent.is_dir():
        raise SimulationError(f"directory {parent} does not exist")
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise SimulationError(f"cannot write {path}: {exc.strerror}") from None
    if not existed:
        try:
            path.unlink()
        except OSError:
            pass


def csv_row(summary: Any, meta: dict[str, Any]) -> dict[str, Any]:
    """One CSV row for a run: ``meta`` columns, then per rate ``NAME`` (a fraction),
    ``NAME_count``, ``NAME_low95``, ``NAME_high95``, then the means (empty when undefined).

    ``summary`` is any summary dataclass (:class:`~duetbot.records.Summary`, or
    :class:`~duetbot.records.classic.ClassicSummary`); its :class:`Rate` fields get the
    four columns."""
    row: dict[str, Any] = dict(meta)
    for f in fields(summary):
        name, value = f.name, getattr(summary, f.name)
        if isinstance(value, Rate):
            lo, hi = value.interval
            row[name] = round(value.value, 6)
            row[f"{name}_count"] = value.count
            row[f"{name}_low95"] = round(lo, 6)
            row[f"{name}_high95"] = round(hi, 6)
        elif isinstance(value, float):
            row[name] = "" if math.isnan(value) else round(value, 6)
        else:
            row[name] = value
    return row


def write_csv(path: Path, summary: Any, meta: dict[str, Any]) -> None:
    """Write the run summary as a CSV file with a header and one row (see :func:`csv_row`)."""
    row = csv_row(summary, meta)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(row))
        w.writeheader()
        w.writerow(row)


def plot_formats() -> dict[str, str]:
    """File suffixes :func:`write_plot` can write (``png``, ``svg``, ``pdf`` ...)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    return FigureCanvasAgg.get_supported_filetypes()


def plot_figure(panels: int, width: float = 14) -> tuple[Any, list[Any]]:
    """A figure of ``panels`` axes side by side (matplotlib's Agg canvas: no display needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, 4.4), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, list(fig.subplots(1, panels))


def plot_rates(ax: Any, bars: Sequence[tuple[str, Rate, str]], title: str) -> None:
    """Bars ``(label, rate, colour)`` in percent with their Wilson 95% intervals."""
    values = [100 * r.value for _, r, _ in bars]
    lows = [100 * (r.value - r.interval[0]) for _, r, _ in bars]
    highs = [100 * (r.interval[1] - r.value) for _, r, _ in bars]
    ax.bar([label for label, _, _ in bars], values, yerr=[lows, highs], capsize=4,
           color=[colour for _, _, colour in bars])
    for x, (v, hi) in enumerate(zip(values, highs)):
        ax.annotate(f"{v:.1f}%", (x, v + hi), xytext=(0, 3), textcoords="offset points",
                    ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, 110)
    ax.set_ylabel("% of games (95% Wilson interval)")
    ax.set_title(title)
    ax.tick_params(axis="x", labelsize=8)


def plot_counts(ax: Any, series: Sequence[tuple[str, Counter[int], str]], xlabel: str, ylabel: str,
                title: str, empty: str = "no games") -> None:
    """Stacked bars of integer distributions ``(label, value -> count, colour)``; a legend
    when there is more than one series, ``empty`` when there is nothing to draw."""
    xs = sorted({x for _, counts, _ in series for x in counts})
    if not xs:
        ax.text(0.5, 0.5, empty, ha="center", va="center", transform=ax.transAxes)
        ax.set_xticks([])
        ax.set_yticks([])
    else:
        bottom = [0] * len(xs)
        for label, counts, colour in series:
            if not counts:
                continue
            heights = [counts.get(x, 0) for x in xs]
            ax.bar(xs, heights, bottom=bottom, color=colour, label=label, width=0.8)
            bottom = [b + h for b, h in zip(bottom, heights)]
        if len(series) > 1:
            ax.legend(fontsize=8)
        ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
