"""The help and the errors read as the person types: flags without a value show none, text in
brackets survives, each command's defaults are its own, and errors name flags, not JSON fields."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import typer.main
from typer.testing import CliRunner

from duetbot.cli import app
from duetbot.wordpool import default_pool

from .conftest import one_line_error

runner = CliRunner()
PLACEHOLDER = re.compile(r"'?[A-Z][A-Z=+]*'?|[a-z0-9-]+(\|[a-z0-9-]+)*")
"""A value as people read it: FILE, N, WORD=LIKE+LIKE, N', or choices (duet|classic, random)."""
BOARD = ",".join(default_pool()[:25])


def commands(group, path: tuple[str, ...] = ()):
    yield path, group
    if hasattr(group, "commands"):  # a group (typer's click may be its own copy: no isinstance)
        for name, sub in group.commands.items():
            yield from commands(sub, (*path, name))


ALL = list(commands(typer.main.get_command(app).load_all()))   # the root loads its commands when run


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
        value = head.split(param.opts[0])[1].strip("│ ")
        if param.is_flag:
            assert value in ("", *param.secondary_opts) or value.startswith("-"), line  # not --quiet <bool>
        else:
            shown = [v for v in value.split() if not v.startswith("[")]   # a range ([x>=1]) may follow
            assert PLACEHOLDER.fullmatch(shown[-1]), line  # --seed N, --game duet|classic, not <int>


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


# --- help as people read it (issue 37) ---------------------------------------------------------


@pytest.mark.parametrize("path", [(), ("play",), ("suggest", "clue"), ("models", "build")])
def test_dash_h_is_help(path):
    result = runner.invoke(app, [*path, "-h"])
    assert result.exit_code == 0 and "Usage:" in result.output and "--help" in result.output


@pytest.mark.parametrize("path", [p for p, _ in ALL], ids=lambda p: " ".join(p) or "duetbot")
def test_help_has_no_markup_no_type_names_and_one_style_of_default(path):
    text = help_text(path)
    assert "`" not in text                                          # no reStructuredText backticks
    assert not re.search(r"<[a-z][a-z \[\]|]*>|\{[a-z]+\}|list\[", text), text   # not <list[str]>, {path}
    assert "(default" not in text and "[default: (" not in text    # [default: ...], and only that
    assert "Named for" not in text                                  # no design notes


def test_choices_are_shown_as_choices_everywhere():
    for path, command in ALL:
        names = {o for p in getattr(command, "params", ()) for o in getattr(p, "opts", ())}
        text = help_text(path)
        if "--game" in names:
            assert re.search(r"--game\s+duet\|classic", text), path
        if "--role" in names:
            assert re.search(r"--role\s+spymaster\|operative", text), path


def test_format_choices_are_whole_on_an_80_column_terminal():
    text = runner.invoke(app, ["models", "import", "--help"], env={"COLUMNS": "80"}).output
    for choice in ("auto", "word2vec,", "word2vec-binary", "glove", "fasttext", "keyedvectors"):
        assert choice in text, choice


def test_play_help_lists_the_in_game_commands():
    text = " ".join(help_text(("play",)).split())
    for word in ("pass ends your turn", "hint", "quit", "help"):
        assert word in text


def test_simulate_says_the_time_left_at_the_pace_of_the_whole_run():
    from duetbot.cli.simulate import time_left

    assert time_left(0, 100, 5.0) == "-:--:-- left"           # nothing to go by yet
    assert time_left(32, 968, 10.0) == "0:05:02 left"         # a chunk of 32 in 10 s: 302 s for the rest
    assert time_left(999, 1, 3600.0) == "0:00:04 left"


# --- the root lists its commands without importing them (issue 39) ---------------------------


def test_the_root_lists_each_command_with_its_own_help():
    """The root's stand-ins carry each command's own first paragraph of help, so ``duetbot
    --help`` reads as it would with every command imported."""
    from duetbot.cli.app import COMMANDS, load_command

    listed = typer.main.get_command(app).commands
    assert list(listed) == list(COMMANDS)
    for name, stand_in in listed.items():
        real = load_command(name)
        assert stand_in.help == (real.help or "").split("\n\n")[0].strip(), name
        assert not real.hidden and not real.deprecated and real.short_help is None, name


def test_a_command_run_is_the_command_itself_not_its_stand_in():
    result = runner.invoke(app, ["simulate", "--games", "0"])
    assert result.exit_code == 2 and "--games" in result.output      # its own option's check ran
    assert runner.invoke(app, ["suggest", "schema"]).exit_code == 0


def test_help_imports_no_command_module_and_a_command_only_its_own():
    code = ("import sys; from duetbot.cli import main; sys.argv = ['duetbot'] + sys.argv[1:]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('loaded', sorted(m for m in sys.modules if m.startswith(('duetbot.cli.', 'rich', 'pydantic'))"
            " and m not in ('duetbot.cli.app', 'duetbot.cli.common')), file=sys.stderr)")

    def loaded(*args: str) -> str:
        err = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True).stderr
        return err.rsplit("loaded", 1)[1]

    helped = loaded("--help")
    assert "duetbot.cli." not in helped and "pydantic" not in helped    # rich draws the help itself
    schema = loaded("suggest", "schema")
    assert "duetbot.cli.suggest" in schema and "duetbot.cli.play" not in schema and "duetbot.cli.simulate" not in schema
    assert "rich" not in schema and "pydantic" not in schema            # a command given no option values
