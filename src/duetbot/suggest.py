"""Suggestions for a game at a real table, and the public ``suggest`` JSON lines contract.

A real table gives partial information: the board, what one player sees on their side, what
is covered. :func:`spymaster_request_view` and :func:`guesser_request_view` turn such a
request into the same views the bots see in simulated games, so the same bots answer.

>>> # from duetbot.bots import default_bots
>>> # helper = Suggester(*default_bots())
>>> # helper.handle({"id": 1, "role": "guesser", "board": [...25...], "clues": [{"clue": "ocean", "number": 2}]})
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Iterable, Iterator, Sequence

from .bots.guesser import EmbeddingGuesser
from .bots.spymaster import EmbeddingSpymaster
from .rules import Clue, Label, Phase, Player, Turn, Variant
from .rules.keycard import BOARD_SIZE
from .views import GuesserView, SpymasterView


class RequestError(ValueError):
    """A request that does not describe a board position; the message says which field."""


def _words(req: dict, field: str, board: Sequence[str], required: bool = False) -> list[int]:
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
            raise RequestError(f"field {field!r} holds {w!r}, not a word")
        i = folded.get(" ".join(w.split()).casefold())
        if i is None:
            raise RequestError(f"{field!r} names {w!r}, which is not on the board")
        out.append(i)
    return out


def _board(req: dict) -> tuple[str, ...]:
    board = req.get("board")
    if not isinstance(board, list) or not all(isinstance(w, str) and w.strip() for w in board):
        raise RequestError(f"field 'board' must be a list of {BOARD_SIZE} words")
    if len(board) != BOARD_SIZE:
        raise RequestError(f"field 'board' has {len(board)} words; a Duet board has {BOARD_SIZE}")
    words = tuple(" ".join(w.split()) for w in board)
    if len({w.casefold() for w in words}) != BOARD_SIZE:
        raise RequestError("field 'board' has a duplicate word")
    return words


def _tokens(req: dict, default: int = 9) -> int:
    t = req.get("tokens", default)
    if t is None:
        return default
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise RequestError("field 'tokens' must be a whole number >= 0")
    return t


def _side(n: int, green: Iterable[int], assassin: Iterable[int]) -> tuple[Label, ...]:
    side = [Label.BYSTANDER] * n
    for i in green:
        side[i] = Label.GREEN
    for i in assassin:
        side[i] = Label.ASSASSIN
    return tuple(side)


def _clue(item: Any, field: str) -> Clue:
    if not isinstance(item, dict) or "clue" not in item:
        raise RequestError(f"each entry of {field!r} needs 'clue' and 'number'")
    number = item.get("number", 1)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise RequestError(f"clue {item.get('clue')!r} in {field!r}: 'number' must be a whole number >= 0")
    try:
        return Clue(str(item["clue"]), number)
    except ValueError as exc:
        raise RequestError(f"{field!r}: {exc}") from None


def spymaster_request_view(req: dict) -> SpymasterView:
    """The clue giver's view from a spymaster request (see DESIGN.md, the suggest contract)."""
    board = _board(req)
    green = _words(req, "green", board, required=True)
    assassin = _words(req, "assassin", board)
    covered = set(_words(req, "covered", board))
    if not set(green) - covered:
        raise RequestError("no green word is left to clue: 'green' lists none that is not covered")
    partner_marks = frozenset(_words(req, "partner_bystanders", board)) - covered
    turns = []
    history = req.get("history") or []
    if not isinstance(history, list):
        raise RequestError("field 'history' must be a list of {clue, number, guesses}")
    for item in history:
        turns.append(Turn(Player.A, _clue(item, "history")))
    tokens = _tokens(req)
    if tokens == 0:
        raise RequestError("'tokens' is 0: in sudden death no clue may be given")
    return SpymasterView(
        player=Player.A, words=board, my_side=_side(len(board), green, assassin),
        covered=frozenset(covered), covered_green=frozenset(covered), my_marks=frozenset(),
        partner_marks=partner_marks, turns=tuple(turns), tokens=tokens, bystander_tokens=tokens,
        variant=Variant(tokens=max(tokens, 1)), partner_done=False, i_am_done=False, phase=Phase.CLUE)


