"""``duetbot play``: a human (player A) and a bot (player B) in the terminal.

The key card of a seeded game is known to the test (``deal(seed, default_pool())``), so the
human's answers can be scripted; the bot is replaced by a scripted fake that knows the deal
where a test needs a predictable partner.
"""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import duetbot.cli.play as play_mod
from duetbot.bots import Partner
from duetbot.cli import app
from duetbot.cli.common import hint_for
from duetbot.cli.play import (
    CLUE_PROMPT, FOUND, GUESS_PROMPT, SUDDEN_DEATH_PROMPT, QuitGame, Session, _cell, guess_prompt, load_game,
    render_screen, run_game, save_game,
)
from duetbot.records import GameRecord
from duetbot.rules import (
    Clue, Deal, EndTurn, Guess, KeyCard, Label, Phase, Player, State, Variant, deal, is_legal_clue,
    make_deal,
)
from duetbot.views import guesser_view, spymaster_view
from duetbot.wordpool import default_pool

from .conftest import one_line_error

A, B = Player.A, Player.B
SEED = 12
runner = CliRunner()
SRC = str(Path(__file__).resolve().parents[1] / "src")


def game_deal(seed=SEED):
    return deal(seed, default_pool())


def idx(d, player, label):
    return sorted(d.key.indices(player, label))


def words(d, indices):
    return [d.words[i] for i in indices]


def legal_clue(d, n=0):
    """A clue word legal on this board (the n-th such from a small list)."""
    ok = [w for w in ("zephyr", "quasar", "nebula", "galaxy", "melody", "harbour", "velvet", "thunder")
          if is_legal_clue(w, d.words)]
    return ok[n]


# --- scripted fakes (they know the deal, as engines' tests' fakes do) ------------------------


class FakeSpymaster:
    def __init__(self, d):
        self.d = d
        self.n = 0

    def give_clue(self, view):
        self.n += 1
        return Clue(legal_clue(self.d, 1), max(1, len(view.greens_left)))


class FakeGuesser:
    """Guesses A's greens (what B must find), ``per_turn`` of them, then ends the turn."""

    def __init__(self, d, per_turn=9):
        self.d = d
        self.per_turn = per_turn

    def guess(self, view):
        if view.correct_this_turn >= self.per_turn and not view.sudden_death:
            return EndTurn()
        todo = [i for i in idx(self.d, A, Label.GREEN) if i not in view.covered]
        return Guess(self.d.words[todo[0]])


def fake_bot(d, per_turn=9):
    return Partner(FakeSpymaster(d), FakeGuesser(d, per_turn), "fake")


@pytest.fixture
def scripted_bot(monkeypatch):
    def install(per_turn=9, seed=SEED):
        d = game_deal(seed)
        monkeypatch.setattr(play_mod, "make_bot", lambda s, vectors=(): fake_bot(d, per_turn))
        return d
    return install


def lines(*answers):
    return "\n".join(answers) + "\n"


# --- full games through typer's CliRunner -------------------------------------------------


def test_full_game_to_a_win_shows_score_and_key_card(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    b_left = [w for w in words(d, idx(d, B, Label.GREEN)) if w not in words(d, idx(d, A, Label.GREEN))]
    assert len(b_left) == 6
    script = lines(f"{legal_clue(d)} 9",            # the bot finds all 9 of A's greens
                   *b_left[:3], "pass",              # the human finds 3 of B's, then ends the turn
                   *b_left[3:])                      # and the last 3 on the bot's next clue: win
    result = runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(tmp_path / "g.json")], input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"seed {SEED}" in out
    assert "All your agents are found. The bot gives every remaining clue." in out
    # tokens: 9 - 1 (turn 1) - 1 (pass) = 7 unused; 2 turns ended voluntarily
    assert "You won! All 15 agents found. Score: 23 (3 x 7 unused tokens, +2 for turns ended voluntarily)" in out
    assert "The key card (both sides)" in out
    key_part = out[out.index("The key card (both sides)"):]
    for w in d.words:
        assert w in key_part
    assert key_part.count("you assassin") == 3 and key_part.count("bot assassin") == 3
    assert key_part.count("you agent") == 9 and key_part.count("bot agent") == 9
    assert "pass" in out and "Clues so far" in out
    assert GameRecord.loads((tmp_path / "g.json").read_text()).outcome is not None  # saved as finished


