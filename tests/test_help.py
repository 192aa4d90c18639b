"""The help and the errors read as the person types: flags without a value show none, text in
brackets survives, each command's defaults are its own, and errors name flags, not JSON fields."""

from __future__ import annotations

import pytest
import typer.main
from typer.testing import CliRunner

from duetbot.cli import app
from duetbot.wordpool import default_pool

from .conftest import one_line_error

runner = CliRunner()
BOARD = ",".join(default_pool()[:25])


def commands(group, path: tuple[str, ...] = ()):
    yield path, group
    if hasattr(group, "commands"):  # a group (typer's click may be its own copy: no isinstance)
        for name, sub in group.commands.items():
            yield from commands(sub, (*path, name))


ALL = list(commands(typer.main.get_command(app)))


def help_text(path) -> str:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("path", [p for p, _ in ALL], ids=lambda p: " ".join(p) or "duetbot")
def test_flags_show_no_value_and_values_do(path):
    command = dict(ALL)[path]
    text = help_text(path)
    lines = {line.split()[1]: line for line in text.splitlines() if line.strip().startswith("│ --")}
    for param in command.params:
        if getattr(param, "param_type_name", "") != "option" or param.hidden:
            continue
        line = lines[param.opts[0]] if param.opts[0] in lines else next(
            v for k, v in lines.items() if k.startswith(param.opts[0]))
        head = line.split((param.help or "")[:15])[0] if param.help else line
        if param.is_flag:
            assert "<" not in head, line  # --quiet, not --quiet <bool>
        else:
            assert "<" in head or (param.metavar and param.metavar in head), line


def test_brackets_in_help_survive():
    assert "pip install 'duetbot[gensim]'" in help_text(("models", "import"))


def test_only_commands_with_resume_mention_it_in_the_partner_default():
    for path, command in ALL:
        names = {o for p in command.params for o in getattr(p, "opts", ())}
        if "--partner" not in names:
            continue
        partner = next(p for p in command.params if "--partner" in getattr(p, "opts", ()))
        shown = str(partner.show_default)
        assert ("--resume" in shown) == ("--resume" in names), (path, shown)


def test_errors_name_flags_not_json_fields(tmp_path):
    one_line_error(runner.invoke(app, ["suggest", "guess", "--board", BOARD]), "missing --clue")
    one_line_error(runner.invoke(app, ["suggest", "clue", "--board", BOARD]), "missing --green")
    result = runner.invoke(app, ["suggest", "clue", "--board", "a,b", "--green", "a"])
    one_line_error(result, "--board has 2 words")
    assert "field" not in result.output
    request = tmp_path / "table.json"
    request.write_text('{"board": ["a"]}')
    one_line_error(runner.invoke(app, ["suggest", "clue", "--request", str(request)]),
                   f"field 'board' of {request} (or --board) has 1 word")
