"""The ``suggest`` contract, declared once: its requests, its responses, and the one dispatcher.

The four requests (Duet and classic, spymaster and guesser) and their responses are
``msgspec`` structs. A request is validated by converting the JSON object into its struct
(:func:`read_request`), so a field's type and bounds are written in one place, and the
published JSON Schema (:func:`schema`, ``duetbot suggest schema``) is generated from the same
declarations. What a struct cannot say, because it depends on the board (a word that is not
on it, a word listed as both green and assassin), the game modules check with
:class:`BoardWords`. Every refusal is a :class:`RequestError` of one line that names the
field and the fix.

:class:`Dispatcher` is the one path from a request to a response: ``suggest jsonl`` lines
(:meth:`Dispatcher.handle_lines`) and the ``suggest clue|guess`` commands
(:meth:`Dispatcher.respond`) both go through it. The game modules
(:mod:`duetbot.suggest.duet`, :mod:`duetbot.suggest.classic`) supply the answers.

>>> read_request({"role": "guesser", "board": ["w%d" % i for i in range(25)],
...               "clues": [{"clue": "ocean", "number": 12}]}).clues[0].number
12
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Iterable, Iterator, Literal, Optional, Sequence, Union

import msgspec
from msgspec import Meta, Struct

from ..bots.spelling import BOARD_MAX_COST, UnknownClue, closest_word, unknown_word
from ..jsonio import BOM, MAX_LINE_BYTES, JSONInputError, LineTooLong, dumps, loads, short
from ..rules import Clue, Label
from ..rules.base import MAX_CLUE_NUMBER
from ..rules.clues import check_clue, normalized_or_empty
from ..rules.keycard import BOARD_SIZE
from ..words import spelling, word_key


class RequestError(ValueError):
    """A request that does not describe a board position; the message says which field."""


MAX_WORD_CHARS = 100
"""Longest board word accepted in a request (multiword entries such as ICE CREAM allowed)."""
MAX_TOKENS = 30
"""Most timer tokens a request may say are left (the most any variant starts with)."""
MAX_TOP = 100
"""Most clues a spymaster request may ask for."""
MAX_TEAM_LEFT = 9
"""Most agents a classic team can have left to find (the starting team has 9)."""
DEFAULT_TOKENS = 9
"""Timer tokens left when a Duet request does not say: the standard game's start."""
DEFAULT_TOP = 5
"""Clues suggested when a spymaster request does not say how many."""


# --- declarations: requests ----------------------------------------------------------------

BoardWord = Annotated[str, Meta(min_length=1, max_length=MAX_WORD_CHARS, pattern=r"\S")]
Board = Annotated[list[BoardWord], Meta(
    min_length=BOARD_SIZE, max_length=BOARD_SIZE,
    description="The 25 words as printed, in any order; case-insensitive; an entry may hold spaces (ICE CREAM).")]
Id = Annotated[Any, Meta(description="Any JSON value, echoed in the response.")]
Tokens = Annotated[Optional[Annotated[int, Meta(ge=0, le=MAX_TOKENS)]], Meta(
    description=f"Timer tokens left (default {DEFAULT_TOKENS}); 0 is sudden death.")]
Top = Annotated[Optional[Annotated[int, Meta(ge=1, le=MAX_TOP)]], Meta(
    description=f"How many clues to suggest (default {DEFAULT_TOP}).")]
TeamLeft = Optional[Annotated[int, Meta(ge=1, le=MAX_TEAM_LEFT)]]
Count = Annotated[int, Meta(ge=0)]


Words = list[str]
"""Board words: case-insensitive, matched to the board's spelling."""
KnownWords = Optional[list[str]]
"""Board words, or missing or null: not known."""


class ReportedClue(Struct, frozen=True):
    """A clue as a player reported it. Any text is read (its legality is the giver's business);
    a number above 9 is read as 9."""

    clue: Annotated[str, Meta(description="The clue as said, any text (sci-fi, ice cream, god's).")]
    number: Annotated[Count, Meta(description="How many words it is for (default 1).")] = 1


