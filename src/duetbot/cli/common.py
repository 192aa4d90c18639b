"""Helpers shared by the commands: one-line errors, option parsing."""

from __future__ import annotations

import enum
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Callable, NoReturn, Optional, Sequence

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from .. import __version__
from ..records.classic import CLASSIC_RECORD_VERSION
from ..jsonio import JSONInputError, read_json_file
from ..records import RECORD_VERSION
from ..rules import Variant
from ..wordpool import load_pool

if TYPE_CHECKING:  # pragma: no cover
    from ..bots.factory import PartnerSpec

err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit non-zero."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", markup=True)
    raise typer.Exit(code)


def vector_hint(word: str) -> str:
    """How to give the bots a vector for a word their models lack."""
    return f"give it a vector with --vector '{word.lower()}=LIKE+LIKE' (the words it is like)"


class SaveError(RuntimeError):
    """A game could not be saved (the message says where and what to do)."""


def save_game_file(path: Path, record, resume_hint: str = "duetbot play --resume") -> None:
    """Write a game record (``.dumps()``) to ``path`` atomically: a crash leaves the old file
    or the new one, never half of one. If ``path`` cannot be written (a full disk, a vanished
    directory), the game is written to a new file in the temporary directory instead, so it
    is not lost. Raises :class:`SaveError` (one line: why, and where the game is) either way."""
    try:
        _write_atomic(path, record.dumps() + "\n")
        return
    except OSError as exc:
        reason = exc.strerror or str(exc)
    rescued = rescue_game_file(record)
    where = (f"it was saved to {rescued} instead: continue it with {resume_hint} {rescued}" if rescued
             else "and it could not be saved anywhere else either")
    raise SaveError(f"cannot save the game to {path}: {reason}; {where}")


def write_json_file(path: Path, value) -> None:
    """Write a JSON value to ``path`` atomically (raises ``OSError``)."""
    from ..jsonio import dumps

    _write_atomic(path, dumps(value, indent=1) + "\n")


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` through a temporary file renamed over ``path``; a path that exists
    but is not a regular file (a device such as /dev/full, a pipe) is written in place,
    never replaced."""
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
        return
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise


def rescue_game_file(record) -> Path | None:
    """Write ``record`` to a new file in the temporary directory; its path, or None."""
    import tempfile

    try:
        fd, name = tempfile.mkstemp(prefix="duetbot-game-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(record.dumps() + "\n")
        return Path(name)
    except OSError:
        return None


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


def read_saved_game(path: Path, game: str, default_save: str) -> dict:
    """The JSON object of a saved ``game`` ("duet" or "classic"). ``ValueError`` (one line)
    for a missing, unreadable or corrupt file, a save of the other game, and a save written by
    a newer duetbot (a ``version`` above the one this one reads)."""
    if not path.exists():
        raise ValueError(f"{path}: no saved game there; check the path (quit saves to {default_save} by default)")
    try:
        data = read_json_file(path)
    except JSONInputError as exc:
        raise ValueError(f"{path}: not a saved duetbot game ({str(exc).removeprefix(f'{path}: ')})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a saved duetbot game (not a JSON object)")
    kind = data.get("game_type", "duet")
    names = {"duet": "Duet", "classic": "classic"}
    if kind != game and kind in names:
        how = "--game classic " if kind == "classic" else ""
        raise ValueError(f"{path} is a saved {names[kind]} game, not a {names[game]} one; "
                         f"continue it with: duetbot play {how}--resume {path}")
    if kind != game:
        from ..suggest.requests import short

        raise ValueError(f"{path}: not a saved duetbot game (game_type {short(kind)})")
    supported = RECORD_VERSION if game == "duet" else CLASSIC_RECORD_VERSION
    version = data.get("version", supported)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        from ..suggest.requests import short

        raise ValueError(f"{path}: not a saved duetbot game (version {short(version)})")
    if version > supported:
        raise ValueError(f"{path} was saved by a newer duetbot (save format {version}; this duetbot "
                         f"{__version__} reads up to {supported}); upgrade duetbot to continue it")
    return data


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
        answer = console.input(Text(prompt, style="bold"))
        if echo:  # piped input: show it, so the transcript reads like a game
            console.print(answer, markup=False, highlight=False, soft_wrap=True)
        return answer

    return ask


class GameKind(str, enum.Enum):
    """The game a command plays (``--game``, the same in ``play``, ``simulate`` and ``suggest``)."""

    duet = "duet"
    classic = "classic"


PartnerOption = Annotated[Optional[str], typer.Option(
    "--partner", metavar="SPEC", show_default="the shipped bots (play --resume: the saved game's)",
    help="The bots' partner spec, as in simulate (model=NAME[+NAME], spymaster=..., guesser=...; a model of "
         "your own from 'duetbot models import' by its name).")]


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