def test_assassin_loss(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=1)
    # an assassin on B's side that the bot (guessing A's greens) cannot have covered
    target = next(i for i in idx(d, B, Label.ASSASSIN) if d.key.label(A, i) is not Label.GREEN)
    script = lines(f"{legal_clue(d)} 1", d.words[target])
    result = runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(tmp_path / "g.json")], input=script)
    assert result.exit_code == 0, result.output
    assert "The bot ends its turn." in result.output
    assert f"You guess {d.words[target]}: an ASSASSIN!" in result.output
    assert f"Lost: you touched {d.words[target]}, an assassin on the bot's side." in result.output
    assert "The key card (both sides)" in result.output
    assert "Score" not in result.output


def test_quit_saves_and_resume_plays_to_the_end(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    save = tmp_path / "game.json"
    b_left = [w for w in words(d, idx(d, B, Label.GREEN)) if w not in words(d, idx(d, A, Label.GREEN))]
    result = runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(save)],
                           input=lines(f"{legal_clue(d)} 9", b_left[0], b_left[1], "quit"))
    assert result.exit_code == 0, result.output
    assert f"Game saved to {save}. Continue it with: duetbot play --resume {save}" in result.output
    rec = GameRecord.loads(save.read_text())
    assert rec.outcome is None and rec.deal.seed == SEED and rec.players == {"A": "human", "B": "fake"}
    assert [e.action.word for e in rec.events if isinstance(e.action, Guess) and e.player is A] == b_left[:2]

    # the resumed game goes on mid-turn (2 correct guesses made) and saves back to the same file
    result = runner.invoke(app, ["play", "--resume", str(save)], input=lines(*b_left[2:]))
    assert result.exit_code == 0, result.output
    assert "Resuming" in result.output and "You won!" in result.output
    assert "Score: 25" in result.output  # 8 tokens left, one voluntary end (the bot's turn)


def test_end_of_input_saves_like_quit(scripted_bot, tmp_path, monkeypatch):
    d = scripted_bot()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["play", "--seed", str(SEED)], input=lines(f"{legal_clue(d)} 9"))
    assert result.exit_code == 0, result.output
    assert "duetbot play --resume duetbot-game.json" in result.output
    state = load_game(tmp_path / "duetbot-game.json")
    assert state.phase is Phase.GUESS and state.guesser is A and len(state.covered_green) == 9


def test_every_prompt_answers_bad_input_with_one_line_and_asks_again(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    a_green = words(d, idx(d, A, Label.GREEN))
    b_left = [w for w in words(d, idx(d, B, Label.GREEN)) if w not in a_green]
    bad_clues = ["", "ocean", "3", "ocean x", "ocean two", f"{d.words[0].lower()} 2", "guinea pig 2", "ocean 0",
                 "ocean -1", "hint"]
    bad_guesses = ["", "notaboardword", a_green[0], "pass"]
    script = lines(*bad_clues, f"{legal_clue(d)} 9", *bad_guesses, b_left[0], "pass", "quit")
    result = runner.invoke(app, ["play", "--seed", str(SEED), "--variant", "standard+nozero",
                                 "--save", str(tmp_path / "g.json")], input=script)
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    errors = [k for k, line in enumerate(out) if line.startswith("  x ")]
    assert len(errors) == len(bad_clues) + len(bad_guesses), result.output
    for k in errors:  # one line, then the same prompt again
        assert out[k - 1].startswith((CLUE_PROMPT, GUESS_PROMPT))
        assert out[k + 1].startswith(out[k - 1][:10]), (out[k - 1], out[k], out[k + 1])
    text = "\n".join(out[k] for k in errors)
    for needle in ("type a clue", "add a number", "a word before the number", "'x' is not a number", "'two' is not a number",
                   "clashes with visible word", "rule book", "more than one word", "zero clues are not allowed",
                   "whole number >= 0", "hints are off", "type a word from the board",
                   "'notaboardword' is not a word on this board", "is covered",
                   "pass only after a correct guess"):
        assert needle in text, needle
    assert "Traceback" not in result.output


def test_strict_penalises_an_invalid_clue(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    board_word = next(w for i, w in enumerate(d.words) if d.key.label(A, i) is not Label.GREEN)
    result = runner.invoke(app, ["play", "--seed", str(SEED), "--strict", "--save", str(tmp_path / "g.json")],
                           input=lines(f"{board_word.lower()} 9", "quit"))
    assert result.exit_code == 0, result.output
    assert "Penalty:" in result.output and "one timer token is discarded (8 left)" in result.output
    state = load_game(tmp_path / "g.json")
    assert state.turns[0].penalised and state.tokens == 7  # penalty + the bot's turn
    assert "(penalty: invalid)" in result.output


def test_hint_is_shown_with_the_hint_option(scripted_bot, tmp_path):
    d = scripted_bot()
    result = runner.invoke(app, ["play", "--seed", str(SEED), "--hint", "--save", str(tmp_path / "g.json")],
                           input=lines("hint", f"{legal_clue(d)} 9", "hint", "quit"))
    assert result.exit_code == 0, result.output
    hints = [line for line in result.output.splitlines() if line.startswith("  hint: ")]
    assert len(hints) == 2
    assert hints[0].startswith("  hint: try ") and "best guesses: " in hints[1]


# --- option and file errors ---------------------------------------------------------------


def test_resume_missing_or_corrupt_file_is_a_one_line_error(tmp_path):
    one_line_error(runner.invoke(app, ["play", "--resume", str(tmp_path / "nope.json")]), "nope.json", "no saved game")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    one_line_error(runner.invoke(app, ["play", "--resume", str(bad)]), "bad.json", "not a saved duetbot game")
    bad.write_text(json.dumps({"deal": {"words": ["X"]}}))
    one_line_error(runner.invoke(app, ["play", "--resume", str(bad)]), "bad.json")


def test_resume_refuses_options_that_change_the_game(scripted_bot, tmp_path):
    d = scripted_bot()
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(save)], input=lines(f"{legal_clue(d)} 1", "quit"))
    one_line_error(runner.invoke(app, ["play", "--resume", str(save), "--variant", "easy"]), "--variant")


