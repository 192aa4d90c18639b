"""``duetbot suggest``: a second opinion at a real table, and the JSON lines contract.

A thin shell over :mod:`duetbot.suggest`: ``clue`` and ``guess`` turn their flags (over a
``--request`` file) into one request of the contract and hand it to the dispatcher that also
answers ``jsonl`` lines (:meth:`~duetbot.suggest.Suggester.respond`), then render the
response; ``schema`` prints the contract's JSON Schema.
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Iterable, Optional

import typer

from ..jsonio import JSONInputError, dumps, iter_lines, read_json_file
from ..words import spelling
from .common import (
    VECTOR, VECTOR_HELP, GameKind, SuggestPartnerOption, fail, partner_spec, lazy_console, quiet_stdout,
    terminal_ask, vector_hint,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..suggest import Suggester

app = typer.Typer(help="Suggestions for a game at a real table (clues, guesses, or JSON lines).",
                  no_args_is_help=True)
console = lazy_console(highlight=False)

WIDE = 120
"""Columns from which ``suggest clue`` shows its table, strengths in per cent; narrower, one
clue a paragraph, so nothing is cut (an 80-column table cut the words to watch)."""
GAMES = tuple(g.value for g in GameKind)  # a str option, not the enum: a file name gets a hint to --request


@lru_cache(maxsize=1)
def suggester(vectors: tuple[str, ...] = (), partner: str | None = None) -> Suggester:
    """The bots of ``partner`` (default: the shipped ones), loaded once per process
    (``vectors``: described words)."""
    from ..bots.factory import SpecError, default_bots
    from ..embeddings import ModelFormatError, ModelNotFoundError
    from ..suggest import Suggester

    try:
        return Suggester(*default_bots(spec=partner_spec(partner, vectors)))
    except (SpecError, ModelNotFoundError, ModelFormatError) as exc:
        fail(f"--partner {partner!r}: {exc}" if partner is not None else str(exc))


FLAGS = {"clues": "--clue", "partner_bystanders": "--partner-bystanders", "team_agents": "--team-agents",
         "opponent_agents": "--opponent-agents", **{f: f"--{f}" for f in (
             "board", "green", "assassin", "covered", "wrong", "tokens", "top")}}
"""The request fields the subcommands' flags fill, and the flag that fills each."""
_FIELD = re.compile(r"(missing )?field '(\w+)'")


def as_flags(message: str, given: Iterable[str] = (), path: Path | None = None) -> str:
    """A contract error as the person typed it: ``missing field 'clues'`` is ``missing --clue``;
    a field read from the ``--request`` file (its flag not given) is named in that file.

    >>> as_flags("missing field 'clues' (a list of at least one {clue, number}, oldest first)")
    'missing --clue (a list of at least one {clue, number}, oldest first)'
    >>> as_flags("field 'board' has 2 words; a board has 25", path=Path("t.json"))
    "field 'board' of t.json (or --board) has 2 words; a board has 25"
    """
    given = set(given)

    def name(m: re.Match[str]) -> str:
        field = m.group(2)
        flag = FLAGS.get(field)
        if flag is None:
            return m.group(0)
        if path is not None and field not in given:
            return f"{m.group(1) or ''}field '{field}' of {path} (or {flag})"
        return f"{m.group(1) or ''}{flag}"

    return _FIELD.sub(name, message)


def _ask(req: dict, vectors: Optional[list[str]], partner: str | None = None, given: Iterable[str] = (),
         path: Path | None = None) -> Any:
    """The response to ``req`` from the same dispatcher as ``suggest jsonl``; a bad request is
    one line on stderr naming the flags (``given``: the fields a flag gave), not an error response."""
    from ..embeddings import UnknownWordError

    helper = suggester(tuple(vectors or ()), partner)
    try:
        return helper.respond(req)
    except UnknownWordError as exc:
        fail(f"{exc}; {vector_hint(exc.word)}")
    except ValueError as exc:
        fail(as_flags(str(exc), given, path))
    except Exception as exc:  # a bug, not a bad request: one line, not a traceback
        fail(f"internal error: {type(exc).__name__}: {exc}", code=1)


def _split(text: Optional[str]) -> Optional[list[str]]:
    """Words from a flag: comma-separated (entries may hold spaces), or space-separated."""
    if text is None:
        return None
    parts = text.split(",") if "," in text else text.split()
    return [spelling(p) for p in parts if p.strip()]


def _request_file(path: Optional[Path]) -> dict:
    if path is None:
        return {}
    try:
        data = read_json_file(path)
    except JSONInputError as exc:
        fail(f"--request: {exc}")
    if not isinstance(data, dict):
        fail(f"request file {path} must hold one JSON object (the fields of a suggest request)")
    return data


