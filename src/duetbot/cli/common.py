"""Helpers shared by the commands: one-line errors, option parsing."""

from __future__ import annotations

import enum
import os
import sys
from pathlib import Path
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Callable, NoReturn, Optional, Sequence, cast

import typer

from ..rules import Variant
from ..wordpool import load_pool
from ..words import spelling

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ..bots.factory import PartnerSpec


class LazyConsole:
    """A rich ``Console`` made on first use, as it would have been made with this object (rich
    reads ``COLUMNS`` and ``LINES`` when a console is made, so they are read now): importing
    rich takes about 20 ms, and ``suggest jsonl`` never prints through a console (issue 39)."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        for env, key in (("COLUMNS", "width"), ("LINES", "height")):
            value = os.environ.get(env)
            if value is not None and value.isdigit():
                kwargs.setdefault(key, int(value))
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._kwargs)
        return getattr(self._console, name)


def lazy_console(**kwargs: Any) -> Console:
    """A :class:`LazyConsole` of these arguments, typed as the console it stands for."""
    return cast("Console", LazyConsole(**kwargs))


err_console = lazy_console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit non-zero."""
    from rich.markup import escape

    err_console.print(f"[bold red]error:[/] {escape(message)}", markup=True)
    raise typer.Exit(code)


def vector_hint(word: str) -> str:
    """How to give the bots a vector for a word their models lack."""
    return f"give it a vector with --vector '{word.lower()}=LIKE+LIKE' (the words it is like)"


def quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of a broken or full stdout
    prints no second error after our one line."""
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def check_save_path(path: Path, option: str = "--save") -> None:
    """Fail (one line) before a game starts if ``path`` cannot be written: a missing
    directory, a directory, or no permission. Never truncates an existing file."""
    from ..simulation import SimulationError, check_writable

    try:
        check_writable(path)
    except SimulationError as exc:
        fail(f"cannot save the game to {option} {path}: {exc}; choose a writable path")


def parse_variant(spec: str) -> Variant:
    try:
        return Variant.parse(spec)
    except ValueError as exc:
        fail(str(exc))


def read_pool(path: Path | None) -> tuple[str, ...]:
    try:
        return load_pool(path)
    except ValueError as exc:
        fail(str(exc))


Ask = Callable[[str], str]
"""How a play session reads the person's answer to a prompt."""


def terminal_ask(console: Console) -> Ask:
    echo = not sys.stdin.isatty()

    def ask(prompt: str) -> str:
        from rich.text import Text

        answer = console.input(Text(prompt, style="bold"))
        if echo:  # piped input: show it, so the transcript reads like a game
            console.print(answer, markup=False, highlight=False, soft_wrap=True)
        return answer

    return ask


class QuitGame(EOFError):
    """The person typed ``quit`` (or input ended): save and stop."""


