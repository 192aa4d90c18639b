"""Helpers shared by the commands: one-line errors, option parsing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from ..rules import Variant
from ..wordpool import load_pool

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


def save_game_file(path: Path, record) -> None:
    """Write a game record (``.dumps()``) to ``path`` atomically: a crash leaves the old file
    or the new one, never half of one. Raises :class:`SaveError`."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(record.dumps() + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise SaveError(f"cannot save the game to {path}: {exc.strerror or exc}; "
                        "choose a writable path with --save") from None


def read_saved_game(path: Path, game: str, default_save: str) -> dict:
    """The JSON object of a saved ``game`` ("duet" or "classic"). ``ValueError`` (one line)
    for a missing, unreadable or corrupt file, and for a save of the other game."""
    if not path.exists():
        raise ValueError(f"{path}: no saved game there; check the path (quit saves to {default_save} by default)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the saved game ({getattr(exc, 'strerror', None) or exc})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not a saved duetbot game (not JSON: {exc.msg})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a saved duetbot game (not a JSON object)")
    kind = data.get("game_type", "duet")
    names = {"duet": "Duet", "classic": "classic"}
    if kind != game and kind in names:
        how = "--game classic " if kind == "classic" else ""
        raise ValueError(f"{path} is a saved {names[kind]} game, not a {names[game]} one; "
                         f"continue it with: duetbot play {how}--resume {path}")
    if kind != game:
        raise ValueError(f"{path}: not a saved duetbot game (game_type {kind!r})")
    return data


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