def _request(role: str, path: Optional[Path], game: Optional[str], classic: bool, **flags: Any) -> tuple[dict, str]:
    """The request the flags describe (over the ``--request`` file's fields), and how its game
    was chosen (for messages about flags of the other game)."""
    if game is not None and game not in GAMES:
        # --game used to name a request file: say where that went
        hint = f"; a request file is read with --request {game}" if Path(game).suffix or Path(game).is_file() else ""
        fail(f"--game {game!r}: use duet or classic{hint}")
    if classic and game == "duet":
        fail("--classic and --game duet ask for different games; give one of them")
    req = _request_file(path)
    req.update({k: v for k, v in flags.items() if v is not None})
    req["role"] = role
    if classic or game is not None:
        req["game"] = "classic" if classic else game
    chosen_by = "--classic" if classic else f"--game {game}" if game else f"the \"game\" field of {path}"
    return req, chosen_by


def _fields(**flags: Any) -> list[str]:
    """The request fields a flag gave."""
    return [name for name, value in flags.items() if value is not None]


def _given(**flags: Any) -> list[str]:
    return [f"--{name.replace('_', '-')}" for name, value in flags.items() if value is not None]


def _are(names: list[str]) -> str:
    return f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'}"


Board = Annotated[Optional[str], typer.Option("--board", metavar="WORDS", help="The 25 words, comma- or space-separated.")]
Covered = Annotated[Optional[str], typer.Option("--covered", metavar="WORDS", help="Covered words.")]
Green = Annotated[Optional[str], typer.Option("--green", metavar="WORDS", help="Your greens still to find (your side).")]
Assassin = Annotated[Optional[str], typer.Option("--assassin", metavar="WORDS", help="Your assassins (your side).")]
Tokens = Annotated[Optional[int], typer.Option("--tokens", min=0, help="Timer tokens left (0: sudden death).")]
Vectors = Annotated[Optional[list[str]], typer.Option("--vector", metavar=VECTOR, help=VECTOR_HELP + " (repeatable).")]
Game = Annotated[Optional[str], typer.Option("--game", metavar="|".join(GAMES), show_default="the --request file's \"game\", else duet", help="duet, or classic (two teams): the game, as in play and simulate.")]
Classic = Annotated[bool, typer.Option("--classic", help="Same as --game classic.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the answer as the JSON a 'suggest jsonl' line gets (every figure, for programs).")]
RequestFile = Annotated[Optional[Path], typer.Option("--request", help="A JSON file holding one request: the fields of one 'suggest jsonl' line (see 'duetbot suggest schema'); flags given too override them.")]
Photo = Annotated[Optional[Path], typer.Option("--photo", metavar="FILE", help="Read the 25 words from a photo of the table (instead of --board); you see the grid and correct it before anything is suggested. Needs the photo extra: pip install 'duetbot[photo]'.")]
KeyPhoto = Annotated[Optional[Path], typer.Option("--key-photo", metavar="FILE", help="Read your side of the key card from a photo, the card standing as it does before you (instead of --green and --assassin); shown on the board for you to correct.")]


def _from_photos(board: Optional[str], photo: Optional[Path], key_photo: Optional[Path], covered: Optional[str],
                 **own: Optional[str]) -> tuple[Optional[list[str]], Optional[list[str]], Optional[list[str]]]:
    """(board, green, assassin) from ``--photo`` / ``--key-photo`` once the person has confirmed
    them, else from the flags (``own``: the --green and --assassin given)."""
    green, assassin = _split(own.get("green")), _split(own.get("assassin"))
    words = _split(board)
    if photo is None and key_photo is None:
        return words, green, assassin
    from .photo import confirm_board, confirm_key, read_board_photo, read_key_photo

    if photo is not None and board is not None:
        fail("--board and --photo both give the board: give one of them")
    if key_photo is not None and (green is not None or assassin is not None):
        fail("--key-photo gives your greens and assassins: leave out --green and --assassin")
    ask = terminal_ask(console)
    if photo is not None:
        words = confirm_board(read_board_photo(photo), console, ask)
    if key_photo is not None:
        if words is None:
            fail("--key-photo marks the cards of a board: give the board too (--board or --photo)")
        from ..rules import Label

        labels = confirm_key(read_key_photo(key_photo), words, console, ask)
        gone = {w.casefold() for w in _split(covered) or ()}
        green = [w for w, lab in zip(words, labels) if lab is Label.GREEN and w.casefold() not in gone]
        assassin = [w for w, lab in zip(words, labels) if lab is Label.ASSASSIN]
    return words, green, assassin


