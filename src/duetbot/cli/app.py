"""Command definitions."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer
import typer.core
from rich.console import Console

from .. import __version__
from .models import app as models_app
from .play import play
from .serve import serve
from .simulate import simulate
from .suggest import app as suggest_app

_value_type = typer.core.TyperOption.display_type_rich


def _no_value_for_flags(self: typer.core.TyperOption, ctx: Any) -> str | None:
    """A flag takes no value, so its help shows none (typer would show ``--quiet <bool>``, and
    ``--quiet true`` then fails)."""
    return None if self.is_flag else _value_type(self, ctx)


typer.core.TyperOption.display_type_rich = _no_value_for_flags  # type: ignore[method-assign]

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
