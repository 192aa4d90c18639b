"""Game records (JSON in and out, exact replay) and summary statistics, one module per game.

The Duet records are re-exported here (``from duetbot.records import GameRecord``); classic
Codenames is :mod:`duetbot.records.classic`.
"""

from .base import Rate, RecordError, wilson
from .duet import RECORD_VERSION, GameRecord, GameResult, Summary, Tally, summarize

__all__ = ["RECORD_VERSION", "GameRecord", "GameResult", "Rate", "RecordError", "Summary", "Tally", "summarize",
           "wilson"]
