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

from ..bots.guesser import EmbeddingGuesser
from ..bots.spymaster import EmbeddingSpymaster
from ..jsonio import BOM, MAX_LINE_BYTES, JSONInputError, LineTooLong, dumps, loads
from ..rules import Clue, Phase, Player, Turn, Variant
from ..rules.duet import MAX_CLUE_NUMBER
from ..views import GuesserView, SpymasterView
from .requests import RequestError, read_board, read_clue, one_line, short, side_of, read_tokens, read_words, check_top


def reading_notes(req: dict, field: str, unread: Sequence[str]) -> list[str]:
    """What a response should say about how its request was read: clues the rule book would
    not allow, numbers read as the largest possible, board words no model knows."""
    notes = []
    for item in req.get(field) or []:
        text, number = item.get("clue"), item.get("number", 1)
        if isinstance(number, int) and not isinstance(number, bool) and number > MAX_CLUE_NUMBER:
            notes.append(f"clue {short(text)}: number {number} read as {MAX_CLUE_NUMBER} "
                         "(no player has more words to find)")
        try:
            Clue(text, 0)
        except ValueError as exc:
            notes.append(f"read as reported, though the rule book would not allow it: {one_line(str(exc))}")
    notes += [f"{w}: no model knows this word; read from its spelling" for w in unread]
    return notes


def spymaster_request_view(req: dict) -> SpymasterView:
    """The clue giver's view from a spymaster request (see DESIGN.md, the suggest contract)."""
    board = read_board(req)
    green = read_words(req, "green", board, required=True)
    assassin = read_words(req, "assassin", board)
    both = sorted(set(green) & set(assassin))
    if both:
        raise RequestError(f"{board[both[0]]!r} is listed in both 'green' and 'assassin'; "
                           "a word of your side is one or the other")
    covered = set(read_words(req, "covered", board))
    if not set(green) - covered:
        raise RequestError("no green word is left to clue: 'green' lists none that is not covered")
    partner_marks = frozenset(read_words(req, "partner_bystanders", board)) - covered
    turns = []
    history = req.get("history") or []
    if not isinstance(history, list):
        raise RequestError("field 'history' must be a list of {clue, number, guesses}")
    for item in history:
        turns.append(Turn(Player.A, read_clue(item, "history")))
    tokens = read_tokens(req)
    if tokens == 0:
        raise RequestError("'tokens' is 0: in sudden death no clue may be given")
    return SpymasterView(
        player=Player.A, words=board, my_side=side_of(len(board), green, assassin),
        covered=frozenset(covered), covered_green=frozenset(covered), my_marks=frozenset(),
        partner_marks=partner_marks, turns=tuple(turns), tokens=tokens, bystander_tokens=tokens,
        variant=Variant(tokens=max(tokens, 1)), partner_done=False, i_am_done=False, phase=Phase.CLUE)


def guesser_request_view(req: dict) -> tuple[GuesserView, bool]:
    """The guesser's view from a guesser request, and whether my own side is known."""
    board = read_board(req)
    covered = set(read_words(req, "covered", board))
    wrong = set(read_words(req, "wrong", board)) - covered
    clues = req.get("clues")
    if not isinstance(clues, list) or not clues:
        raise RequestError("field 'clues' must list at least one {clue, number}, oldest first")
    turns = [Turn(Player.B, read_clue(item, "clues")) for item in clues]
    known_side = req.get("green") is not None or req.get("assassin") is not None
    green, assassin = read_words(req, "green", board), read_words(req, "assassin", board)
    both = sorted(set(green) & set(assassin))
    if both:
        raise RequestError(f"{board[both[0]]!r} is listed in both 'green' and 'assassin'; "
                           "a word of your side is one or the other")
    side = side_of(len(board), green, assassin)
    tokens = read_tokens(req)
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
        return reading_notes(req, field, ens.board(read_board(req)).unread)

    def classic(self):  # type: ignore[no-untyped-def]
        """The same families playing classic Codenames (``"game": "classic"`` requests)."""
        if getattr(self, "_classic", None) is None:
            from .classic import ClassicSuggester

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
            return {"id": None, "error": f"field 'id' ({short(rid)}) is not strict JSON, so it is echoed as "
                                         "null; use a string or a finite number"}
        try:
            if not isinstance(req, dict):
                raise RequestError("a request must be a JSON object")
            game = req.get("game", "duet")
            if game == "classic":
                return self.classic().handle(req)
            if game not in (None, "duet"):
                raise RequestError(f"field 'game' must be 'duet' or 'classic', not {short(game)}")
            role = req.get("role")
            if role == "spymaster":
                resp = {"id": rid, "clues": self.clues(req)}
            elif role == "guesser":
                ranked, stop = self.guesses(req)
                resp = {"id": rid, "guesses": ranked, "stop_after": stop}
            else:
                raise RequestError(f"field 'role' must be 'spymaster' or 'guesser', not {short(role)}")
            notes = self.notes(req, role)
            return {**resp, "notes": notes} if notes else resp
        except ValueError as exc:
            return {"id": rid, "error": one_line(str(exc))}

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
            text = one_line(f"{type(exc).__name__}: {exc}")
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
