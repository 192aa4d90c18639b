"""``duetbot models import``: people's own vector files, read by gensim, played with everywhere.

Every file here is written by the test: real words with the shipped glove50 vectors (so the
bots have something sensible to think with), in each format gensim reads.
"""

from __future__ import annotations

import gzip
import json
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors  # the test extra installs gensim: a missing one fails, not skips
from typer.testing import CliRunner

from duetbot.cli import app
from duetbot.build import importer
from duetbot.build.importer import detect_format, import_vectors
from duetbot.embeddings import load_model, store, subword
from duetbot.embeddings.vocab import entry_parts, pseudo_zipf
from duetbot.wordpool import default_pool

runner = CliRunner()


@pytest.fixture(scope="module")
def words_and_vectors() -> tuple[list[str], np.ndarray]:
    """~900 real words, most frequent first: every pool word glove50 knows, 300 clue words."""
    glove = load_model("glove50")
    pool = {p for entry in default_pool() for p in entry_parts(entry)}
    clue_words = set([w for w in glove.clue_words[:3000] if w not in pool][::7][:300])
    words = [w for w in glove.words if w in pool or w in clue_words]
    # a capitalised key ahead of the lowercase one, as cased files write proper nouns
    words = ["the", "of", "London", *words, "london"]
    vecs = np.stack([glove.vector(w.lower()) for w in words]).astype(np.float32)
    return words, vecs


def _text_rows(words, vecs) -> str:
    return "".join(w + " " + " ".join(f"{x:.6f}" for x in v) + "\n" for w, v in zip(words, vecs))


def write_file(kind: str, path: Path, words, vecs) -> Path:
    n, d = vecs.shape
    if kind == "word2vec":
        path.write_text(f"{n} {d}\n" + _text_rows(words, vecs), encoding="utf-8")
    elif kind == "fasttext":  # fastText's .vec: a header, then rows ending in a space
        path.write_text(f"{n} {d}\n" + _text_rows(words, vecs).replace("\n", " \n"), encoding="utf-8")
    elif kind == "glove":
        path.write_text(_text_rows(words, vecs), encoding="utf-8")
    elif kind == "word2vec-binary":  # word2vec.c's format: "n d\n", then "word " + d float32s per row
        with open(path, "wb") as fh:
            fh.write(f"{n} {d}\n".encode())
            for w, v in zip(words, vecs):
                fh.write(w.encode("utf-8") + b" " + struct.pack(f"<{d}f", *v.tolist()))
    elif kind == "keyedvectors":
        kv = KeyedVectors(d)
        kv.add_vectors(list(words), vecs)
        kv.save(str(path))
    else:
        raise ValueError(kind)
    return path


SUFFIX = {"word2vec": ".txt", "word2vec-binary": ".bin", "glove": ".txt", "fasttext": ".vec", "keyedvectors": ".kv"}


@pytest.fixture(scope="module")
def files(tmp_path_factory, words_and_vectors) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("vectors")
    words, vecs = words_and_vectors
    return {kind: write_file(kind, root / f"my-{kind}{suffix}", words, vecs) for kind, suffix in SUFFIX.items()}