class HistoryClue(ReportedClue, frozen=True):
    """A clue I gave earlier, and the words my partner guessed on it."""

    guesses: Annotated[KnownWords, Meta(description=(
        "The words my partner guessed on this clue, in order: the spymaster learns from them how "
        "this partner reads clues. A guessed word listed in 'covered' was one of my agents; any "
        "other was not."))] = None


class Request(Struct, frozen=True, kw_only=True):
    """Fields every request has. Unknown fields are ignored; an optional field that is missing
    or null means "not known", never an error."""

    GAME: ClassVar[str]
    ROLE: ClassVar[str]

    id: Id = None


class DuetSpymasterRequest(Request, frozen=True, kw_only=True):
    """Duet, my turn to give a clue: which clues for my greens, best first."""

    GAME = "duet"
    ROLE = "spymaster"

    role: Literal["spymaster"]
    game: Optional[Literal["duet"]] = "duet"
    board: Board
    green: Annotated[Words, Meta(description="My greens still to find (my side of the key card).")]
    assassin: Annotated[KnownWords, Meta(description="My assassins (my side).")] = None
    covered: Annotated[KnownWords, Meta(description="Covered words (agents found by either of us).")] = None
    partner_bystanders: Annotated[KnownWords, Meta(
        description="Words my partner touched that were bystanders on my side.")] = None
    history: Annotated[Optional[list[HistoryClue]], Meta(description="My earlier clues, oldest first.")] = None
    tokens: Tokens = None
    top: Top = None


class DuetGuesserRequest(Request, frozen=True, kw_only=True):
    """Duet, my turn to guess: every guessable word ranked for my partner's clues, and where to stop."""

    GAME = "duet"
    ROLE = "guesser"

    role: Literal["guesser"]
    game: Optional[Literal["duet"]] = "duet"
    board: Board
    clues: Annotated[list[ReportedClue], Meta(
        min_length=1, description="My partner's clues, oldest first; the last is the one I am guessing.")]
    covered: Annotated[KnownWords, Meta(description="Covered words.")] = None
    wrong: Annotated[KnownWords, Meta(description="My earlier guesses that my partner marked bystander.")] = None
    green: Annotated[KnownWords, Meta(description="My own greens (my side of the key card).")] = None
    assassin: Annotated[KnownWords, Meta(description="My own assassins (my side).")] = None
    tokens: Tokens = None


class ClassicSpymasterRequest(Request, frozen=True, kw_only=True):
    """Classic Codenames, my team's clue: which clues for our agents, best first."""

    GAME = "classic"
    ROLE = "spymaster"

    role: Literal["spymaster"]
    game: Literal["classic"]
    board: Board
    team_agents: Annotated[Words, Meta(description="My team's agents still to find.")]
    opponent_agents: Annotated[KnownWords, Meta(description="The other team's agents still to find.")] = None
    assassin: Annotated[KnownWords, Meta(description="The assassin.")] = None
    covered: Annotated[KnownWords, Meta(description="Covered words.")] = None
    history: Annotated[Optional[list[ReportedClue]], Meta(description="My earlier clues, oldest first.")] = None
    top: Top = None


class ClassicGuesserRequest(Request, frozen=True, kw_only=True):
    """Classic Codenames, my team's guess: every uncovered word ranked for my spymaster's clues."""

    GAME = "classic"
    ROLE = "guesser"

    role: Literal["guesser"]
    game: Literal["classic"]
    board: Board
    clues: Annotated[list[ReportedClue], Meta(
        min_length=1, description="My spymaster's clues, oldest first; the last is the one I am guessing.")]
    covered: Annotated[KnownWords, Meta(description="Covered words.")] = None
    guesses: Annotated[Optional[Count], Meta(
        description="Guesses already made on the current clue (default 0).")] = None
    team_left: Annotated[TeamLeft, Meta(description="My team's agents left to find (default 9).")] = None
    opponent_left: Annotated[TeamLeft, Meta(description="The other team's agents left (default 8).")] = None
    zero_unlimited: Annotated[Optional[bool], Meta(
        description="House rule: a zero clue allows unlimited guesses (default false).")] = None


REQUESTS: tuple[type[Request], ...] = (DuetSpymasterRequest, DuetGuesserRequest, ClassicSpymasterRequest,
                                       ClassicGuesserRequest)