def test_bad_variant_and_pool_are_one_line_errors(tmp_path):
    one_line_error(runner.invoke(app, ["play", "--variant", "mission:9"]), "mission:N:M")
    one_line_error(runner.invoke(app, ["play", "--words", str(tmp_path / "none.txt")]), "none.txt")


# --- the loop itself, driven without typer ------------------------------------------------


class Script:
    """An input function: answers in order, records the prompts; EOF when out of answers."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def console():
    return Console(file=io.StringIO(), width=100, highlight=False)


def test_session_repeats_the_same_prompt_after_each_bad_answer():
    d = game_deal()
    state = State(d, Variant())
    ask = Script("", "ocean", f"{d.words[3]} 1", f"{legal_clue(d)} 9", "", "pass", "zzz", "quit")
    con = console()
    with pytest.raises(QuitGame):
        Session(state, fake_bot(d), con, ask).run()
    assert ask.prompts[:4] == [CLUE_PROMPT] * 4
    assert ask.prompts[4:] == [guess_prompt(state.turns[-1].clue)] * 4  # the bot's clue in each guess prompt
    assert state.turns[0].clue == Clue(legal_clue(d), 9) and len(state.covered_green) == 9


def twin_deals():
    """Two deals equal on A's side, differing on B's: a bystander/bystander and a
    bystander/assassin position swap their B labels."""
    d = game_deal()
    side_a, side_b = d.key.sides
    p = next(i for i in range(25) if (side_a[i], side_b[i]) == (Label.BYSTANDER, Label.BYSTANDER))
    q = next(i for i in range(25) if (side_a[i], side_b[i]) == (Label.BYSTANDER, Label.ASSASSIN))
    other = list(side_b)
    other[p], other[q] = other[q], other[p]
    return d, Deal(d.words, KeyCard((side_a, tuple(other))), d.seed)


def test_nothing_of_the_bots_side_reaches_the_screen_before_the_end(tmp_path):
    outputs = []
    for d in twin_deals():
        b_only = [d.words[i] for i in idx(d, B, Label.GREEN) if d.key.label(A, i) is not Label.GREEN]
        con = console()
        ask = Script(f"{legal_clue(d)} 2", b_only[0], "pass", "hint", "quit")
        assert run_game(State(d), fake_bot(d, per_turn=2), con, ask, save_path=tmp_path / "g.json",
                        hints=True) is False
        outputs.append(con.file.getvalue())
    # the same public play gives the same screen whatever the bot's side of the key card
    assert outputs[0] == outputs[1]
    assert "The key card" not in outputs[0] and "bot assassin" not in outputs[0]


def test_sudden_death_bot_first_then_human_alternately(tmp_path):
    """The state decides who guesses next in sudden death (player B first, then in turn), so
    play, the harness and a resumed save agree."""
    d = game_deal()
    a_green, b_green = idx(d, A, Label.GREEN), idx(d, B, Label.GREEN)
    state = State(d, Variant(tokens=1))
    # the human's clue: the bot finds one of A's greens and ends its turn -> no tokens: sudden death
    ask = Script(f"{legal_clue(d)} 1", d.words[[i for i in b_green if i not in a_green][0]], "quit")
    con = console()
    with pytest.raises(QuitGame):
        Session(state, fake_bot(d, per_turn=1), con, ask).run()
    assert ask.prompts == [CLUE_PROMPT, SUDDEN_DEATH_PROMPT, SUDDEN_DEATH_PROMPT]
    out = con.file.getvalue()
    assert "SUDDEN DEATH" in out and "the bot guesses first, then you" in out
    guessers = [e.player for e in state.events if isinstance(e.action, Guess)]
    assert guessers == [B, B, A, B]  # B in the normal turn, then B, A, B in sudden death
    assert state.mover() is A
    # resuming keeps the alternation (the human is next); pass is refused
    save_game(state, tmp_path / "sd.json")
    resumed = load_game(tmp_path / "sd.json")
    assert resumed == state and resumed.mover() is A
    ask = Script("pass", "quit")
    con = console()
    with pytest.raises(QuitGame):
        Session(resumed, fake_bot(d), con, ask).run()
    assert resumed == state
    assert ask.prompts == [SUDDEN_DEATH_PROMPT, SUDDEN_DEATH_PROMPT]
    assert "no passing in sudden death" in con.file.getvalue()


def test_hint_reads_with_the_partners_families():
    """--partner model=glove50: the hint is the glove50 bots' reading (without the partner's
    noise), the same one line in the terminal as from the suggester."""
    from duetbot.bots.factory import PartnerSpec
    from duetbot.cli.common import _hinter

    spec = PartnerSpec.parse("model=glove50,noise=0.3")
    helper = _hinter(spec)
    assert helper.spymaster.ensemble.names == ("glove50",) and helper.guesser.ensemble.names == ("glove50",)
    assert helper.guesser.config.noise == 0
    view = spymaster_view(State(game_deal()), A)
    assert hint_for(view, spec) == helper.hint(view).text() and hint_for(view, spec).startswith("try ")
    assert _hinter(PartnerSpec.parse("bot=random")).spymaster.ensemble.names == _hinter(None).spymaster.ensemble.names


def test_hint_for_uses_only_the_viewers_side():
    d = game_deal()
    state = State(d)
    h = hint_for(spymaster_view(state, A))
    greens = words(d, idx(d, A, Label.GREEN))
    assert h.startswith("try ") and any(g in h for g in greens)
    # The same hint whatever the partner's side says: swap two of B's labels that A sees alike.
    side_b = list(d.key.sides[1])
    i, j = next((i, j) for i in range(25) for j in range(25)
                if d.key.sides[0][i] == d.key.sides[0][j] and side_b[i] != side_b[j])
    side_b[i], side_b[j] = side_b[j], side_b[i]
    twin = State(make_deal(d.words, d.key.sides[0], side_b))
    assert hint_for(spymaster_view(twin, A)) == h
    state.apply(Clue(legal_clue(d), 2), B)
    twin.apply(Clue(legal_clue(d), 2), B)
    h = hint_for(guesser_view(state, A))
    assert h.startswith("best guesses: ") and h == hint_for(guesser_view(twin, A))


def test_a_guess_hint_shows_the_risks_where_to_stop_and_my_own_assassins():
    """Issue 37: the terminal's guess hint said only "RULER, SPIDER, FIRE", two of them the
    person's own assassins; now it says what the web page says, and names those."""
    from duetbot.suggest import Hint, Suggester
    from duetbot.suggest.requests import DuetGuess

    d = game_deal()
    state = State(d)
    state.apply(Clue(legal_clue(d), 2), B)
    hint = Suggester.for_partner().hint(guesser_view(state, A))
    assert hint.own_assassins == set(words(d, idx(d, A, Label.ASSASSIN)))
    text = hint.text()
    assert ", then stop" in text and text.count("(agent ") == max(hint.stop_after, 3)
    ruler, spider, fire = (DuetGuess(w, 0.5, p, q) for w, p, q in (("RULER", 0.62, 0.03), ("SPIDER", 0.4, 0.08),
                                                                   ("FIRE", 0.2, 0.1)))
    text = Hint(guesses=(ruler, spider, fire), stop_after=2, own_assassins=frozenset({"SPIDER", "FIRE"})).text()
    assert text == ("best guesses: RULER (agent 62%, assassin 3%), SPIDER (agent 40%, assassin 8%, your assassin), "
                    "then stop; next would be FIRE (agent 20%, assassin 10%, your assassin)")

