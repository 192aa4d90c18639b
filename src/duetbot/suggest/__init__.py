"""Suggestions for a game at a real table, and the public ``suggest`` JSON lines contract.

The contract (requests, responses, the dispatcher, the JSON Schema) is declared once in
:mod:`duetbot.suggest.requests`; one module per game (:mod:`duetbot.suggest.duet`,
:mod:`duetbot.suggest.classic`) answers it. The Duet names are re-exported here.
"""

from .duet import Suggester, guesser_request_view, spymaster_request_view
from .hints import Hint
from .requests import (
    MAX_TOKENS, MAX_TOP, MAX_WORD_CHARS, REQUESTS, RESPONSES, Dispatcher, RequestError, read_request, reading_notes,
    schema,
)

__all__ = ["MAX_TOKENS", "MAX_TOP", "MAX_WORD_CHARS", "REQUESTS", "RESPONSES", "Dispatcher", "Hint", "RequestError",
           "Suggester", "guesser_request_view", "read_request", "reading_notes", "schema", "spymaster_request_view"]