AnyRequest = Union[DuetSpymasterRequest, DuetGuesserRequest, ClassicSpymasterRequest, ClassicGuesserRequest]
_ROUTES = {(kind.GAME, kind.ROLE): kind for kind in REQUESTS}


class _Route(Struct, frozen=True):
    """The two fields that choose a request's struct; read before the rest."""

    role: Literal["spymaster", "guesser"]
    game: Optional[Literal["duet", "classic"]] = None


# --- declarations: responses ---------------------------------------------------------------


class Danger(Struct, frozen=True):
    """A tempting word the clue is not for, and what it is on my side."""

    word: str
    label: Annotated[str, Meta(description="assassin or bystander; classic: also opponent.")]


class ClueSuggestion(Struct, frozen=True):
    """One suggested clue and the risks it runs."""

    clue: str
    number: int
    targets: Annotated[list[str], Meta(description="The words it is for, in the board's spelling.")]
    links: Annotated[list[float], Meta(description="How strong each target's link is, in the order of targets: the "
                                                   "chance a reader puts it before the most tempting word that is not "
                                                   "yours (the reader that reads it worst). Empty for a zero clue.")]
    score: Annotated[float, Meta(description="Ranking score (an estimated chance of winning, not a promise).")]
    expected_greens: Annotated[float, Meta(description="Greens (classic: agents) my partner is expected to find.")]
    p_assassin: float
    p_bystander: float
    dangers: Annotated[list[Danger], Meta(description="The most tempting non-targets, most dangerous first.")]


class DuetGuess(Struct, frozen=True):
    word: Annotated[str, Meta(description="In the board's spelling.")]
    score: float
    p_green: Annotated[float, Meta(description="Chance it is green on my partner's side.")]
    p_assassin: float


class ClassicGuess(Struct, frozen=True):
    word: Annotated[str, Meta(description="In the board's spelling.")]
    score: float
    p_agent: Annotated[float, Meta(description="Chance it is my team's agent.")]
    p_assassin: float
    p_opponent: Annotated[float, Meta(description="Chance it is the other team's agent.")]


Notes = Annotated[list[str], Meta(description="How the request was read: clues the rule book would not allow, "
                                              "numbers read as 9, board words read from their spelling. "
                                              "Left out when there is nothing to say.")]


class UnknownClueWord(Struct, frozen=True):
    """A clue word no model knows (a typo, most likely): it is read from its spelling, so the
    ranking means little until the clue is checked."""

    clue: Annotated[str, Meta(description="The clue word, normalised (lowercase).")]
    did_you_mean: Annotated[Optional[str], Meta(
        description="The word the player most likely meant, lowercase; null when no word is close.")] = None

    def said(self) -> str:
        """``OCEON: not a word I know. Did you mean OCEAN?``"""
        return str(UnknownClue(self.clue, self.did_you_mean))


UnknownClues = Annotated[list[UnknownClueWord], Meta(
    description="Clue words no model knows, oldest first (each also has a note). Left out when there are none.")]
StopAfter = Annotated[int, Meta(ge=1, description="How many of the ranked words the bot would guess before "
                                                   "ending its turn.")]


class Response(Struct, frozen=True, omit_defaults=True):
    """Fields every response has (``id`` is always there; null when the request had none usable)."""

    id: Any


class SpymasterResponse(Response, frozen=True, omit_defaults=True):
    """Suggested clues, best first."""

    clues: list[ClueSuggestion]
    notes: Notes = []


class DuetGuesserResponse(Response, frozen=True, omit_defaults=True):
    """Every guessable word, best first."""

    guesses: list[DuetGuess]
    stop_after: StopAfter
    notes: Notes = []
    unknown_clues: UnknownClues = []


class ClassicGuesserResponse(Response, frozen=True, omit_defaults=True):
    """Every uncovered word, best first."""

    guesses: list[ClassicGuess]
    stop_after: StopAfter
    notes: Notes = []
    unknown_clues: UnknownClues = []


class ErrorResponse(Response, frozen=True, omit_defaults=True):
    """A request that was not answered, and why; the next line is read as usual."""

    error: Annotated[str, Meta(description="One line naming the field and the fix.")]


RESPONSES: tuple[type[Response], ...] = (SpymasterResponse, DuetGuesserResponse, ClassicGuesserResponse,
                                         ErrorResponse)