def test_run_game_saves_on_quit_and_shows_the_end(tmp_path):
    d = game_deal()
    save = tmp_path / "s.json"
    con = console()
    assert run_game(State(d), fake_bot(d), con, Script("quit"), save_path=save) is False
    assert GameRecord.loads(save.read_text()).events == []
    target = next(i for i in idx(d, B, Label.ASSASSIN) if d.key.label(A, i) is not Label.GREEN)
    con = console()
    assert run_game(State(d), fake_bot(d, 1), con, Script(f"{legal_clue(d)} 1", d.words[target]),
                    save_path=save) is True
    assert "The key card (both sides)" in con.file.getvalue()


# --- a real terminal process --------------------------------------------------------------


def scripted_answers(state, seed, prompts):
    """Answer ``prompts`` prompts the way a sensible human would (knowing the key card for
    the test), against the real random bot, then quit. Returns the answers, or None if the
    game ended first."""
    d = state.deal
    answers = []

    def ask(prompt):
        if len(answers) >= prompts:
            answers.append("quit")
        elif "Give it anyway?" in prompt:  # a clue word the bot does not know: insist
            answers.append("y")
        elif prompt == CLUE_PROMPT:
            given = sum(1 for t in state.turns if t.giver == A)
            answers.append(f"{legal_clue(d, given)} 2")
        else:
            turn = state.current_turn
            if turn is not None and any(r.value == "green" for _, r in turn.guesses):
                answers.append("pass")
            else:
                todo = [i for i in idx(d, B, Label.GREEN) if i not in state.covered() and i not in state.marks[A]]
                answers.append(d.words[todo[0]])
        return answers[-1]

    try:
        Session(state, play_mod.make_bot(seed), console(), ask).run()
    except QuitGame:
        return answers
    return None


