"""Reading the fields of a ``suggest`` request: one-line errors that name the field and the fix.

Shared by the Duet and the classic requests (:mod:`duetbot.suggest.duet`,
:mod:`duetbot.suggest.classic`).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..rules import Clue, Label
from ..rules.duet import MAX_CLUE_NUMBER
from ..rules.keycard import BOARD_SIZE


class RequestError(ValueError):
    """A request that does not describe a board position; the message says which field."""


MAX_WORD_CHARS = 100
"""Longest board word accepted in a request (multiword entries such as ICE CREAM allowed)."""
MAX_TOKENS = 30
"""Most timer tokens a request may say are left (the most any variant starts with)."""
MAX_TOP = 100
"""Most clues a spymaster request may ask for."""


def short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for one-line error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_top(req: dict, default: int = 5) -> int:
    """The ``top`` field of a spymaster request (a whole number from 1 to :data:`MAX_TOP`)."""
    top = req.get("top", default)
    if top is None:
        return default
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP:
        raise RequestError(f"field 'top' must be a whole number from 1 to {MAX_TOP}, not {short(top)}")
    return top


def read_words(req: dict, field: str, board: Sequence[str], required: bool = False) -> list[int]:
    value = req.get(field)
    if value is None:
        if required:
            raise RequestError(f"missing field {field!r}")
        return []
    if isinstance(value, str) or not isinstance(value, list):
        raise RequestError(f"field {field!r} must be a list of board words")
    folded = {" ".join(w.split()).casefold(): i for i, w in enumerate(board)}
    out = []
    for w in value:
        if not isinstance(w, str):
            raise RequestError(f"field {field!r} holds {short(w)}, not a word")
        i = folded.get(" ".join(w.split()).casefold())
        if i is None:
            raise RequestError(f"{field!r} names {short(w)}, which is not on the board")
        out.append(i)
    return out


def read_board(req: dict) -> tuple[str, ...]:
    board = req.get("board")
    if not isinstance(board, list) or not all(isinstance(w, str) and w.strip() for w in board):
        raise RequestError(f"field 'board' must be a list of {BOARD_SIZE} words")
    if len(board) != BOARD_SIZE:
        raise RequestError(f"field 'board' has {len(board)} words; a Duet board has {BOARD_SIZE}")
    for w in board:
        if len(w) > MAX_WORD_CHARS:
            raise RequestError(f"field 'board' holds a word of {len(w)} characters ({short(w, 30)}); "
                               f"at most {MAX_WORD_CHARS}")
    words = tuple(" ".join(w.split()) for w in board)
    if len({w.casefold() for w in words}) != BOARD_SIZE:
        raise RequestError("field 'board' has a duplicate word")
    return words


def read_tokens(req: dict, default: int = 9) -> int:
    t = req.get("tokens", default)
    if t is None:
        return default
    if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= MAX_TOKENS:
        raise RequestError(f"field 'tokens' must be a whole number from 0 to {MAX_TOKENS}, not {short(t)}")
    return t


def side_of(n: int, green: Iterable[int], assassin: Iterable[int]) -> tuple[Label, ...]:
    side = [Label.BYSTANDER] * n
    for i in green:
        side[i] = Label.GREEN
    for i in assassin:
        side[i] = Label.ASSASSIN
    return tuple(side)


def read_clue(item: Any, field: str) -> Clue:
    """A clue as reported: any text is read (legality is the giver's business, see
    :meth:`Clue.reported`); a number above the largest possible is read as that."""
    if not isinstance(item, dict) or "clue" not in item:
        raise RequestError(f"each entry of {field!r} needs 'clue' and 'number'")
    number = item.get("number", 1)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise RequestError(f"clue {short(item.get('clue'))} in {field!r}: 'number' must be a whole number >= 0")
    if not isinstance(item["clue"], str):
        raise RequestError(f"clue {short(item['clue'])} in {field!r} must be text")
    try:
        return Clue.reported(item["clue"], min(number, MAX_CLUE_NUMBER))
    except ValueError as exc:
        raise RequestError(f"{field!r}: {exc}") from None


def one_line(text: str, limit: int = 300) -> str:
    """An error message on one line, at most ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
