"""One run from start to end: resume, the record file, interrupts, progress.

:func:`simulate` is ``duetbot simulate`` without the terminal: it reads back the games a
record file already holds (``resume``), plays the rest on a local process pool or a dask
cluster, appends each record to the file in game order (flushed per game) and tallies them.
Whatever stops it early (Ctrl-C, a bot error, a dead worker, a full disk) closes the engine
and the file first, so the file is always the run's games ``0 .. k-1`` and ``resume=True``
carries on from there.

>>> import tempfile
>>> from pathlib import Path
>>> from duetbot.bots.factory import PartnerSpec
>>> from duetbot.simulation import RunSpec
>>> from duetbot.wordpool import default_pool
>>> rand = PartnerSpec.parse("bot=random")
>>> run = RunSpec(3, rand, rand, default_pool())
>>> with tempfile.TemporaryDirectory() as tmp:
...     out = Path(tmp) / "games.jsonl"
...     first = simulate(run, 4, out=out, workers=1)
...     status = simulate(run, 6, out=out, resume=True, workers=1)
...     lines = len(out.read_text().splitlines())
>>> first.played, status.resumed, status.played, status.tally.games, lines
(4, 4, 2, 6, 6)
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from .engine import Run, SimulationError, default_workers, load_finished, run_dask, run_local

__all__ = ["RecordFileError", "RunStatus", "simulate"]


class RecordFileError(SimulationError):
    """The record file cannot be opened or written (``reason``: the system's words).

    ``written`` is how many of the run's games the file holds (``None``: it was never opened,
    so nothing was played)."""

    def __init__(self, path: Path, reason: str, written: int | None = None) -> None:
        super().__init__(f"cannot write {path}: {reason}")
        self.path = path
        self.reason = reason
        self.written = written


@dataclass(frozen=True)
class RunStatus:
    """Where a run stands: handed to the progress callback before the first game and after
    each one, and returned at the end."""

    games: int
    """The games of the run (``0 .. games-1``)."""
    tally: Any
    """The run's tally (its ``tally_type``) of every finished game, resumed ones included."""
    resumed: int = 0
    """Games read back from the record file."""
    played: int = 0
    """Games played by this call."""
    elapsed: float = 0.0
    """Seconds from the engine's start to the last game played."""

    @property
    def rate(self) -> float:
        """Games played per second (0 before the first)."""
        return self.played / self.elapsed if self.played and self.elapsed > 0 else 0.0


def _dask_client(scheduler: str | None, workers: int) -> tuple[Any, Any]:
    """A client of ``scheduler``, or of a new local cluster of ``workers`` processes."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SimulationError("--engine dask needs dask.distributed: pip install 'duetbot[dask]'") from None
    try:
        if scheduler:
            return Client(scheduler, timeout="10s"), None
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        return Client(cluster), cluster
    except (OSError, TimeoutError, ValueError) as exc:
        raise SimulationError(f"cannot start or reach the dask scheduler {scheduler or '(local)'}: {exc}") from None


def simulate(run: Run, games: int, *, out: Path | None = None, resume: bool = False,
             workers: int | None = None, chunk_size: int | None = None, engine: str = "local",
             scheduler: str | None = None,
             progress: Callable[[RunStatus], None] | None = None) -> RunStatus:
    """Play games ``0 .. games-1`` of ``run`` and return the final :class:`RunStatus`.

    ``out``: append every record to this file as one JSON line, in game order, flushed per
    game (an existing file is replaced unless ``resume``). ``resume``: keep the games ``out``
    already holds (they must be this run's: :func:`~duetbot.simulation.load_finished`) and
    play only the missing ones. ``engine``: ``"local"`` (:func:`~duetbot.simulation.run_local`
    with ``workers`` processes, default one per CPU) or ``"dask"``
    (:func:`~duetbot.simulation.run_dask` on ``scheduler``, default a local cluster of
    ``workers`` processes, started only if a game is left to play). ``progress`` is called
    before the first game and after each one.

    Raises :class:`~duetbot.simulation.ResumeError` when ``out`` is not this run's,
    :class:`RecordFileError` when it cannot be opened or written, :class:`SimulationError`
    when the dask engine cannot start; an exception that stops a game (``KeyboardInterrupt``,
    a bot's error, a dead worker process) comes through once the engine and the file are
    closed.
    """
    if resume and out is None:
        raise SimulationError("resume needs the record file (out) of the run to continue")
    if engine not in ("local", "dask"):
        raise SimulationError(f"unknown engine {engine!r}: local or dask")
    previous = load_finished(out, run, games) if resume and out is not None else []
    status = RunStatus(games, run.tally_type(previous), resumed=len(previous))
    sink = None
    if out is not None:
        try:
            sink = out.open("a" if resume else "w", encoding="utf-8")
        except OSError as exc:
            raise RecordFileError(out, str(exc.strerror or exc)) from None
    nworkers = workers or default_workers()
    client = cluster = None
    results: Iterator[Any] = iter(())
    try:
        if engine == "dask" and status.resumed < games:
            client, cluster = _dask_client(scheduler, nworkers)
        results = (run_dask(run, games, client, status.resumed, chunk_size) if client is not None
                   else run_local(run, games, status.resumed, nworkers, chunk_size))
        if progress is not None:
            progress(status)
        t0 = time.perf_counter()
        for res in results:
            if sink is not None and out is not None:
                try:
                    sink.write(res.line + "\n")
                    sink.flush()
                except OSError as exc:  # e.g. a full disk: the records so far stay
                    raise RecordFileError(out, str(exc.strerror or exc), status.tally.games) from None
            status.tally.add(res)
            status = replace(status, played=status.played + 1, elapsed=time.perf_counter() - t0)
            if progress is not None:
                progress(status)
    finally:
        _close(results, sink, client, cluster)
    return status


def _close(results: Iterator[Any], sink: Any, client: Any, cluster: Any) -> None:
    close = getattr(results, "close", None)
    if close is not None:
        close()
    if sink is not None:
        try:
            sink.close()
        except OSError:  # the unwritten tail is lost; the write error says so
            pass
    if client is not None:
        client.close()
    if cluster is not None:
        cluster.close()