def run_cli(args, text):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "duetbot", "play", *args], input=text, capture_output=True,
                          text=True, timeout=120, env=env)


def _resumable(seed):
    """The first session's answers for a game that lasts 5 prompts and then 2 more, or None."""
    state = State(game_deal(seed))
    first = scripted_answers(state, seed, 5)
    return first if first is not None and scripted_answers(state, seed, 2) is not None else None


def test_real_subprocess_plays_quits_and_resumes(tmp_path):
    seed, first = next((s, a) for s in range(100) if (a := _resumable(s)) is not None)
    save = tmp_path / "sub.json"
    proc = run_cli(["--seed", str(seed), "--save", str(save)], lines(*first))
    assert proc.returncode == 0, proc.stderr
    assert f"duetbot play --resume {save}" in proc.stdout and "The bot's clue:" in proc.stdout
    rec = GameRecord.loads(save.read_text())
    assert rec.outcome is None and len(rec.clues) >= 2
    n_events = len(rec.events)

    state = load_game(save)
    more = scripted_answers(state, seed, 2) or ["quit"]
    proc = run_cli(["--resume", str(save)], lines(*more))
    assert proc.returncode == 0, proc.stderr
    assert "Resuming" in proc.stdout
    rec2 = GameRecord.loads(save.read_text()) if "Game saved" in proc.stdout else None
    assert rec2 is None or len(rec2.events) > n_events
    assert "Game saved" in proc.stdout or "The key card (both sides)" in proc.stdout


# --- rendering ----------------------------------------------------------------------------


def screen_text(state):
    con = console()
    con.print(render_screen(state))
    return con.file.getvalue()


