"""Command definitions."""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from rich.console import Console

from .. import __version__
from .models import app as models_app
from .play import play
from .serve import serve
from .simulate import simulate
from .suggest import app as suggest_app

app = typer.Typer(
    name="duetbot",
    help="AI partners for Codenames: Duet: play (in the terminal or a browser), simulate, and get suggestions at a real table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)


def _version(value: bool) -> None:
    if value:
        console.print(f"duetbot {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Show the version and exit.")] = None,
) -> None:
    """AI partners for Codenames: Duet."""


app.command()(simulate)
app.command()(play)
app.command()(serve)
app.add_typer(suggest_app, name="suggest")
app.add_typer(models_app, name="models")
