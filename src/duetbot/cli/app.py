"""Command definitions.

Each command lives in its own module, imported when that command runs or shows its help:
``duetbot --help`` lists them without importing any (start-up, issue 39).
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Optional, get_args

import typer
import typer.core
import typer.main

from .. import __version__

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


_process_value = typer.core._TyperParameter.process_value


def _process_missing_value(self: Any, ctx: Any, value: Any) -> Any:
    """A parameter not given (``None``) becomes what typer's coercion makes of it (``()`` for
    a list, else ``None``) without building that coercion first: typer builds it with
    pydantic, about 70 ms to import, for every parameter it processes, given or not
    (issue 39: ``suggest jsonl`` without options imports no pydantic)."""
    if value is not None:
        return _process_value(self, ctx, value)
    value = () if self.multiple or self.nargs == -1 else None
    if self.required and self.value_is_missing(value):
        raise typer.core._click.exceptions.MissingParameter(ctx=ctx, param=self)
    if self.callback is not None:
        value = self.callback(ctx, self, value)
    return value


typer.core._TyperParameter.process_value = _process_missing_value  # type: ignore[method-assign]
typer.core.TyperOption.display_type_rich = _option_value  # type: ignore[method-assign]
typer.core.TyperArgument.display_type_rich = _argument_value  # type: ignore[method-assign, assignment]
typer.core.TyperArgument._usage_display_name = _argument_usage  # type: ignore[method-assign]
typer.core._get_default_string = _plain_default

def _simulate() -> Any:
    from .simulate import simulate
    return simulate


def _play() -> Any:
    from .play import play
    return play


def _serve() -> Any:
    from .serve import serve
    return serve


def _suggest() -> Any:
    from .suggest import app
    return app


def _models() -> Any:
    from .models import app
    return app


#: Each command: what imports it (a command function or a command group's Typer) and the first
#: paragraph of its help as the root's help lists it (a test checks that it is the command's own).
COMMANDS: dict[str, tuple[Callable[[], Any], str]] = {
    "simulate": (_simulate, "Play bot-vs-bot games in parallel and report win rates with 95% intervals."),
    "play": (_play, "Play Duet in the terminal with a bot partner: you are A, the bot is B."),
    "serve": (_serve, "Play Duet in your browser, or use the table helper: a local web app."),
    "suggest": (_suggest, "Suggestions for a game at a real table (clues, guesses, or JSON lines)."),
    "models": (_models, "List, inspect, import and build the embedding models the bots think with."),
}

_SETTINGS: dict[str, Any] = dict(
    name="duetbot",
    help="AI partners for Codenames: Duet: play (in the terminal or a browser), simulate, and get suggestions at a real table.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


def load_command(name: str) -> Any:
    """The click command ``name`` exactly as a root app holding every command builds it (typer
    turns a function's signature into options when the command is built)."""
    obj = COMMANDS[name][0]()
    root = typer.Typer(**_SETTINGS)
    root.callback()(_root)
    if isinstance(obj, typer.Typer):
        root.add_typer(obj, name=name)
    else:
        root.command(name=name)(obj)
    return typer.main.get_group(root).commands[name]


class LazyCommands(typer.core.TyperGroup):
    """The root command: a light stand-in for each command (its name and the first paragraph
    of its help, all that the root's help shows) until the command is run or asked for its
    own help."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (_, text) in COMMANDS.items():
            self.commands.setdefault(name, _StandIn(name=name, help=text))

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name, cmd, rest = super().resolve_command(ctx, args)
        if isinstance(cmd, _StandIn) and name is not None:
            cmd = self.commands[name] = load_command(name)
        return name, cmd, rest

    def load_all(self) -> LazyCommands:
        """Every command loaded (tests walk the whole tree)."""
        for name, cmd in list(self.commands.items()):
            if isinstance(cmd, _StandIn):
                self.commands[name] = load_command(name)
        return self


class _StandIn(typer.core.TyperCommand):
    """A command not imported yet (never run: :meth:`LazyCommands.resolve_command` swaps it)."""


app = typer.Typer(cls=LazyCommands, **_SETTINGS)


def _version(value: bool) -> None:
    if value:
        from rich.console import Console

        Console(highlight=False).print(f"duetbot {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Show the version and exit.")] = None,
) -> None:
    """AI partners for Codenames: Duet."""