def test_board_shows_own_side_covered_words_marks_and_mission_tokens():
    d = game_deal()
    nn = next(i for i in range(25) if d.key.label(A, i) is Label.BYSTANDER and d.key.label(B, i) is Label.BYSTANDER)
    state = State(d, Variant.parse("mission:9:5"))
    state.apply(Clue(legal_clue(d), 1), A)
    state.apply(Guess(d.words[nn]), B)  # B's miss, marked by A
    text = screen_text(state)
    assert "missed by bot" in text and "4 bystander side up" in text and "Timer tokens left: 8" in text
    assert f"{FOUND}: covered by an agent card" in " ".join(text.split())  # the legend keeps its tag
    state.apply(Clue(legal_clue(d), 1), B)
    state.apply(Guess(d.words[nn]), A)  # now marked by both: covered
    state.apply(Clue(legal_clue(d), 1), A)
    state.apply(Guess(d.words[next(iter(idx(d, A, Label.GREEN)))]), B)
    text = screen_text(state)
    assert "[both missed]" in text and FOUND in text
    assert "Clues so far" in text and "(bystander)" in text and "(agent)" in text
    # colours and tags come from the human's own side only
    assert _cell(state, idx(d, A, Label.ASSASSIN)[0]).spans[-1].style == "bold red"
    assert "agent" in str(_cell(state, [i for i in idx(d, A, Label.GREEN) if i not in state.covered()][0]))


def test_resume_of_a_finished_game_shows_the_end(tmp_path):
    d = game_deal()
    state = State(d)
    state.apply(Clue(legal_clue(d), 1), A)
    target = next(i for i in idx(d, A, Label.ASSASSIN) if d.key.label(B, i) is not Label.GREEN)
    state.apply(Guess(d.words[target]), B)
    assert state.is_over()
    save_game(state, tmp_path / "over.json")
    result = runner.invoke(app, ["play", "--resume", str(tmp_path / "over.json")])
    assert result.exit_code == 0, result.output
    assert f"Lost: bot touched {d.words[target]}, an assassin on your side." in result.output
    assert "The key card (both sides)" in result.output


# --- robustness: odd saves, save paths, full disks (issue 13) ---------------------------------


def test_resume_of_odd_saves_is_a_one_line_error(tmp_path):
    bad = tmp_path / "odd.json"
    for text in ("[" * 990 + "]" * 990, '{"version": ' + "9" * 4301 + "}", "\ufeff{not json", '{"deal": NaN}',
                 '{"deal": 1e999}', '{"deal": [], "events": {}}', '{"deal": {"words": 5}}', '{"players": [1]}',
                 '"just a string"', "\xff\xfe"):
        bad.write_bytes(text.encode("utf-8", "surrogateescape"))
        one_line_error(runner.invoke(app, ["play", "--resume", str(bad)]), "odd.json")
        one_line_error(runner.invoke(app, ["play", "--game", "classic", "--resume", str(bad)]), "odd.json")


def test_resume_refuses_a_save_from_a_newer_duetbot(scripted_bot, tmp_path):
    d = scripted_bot()
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(save)], input=lines(f"{legal_clue(d)} 1", "quit"))
    data = json.loads(save.read_text())
    data["version"] = 99
    save.write_text(json.dumps(data))
    one_line_error(runner.invoke(app, ["play", "--resume", str(save)]), "g.json", "newer duetbot", "99")
    data["version"] = "one"
    save.write_text(json.dumps(data))
    one_line_error(runner.invoke(app, ["play", "--resume", str(save)]), "g.json", "version")