@pytest.fixture
def models_dir(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "models"
    monkeypatch.setenv(store.ENV_VAR, str(d))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # nothing from the real user's directory
    return d


def _import(*args: str):
    return runner.invoke(app, ["models", "import", *args, "--quiet"])


def _one_line(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    text = result.output.strip()
    assert text.startswith("error:") and "\n" not in text and "Traceback" not in text, text
    return text


# -- formats -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(SUFFIX))
def test_formats_are_detected(files, kind):
    assert detect_format(files[kind]) == kind


def test_compressed_files_are_detected_and_read(files, tmp_path, models_dir):
    gz = tmp_path / "my-glove.txt.gz"
    gz.write_bytes(gzip.compress(files["glove"].read_bytes()))
    assert detect_format(gz) == "glove"
    res = _import(str(gz), "--name", "imp-gz", "--no-fallback")
    assert res.exit_code == 0, res.output
    assert load_model("imp-gz").knows("ocean")


# Names are unique per test: the bots' factory caches models by name for the whole process.
@pytest.mark.parametrize("kind", list(SUFFIX))
def test_import_each_format_and_play_a_game(files, kind, models_dir, words_and_vectors):
    name = f"imp-{kind}"
    res = _import(str(files[kind]), "--name", name, "--no-fallback")
    assert res.exit_code == 0, res.output
    assert f"imported {name}:" in res.output and f"({kind})" in res.output
    assert f"--player-b model={name}" in res.output

    model = load_model(name)
    words, vecs = words_and_vectors
    assert model.path == models_dir / name and model.family == name and model.dim == vecs.shape[1]
    assert model.meta["source"]["format"] == kind
    # the stored vector is the file's, unit-normalised (float16 on disk)
    row = words.index("ocean")
    want = vecs[row] / np.linalg.norm(vecs[row])
    assert float(model.vector("ocean") @ want) > 0.9999
    # the whole shipped pool is looked up from the file's own rows
    assert all(model.knows(w) for w in default_pool()), [w for w in default_pool() if not model.knows(w)]
    assert model.meta["build"]["pool_not_covered"] == []
    assert len(model.clue_words) >= importer.MIN_CLUE_WORDS

    game = runner.invoke(app, ["simulate", "--player-b", f"model={name}", "--games", "1", "--workers", "1", "-q"])
    assert game.exit_code == 0, game.output
    assert f"1 games, A default vs B model={name}" in game.output


def test_simulate_three_games_and_suggest_with_an_imported_model(files, models_dir):
    res = _import(str(files["word2vec"]), "--name", "imp-play")
    assert res.exit_code == 0, res.output
    game = runner.invoke(app, ["simulate", "--player-b", "model=imp-play", "--games", "3", "--workers", "1", "-q"])
    assert game.exit_code == 0, game.output
    assert "model=imp-play" in game.output

    from duetbot.bots.factory import PartnerSpec
    from duetbot.suggest import Suggester

    spec = PartnerSpec.parse("model=imp-play")
    assert spec.spymaster_models == ("imp-play",)
    partner = spec.build()
    board = list(default_pool()[:25])
    reply = Suggester(partner.spymaster, partner.guesser).handle(
        {"id": 1, "role": "spymaster", "board": board, "green": board[:3], "assassin": board[3:5]})
    assert "error" not in reply, reply
    model = load_model("imp-play")
    assert reply["clues"] and all(c["clue"].lower() in model.clue_index for c in reply["clues"])

    # and from the command line: suggest and play take the same spec (--partner)
    from duetbot.cli.suggest import suggester

    suggester.cache_clear()
    out = runner.invoke(app, ["suggest", "clue", "--board", ",".join(board), "--green", ",".join(board[:3]),
                              "--partner", "model=imp-play", "--top", "2", "--json"])
    assert out.exit_code == 0, out.output
    clues = [c["clue"] for c in json.loads(out.output)["clues"]]
    assert clues and all(c in model.clue_index for c in clues)
    suggester.cache_clear()
    play = runner.invoke(app, ["play", "--seed", "4", "--partner", "model=imp-play", "--save",
                               str(models_dir.parent / "g.json")], input="quit\n")
    assert play.exit_code == 0, play.output
    saved = json.loads((models_dir.parent / "g.json").read_text())
    assert saved["players"]["B"] == "duetbot (model=imp-play)"
    resumed = runner.invoke(app, ["play", "--resume", str(models_dir.parent / "g.json")], input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "partner model=imp-play" in resumed.output  # the save's bots, without --partner again
    assert json.loads((models_dir.parent / "g.json").read_text())["players"]["B"] == "duetbot (model=imp-play)"
    bad = runner.invoke(app, ["play", "--partner", "model=nosuch-model"])
    assert bad.exit_code == 2 and "nosuch-model" in bad.output and "Traceback" not in bad.output


# -- vocabulary, frequencies, proper nouns ------------------------------------------------------


def test_frequencies_without_wordfreq_come_from_the_file_order(files, models_dir, monkeypatch):
    monkeypatch.setattr(importer, "_have_wordfreq", lambda: False)
    result = import_vectors(files["glove"], "imp-nowf", fallback=False)
    build = result.meta["build"]
    assert build["frequencies_from_wordfreq"] is False and "row order" in build["frequencies"]
    model = load_model("imp-nowf")
    # "the" is the file's first row, "of" its second: ranks 1 and 2 on wordfreq's scale
    assert model.zipf("the") == pytest.approx(pseudo_zipf(1)) and model.zipf("of") == pytest.approx(pseudo_zipf(2))
    assert model.words[:2] == ["the", "of"]


@pytest.mark.build
def test_frequencies_from_wordfreq_when_installed(files, models_dir):
    wordfreq = pytest.importorskip("wordfreq")
    result = import_vectors(files["glove"], "imp-wf", fallback=False)
    assert result.meta["build"]["frequencies_from_wordfreq"] is True
    model = load_model("imp-wf")
    assert model.zipf("ocean") == pytest.approx(wordfreq.zipf_frequency("ocean", "en"), abs=0.01)


def test_proper_nouns_come_from_the_files_case(files, models_dir, words_and_vectors, tmp_path):
    import_vectors(files["word2vec"], "imp-cased", fallback=False)
    cased = load_model("imp-cased")
    # "London" comes many rows before "london": a proper noun, still a clue candidate
    assert "london" in cased.clue_index and cased.clue_is_proper[cased.clue_index["london"]]
    assert not cased.clue_is_proper[cased.clue_index["ocean"]]
    # a lowercased file (GloVe 6B's kind) says nothing about case: no flags, and model.json says so
    words, vecs = words_and_vectors
    keep = [i for i, w in enumerate(words) if w != "London"]
    lower = write_file("word2vec", tmp_path / "lower.txt", [words[i] for i in keep], vecs[keep])
    meta = import_vectors(lower, "imp-lower", fallback=False).meta
    assert meta["clue_vocabulary"]["proper_noun_flag"].startswith("none")
    assert not load_model("imp-lower").clue_is_proper.any()


def test_vectors_gensim_cannot_use_are_dropped(tmp_path, models_dir, words_and_vectors):
    words, vecs = words_and_vectors
    vecs = vecs.copy()
    vecs[words.index("ocean")] = 0.0
    path = write_file("glove", tmp_path / "zero.txt", words, vecs)
    meta = import_vectors(path, "imp-zero", fallback=False).meta
    assert meta["build"]["rows_dropped"] == {"non_finite": 0, "zero": 1}
    assert not load_model("imp-zero").knows("ocean")


# -- the fallback for words the file lacks -------------------------------------------------


def test_fallback_maps_are_fitted_measured_and_stored(files, models_dir, monkeypatch):
    res = _import(str(files["fasttext"]), "--name", "imp-fb")
    assert res.exit_code == 0, res.output
    assert "held-out agreement" in res.output and "from the spelling r" in res.output
    model = load_model("imp-fb")
    record = model.meta["subword_map"]
    assert record["model_checksum"] == model.meta["checksum"]
    held = record["held_out"]
    assert held["held_out_words"] > 50 and 0.3 < held["from_spelling"]["r"] <= 1.0
    assert held["from_minilm"]["r"] > 0.3
    assert (model.path / subword.MODEL_MAP_FILE).is_file()
    assert model.meta["files"][subword.MODEL_MAP_FILE]["sha256"] == store.sha256_file(model.path / subword.MODEL_MAP_FILE)

    # play time uses the stored maps: fitting again would be a bug
    def no_fit(*a, **k):
        raise AssertionError("maps fitted at play time")

    monkeypatch.setattr(subword, "fit_family_maps", no_fit)
    fb = subword.load_subword().fallback_for(model, load_model("minilm"))
    assert fb.real_map is not None
    assert not model.knows("musketeer")
    v = fb("musketeer")
    assert v.shape == (model.dim,) and abs(float(np.linalg.norm(v)) - 1) < 1e-5

    from duetbot.bots.factory import PartnerSpec, model as factory_model

    PartnerSpec.parse("model=imp-fb").check(["MUSKETEER", "TIPI"])  # words the file lacks: no error
    assert factory_model("imp-fb").vector("tipi").shape == (model.dim,)


def test_stale_stored_maps_are_refitted(files, models_dir):
    import_vectors(files["glove"], "imp-stale")
    model = load_model("imp-stale")
    sub = subword.load_subword()
    minilm = load_model("minilm")
    stored = sub.stored_maps(model, minilm)
    assert stored is not None
    # the stored maps are the ones a play would otherwise fit
    fitted = subword.fit_family_maps(sub, model, minilm)
    np.testing.assert_allclose(stored[0], fitted[0], atol=1e-6)
    np.testing.assert_allclose(stored[1], fitted[1], atol=1e-6)
    model.meta["checksum"] = "0" * 64  # as if the vectors had been rebuilt since
    assert sub.stored_maps(model, load_model("minilm")) is None


# -- where models go --------------------------------------------------------------------------


def test_default_output_is_the_per_user_directory(files, tmp_path, monkeypatch):
    monkeypatch.delenv(store.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    res = _import(str(files["glove"]), "--name", "imp-user", "--no-fallback")
    assert res.exit_code == 0, res.output
    target = tmp_path / "xdg" / "duetbot" / "models" / "imp-user"
    assert "the per-user models directory, searched for models" in res.output and str(target) in res.output
    assert load_model("imp-user").path == target  # found without DUETBOT_MODELS


def test_default_output_is_the_first_env_directory(files, models_dir):
    res = _import(str(files["glove"]), "--name", "imp-env", "--no-fallback")
    assert res.exit_code == 0, res.output
    assert "the first DUETBOT_MODELS directory" in res.output and (models_dir / "imp-env" / "model.json").is_file()
    assert f"found by name while DUETBOT_MODELS lists {models_dir}" in res.output


def test_an_out_directory_off_the_search_path_says_how_to_use_it(files, tmp_path, models_dir):
    out = tmp_path / "elsewhere"
    res = _import(str(files["glove"]), "--name", "imp-out", "--out", str(out), "--no-fallback")
    assert res.exit_code == 0, res.output
    assert f"DUETBOT_MODELS={out} duetbot simulate --player-b model=imp-out" in res.output


def test_force_replaces_an_earlier_import(files, models_dir):
    assert _import(str(files["glove"]), "--name", "imp-twice", "--no-fallback").exit_code == 0
    text = _one_line(_import(str(files["glove"]), "--name", "imp-twice", "--no-fallback"))
    assert "already exists" in text and "--force" in text
    res = _import(str(files["word2vec"]), "--name", "imp-twice", "--no-fallback", "--force")
    assert res.exit_code == 0, res.output
    assert load_model("imp-twice").meta["source"]["format"] == "word2vec"
    assert not [p for p in models_dir.iterdir() if p.name.startswith(".")]  # no half-written directory left


# -- one-line errors ----------------------------------------------------------------------------


def test_error_missing_file(tmp_path, models_dir):
    assert "no file" in _one_line(_import(str(tmp_path / "nope.txt")))
    assert "is a directory" in _one_line(_import(str(tmp_path)))


def test_error_unknown_format(tmp_path, models_dir):
    f = tmp_path / "notes.txt"
    f.write_text("hello world\nthese are not vectors\n", encoding="utf-8")
    text = _one_line(_import(str(f)))
    assert "cannot tell the format" in text and "--format word2vec" in text


def test_error_unreadable_file(tmp_path, models_dir, files):
    junk = tmp_path / "junk.kv"
    junk.write_bytes(b"\x80\x04this is not a pickle at all")
    assert "is not a gensim KeyedVectors file" in _one_line(_import(str(junk)))
    # text read as binary gives keys full of spaces: refused, not imported
    text = _one_line(_import(str(files["word2vec"]), "--format", "word2vec-binary", "--name", "imp-bad"))
    assert "does not read as word2vec-binary" in text and "--format word2vec" in text
    # a fastText .bin model is not a .vec file
    ft = tmp_path / "model.bin"
    ft.write_bytes(struct.pack("<i", 793712314) + b"\x0c\x00\x00\x00" + b"\x00" * 64)
    assert "fastText binary model" in _one_line(_import(str(ft)))


def test_error_dimension_mismatch(tmp_path, models_dir, words_and_vectors):
    words, vecs = words_and_vectors
    lines = _text_rows(words, vecs).splitlines(True)
    lines[9] = " ".join(lines[9].split()[:-1]) + "\n"  # row 10 loses a number
    f = tmp_path / "short.txt"
    f.write_text("".join(lines), encoding="utf-8")
    text = _one_line(_import(str(f)))
    assert "dimension mismatch" in text and "line 10" in text and f"have {vecs.shape[1]}" in text


def test_error_cut_short(tmp_path, models_dir, words_and_vectors):
    words, vecs = words_and_vectors
    f = tmp_path / "cut.txt"
    f.write_text(f"{len(words) + 50} {vecs.shape[1]}\n" + _text_rows(words, vecs), encoding="utf-8")
    assert "the header promises" in _one_line(_import(str(f)))


def test_error_too_few_words(tmp_path, models_dir, words_and_vectors):
    words, vecs = words_and_vectors
    f = write_file("glove", tmp_path / "tiny.txt", words[:20], vecs[:20])
    text = _one_line(_import(str(f)))
    assert "at least 25 words" in text
    # enough rows, too few English words: numbers and punctuation are no clues
    junk = [f"{i}" for i in range(200)] + words[:30]
    f = write_file("glove", tmp_path / "numbers.txt", junk, np.vstack([vecs[:200], vecs[:30]]))
    text = _one_line(_import(str(f)))
    assert "clue candidates" in text and "only" in text


def test_error_name_clashes(files, models_dir):
    assert "already exists" in _one_line(_import(str(files["glove"]), "--name", "glove50"))
    assert "is an alias" in _one_line(_import(str(files["glove"]), "--name", "default"))
    assert "family of a shipped model" in _one_line(_import(str(files["glove"]), "--name", "minilm", "--force"))
    assert "bad model name" in _one_line(_import(str(files["glove"]), "--name", "glove+mine"))


def test_without_gensim_the_command_says_how_to_get_it(files, models_dir, monkeypatch):
    monkeypatch.setitem(sys.modules, "gensim", None)
    monkeypatch.setitem(sys.modules, "gensim.models", None)
    res = _import(str(files["glove"]), "--name", "imp-nogensim")
    text = _one_line(res, code=1)
    assert "pip install 'duetbot[gensim]'" in text
    assert not (models_dir / "imp-nogensim").exists()


# -- gensim stays out of start-up; the bridge back to gensim ------------------------------------


def test_cli_start_up_does_not_import_gensim():
    code = ("import duetbot.cli.app, sys; from duetbot.cli import app; import duetbot.embeddings; "
            "assert 'gensim' not in sys.modules, 'gensim imported at start-up'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_keyed_vectors_bridge_round_trips(files, models_dir, tmp_path):
    import_vectors(files["glove"], "imp-kv", fallback=False)
    model = load_model("imp-kv")
    kv = model.keyed_vectors
    assert kv.index_to_key == model.words
    np.testing.assert_allclose(kv["ocean"], model.vector("ocean"), atol=1e-6)
    # back through gensim's own file format and the importer: the same table
    kv.save(str(tmp_path / "again.kv"))
    again = load_model(import_vectors(tmp_path / "again.kv", "imp-kv2", fallback=False).path)
    assert again.words == model.words
    np.testing.assert_allclose(again.vector("whale"), model.vector("whale"), atol=2e-3)


def test_keyed_vectors_bridge_sees_extra_vectors(files, models_dir):
    import_vectors(files["glove"], "imp-kv3", fallback=False)
    model = load_model("imp-kv3")
    other = model.vector("whale")
    extended = model.with_extra_vectors({"ocean": other, "loch ness": model.vector(model.clue_words[50])})
    kv = extended.keyed_vectors
    # an extra vector replaces the table's row, as EmbeddingModel.vector reads it
    np.testing.assert_allclose(kv["ocean"], extended.vector("ocean"), atol=1e-6)
    np.testing.assert_allclose(kv["ocean"], other, atol=1e-6)
    np.testing.assert_allclose(kv["loch_ness"], extended.vector("Loch Ness"), atol=1e-6)
    assert len(kv.index_to_key) == len(model.words) + 1
    forgot = model.without_words(["ocean"]).keyed_vectors
    assert "ocean" not in forgot.key_to_index and len(forgot.index_to_key) == len(model.words) - 1


def test_model_json_records_provenance(files, models_dir):
    meta = import_vectors(files["word2vec-binary"], "imp-meta", fallback=False).meta
    src = meta["source"]
    assert src["sha256"] == store.sha256_file(files["word2vec-binary"]) and src["format"] == "word2vec-binary"
    assert "load_word2vec_format(binary=True" in src["loader"]
    assert meta["checksum"] == store.sha256_file(Path(meta_path := models_dir / "imp-meta" / "vectors.npy"))
    assert meta["dtype"] == "float16" and meta_path.is_file()
    on_disk = json.loads((models_dir / "imp-meta" / "model.json").read_text(encoding="utf-8"))
    assert on_disk["source"] == src
    info = runner.invoke(app, ["models", "info", "imp-meta"])
    assert info.exit_code == 0 and "imported from" in info.output


def test_limit_reads_only_the_first_vectors(files, models_dir):
    for kind in ("glove", "keyedvectors"):
        name = f"imp-limit-{kind}"
        res = _import(str(files[kind]), "--name", name, "--limit", "400", "--no-fallback")
        assert res.exit_code == 0, res.output
        model = load_model(name)
        assert model.meta["source"]["vectors_read"] == 400 and model.meta["source"]["limit"] == 400
        assert len(model.words) <= 400
        # the pool words past row 400 are missing from the table, and recorded as such
        assert model.meta["build"]["pool_not_covered"]


def test_user_directory_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store.user_models_dir() == tmp_path / "duetbot" / "models"
    assert store.user_models_dir() in store.search_dirs()
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # the XDG spec: ignore a relative value
    assert store.user_models_dir() == Path.home() / ".local" / "share" / "duetbot" / "models"
