"""Bot-vs-bot simulation at scale: one engine (:mod:`.engine`), one module per game, and
:func:`simulate` (:mod:`.runner`), a whole run with its record file, resume and progress.

The engine, the runner and the Duet run are re-exported here (``from duetbot.simulation
import RunSpec, simulate``); classic runs are :mod:`duetbot.simulation.classic`.
"""

from .duet import OUTCOMES, PartnersRun, RunSpec, write_plot
from .engine import (
    MAX_CHUNK, ResumeError, Run, SimulationError, check_writable, chunk_ranges, csv_row, guided_ranges,
    default_workers, load_finished, play_chunk, plot_counts, plot_figure, plot_formats, plot_rates, run_dask,
    run_local, start_workers_early, write_csv,
)
from .runner import RecordFileError, RunStatus, simulate

__all__ = ["MAX_CHUNK", "OUTCOMES", "PartnersRun", "RecordFileError", "ResumeError", "Run", "RunSpec", "RunStatus",
           "SimulationError", "check_writable", "chunk_ranges", "csv_row", "default_workers", "guided_ranges",
           "load_finished", "play_chunk", "plot_counts", "plot_figure", "plot_formats", "plot_rates", "run_dask",
           "run_local", "simulate", "start_workers_early", "write_csv", "write_plot"]
