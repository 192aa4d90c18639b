"""Suggestions for a game at a real table, and the public ``suggest`` JSON lines contract.

A real table gives partial information: the board, what one player sees on their side, what
is covered. :func:`spymaster_request_view` and :func:`guesser_request_view` turn such a
request into the same views the bots see in simulated games, so the same bots answer.

>>> # from duetbot.bots import default_bots
>>> # helper = Suggester(*default_bots())
>>> # helper.handle({"id": 1, "role": "guesser", "board": [...25...], "clues": [{"clue": "ocean", "number": 2}]})
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Iterator, Sequence

from .bots.guesser import EmbeddingGuesser
from .bots.spymaster import EmbeddingSpymaster
from .jsonio import BOM, MAX_LINE_BYTES, JSONInputError, LineTooLong, dumps, loads
from .rules import Clue, Label, Phase, Player, Turn, Variant
from .rules.duet import MAX_CLUE_NUMBER
from .rules.keycard import BOARD_SIZE
from .views import GuesserView, SpymasterView


class RequestError(ValueError):
    """A request that does not describe a board position; the message says which field."""


MAX_WORD_CHARS = 100
"""Longest board word accepted in a request (multiword entries such as ICE CREAM allowed)."""
MAX_TOKENS = 30
"""Most timer tokens a request may say are left (the most any variant starts with)."""
MAX_TOP = 100
"""Most clues a spymaster request may ask for."""


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for one-line error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_top(req: dict, default: int = 5) -> int:
    """The ``top`` field of a spymaster request (a whole number from 1 to :data:`MAX_TOP`)."""
    top = req.get("top", default)
    if top is None:
        return default
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP:
        raise RequestError(f"field 'top' must be a whole number from 1 to {MAX_TOP}, not {_short(top)}")
    return top


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
            raise RequestError(f"field {field!r} holds {_short(w)}, not a word")
        i = folded.get(" ".join(w.split()).casefold())
        if i is None:
            raise RequestError(f"{field!r} names {_short(w)}, which is not on the board")
        out.append(i)
    return out


def _board(req: dict) -> tuple[str, ...]:
    board = req.get("board")
    if not isinstance(board, list) or not all(isinstance(w, str) and w.strip() for w in board):
        raise RequestError(f"field 'board' must be a list of {BOARD_SIZE} words")
    if len(board) != BOARD_SIZE:
        raise RequestError(f"field 'board' has {len(board)} words; a Duet board has {BOARD_SIZE}")
    for w in board:
        if len(w) > MAX_WORD_CHARS:
            raise RequestError(f"field 'board' holds a word of {len(w)} characters ({_short(w, 30)}); "
                               f"at most {MAX_WORD_CHARS}")
    words = tuple(" ".join(w.split()) for w in board)
    if len({w.casefold() for w in words}) != BOARD_SIZE:
        raise RequestError("field 'board' has a duplicate word")
    return words


def _tokens(req: dict, default: int = 9) -> int:
    t = req.get("tokens", default)
    if t is None:
        return default
    if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= MAX_TOKENS:
        raise RequestError(f"field 'tokens' must be a whole number from 0 to {MAX_TOKENS}, not {_short(t)}")
    return t


def _side(n: int, green: Iterable[int], assassin: Iterable[int]) -> tuple[Label, ...]:
    side = [Label.BYSTANDER] * n
    for i in green:
        side[i] = Label.GREEN
    for i in assassin:
        side[i] = Label.ASSASSIN
    return tuple(side)


def _clue(item: Any, field: str) -> Clue:
    """A clue as reported: any text is read (legality is the giver's business, see
    :meth:`Clue.reported`); a number above the largest possible is read as that."""
    if not isinstance(item, dict) or "clue" not in item:
        raise RequestError(f"each entry of {field!r} needs 'clue' and 'number'")
    number = item.get("number", 1)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise RequestError(f"clue {_short(item.get('clue'))} in {field!r}: 'number' must be a whole number >= 0")
    if not isinstance(item["clue"], str):
        raise RequestError(f"clue {_short(item['clue'])} in {field!r} must be text")
    try:
        return Clue.reported(item["clue"], min(number, MAX_CLUE_NUMBER))
    except ValueError as exc:
        raise RequestError(f"{field!r}: {exc}") from None


def reading_notes(req: dict, field: str, unread: Sequence[str]) -> list[str]:
    """What a response should say about how its request was read: clues the rule book would
    not allow, numbers read as the largest possible, board words no model knows."""
    notes = []
    for item in req.get(field) or []:
        text, number = item.get("clue"), item.get("number", 1)
        if isinstance(number, int) and not isinstance(number, bool) and number > MAX_CLUE_NUMBER:
            notes.append(f"clue {_short(text)}: number {number} read as {MAX_CLUE_NUMBER} "
                         "(no player has more words to find)")
        try:
            Clue(text, 0)
        except ValueError as exc:
            notes.append(f"read as reported, though the rule book would not allow it: {_one_line(str(exc))}")
    notes += [f"{w}: no model knows this word; read from its spelling" for w in unread]
    return notes


def spymaster_request_view(req: dict) -> SpymasterView:
    """The clue giver's view from a spymaster request (see DESIGN.md, the suggest contract)."""
    board = _board(req)
    green = _words(req, "green", board, required=True)
    assassin = _words(req, "assassin", board)
    both = sorted(set(green) & set(assassin))
    if both:
        raise RequestError(f"{board[both[0]]!r} is listed in both 'green' and 'assassin'; "
                           "a word of your side is one or the other")
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
    green, assassin = _words(req, "green", board), _words(req, "assassin", board)
    both = sorted(set(green) & set(assassin))
    if both:
        raise RequestError(f"{board[both[0]]!r} is listed in both 'green' and 'assassin'; "
                           "a word of your side is one or the other")
    side = _side(len(board), green, assassin)
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
        top = check_top(req)
        return [o.to_json() for o in self.spymaster.suggest(view, top=top)]

    def guesses(self, req: dict) -> tuple[list[dict], int]:
        view, known = guesser_request_view(req)
        bot = self.guesser if known else self._blind_guesser
        belief, stop_after = bot.plan(view)
        ranked = [{"word": w, "score": round(float(s), 4), "p_green": round(float(p[0]), 4),
                   "p_assassin": round(float(p[1]), 4)}
                  for w, s, p in zip(belief.words, belief.score, belief.p)]
        return ranked, stop_after

    def notes(self, req: dict, role: str) -> list[str]:
        """How a Duet request of ``role`` was read (:func:`reading_notes`): clues the rule book
        would not allow, numbers read as the largest possible, board words read from their
        spelling."""
        field, ens = ("history", self.spymaster.ensemble) if role == "spymaster" else ("clues", self.guesser.ensemble)
        return reading_notes(req, field, ens.board(_board(req)).unread)

    def classic(self):  # type: ignore[no-untyped-def]
        """The same families playing classic Codenames (``"game": "classic"`` requests)."""
        if getattr(self, "_classic", None) is None:
            from .bots.classic import ClassicSuggester

            self._classic = ClassicSuggester.from_duet(self.spymaster, self.guesser)
        return self._classic

    def handle(self, req: Any) -> dict:
        """One request -> one response; never raises for a bad request (a field of the wrong
        type, size or value gives ``{"id", "error"}``). An ``id`` that is not strict JSON
        (NaN, Infinity: possible from Python, never from :meth:`handle_lines`) is echoed as
        null with an error saying so."""
        rid = req.get("id") if isinstance(req, dict) else None
        try:
            dumps(rid)
        except (ValueError, TypeError, RecursionError):
            return {"id": None, "error": f"field 'id' ({_short(rid)}) is not strict JSON, so it is echoed as "
                                         "null; use a string or a finite number"}
        try:
            if not isinstance(req, dict):
                raise RequestError("a request must be a JSON object")
            game = req.get("game", "duet")
            if game == "classic":
                return self.classic().handle(req)
            if game not in (None, "duet"):
                raise RequestError(f"field 'game' must be 'duet' or 'classic', not {_short(game)}")
            role = req.get("role")
            if role == "spymaster":
                resp = {"id": rid, "clues": self.clues(req)}
            elif role == "guesser":
                ranked, stop = self.guesses(req)
                resp = {"id": rid, "guesses": ranked, "stop_after": stop}
            else:
                raise RequestError(f"field 'role' must be 'spymaster' or 'guesser', not {_short(role)}")
            notes = self.notes(req, role)
            return {**resp, "notes": notes} if notes else resp
        except ValueError as exc:
            return {"id": rid, "error": _one_line(str(exc))}

    def handle_line(self, line: str | bytes | LineTooLong) -> str | None:
        """The response line (strict JSON, no newline) to one request line; ``None`` for a
        blank line. Never raises: an unexpected failure answers ``internal error: ...``."""
        if isinstance(line, LineTooLong):
            return dumps({"id": None, "error": f"line too long: {line.size} bytes; a request may have at "
                                               f"most {MAX_LINE_BYTES} (it was skipped)"})
        blank = line.strip()
        if not blank or blank in (BOM, BOM.encode("utf-8")):
            return None
        try:
            req = loads(line)
        except JSONInputError as exc:
            return dumps({"id": None, "error": str(exc)})
        rid = req.get("id") if isinstance(req, dict) else None
        try:
            return dumps(self.handle(req))
        except Exception as exc:  # a bug, not a bad request: answer, say so, and go on
            text = _one_line(f"{type(exc).__name__}: {exc}")
            try:
                return dumps({"id": rid, "error": f"internal error: {text}"})
            except (ValueError, TypeError, RecursionError):
                return dumps({"id": None, "error": f"internal error: {text}"})

    def handle_lines(self, lines: Iterable[str | bytes | LineTooLong]) -> Iterator[str]:
        """The JSON lines contract: one response line per non-blank request line, same order.
        Lines may be str or UTF-8 bytes (see :func:`duetbot.jsonio.iter_lines`); blank lines
        (whitespace, or only a byte order mark) get no answer."""
        for line in lines:
            out = self.handle_line(line)
            if out is not None:
                yield out


def _one_line(text: str, limit: int = 300) -> str:
    """An error message on one line, at most ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