@app.command()
def clue(board: Board = None, green: Green = None, assassin: Assassin = None, covered: Covered = None,
         partner_bystanders: Annotated[Optional[str], typer.Option(metavar="WORDS", help="Words your partner touched that were bystanders on your side.")] = None,
         tokens: Tokens = None,
         top: Annotated[Optional[int], typer.Option(min=1, show_default="5, or the --request file's top", help="How many clues to show (overrides a --request file's top).")] = None,
         request: RequestFile = None, game: Game = None, classic: Classic = False, vector: Vectors = None,
         partner: SuggestPartnerOption = None, as_json: AsJson = False, photo: Photo = None, key_photo: KeyPhoto = None,
         team_agents: Annotated[Optional[str], typer.Option(metavar="WORDS", help="With --game classic: your team's agents still to find.")] = None,
         opponent_agents: Annotated[Optional[str], typer.Option(metavar="WORDS", help="With --game classic: the other team's agents.")] = None) -> None:
    """Suggest clues for your greens (classic: your team's agents), with their targets and risks."""
    words, greens, assassins = _from_photos(board, photo, key_photo, covered, green=green, assassin=assassin)
    req, chosen_by = _request(
        "spymaster", request, game, classic, board=words, green=greens, assassin=assassins,
        covered=_split(covered), partner_bystanders=_split(partner_bystanders), tokens=tokens, top=top,
        team_agents=_split(team_agents), opponent_agents=_split(opponent_agents))
    is_classic = req.get("game") == "classic"
    duet_only = _given(green=green, partner_bystanders=partner_bystanders, tokens=tokens, key_photo=key_photo)
    if is_classic and duet_only:
        fail(f"{_are(duet_only)} for Duet boards, and {chosen_by} asks for a classic one: "
             "give --team-agents and --opponent-agents")
    classic_only = _given(team_agents=team_agents, opponent_agents=opponent_agents)
    if not is_classic and classic_only:
        fail(f"{_are(classic_only)} for classic boards: add --game classic (or --classic)")
    answer = _ask(req, vector, partner, _fields(board=words, green=greens, assassin=assassins, covered=covered,
                                                partner_bystanders=partner_bystanders, tokens=tokens, top=top,
                                                team_agents=team_agents, opponent_agents=opponent_agents), request)
    if as_json:
        _print_json(answer)
        return
    from ..suggest.hints import linked_targets

    agents = "agents" if is_classic else "greens"
    if console.width < WIDE:  # one clue a paragraph, wrapped between words; strengths in words
        console.print("Suggested clues, best first", style="bold")
        for o in answer.clues:
            console.print(f"{o.clue.upper()}: {o.number}", style="bold", end="  ")
            console.print(f"for {linked_targets(o.targets, o.links, percent=False) or '(zero clue)'}", markup=False)
            console.print(f"    expected {agents} {o.expected_greens:.2f}, assassin risk {100 * o.p_assassin:.1f}%, "
                          f"bystander risk {100 * o.p_bystander:.1f}%", markup=False)
            if o.dangers:
                console.print("    watch out for " + ", ".join(f"{d.word} ({d.label})" for d in o.dangers),
                              markup=False)
    else:
        from rich.table import Table

        table = Table(title="Suggested clues, best first")
        for col in ("clue", "targets", f"expected {agents}", "assassin risk", "bystander risk", "watch out for"):
            table.add_column(col)
        for o in answer.clues:
            table.add_row(f"{o.clue.upper()}: {o.number}", linked_targets(o.targets, o.links) or "(zero clue)",
                          f"{o.expected_greens:.2f}", f"{100 * o.p_assassin:.1f}%", f"{100 * o.p_bystander:.1f}%",
                          ", ".join(f"{d.word} ({d.label})" for d in o.dangers))
        console.print(table)
    _print_notes(answer)


