"""``duetbot play --move``: one move of the person per call, no prompts, and the library
function behind it (:func:`duetbot.saves.moves.play_moves`).

The subprocess tests play a seeded game with the real bot; what they assert does not depend
on which clue the bot gives (the person's guesses are picked from the bot's side of the key
card, which the test knows from the save).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from duetbot.bots import Partner
from duetbot.records import GameRecord
from duetbot.rules import Clue, EndTurn, Guess, Label, Phase, Player, State, deal
from duetbot.saves.moves import (
    GameOver, MoveError, expected_move, parse_clue, play_moves, split_moves,
)

A, B = Player.A, Player.B
SRC = str(Path(__file__).resolve().parents[1] / "src")
SEED = 7
CLUE = "sandwich 2"  # legal on seed 7's board (BREAD, CHEESE are the person's agents)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""), COLUMNS="80")
    return subprocess.run([sys.executable, "-m", "duetbot", "play", *args], capture_output=True, text=True,
                          timeout=120, env=env, stdin=subprocess.DEVNULL)


def load(path: Path) -> State:
    return GameRecord.loads(path.read_text()).replay()


def refused(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), proc.stderr
    for w in words:
        assert w in lines[0], lines[0]


def bot_side(state: State, label: Label) -> list[str]:
    """Words still guessable by the person that are ``label`` on the bot's side (the clue giver's)."""
    return [state.words[i] for i in state.guessable(A) if state.deal.key.label(B, i) is label]


def test_one_move_per_call_game(tmp_path):
    save = tmp_path / "g.json"
    # a new game: shown, saved, nothing asked
    proc = run("--seed", str(SEED), "--save", str(save), "--move", "show")
    assert proc.returncode == 0, proc.stderr
    assert "Your move: Give a clue (WORD NUMBER)" in proc.stdout and "your agent" in proc.stdout
    assert "ASSASSIN" in proc.stdout and save.exists() and load(save).events == []
    assert max(len(line) for line in proc.stdout.splitlines()[1:] if str(save) not in line) <= 80
    # a forgotten --resume does not wipe the game
    refused(run("--seed", str(SEED), "--save", str(save), "--move", "show"), "already exists", "--resume")

    # illegal and malformed clues: exit 2, one line, the save untouched
    before = save.read_bytes()
    visible = load(save).words[0]
    refused(run("--resume", str(save), "--move", f"{visible} 2"), visible.lower(), "give another clue")
    refused(run("--resume", str(save), "--move", "sandwich"), "add a number")
    refused(run("--resume", str(save), "--move", "pass"), "clue")
    assert save.read_bytes() == before

    # the person's clue: the bot guesses, then gives its own clue
    proc = run("--resume", str(save), "--move", CLUE)
    assert proc.returncode == 0, proc.stderr
    assert "You give the clue SANDWICH: 2" in proc.stdout and "The bot guesses" in proc.stdout
    state = load(save)
    assert state.turns[0].clue == Clue("sandwich", 2) and not state.is_over()
    assert state.phase is Phase.GUESS and state.giver is B
    bot_clue = state.turns[-1].clue
    assert f"The bot's clue: {bot_clue}" in proc.stdout
    assert f"Your move: Guess on {bot_clue.word.upper()} {bot_clue.number}" in proc.stdout
    assert "The key card" not in proc.stdout and "bot assassin" not in proc.stdout  # B's side hidden

    # the bot's side stays hidden, but a pass before a correct guess and a non-word are refused
    before = save.read_bytes()
    refused(run("--resume", str(save), "--move", "pass"), "correct guess")
    refused(run("--resume", str(save), "--move", "zzzz"), "not a word on this board")
    refused(run("--resume", str(save), "--move", "ocean 2"), "looks like a clue")
    greens, bystanders = bot_side(state, Label.GREEN), bot_side(state, Label.BYSTANDER)
    # a bad word after good ones refuses the whole call
    refused(run("--resume", str(save), "--move", f"{greens[0]}, zzzz"), "zzzz")
    assert save.read_bytes() == before

    # several guesses: in order, stopping at the first miss; the rest is not played
    proc = run("--resume", str(save), "--move", f"{greens[0]}, {greens[1]}", "--move", f"{bystanders[0]}, {greens[2]}")
    assert proc.returncode == 0, proc.stderr
    assert f"Not played (your turn ended before them): {greens[2]}." in proc.stdout
    after = load(save)
    guesses = [e.action.word for e in after.events[len(state.events):] if isinstance(e.action, Guess)]
    assert guesses == [greens[0], greens[1], bystanders[0]]
    assert after.phase is Phase.CLUE and after.mover() is A
    assert "Your move: Give a clue (WORD NUMBER)" in proc.stdout

    # a finished game: the end shown (both sides), then moves refused
    assassin = next(w for w in bot_side(after, Label.ASSASSIN))
    proc = run("--resume", str(save), "--move", "galaxy 1")
    assert proc.returncode == 0, proc.stderr
    st = load(save)
    if not st.is_over() and st.phase is Phase.GUESS and st.mover() is A:
        proc = run("--resume", str(save), "--move", next(w for w in bot_side(st, Label.ASSASSIN)))
    elif not st.is_over():  # pragma: no cover - the bot ended the game otherwise or handed over
        pytest.skip("the bot's play left no guess to end the game with")
    assert proc.returncode == 0, proc.stderr
    assert "Game over: Lost" in proc.stdout and "The key card (both sides)" in proc.stdout
    assert load(save).is_over()
    before = save.read_bytes()
    refused(run("--resume", str(save), "--move", assassin), "is over")
    assert save.read_bytes() == before
    proc = run("--resume", str(save), "--move", "show")
    assert proc.returncode == 0 and "Game over: Lost" in proc.stdout


def test_move_with_a_partner_spec(tmp_path):
    save = tmp_path / "p.json"
    proc = run("--seed", str(SEED), "--save", str(save), "--partner", "model=glove50", "--move", CLUE)
    assert proc.returncode == 0, proc.stderr
    assert GameRecord.loads(save.read_text()).partner == "model=glove50"
    assert "The bot's clue:" in proc.stdout or "Game over" in proc.stdout
    proc = run("--resume", str(save), "--move", "show")
    assert proc.returncode == 0 and "partner model=glove50" in proc.stdout


def test_move_is_for_duet_only(tmp_path):
    refused(run("--game", "classic", "--save", str(tmp_path / "c.json"), "--move", "show"), "Duet")


# --- the library ------------------------------------------------------------------------------


WORDS = [f"W{i}" for i in range(25)]


class Scripted:
    """B's two roles: guesses ``picks`` in order (then ends the turn), clues ``zephyr 1``."""

    def __init__(self, picks=()):
        self.picks = list(picks)

    def guess(self, view):
        return Guess(self.picks.pop(0)) if self.picks else EndTurn()

    def give_clue(self, view):
        return Clue("zephyr", 1)