# --- reading a request ---------------------------------------------------------------------

_MUST_BE = {
    "game": "'duet' or 'classic'",
    "role": "'spymaster' or 'guesser'",
    "board": f"a list of {BOARD_SIZE} words",
    "clues": "a list of at least one {clue, number}, oldest first",
    "history": "a list of {clue, number}",
    "tokens": f"a whole number from 0 to {MAX_TOKENS}",
    "top": f"a whole number from 1 to {MAX_TOP}",
    "guesses": "a whole number >= 0 (guesses already made on the current clue)",
    "team_left": f"a whole number from 1 to {MAX_TEAM_LEFT}",
    "opponent_left": f"a whole number from 1 to {MAX_TEAM_LEFT}",
    "zero_unlimited": "true or false",
    **{name: "a list of board words" for name in (
        "green", "assassin", "covered", "partner_bystanders", "wrong", "team_agents", "opponent_agents")},
}
"""What each field must be, for error messages (tests check that every declared field has one)."""
_CLUE_LISTS = ("clues", "history")
_MISSING = object()
_ERROR = re.compile(r"(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?")
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z_0-9]*)|\[(\d+)\]")


def one_line(text: str, limit: int = 300) -> str:
    """An error message on one line, at most ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _at(obj: Any, path: Sequence[str | int]) -> Any:
    for step in path:
        try:
            obj = obj[step]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return obj


def explain(error: msgspec.ValidationError, obj: dict) -> str:
    """msgspec's complaint about ``obj`` (``Expected `int` <= 30 - at `$.tokens```) as ours:
    one line naming the field, what it must be, and the value it had."""
    match = _ERROR.fullmatch(str(error))
    assert match is not None  # the pattern matches any text
    what, where = match["what"], match["path"]
    if where is None and " - at " in what:  # a key that is not text (possible only from Python)
        return "a request's field names must be text"
    path: list[str | int] = [name if name else int(index) for name, index in _STEP.findall(where or "")]
    missing = re.fullmatch(r"Object missing required field `(.+)`", what)
    if missing:
        path.append(missing[1])
    if not path:
        return one_line(f"request: {what}")
    field, value = str(path[0]), _at(obj, path)
    if len(path) == 1:
        if missing:
            return f"missing field {field!r} ({_MUST_BE.get(field, 'see duetbot suggest schema')})"
        if field == "board" and isinstance(value, list) and all(isinstance(w, str) for w in value):
            n = len(value)
            return f"field 'board' has {n} word{'' if n == 1 else 's'}; a board has {BOARD_SIZE}"
        return f"field {field!r} must be {_MUST_BE.get(field, what)}, not {short(value)}"
    if field in _CLUE_LISTS:  # inside an entry {clue, number}
        if len(path) == 2 or path[2] == "clue" and missing:
            return f"each entry of {field!r} needs 'clue' and 'number'"
        if path[2] == "clue":
            return f"clue {short(value)} in {field!r} must be text"
        clue = short(_at(obj, path[:2]).get("clue"))
        return f"clue {clue} in {field!r}: 'number' must be a whole number >= 0, not {short(value)}"
    if field == "board" and isinstance(value, str) and len(value) > MAX_WORD_CHARS:
        return (f"field 'board' holds a word of {len(value)} characters ({short(value, 30)}); "
                f"at most {MAX_WORD_CHARS}")
    return f"field {field!r} holds {short(value)}, not a word"  # an entry of a list of words


def _without_lone_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (and keys) read as U+FFFD."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_without_lone_surrogates(k): _without_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_lone_surrogates(v) for v in value]
    return value


def _convert(obj: dict, kind: type[Struct]) -> Any:
    try:
        try:
            return msgspec.convert(obj, kind, strict=True)
        except UnicodeEncodeError:
            # msgspec encodes field names and refused values as UTF-8, which a lone surrogate
            # (a JSON escape such as "\ud800" that pairs with nothing) cannot be. Such text is
            # read as U+FFFD rather than refused, as the request reader always took it.
            return msgspec.convert(_without_lone_surrogates(obj), kind, strict=True)
    except msgspec.ValidationError as exc:
        raise RequestError(explain(exc, obj)) from None


def read_request(obj: Any, kind: type[Request] | None = None) -> Any:
    """The request struct for the JSON object ``obj``: routed by its ``game`` (missing or null:
    Duet) and ``role``, or of the given ``kind`` (its role then implied). Raises
    :class:`RequestError` naming the field. A struct is returned as it is."""
    if isinstance(obj, Request) and (kind is None or isinstance(obj, kind)):
        return obj
    if not isinstance(obj, dict):
        raise RequestError("a request must be a JSON object")
    if kind is None:
        route = _convert(obj, _Route)
        kind = _ROUTES[(route.game or "duet", route.role)]
    elif obj.get("role") != kind.ROLE:
        obj = {**obj, "role": kind.ROLE}
    return _convert(obj, kind)


class BoardWords:
    """A request's board, in its spelling (inner whitespace collapsed), and the board positions
    of the words a field names (case-insensitive)."""

    def __init__(self, board: Sequence[str]) -> None:
        self.words = tuple(spelling(w) for w in board)
        self._index: dict[str, int] = {}
        for i, w in enumerate(self.words):
            if self._index.setdefault(word_key(w), i) != i:
                raise RequestError(f"field 'board' has {w!r} twice; each word is on the board once")

    def __len__(self) -> int:
        return len(self.words)

    def positions(self, field: str, words: Optional[Sequence[str]], most: int | None = None, rule: str = ""
                  ) -> list[int]:
        """Where the words of ``field`` are on the board (none: ``[]``). A field of a key card
        (``most``: how many words it can hold, as ``rule`` says) may name a word only once."""
        out = []
        for w in words or ():
            i = self._index.get(word_key(w))
            if i is None:
                raise RequestError(f"{field!r} names {short(w)}, which is not on the board")
            if most is not None and i in out:
                raise RequestError(f"field {field!r} names {self.words[i]!r} twice; list each word once")
            out.append(i)
        if most is not None and len(out) > most:
            raise RequestError(f"field {field!r} names {len(out)} words; {rule}")
        return out

    def one_side(self, green: Iterable[int], assassin: Iterable[int], names: tuple[str, str] = ("green", "assassin")
                 ) -> None:
        """Refuse a word listed in two fields that exclude each other (one side of a key card)."""
        both = sorted(set(green) & set(assassin))
        if both:
            raise RequestError(f"{self.words[both[0]]!r} is listed in both {names[0]!r} and {names[1]!r}; "
                               "a word of your side is one or the other")


def clue_suggestions(options: Iterable[Any]) -> list[ClueSuggestion]:
    """A spymaster bot's clue options (``ClueOption``) as response entries, figures rounded:
    the one form a clue takes on its way out."""
    return [ClueSuggestion(
        clue=o.clue.word, number=o.clue.number, targets=list(o.targets), links=[round(v, 2) for v in o.links],
        score=round(o.score, 4), expected_greens=round(o.expected_greens, 3), p_assassin=round(o.p_assassin, 4),
        p_bystander=round(o.p_bystander, 4), dangers=[Danger(word=w, label=label) for w, label in o.dangers])
        for o in options]


def side_of(n: int, green: Iterable[int], assassin: Iterable[int]) -> tuple[Label, ...]:
    side = [Label.BYSTANDER] * n
    for i in green:
        side[i] = Label.GREEN
    for i in assassin:
        side[i] = Label.ASSASSIN
    return tuple(side)


def unknown_clues(clues: Sequence[ReportedClue], ensemble: Any) -> list[UnknownClueWord]:
    """The one-word clues among ``clues`` that no family of ``ensemble`` reads from its own
    table, each once, with the word the player most likely meant."""
    out: list[UnknownClueWord] = []
    for item in clues:
        word = normalized_or_empty(item.clue)
        found = unknown_word(ensemble, word) if word and word not in {u.clue for u in out} else None
        if found is not None:
            out.append(UnknownClueWord(clue=word, did_you_mean=found.suggestion))
    return out


def reading_notes(clues: Sequence[ReportedClue], board: Sequence[str], covered: Iterable[int], ensemble: Any,
                  unknown: Sequence[UnknownClueWord] = ()) -> list[str]:
    """What a response should say about how its request was read: clues the rule book would
    not allow on this board (``covered`` positions are not visible), numbers read as the
    largest possible, clue words no model knows (``unknown``), and board words no model knows
    (with the word meant, when the card looks like a typo of one)."""
    notes = []
    hidden = set(covered)
    visible = [w for i, w in enumerate(board) if i not in hidden]
    for item in clues:
        if item.number > MAX_CLUE_NUMBER:
            notes.append(f"clue {short(item.clue)}: number {item.number} read as {MAX_CLUE_NUMBER} "
                         "(no player has more words to find)")
        try:
            check_clue(item.clue, visible)
        except ValueError as exc:
            notes.append(f"read as reported, though the rule book would not allow it: {one_line(str(exc))}")
    notes += [f"{u.said()} It is read from its spelling, so the ranking means little: check the clue"
              for u in unknown]
    for w in ensemble.board(board).unread:
        card = closest_word(ensemble, w, BOARD_MAX_COST)
        notes.append(f"{w}: no model knows this word; read from its spelling"
                     + (f". Did you mean {card.upper()}? A misspelt card gets no clues" if card else ""))
    return notes


def read_clue(item: ReportedClue, field: str) -> Clue:
    """A reported clue as a :class:`~duetbot.rules.Clue` (see :meth:`Clue.reported`): any text
    is read; a number above the largest possible is read as that."""
    try:
        return Clue.reported(item.clue, min(item.number, MAX_CLUE_NUMBER))
    except ValueError as exc:
        raise RequestError(f"{field!r}: {exc}") from None


# --- the dispatcher ------------------------------------------------------------------------


class Dispatcher:
    """One path from a request to a response. A subclass answers typed requests
    (:meth:`answer`); this class reads them, routes them, and keeps the JSON lines contract."""

    def answer(self, request: AnyRequest) -> Response:
        """The response to a validated request (one of :data:`REQUESTS`); raises ``ValueError``
        with a one-line message for a request the board position refutes."""
        raise NotImplementedError

    def respond(self, obj: Any) -> Response:
        """The response to a request object (routed by ``game`` and ``role``). Raises
        :class:`RequestError` (or another ``ValueError``) for a bad request."""
        return self.answer(read_request(obj))

    def handle(self, req: Any) -> dict:
        """One request -> one response as JSON values; never raises for a bad request (a field of
        the wrong type, size or value gives ``{"id", "error"}``). An ``id`` that is not strict
        JSON (NaN, Infinity: possible from Python, never from :meth:`handle_lines`) is echoed as
        null with an error saying so."""
        rid = req.get("id") if isinstance(req, dict) else None
        try:
            dumps(rid)
        except (ValueError, TypeError, RecursionError):
            return {"id": None, "error": f"field 'id' ({short(rid)}) is not strict JSON, so it is echoed as "
                                         "null; use a string or a finite number"}
        try:
            response: Response = self.respond(req)
        except ValueError as exc:
            response = ErrorResponse(id=rid, error=one_line(str(exc)))
        return msgspec.to_builtins(response)

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


# --- the published schema ------------------------------------------------------------------

def schema() -> dict:
    """The JSON Schema (draft 2020-12) of the contract: ``$defs`` holds every request and
    response; ``#/$defs/Request`` is any request, ``#/$defs/Response`` any response line."""
    refs, defs = msgspec.json.schema_components(REQUESTS + RESPONSES, ref_template="#/$defs/{name}")
    defs["Request"] = {"description": "One line of `duetbot suggest jsonl` input.",
                       "anyOf": list(refs[:len(REQUESTS)])}
    defs["Response"] = {"description": "One line of `duetbot suggest jsonl` output, in the order of the requests.",
                        "anyOf": list(refs[len(REQUESTS):])}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "duetbot suggest: the JSON lines contract",
            "description": "Requests (one JSON object per line on stdin) and responses (one per line on stdout) "
                           "of `duetbot suggest jsonl`; `duetbot suggest clue|guess` take the same requests from a "
                           "file. Words are case-insensitive and answered in the board's spelling; unknown "
                           "fields are ignored; a missing optional field means not known.",
            "anyOf": [{"$ref": "#/$defs/Request"}, {"$ref": "#/$defs/Response"}],
            "$defs": defs}
