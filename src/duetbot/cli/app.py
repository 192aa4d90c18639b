"""Command definitions."""

from __future__ import annotations

from typing import Annotated, Any, Optional, get_args

import typer
import typer.core
from rich.console import Console

from .. import __version__
from .models import app as models_app
from .play import play
from .serve import serve
from .simulate import simulate
from .suggest import app as suggest_app

_default_string = typer.core._get_default_string


def _placeholder(param: Any) -> str:
    """What a value looks like, as a person reads it: the choices (``duet|classic``), else a
    word for its type (``N``, ``NUMBER``, ``FILE``, ``DIR``, ``TEXT``); an option's own metavar
    (``SPEC``, ``WORD=LIKE+LIKE``) wins. Never typer's ``<list[str]>`` or ``{path}``."""
    if param.metavar is not None:
        return str(param.metavar)
    desc = param.type_descriptor
    if desc.is_choice:
        return "|".join(str(getattr(c, "value", c)) for c in desc.choices)
    if desc.is_path:
        return "DIR" if desc.path_type == "directory" else "FILE"
    annotation = get_args(desc.annotation)[0] if desc.is_list else desc.annotation
    return {int: "N", float: "NUMBER"}.get(annotation, "TEXT")


def _option_value(self: typer.core.TyperOption, ctx: Any) -> str | None:
    """A flag takes no value, so its help shows none (typer would show ``--quiet <bool>``, and
    ``--quiet true`` then fails); other options show :func:`_placeholder`."""
    return None if self.is_flag else _placeholder(self)


def _argument_value(self: typer.core.TyperArgument, ctx: Any) -> str | None:
    """An argument's name column already shows its placeholder: no second one."""
    return None


def _argument_usage(self: typer.core.TyperArgument) -> str:
    """An argument in the usage line as manuals write it: ``FILE``, ``[NAME]``, ``[TARGET]...``
    (typer writes a required one as ``{path}``)."""
    name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
    return name + ("..." if self.nargs != 1 else "")


def _plain_default(obj: Any, *, ctx: Any, show_default_is_str: bool, default_value: Any) -> str:
    """A default described in words reads like any other (``[default: standard]``, not
    ``[default: (standard)]``)."""
    if show_default_is_str:
        return str(obj.show_default)
    return _default_string(obj, ctx=ctx, show_default_is_str=False, default_value=default_value)


typer.core.TyperOption.display_type_rich = _option_value  # type: ignore[method-assign]
typer.core.TyperArgument.display_type_rich = _argument_value  # type: ignore[method-assign, assignment]
typer.core.TyperArgument._usage_display_name = _argument_usage  # type: ignore[method-assign]
typer.core._get_default_string = _plain_default

app = typer.Typer(
    name="duetbot",
    help="AI partners for Codenames: Duet: play (in the terminal or a browser), simulate, and get suggestions at a real table.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
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
