"""The terminal game as a newcomer meets it: a typo is asked about before the turn is spent,
the bot's clue stays in the guess prompt, found agents and your own read apart without colour,
and a finished game is saved as finished (``--resume`` says it is over; the browser lists it so)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from duetbot.cli import app
from duetbot.records import GameRecord
from duetbot.rules import Label, Player
from duetbot.saves import load_saved
from duetbot.web import GameStore

from .test_play import SEED, fake_bot, game_deal, idx, legal_clue, lines, words

A, B = Player.A, Player.B
runner = CliRunner()


@pytest.fixture
def scripted_bot(monkeypatch):
    """The bot replaced by test_play's scripted fake, which knows the deal."""
    import duetbot.cli.play as play_mod

    def install(per_turn=9):
        d = game_deal(SEED)
        monkeypatch.setattr(play_mod, "make_bot", lambda s, vectors=(): fake_bot(d, per_turn))
        return d
    return install


def test_a_clue_word_the_bot_does_not_know_is_asked_about_first(tmp_path):
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "--seed", "5", "--save", str(save)],
                           input=lines("oceon 2", "n", "xkcdqq 2", "y", "quit"))
    assert result.exit_code == 0, result.output
    assert "OCEON: not a word I know. Did you mean OCEAN?" in result.output
    assert "XKCDQQ: not a word I know." in result.output
    state = load_saved(save)[0]
    assert [t.clue.word for t in state.turns if t.giver is A] == ["xkcdqq"]  # the typo spent nothing
    # answering with the corrected clue gives it
    result = runner.invoke(app, ["play", "--seed", "5", "--save", str(save)], input=lines("oceon 2", "ocean 2", "quit"))
    assert result.exit_code == 0, result.output
    assert [t.clue.word for t in load_saved(save)[0].turns if t.giver is A] == ["ocean"]


def test_the_guess_prompt_repeats_the_bots_clue(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    result = runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(tmp_path / "g.json")],
                           input=lines(f"{legal_clue(d)} 9", "quit"))
    assert result.exit_code == 0, result.output
    clue = legal_clue(d, 1).upper()  # the fake bot's clue, for its 6 greens left
    assert f"Your guess on {clue}: 6 (a word, or 'pass' to end the turn): " in result.output


def test_found_agents_and_your_own_read_apart_without_colour(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(save)], input=lines(f"{legal_clue(d)} 9", "quit"))
    from duetbot.cli.play import render_board
    from rich.console import Console

    state = load_saved(save)[0]
    console = Console(width=120, no_color=True, record=True)
    console.print(render_board(state))
    text = console.export_text()
    mine = [d.words[i] for i in idx(d, A, Label.GREEN) if i not in state.covered_green]
    found = [d.words[i] for i in sorted(state.covered_green)]
    assert found and "found" in text and "your agent" in text
    assert "[agent]" not in text  # the old tag, one bracket away from "agent"
    assert text.count("your agent") == len(mine) + text.count("your agent:")  # one per own agent still hidden


def test_a_finished_game_is_saved_finished_and_resume_says_so(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    save = tmp_path / "game.json"
    b_left = [w for w in words(d, idx(d, B, Label.GREEN)) if w not in words(d, idx(d, A, Label.GREEN))]
    result = runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(save)],
                           input=lines(f"{legal_clue(d)} 9", *b_left))
    assert result.exit_code == 0, result.output
    assert "You won!" in result.output and f"The finished game is saved in {save}" in result.output
    record = GameRecord.loads(save.read_text())
    assert record.outcome is not None  # finished, not mid-play
    result = runner.invoke(app, ["play", "--resume", str(save)], input="")
    assert result.exit_code == 0, result.output
    assert "This game is over" in result.output and "Your guess" not in result.output
    assert GameStore(tmp_path).listing()[0]["over"]  # the browser lists it as over


def test_classic_spymaster_is_asked_about_an_unknown_clue_word_too(tmp_path):
    save = tmp_path / "c.json"
    result = runner.invoke(app, ["play", "--game", "classic", "--seed", "5", "--save", str(save)],
                           input=lines("oceon 2", "n", "quit"))
    assert result.exit_code == 0, result.output
    assert "OCEON: not a word I know. Did you mean OCEAN?" in result.output
    assert "You say" not in result.output  # nothing was given


def test_an_80_column_terminal_breaks_no_word(tmp_path, monkeypatch):
    """Issue 37: messages printed whole left the terminal to break them at its edge ("--s|eed",
    "CO|LONEL"); on a terminal they are wrapped between words."""
    import io
    import re

    import duetbot.cli.play as play_mod
    from duetbot.cli.consoles import GameConsole

    screen = io.StringIO()
    monkeypatch.setattr(play_mod, "GameConsole", lambda **kw: GameConsole(
        file=screen, force_terminal=True, width=80, color_system=None, **kw))
    given = lines("hint", "seeds 2", "quit")  # SEED is on seed 7's board: an illegal clue
    args = ["play", "--seed", "7", "--hint", "--save", str(tmp_path / "g.json")]
    assert runner.invoke(app, args, input=given).exit_code == 0
    monkeypatch.undo()
    piped = runner.invoke(app, args, input=given).output   # one line a message
    shown = screen.getvalue()
    assert shown.count("--seed 7") == 1 and "give another clue" in shown and "hint: try" in shown
    assert max(len(line) for line in shown.splitlines()) <= 80
    words = set(re.findall(r"[\w'.:-]+", piped))
    assert set(re.findall(r"[\w'.:-]+", shown)) <= words   # no piece of a broken word