def test_a_save_with_a_bom_resumes(scripted_bot, tmp_path):
    d = scripted_bot()
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(save)], input=lines(f"{legal_clue(d)} 1", "quit"))
    save.write_text("\ufeff" + save.read_text(), encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", str(save)], input="quit\n")
    assert result.exit_code == 0 and "Resuming" in result.output, result.output


def test_save_path_is_checked_before_the_game(tmp_path):
    missing = tmp_path / "missing" / "x.json"
    for args in (["play", "--seed", "3"], ["play", "--game", "classic", "--seed", "3"]):
        result = runner.invoke(app, [*args, "--save", str(missing)], input="quit\n")
        one_line_error(result, str(missing.parent), "does not exist", "--save")
    one_line_error(runner.invoke(app, ["play", "--seed", "3", "--save", str(tmp_path)], input="quit\n"),
                   "is a directory")


def test_resume_mid_guess_shows_the_clue_being_guessed(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    save = tmp_path / "game.json"
    b_left = [w for w in words(d, idx(d, B, Label.GREEN)) if w not in words(d, idx(d, A, Label.GREEN))]
    runner.invoke(app, ["play", "--seed", str(SEED), "--save", str(save)],
                  input=lines(f"{legal_clue(d)} 9", b_left[0], "quit"))
    result = runner.invoke(app, ["play", "--resume", str(save)], input="quit\n")
    assert result.exit_code == 0, result.output
    clue = legal_clue(d, 1)  # the fake bot's clue
    assert f"You are guessing on the bot's clue {clue.upper()}" in result.output.upper() or \
        f"guessing on the bot's clue {clue}" in result.output.lower()
    assert b_left[0].lower() in result.output.lower().split("so far:")[1]
    assert "Clues so far" in result.output


def test_a_full_disk_keeps_the_game(tmp_path, monkeypatch):
    """Saving to a full disk writes the game to a temporary file and says where."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    state = State(game_deal(), Variant())
    bot = fake_bot(game_deal())
    console = Console(file=io.StringIO(), width=120)

    def ask(prompt):
        raise EOFError

    from duetbot.saves import SaveError

    with pytest.raises(SaveError) as err:
        run_game(state, bot, console, ask, save_path=Path("/dev/full"))
    msg = str(err.value)
    assert "cannot save the game to /dev/full" in msg and "\n" not in msg
    rescued = Path(msg.split("saved to ")[1].split(" instead")[0])
    assert rescued.parent == tmp_path and load_game(rescued).words == state.words
    assert Path("/dev/full").is_char_device()  # written in place, never replaced


def test_a_failing_terminal_saves_the_game(tmp_path):
    class Full(io.StringIO):
        def write(self, s):
            raise OSError(28, "No space left on device")

    state = State(game_deal(), Variant())
    save = tmp_path / "g.json"
    with pytest.raises(play_mod.OutputError, match="No space left on device.*saved to"):
        run_game(state, fake_bot(game_deal()), Console(file=Full()), lambda p: "quit", save_path=save)
    assert load_game(save).words == state.words


def test_subprocess_full_disk_is_one_line(tmp_path):
    env = {**os.environ, "PYTHONPATH": SRC, "TMPDIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "duetbot", "play", "--seed", "3", "--save", "/dev/full"],
                          input="quit\n", capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith("error: cannot save the game to /dev/full") and "\n" not in proc.stderr.strip()
    assert "--resume" in proc.stderr and list(tmp_path.glob("duetbot-game-*.json"))
    assert Path("/dev/full").is_char_device()


def test_profile_is_kept_beside_the_save_after_each_game(scripted_bot, tmp_path):
    d = scripted_bot(per_turn=9)
    b_left = [w for w in words(d, idx(d, B, Label.GREEN)) if w not in words(d, idx(d, A, Label.GREEN))]
    script = lines(f"{legal_clue(d)} 9", *b_left[:3], "pass", *b_left[3:])
    args = ["play", "--seed", str(SEED), "--save", str(tmp_path / "g.json"), "--profile", "alice"]
    result = runner.invoke(app, args, input=script)
    assert result.exit_code == 0, result.output
    path = tmp_path / "duetbot-profile-alice.json"
    assert "Profile alice: new" in result.output and f"saved to {path}" in result.output
    assert json.loads(path.read_text())["games"] == 1
    again = runner.invoke(app, args, input=script)
    assert "what it learnt of you in 1 game(s)" in again.output
    assert json.loads(path.read_text())["games"] == 2
    # a game that is quit teaches nothing yet
    runner.invoke(app, args, input=lines("quit"))
    assert json.loads(path.read_text())["games"] == 2


def test_bad_profiles_are_one_line_errors(tmp_path):
    save = ["--save", str(tmp_path / "g.json")]
    one_line_error(runner.invoke(app, ["play", *save, "--profile", "../x"]), "bad profile name")
    (tmp_path / "duetbot-profile-bob.json").write_text('{"version": 7}')
    one_line_error(runner.invoke(app, ["play", *save, "--profile", "bob"]), "duetbot-profile-bob.json",
                   "not a duetbot profile", "delete it")
    (tmp_path / "duetbot-profile-bob.json").write_text("{")
    one_line_error(runner.invoke(app, ["play", *save, "--profile", "bob"]), "duetbot-profile-bob.json")
    one_line_error(runner.invoke(app, ["play", *save, "--profile", "bob", "--game", "classic"]), "--profile")
