"""User-supplied vectors for words the models lack: ``WORD=LIKE+LIKE`` (the centroid of the
words it is like, in every family), from the library to each command."""

import json
import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from duetbot.bots.factory import PartnerSpec, SpecError, default_bots, model, parse_described
from duetbot.cli.app import app
from duetbot.embeddings import described_vectors
from duetbot.wordpool import default_pool

from .conftest import one_line_error

runner = CliRunner()
BOARD = ["ZORBLAX", "NURSE", "BANK", "SHIP", "OCEAN", "APPLE", "TRAIN", "PLANE", "DOG", "CAT",
         "MOUSE", "HORSE", "TABLE", "CHAIR", "LAMP", "BOOK", "PEN", "KEY", "LOCK", "DOOR",
         "WINDOW", "HOUSE", "TREE", "RIVER", "MOUNTAIN"]
LIKE = "zorblax=lion+wizard"


def test_parse_described_normalises_and_refuses_bad_text():
    assert parse_described(" ZorBlax = Lion + WIZARD ") == ("zorblax", ("lion", "wizard"))
    assert parse_described("ice cream=sundae") == ("ice cream", ("sundae",))
    for bad in ("zorblax", "=lion", "zorblax=", "zorblax=+"):
        with pytest.raises(SpecError, match="WORD=LIKE"):
            parse_described(bad)


def test_described_vector_is_the_centroid_of_the_known_words():
    m = model("glove50")
    got = described_vectors(m, {"Zorblax": ["lion", "wizard", "qqqxqq"], "nothing": ["qqqxqq"]})
    assert set(got) == {"zorblax"}  # a word none of whose parts the model knows is left out
    want = m.vector("lion") + m.vector("wizard")
    np.testing.assert_allclose(got["zorblax"], want / np.linalg.norm(want), atol=1e-6)


def test_spec_carries_described_words_and_its_label_round_trips():
    spec = PartnerSpec.parse(f"model=glove50,vector={LIKE}").describe(["zorblax=tiger", "ice cream=cone"])
    assert spec.described == (("ice cream", ("cone",)), ("zorblax", ("tiger",)))  # later replaces earlier
    label = spec.label
    assert label == "model=glove50,vector=ice cream=cone,vector=zorblax=tiger"
    assert PartnerSpec.parse(label).described == spec.described


def test_check_accepts_any_word_but_not_a_misspelt_describing_word():
    pool = [*default_pool()[:30], "Zorblax"]
    PartnerSpec().check(pool)  # read through the subword fallback
    PartnerSpec().describe([LIKE]).check(pool)
    with pytest.raises(SpecError, match="wizzard.*did you mean: wizard"):
        PartnerSpec().describe(["zorblax=lion+wizzard"]).check(pool)


def test_described_word_is_read_by_the_guesser_and_aimed_at_by_the_spymaster():
    from duetbot.suggest import Suggester

    helper = Suggester(*default_bots([LIKE]))
    ranked, _ = helper.guess_ranking({"board": BOARD, "clues": [{"clue": "sorcerer", "number": 1}]})
    assert ranked[0].word == "ZORBLAX"
    clues = helper.clue_options({"board": BOARD, "green": ["ZORBLAX"], "assassin": ["DOG"], "top": 3})
    assert clues and all(c.targets == ["ZORBLAX"] for c in clues)


def test_suggest_cli_reads_an_unknown_word_and_takes_the_vector():
    args = ["suggest", "guess", "--board", ",".join(BOARD), "--clue", "sorcerer 1"]
    assert runner.invoke(app, args).exit_code == 0
    result = runner.invoke(app, [*args, "--vector", LIKE])
    assert result.exit_code == 0, result.output
    assert "ZORBLAX" in result.output.split("┡")[1].splitlines()[1]  # ranked first
    one_line_error(runner.invoke(app, [*args, "--vector", "zorblax=lion+wizzard"]), "wizzard", "wizard")
    one_line_error(runner.invoke(app, [*args, "--vector", "zorblax"]), "WORD=LIKE+LIKE")


def test_play_takes_an_unknown_pool_word_and_a_vector_for_it(tmp_path):
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join([*default_pool()[:30], "Zorblax"]) + "\n")
    plain = runner.invoke(app, ["play", "--words", str(pool), "--seed", "3", "--save", str(tmp_path / "p.json")],
                          input="quit\n")
    assert plain.exit_code == 0, plain.output
    result = runner.invoke(app, ["play", "--words", str(pool), "--seed", "3", "--vector", LIKE,
                                 "--save", str(tmp_path / "g.json")], input="quit\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "g.json").exists()


def test_simulate_with_a_described_pool_word_end_to_end(tmp_path):
    """A real subprocess: the described word reaches the worker processes through the run spec,
    and the record's player labels carry it (so --resume checks it)."""
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join([*default_pool()[:40], "Zorblax"]) + "\n")
    out = tmp_path / "games.jsonl"
    base = [sys.executable, "-m", "duetbot", "simulate", "-q", "-n", "4", "--seed", "5", "--words", str(pool),
            "--out", str(out), "-w", "2"]
    ok = subprocess.run([*base, "--vector", LIKE], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(recs) == 4 and all(r["players"]["A"] == f"vector={LIKE}" for r in recs)


def test_classic_simulate_and_play_take_vectors_too(tmp_path):
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join([*default_pool()[:40], "Zorblax"]) + "\n")
    out = tmp_path / "classic.jsonl"
    args = ["simulate", "--game", "classic", "-q", "-n", "2", "-w", "1", "--words", str(pool), "--out", str(out)]
    result = runner.invoke(app, [*args, "--vector", LIKE])
    assert result.exit_code == 0, result.output
    assert all(f"vector={LIKE}" in json.loads(line)["players"]["red"] for line in out.read_text().splitlines())
    play = ["play", "--game", "classic", "--words", str(pool), "--seed", "1", "--save", str(tmp_path / "c.json")]
    assert runner.invoke(app, play, input="quit\n").exit_code == 0
    assert runner.invoke(app, [*play, "--vector", LIKE, "--save", str(tmp_path / "c2.json")],
                         input="quit\n").exit_code == 0
    # a classic save given to Duet's --resume names the right command
    one_line_error(runner.invoke(app, ["play", "--resume", str(tmp_path / "c.json")]),
                   "saved classic game", "duetbot play --game classic --resume")


def test_models_info_reports_a_user_pool(tmp_path):
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join([*default_pool()[:28], "Zorblax", "ice cream"]) + "\n")
    result = runner.invoke(app, ["models", "info", "glove50", "--words", str(pool), "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)["pool_coverage"]
    assert (got["entries"], got["known"], got["unknown"]) == (30, 29, ["Zorblax"])
    table = runner.invoke(app, ["models", "info", "glove50", "--words", str(pool)])
    assert "29 of 30 entries known" in table.output and "--vector" in table.output
    assert "duetbot[build]" in runner.invoke(app, ["models", "--help"]).output  # not eaten as markup