@app.command()
def guess(board: Board = None,
          clue: Annotated[Optional[list[str]], typer.Option("--clue", metavar="'WORD N'", help="A clue from your partner, e.g. 'ocean 2'; repeat for earlier clues, oldest first.")] = None,
          covered: Covered = None,
          wrong: Annotated[Optional[str], typer.Option(metavar="WORDS", help="Your earlier guesses your partner marked bystander.")] = None,
          green: Green = None, assassin: Assassin = None, tokens: Tokens = None, request: RequestFile = None,
          game: Game = None, classic: Classic = False, vector: Vectors = None,
          partner: SuggestPartnerOption = None, as_json: AsJson = False, photo: Photo = None,
          key_photo: KeyPhoto = None) -> None:
    """Rank the words for your partner's clues (classic: your spymaster's) and say where to stop."""
    from ..rules import Clue

    clues = None
    if clue:
        try:
            clues = [{"clue": w, "number": n} for w, n in map(Clue.parse_reported, clue)]
        except ValueError as exc:
            fail(str(exc))
    words, greens, assassins = _from_photos(board, photo, key_photo, covered, green=green, assassin=assassin)
    req, chosen_by = _request("guesser", request, game, classic, board=words, clues=clues,
                              covered=_split(covered), wrong=_split(wrong), green=greens,
                              assassin=assassins, tokens=tokens)
    duet_only = _given(wrong=wrong, green=green, assassin=assassin, tokens=tokens, key_photo=key_photo)
    if req.get("game") == "classic" and duet_only:
        fail(f"{_are(duet_only)} for Duet boards, and {chosen_by} asks for a classic one: leave them out")
    answer = _ask(req, vector, partner, _fields(board=words, clues=clues, covered=covered, wrong=wrong, green=greens,
                                                assassin=assassins, tokens=tokens), request)
    from ..suggest.requests import ClassicGuesserResponse

    if as_json:
        _print_json(answer)
        return
    if answer.unknown_clues:  # a ranking read from a typo's spelling would be confident nonsense
        word = answer.unknown_clues[0]
        fail(f"{word.said()} Check the clue, or {vector_hint(word.clue)}")
    is_classic = isinstance(answer, ClassicGuesserResponse)
    stop = answer.stop_after
    from rich.table import Table

    table = Table(title=f"Guesses, best first: guess the first {stop}, then stop")
    chances = (("p_agent", "chance my agent"), ("p_assassin", "chance assassin"),
               ("p_opponent", "chance their agent")) if is_classic else (
               ("p_green", "chance green"), ("p_assassin", "chance assassin"))
    for col in ("#", "word", *(title for _, title in chances)):
        table.add_column(col)
    for n, g in enumerate(answer.guesses, 1):
        style = "bold green" if n <= stop else None
        table.add_row(str(n), g.word, *(f"{100 * getattr(g, key):.0f}%" for key, _ in chances), style=style)
    console.print(table)
    _print_notes(answer)


def _print_json(answer: Any) -> None:
    """The response as its JSON line."""
    import msgspec

    sys.stdout.write(dumps(msgspec.to_builtins(answer)) + "\n")


def _print_notes(answer: Any) -> None:
    """How the request was read (words read from their spelling, clues taken as reported)."""
    for note in answer.notes:
        console.print(f"note: {note}", markup=False, highlight=False)


@app.command()
def read(photo: Annotated[Optional[Path], typer.Option("--photo", metavar="FILE", help="The photo: of the table (the board's words), or with --key of your side of the key card.")] = None,
         key: Annotated[bool, typer.Option("--key", help="Read a key card: its 25 cells as green, bystander or assassin.")] = False,
         as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object: words (\"\" where unreadable), unreadable (their grid indices), read (the raw text), matched; or key.")] = False) -> None:
    """Print what a photo shows, row by row (for scripts and checks): the words, comma-separated, ? where unreadable; or the key card's colours. Needs the photo extra."""
    from .photo import read_board_photo, read_key_photo

    if photo is None:
        fail("give the photo to read: duetbot suggest read --photo FILE [--key]")
    if key:
        reading = read_key_photo(photo)
        data, cells = reading.to_json(), [lab.value for lab in reading.labels]
    else:
        board = read_board_photo(photo)
        data, cells = board.to_json(), [w or "?" for w in board.words]
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
    for r in range(0, 25, 5):
        sys.stdout.write(", ".join(cells[r:r + 5]) + "\n")


@app.command()
def jsonl(vector: Vectors = None, partner: SuggestPartnerOption = None) -> None:
    """Read one JSON request per line from stdin, write one JSON response per line (see 'duetbot suggest schema')."""
    helper = suggester(tuple(vector or ()), partner)
    try:
        for line in helper.handle_lines(iter_lines(sys.stdin.buffer)):
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
    except BrokenPipeError:  # the reader went away: nobody is left to answer
        quiet_stdout()
        raise typer.Exit(1)
    except OSError as exc:  # e.g. stdout on a full disk
        quiet_stdout()
        fail(f"cannot write the responses to stdout: {exc.strerror or exc}", code=1)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the requests and responses (the repository keeps it as docs/suggest.schema.json)."""
    sys.stdout.write(schema_text())


def schema_text() -> str:
    """The schema as ``suggest schema`` prints it (and docs/suggest.schema.json holds it)."""
    from ..suggest import schema as contract_schema

    return json.dumps(contract_schema(), indent=2) + "\n"