def guesser_request_view(req: dict) -> tuple[GuesserView, bool]:
    """The guesser's view from a guesser request, and whether my own side is known."""
    board = _board(req)
    covered = set(_words(req, "covered", board))
    wrong = set(_words(req, "wrong", board)) - covered
    clues = req.get("clues")
    if not isinstance(clues, list) or not clues:
        raise RequestError("field 'clues' must list at least one {clue, number}, oldest first")
    turns = [Turn(Player.B, _clue(item, "clues")) for item in clues]
    known_side = req.get("green") is not None or req.get("assassin") is not None
    side = _side(len(board), _words(req, "green", board), _words(req, "assassin", board))
    tokens = _tokens(req)
    sudden = tokens == 0
    guessable = tuple(i for i in range(len(board)) if i not in covered and i not in wrong)
    if not guessable:
        raise RequestError("no word is left to guess: every word is covered or in 'wrong'")
    view = GuesserView(
        player=Player.A, words=board, my_side=side, covered=frozenset(covered),
        covered_green=frozenset(covered), my_marks=frozenset(wrong), partner_marks=frozenset(),
        turns=tuple(turns), tokens=tokens, bystander_tokens=tokens, variant=Variant(tokens=max(tokens, 1)),
        partner_done=False, i_am_done=False, phase=Phase.SUDDEN_DEATH if sudden else Phase.GUESS,
        guessable=guessable, guesses_left=None, correct_this_turn=0, sudden_death=sudden)
    return view, known_side


class Suggester:
    """Answers suggest requests with one spymaster and one guesser (models loaded once)."""

    def __init__(self, spymaster: EmbeddingSpymaster, guesser: EmbeddingGuesser) -> None:
        self.spymaster = spymaster
        self.guesser = guesser
        self._blind_guesser = EmbeddingGuesser(guesser.ensemble, replace(guesser.config, infer_key=False))

    def clues(self, req: dict) -> list[dict]:
        view = spymaster_request_view(req)
        top = req.get("top", 5)
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise RequestError("field 'top' must be a whole number >= 1")
        return [o.to_json() for o in self.spymaster.suggest(view, top=top)]

    def guesses(self, req: dict) -> tuple[list[dict], int]:
        view, known = guesser_request_view(req)
        bot = self.guesser if known else self._blind_guesser
        belief, stop_after = bot.plan(view)
        ranked = [{"word": w, "score": round(float(s), 4), "p_green": round(float(p[0]), 4),
                   "p_assassin": round(float(p[1]), 4)}
                  for w, s, p in zip(belief.words, belief.score, belief.p)]
        return ranked, stop_after

    def classic(self):  # type: ignore[no-untyped-def]
        """The same families playing classic Codenames (``"game": "classic"`` requests)."""
        if getattr(self, "_classic", None) is None:
            from .bots.classic import ClassicSuggester

            self._classic = ClassicSuggester.from_duet(self.spymaster, self.guesser)
        return self._classic

    def handle(self, req: Any) -> dict:
        """One request -> one response; never raises for a bad request."""
        rid = req.get("id") if isinstance(req, dict) else None
        try:
            if not isinstance(req, dict):
                raise RequestError("a request must be a JSON object")
            game = req.get("game", "duet")
            if game == "classic":
                return self.classic().handle(req)
            if game not in (None, "duet"):
                raise RequestError(f"field 'game' must be 'duet' or 'classic', not {game!r}")
            role = req.get("role")
            if role == "spymaster":
                return {"id": rid, "clues": self.clues(req)}
            if role == "guesser":
                ranked, stop = self.guesses(req)
                return {"id": rid, "guesses": ranked, "stop_after": stop}
            raise RequestError(f"field 'role' must be 'spymaster' or 'guesser', not {role!r}")
        except ValueError as exc:
            return {"id": rid, "error": str(exc)}

    def handle_lines(self, lines: Iterable[str]) -> Iterator[str]:
        """The JSON lines contract: one response line per non-blank request line, same order."""
        for line in lines:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
            except json.JSONDecodeError as exc:
                yield json.dumps({"id": None, "error": f"not JSON: {exc.msg} at column {exc.colno}"})
                continue
            yield json.dumps(self.handle(req))
