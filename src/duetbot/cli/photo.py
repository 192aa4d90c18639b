"""The table from a photo at the terminal: read it, show it, let the person correct it.

``duetbot suggest clue|guess --photo FILE [--key-photo FILE]`` show the grid read from the
photo and ask for corrections (an unreadable card must be typed) before anything is
suggested; ``duetbot suggest read`` prints what was read, for scripts. The reading itself is
:mod:`duetbot.photo`, imported only when a photo is given, so the command starts without it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..rules.keycard import Label
from .common import Ask, fail

if TYPE_CHECKING:  # pragma: no cover
    from ..photo import BoardReading, KeyReading

SIZE = 5
_FIX = re.compile(r"^\s*([1-5])\s*[, ]\s*([1-5])\s*[=: ]?\s*(.+?)\s*$")
FIX_HELP = "ROW,COL WORD, e.g. 2,3 ICE CREAM"


def read_board_photo(path: Path) -> BoardReading:
    """The board read from ``path``, or one line on stderr (the flags typed are the person's to keep)."""
    from ..photo import PhotoError, read_board

    try:
        return read_board(path)
    except PhotoError as exc:
        fail(f"--photo: {exc}")


def read_key_photo(path: Path) -> KeyReading:
    from ..photo import PhotoError, read_key

    try:
        return read_key(path)
    except PhotoError as exc:
        fail(f"--key-photo: {exc}")


def board_table(words: Sequence[str], unsure: Sequence[bool], key: Sequence[Label] | None = None) -> Table:
    """The 5x5 grid as read: ``?`` for an unreadable card, yellow for a word kept as read, the
    key card's colours when there is one."""
    table = Table(show_header=False, show_lines=True)
    for c in range(SIZE):
        table.add_column(str(c + 1))
    styles = {Label.GREEN: "bold green", Label.ASSASSIN: "bold white on black", Label.BYSTANDER: ""}
    for r in range(SIZE):
        cells = []
        for i in range(r * SIZE, r * SIZE + SIZE):
            word = escape(words[i]) or "?"
            style = "bold red" if not words[i] else "yellow" if unsure[i] else ""
            if key is not None:
                style = styles[key[i]] or style
                word = f"{word} ({key[i].value})" if key[i] is not Label.BYSTANDER else word
            cells.append(f"[{style}]{word}[/]" if style else word)
        table.add_row(*cells)
    return table


def _fix(answer: str) -> tuple[int, str] | None:
    m = _FIX.match(answer)
    if m is None:
        return None
    return (int(m.group(1)) - 1) * SIZE + int(m.group(2)) - 1, " ".join(m.group(3).split())


def confirm_board(reading: BoardReading, console: Console, ask: Ask) -> list[str]:
    """The board after the person has seen it: every unreadable card typed, any card fixed."""
    words = reading.words
    unsure = [c.readable and not c.matched for c in reading.cells]
    try:
        for i in reading.unreadable:
            while not words[i]:
                words[i] = " ".join(ask(f"Card at row {i // SIZE + 1}, column {i % SIZE + 1} was unreadable: "
                                        "type its word: ").split())
        while True:
            console.print("The board read from the photo ([yellow]yellow[/]: not on the published card lists, "
                          "kept as read):")
            console.print(board_table(words, unsure))
            answer = ask(f"Enter if it is right, or fix a card ({FIX_HELP}): ")
            if not answer.strip():
                return words
            fixed = _fix(answer)
            if fixed is None:
                console.print(f"not a fix: write {FIX_HELP}", markup=False)
                continue
            words[fixed[0]], unsure[fixed[0]] = fixed[1], False
    except EOFError:
        fail("the board from the photo was not confirmed (input ended): answer the prompts, "
             "or give the words with --board (duetbot suggest read --photo FILE prints them)")


def confirm_key(key: KeyReading, words: Sequence[str], console: Console, ask: Ask) -> list[Label]:
    """The key card after the person has seen it on the board: any cell fixed."""
    labels = list(key.labels)
    names = {lab.value: lab for lab in Label}
    try:
        while True:
            console.print("Your side of the key card, read from the photo:")
            console.print(board_table(words, [False] * len(words), labels))
            answer = ask("Enter if it is right, or fix a card (ROW,COL green|bystander|assassin): ")
            if not answer.strip():
                return labels
            fixed = _fix(answer)
            if fixed is None or fixed[1].lower() not in names:
                console.print("not a fix: write ROW,COL and green, bystander or assassin, e.g. 4,1 green",
                              markup=False)
                continue
            labels[fixed[0]] = names[fixed[1].lower()]
    except EOFError:
        fail("the key card from the photo was not confirmed (input ended): answer the prompts, "
             "or give --green and --assassin")