class Reader:
    """The person's answers at the terminal, in either game: one line each, whitespace
    collapsed. ``quit``, the end of input and Ctrl-C raise :class:`QuitGame`; ``hint`` (when
    the game allows hints) and ``help`` are answered here and the prompt asked again, so a
    session only ever sees moves.

    ``say(text, style)`` prints a line, ``error(text)`` a refusal; ``passing`` says when
    ``pass`` may end a turn in this game; ``spec`` is the partner the hints read like.
    """

    def __init__(self, ask: Ask, say: Callable[[str, Optional[str]], None], error: Callable[[str], None], *,
                 hints: bool = False, spec: PartnerSpec | None = None, passing: str = "after a correct guess") -> None:
        self.ask, self.say, self.error = ask, say, error
        self.hints, self.spec, self.passing = hints, spec, passing

    def read(self, prompt: str, view: Any) -> str:
        """One answer to ``prompt`` (``view``: the person's own, for a hint). Never empty-checked."""
        while True:
            try:
                text = self.ask(prompt)
            except (EOFError, KeyboardInterrupt):
                self.say("", None)
                raise QuitGame from None
            text = spelling(text)
            cmd = text.casefold()
            if cmd == "quit":
                raise QuitGame
            if cmd == "hint":
                if self.hints:
                    self.say(f"  hint: {hint_for(view, self.spec)}", "cyan")
                else:
                    self.error("hints are off; start the game with --hint to get them")
                continue
            if cmd == "help":
                self.say(f"  'quit' saves the game and stops; 'pass' ends your guessing {self.passing}"
                         + ("; 'hint' suggests something" if self.hints else ""), "cyan")
                continue
            return text

    def confirm(self, bot: Any, clue: Any, board: Sequence[str], view: Any) -> str | None:
        """Ask about a clue whose word ``bot``'s guesser does not know, before the turn is spent
        on a typo: ``None`` to give ``clue`` (the word is known, the rules refuse it and will
        say why, or the person insists with ``y``), else the clue to try instead (empty: ask
        for one again). ``board``: the visible words."""
        from ..bots.spelling import unknown_clue
        from ..rules import check_clue

        try:
            word = check_clue(clue.word, board)
        except ValueError:
            return None
        unknown = unknown_clue(bot, word)
        if unknown is None:
            return None
        answer = self.read(f"{unknown} Give it anyway? (y, or type another clue): ", view)
        if answer.casefold() in ("y", "yes"):
            return None
        return "" if answer.casefold() in ("", "n", "no") else answer


VECTOR = "WORD=LIKE+LIKE"
"""How ``--vector``'s value reads in the help."""
VECTOR_HELP = "Give a word its own vector: the centroid of the words it is like, in every model"
"""What ``--vector`` does (each command adds its own remarks)."""


class GameKind(str, enum.Enum):
    """The game a command plays (``--game``, the same in ``play``, ``simulate`` and ``suggest``)."""

    duet = "duet"
    classic = "classic"


def _partner(default: str) -> Any:
    return typer.Option(
        "--partner", metavar="SPEC", show_default=default,
        help="The bots' partner spec, as in simulate (model=NAME[+NAME], spymaster=..., guesser=...; a model of "
             "your own from 'duetbot models import' by its name).")


# Each command says what its own default is: only play has --resume.
PartnerOption = Annotated[Optional[str], _partner("the shipped bots (with --resume: the saved game's)")]
ServePartnerOption = Annotated[Optional[str], _partner("the shipped bots (a saved game: the bots it was played with)")]
SuggestPartnerOption = Annotated[Optional[str], _partner("the shipped bots")]


def partner_spec(text: str | None = None, vectors: Sequence[str] = ()) -> PartnerSpec:
    """The bots a command plays or answers with (``--partner``; ``None``: the shipped bots),
    with the user's described words; a spec that cannot be read is a one-line error."""
    from ..bots.factory import PartnerSpec, SpecError

    text = "default" if text is None else text
    try:
        return PartnerSpec.parse(text).describe(vectors)
    except SpecError as exc:
        fail(f"--partner {text!r}: {exc}")


def check_pool(pool: Sequence[str], spec: PartnerSpec) -> None:
    """Fail before the game if the partner's models are missing or know no vector for a word of the pool."""
    from ..bots.factory import SpecError
    from ..embeddings import ModelFormatError, ModelNotFoundError, UnknownWordError

    try:
        spec.check(pool)
    except (SpecError, ModelNotFoundError, ModelFormatError) as exc:
        fail(str(exc))
    except UnknownWordError as exc:
        fail(f"{exc}; {vector_hint(exc.word)}")


def hint_for(view: Any, spec: PartnerSpec | None = None) -> str:
    """``hint`` at a prompt, in either game: the bots' suggestion for the person's own move,
    from the person's own view, reading with the families of the partner they play with
    (:meth:`duetbot.suggest.Suggester.hint`), as one line."""
    return _hinter(spec).hint(view).text()


@lru_cache(maxsize=2)
def _hinter(spec: PartnerSpec | None) -> Any:
    from ..suggest import Suggester

    return Suggester.for_partner(spec)
