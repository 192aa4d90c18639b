"""The public ``suggest`` JSON lines contract (DESIGN.md) and the suggest commands."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from duetbot.cli import app
from duetbot.cli.suggest import suggester

BOARD = ["Storm", "RAINBOW", "piano", "DOCTOR", "pencil", "castle", "banana", "ice cream", "robot",
         "ship", "nurse", "tiger", "bank", "glass", "moon", "engine", "bread", "king", "shoe",
         "river", "clock", "camera", "horse", "chair", "rocket"]


def spy_req(**kw):
    req = {"id": "s1", "role": "spymaster", "board": BOARD, "green": ["storm", "rainbow", "piano", "tiger"],
           "assassin": ["moon", "engine", "glass"]}
    req.update(kw)
    return req


def guess_req(**kw):
    req = {"id": 7, "role": "guesser", "board": BOARD, "clues": [{"clue": "hospital", "number": 2}]}
    req.update(kw)
    return req


@pytest.fixture(scope="module")
def helper():
    return suggester()


def test_spymaster_response_fields(helper):
    resp = helper.handle(spy_req(top=3))
    assert set(resp) == {"id", "clues"} and resp["id"] == "s1"
    assert 1 <= len(resp["clues"]) <= 3
    for c in resp["clues"]:
        assert {"clue", "number", "targets", "score"} <= set(c)
        assert isinstance(c["clue"], str) and c["clue"] == c["clue"].lower()
        assert isinstance(c["number"], int) and c["number"] == len(c["targets"]) or c["number"] == 0
        assert all(t in BOARD for t in c["targets"])  # the board's spelling
        assert isinstance(c["score"], float)
    scores = [c["score"] for c in resp["clues"]]
    assert scores == sorted(scores, reverse=True)


def test_guesser_response_fields_and_spelling(helper):
    resp = helper.handle(guess_req(covered=["ROBOT"], wrong=["ship"], unknown_field=1))
    assert set(resp) == {"id", "guesses", "stop_after"} and resp["id"] == 7
    words = [g["word"] for g in resp["guesses"]]
    assert sorted(words) == sorted(w for w in BOARD if w not in ("robot", "ship"))
    assert all({"word", "score"} <= set(g) for g in resp["guesses"])
    scores = [g["score"] for g in resp["guesses"]]
    assert scores == sorted(scores, reverse=True)
    assert 1 <= resp["stop_after"] <= len(words)
    assert set(words[:2]) == {"nurse", "DOCTOR"}


def test_sudden_death_puts_safest_clued_word_first(helper):
    resp = helper.handle(guess_req(tokens=0, clues=[{"clue": "hospital", "number": 2}, {"clue": "music", "number": 1}]))
    assert resp["guesses"][0]["word"] in {"nurse", "DOCTOR", "piano"}
    assert resp["stop_after"] == 1


@pytest.mark.parametrize("req,needle", [
    ({"role": "spymaster", "board": BOARD[:24], "green": ["storm"]}, "24 words"),
    ({"role": "spymaster", "board": BOARD, "green": ["volcano"]}, "'volcano'"),
    ({"role": "spymaster", "board": BOARD}, "missing field 'green'"),
    ({"role": "guesser", "board": BOARD, "clues": []}, "'clues'"),
    ({"role": "guesser", "board": BOARD, "clues": [{"clue": "two words", "number": 1}]}, "two words"),
    ({"role": "captain", "board": BOARD}, "'role'"),
    ([1, 2], "JSON object"),
])
def test_bad_requests_get_an_error_line(helper, req, needle):
    resp = helper.handle(req)
    assert set(resp) == {"id", "error"} and needle in resp["error"]


def test_jsonl_subprocess_keeps_order_and_survives_bad_lines():
    lines = [json.dumps(spy_req(id="a", top=2)), "{not json", json.dumps(guess_req(id="b")),
             json.dumps({"id": "c", "role": "guesser"}), json.dumps(guess_req(id="d", tokens=0))]
    proc = subprocess.run([sys.executable, "-m", "duetbot", "suggest", "jsonl"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", None, "b", "c", "d"]
    assert "clues" in out[0] and "error" in out[1] and "guesses" in out[2] and "error" in out[3]
    assert out[4]["stop_after"] == 1


def test_suggest_clue_and_guess_commands(tmp_path):
    runner = CliRunner()
    board = ",".join(BOARD)
    r = runner.invoke(app, ["suggest", "clue", "--board", board, "--green", "storm,rainbow,piano",
                            "--assassin", "moon,engine,glass", "--top", "3"])
    assert r.exit_code == 0, r.output
    assert "Suggested clues" in r.output
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"board": BOARD, "clues": [{"clue": "music", "number": 1}]}))
    r = runner.invoke(app, ["suggest", "guess", "--game", str(game)])
    assert r.exit_code == 0, r.output
    assert "piano" in r.output and "stop" in r.output
    r = runner.invoke(app, ["suggest", "guess", "--board", board, "--clue", "weather"])
    assert r.exit_code == 2 and r.output.strip().startswith("error:") and "\n" not in r.output.strip()
