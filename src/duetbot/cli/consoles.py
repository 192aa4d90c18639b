"""The console a game talks through (rich, imported by the commands that play)."""

from __future__ import annotations

from typing import Any

from rich.console import Console


class GameConsole(Console):
    """The console a game talks through: its messages keep whole words. A message printed with
    ``soft_wrap=True`` stays one line in a pipe or a test; on a terminal rich would leave that
    line to the terminal, which breaks it mid-word at its edge ("--s|eed", "CO|LONEL"), so
    there it is wrapped between words instead."""

    def print(self, *objects: Any, soft_wrap: bool | None = None, **kwargs: Any) -> None:
        super().print(*objects, soft_wrap=soft_wrap and not self.is_terminal, **kwargs)
