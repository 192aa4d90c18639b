"""Helpers shared by the commands: one-line errors, option parsing."""

from __future__ import annotations

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
    return f"give it a vector with --vector '{word.lower()}=LIKE+LIKE' (words it is like), or leave it out"


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
