"""Suggestions for a game at a real table, and the public ``suggest`` JSON lines contract.

One module per game (:mod:`duetbot.suggest.duet`, :mod:`duetbot.suggest.classic`) over one
request reader (:mod:`duetbot.suggest.requests`). The Duet names are re-exported here.
"""

from .duet import Suggester, guesser_request_view, reading_notes, spymaster_request_view
from .requests import MAX_TOKENS, MAX_TOP, MAX_WORD_CHARS, RequestError, check_top

__all__ = ["MAX_TOKENS", "MAX_TOP", "MAX_WORD_CHARS", "RequestError", "Suggester", "check_top",
           "guesser_request_view", "reading_notes", "spymaster_request_view"]