def test_play_moves_is_atomic_and_stops_at_a_miss():
    d = deal(3, WORDS)
    b_greens = [d.words[i] for i in sorted(d.key.indices(B, Label.GREEN))]
    b_by = next(d.words[i] for i in sorted(d.key.indices(B, Label.BYSTANDER))
                if d.key.label(A, i) is Label.BYSTANDER)
    a_green = d.words[min(d.key.indices(A, Label.GREEN))]
    bot = Scripted([a_green])
    partner = Partner(bot, bot, "bot")
    state = State(d)
    report = play_moves(state, partner, ["quasar 1"])
    assert report.applied == ["quasar 1"] and expected_move(state).kind == "guess"
    n = len(state.events)
    with pytest.raises(MoveError, match="nope"):
        play_moves(state, partner, [b_greens[0], "nope"])
    assert len(state.events) == n  # nothing applied
    report = play_moves(state, partner, split_moves([f"{b_greens[0]}, {b_by}", b_greens[1]]))
    assert report.applied == [b_greens[0], b_by] and report.skipped == [b_greens[1]]
    assert expected_move(state).kind == "clue"


def test_play_moves_refuses_a_finished_game():
    d = deal(3, WORDS)
    pick = min(d.key.indices(A, Label.GREEN))
    assassin = d.words[min(d.key.indices(B, Label.ASSASSIN) - {pick})]
    bot = Scripted([d.words[pick]])
    state = State(d)
    play_moves(state, Partner(bot, bot, "bot"), ["quasar 1", "show"])
    play_moves(state, Partner(bot, bot, "bot"), [assassin])
    assert state.is_over() and expected_move(state).kind == "over"
    with pytest.raises(GameOver):
        play_moves(state, Partner(bot, bot, "bot"), ["quasar 1"])
    assert play_moves(state, Partner(bot, bot, "bot"), ["show"]).events == []


def test_parse_clue_messages():
    assert parse_clue("ocean: 2") == Clue("ocean", 2)
    with pytest.raises(ValueError, match="not a number"):
        parse_clue("ocean two")
    with pytest.raises(ValueError, match="word before the number"):
        parse_clue("2")
