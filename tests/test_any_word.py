"""Issue 13: every board and every input. Boards of unusual words (rare, made-up, multi-word,
punctuated, non-ASCII, and every card of the two published boxes) through each command:
every request is answered, nothing is an unknown-word error, every response is complete."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from duetbot.cli import app
from duetbot.cli.suggest import suggester
from duetbot.rules import is_legal_clue
from duetbot.wordpool import PUBLISHED_BOXES, published_box

from .conftest import bare_env

PUBLISHED = {name: list(published_box(name)) for name in PUBLISHED_BOXES}
#: Cards no shipped table has, or has only in part: names, phrases, punctuation, accents, new words.
UNUSUAL = ["MUSKETEER", "MOUNTIE", "ST.PATRICK", "ST. PATRICK", "MARACAS", "TIPI", "CAFÉ", "PIÑATA",
           "LOCH NESS", "ICE CREAM", "NEW YORK", "SCUBA DIVER", "NOTRE DAME", "ZORBLAX", "QWXZY", "O’BRIEN",
           "ROCK&ROLL", "R2D2", "JACK-IN-THE-BOX", "CRÈME BRÛLÉE", "SMØRREBRØD", "ΑΘΗΝΑ", "МОСКВА", "BITCOIN",
           "SELFIE", "EMOJI", "PODCAST", "TIKTOK", "COVID", "BLOCKCHAIN", "YEET", "DOGE", "WIFI", "7-ELEVEN",
           "ÜBERMENSCH", "FJORD", "KAYAK", "NAÏVE", "JALAPEÑO", "HOBBIT", "GRYFFINDOR", "WAKANDA", "SPIDER-MAN",
           "MCDONALD'S", "T-REX", "DÉJÀ VU", "COUP D'ÉTAT", "X-RAY", "ZZZ", "AARDVARK"]
LETTERS = "abcdefghijklmnopqrstuvwxyzéèñøüßçåœ"

made_up = st.text(alphabet=LETTERS, min_size=1, max_size=14).map(str.upper)
card = st.one_of(st.sampled_from(UNUSUAL), st.sampled_from(PUBLISHED["codenames_duet"]),
                 st.sampled_from(PUBLISHED["codenames_original"]), made_up, made_up.map(lambda w: w + " " + w[::-1]))
boards = st.lists(card, min_size=25, max_size=25, unique_by=str.casefold)
runner = CliRunner()
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def helper():
    return suggester()


def _side(board, rng):
    words = list(board)
    rng.shuffle(words)
    return words[:9], words[9:12]


def _clue_for(board):
    return next(w for w in ("galaxy", "zephyr", "nebula", "velvet", "harbour") if is_legal_clue(w, board))


def check_spymaster(resp):
    assert "error" not in resp, resp
    assert resp["clues"] and all({"clue", "number", "targets", "score"} <= set(c) for c in resp["clues"])


def check_guesser(resp, n=25):
    assert "error" not in resp, resp
    assert len(resp["guesses"]) == n and 1 <= resp["stop_after"] <= n
    assert all(isinstance(g["score"], float) for g in resp["guesses"])


@SETTINGS
@given(board=boards, seed=st.integers(0, 10**6),
       clue=st.sampled_from(["sci-fi", "god's", "hulk.", "ice cream", "rock'n'roll", "Qwxzy", "CAFÉ", "ocean"]))
def test_requests_on_unusual_boards_are_always_answered(helper, board, seed, clue):
    green, assassin = _side(board, random.Random(seed))
    check_spymaster(helper.handle({"id": 1, "role": "spymaster", "board": board, "green": green,
                                   "assassin": assassin, "top": 3}))
    check_guesser(helper.handle({"id": 2, "role": "guesser", "board": board, "green": green, "assassin": assassin,
                                 "clues": [{"clue": clue, "number": seed % 5}]}))


@SETTINGS
@given(board=boards, seed=st.integers(0, 10**6))
def test_suggest_commands_on_unusual_boards(board, seed):
    green, assassin = _side(board, random.Random(seed))
    flags = ["--board", ",".join(board)]
    res = runner.invoke(app, ["suggest", "clue", *flags, "--green", ",".join(green), "--assassin", ",".join(assassin),
                              "--top", "2"])
    assert res.exit_code == 0, res.output
    assert "unknown word" not in res.output and "Suggested clues" in res.output
    res = runner.invoke(app, ["suggest", "guess", *flags, "--clue", f"{_clue_for(board)} 2"])
    assert res.exit_code == 0, res.output
    assert "unknown word" not in res.output and "Guesses, best first" in res.output


def _pool_file(tmp_path, words):
    path = tmp_path / "pool.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return path


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(board=boards)
def test_play_and_simulate_on_a_pool_of_unusual_words(tmp_path, board):
    pool = _pool_file(tmp_path, board)
    save = tmp_path / "game.json"
    answers = ["hint", f"{_clue_for(board)} 1", "hint", "quit"]
    res = runner.invoke(app, ["play", "--words", str(pool), "--seed", "3", "--hint", "--save", str(save)],
                        input="\n".join(answers) + "\n")
    assert res.exit_code == 0, res.output
    assert "unknown word" not in res.output
    assert "Game saved" in res.output or "The key card (both sides)" in res.output  # quit, or the game ended
    res = runner.invoke(app, ["simulate", "--words", str(pool), "--games", "2", "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "unknown word" not in res.output


def test_every_published_card_in_one_suggest_jsonl_process():
    """Every card of both boxes on boards of 25 and all the unusual cards, both roles, through one
    real ``suggest jsonl`` process: one complete answer per request, in order, no error."""
    words = PUBLISHED["codenames_duet"] + PUBLISHED["codenames_original"] + UNUSUAL
    words = list(dict.fromkeys(words))
    rng = random.Random(13)
    rng.shuffle(words)
    reqs = []
    for k in range(0, len(words) - 24, 25):
        board = words[k:k + 25]
        green, assassin = _side(board, rng)
        reqs.append({"id": f"s{k}", "role": "spymaster", "board": board, "green": green, "assassin": assassin,
                     "top": 1})
        reqs.append({"id": f"g{k}", "role": "guesser", "board": board, "green": green, "assassin": assassin,
                     "clues": [{"clue": rng.choice(board[12:]).lower(), "number": 2}]})
    src = str(Path(__file__).resolve().parents[1] / "src")
    proc = subprocess.run([sys.executable, "-m", "duetbot", "suggest", "jsonl"], capture_output=True, timeout=600,
                          input="\n".join(json.dumps(r) for r in reqs) + "\n", text=True,
                          env=bare_env(PYTHONPATH=src))
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["id"] for a in answers] == [r["id"] for r in reqs]
    for a in answers:
        (check_spymaster if a["id"].startswith("s") else check_guesser)(a)
