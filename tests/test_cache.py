"""The per-user cache of what an ensemble derives from its model files."""

from __future__ import annotations

import os

import numpy as np
import pytest

from duetbot.bots.ensemble import Ensemble
from duetbot.embeddings import load_model
from duetbot.embeddings.cache import CACHE_ENV, cache_dir


def _derived(models) -> tuple[list[str], list[np.ndarray]]:
    ens = Ensemble(models)
    return ens.clue_words, [*ens.clue_vectors, ens.zipf, ens.is_proper]


@pytest.fixture(scope="module")
def models():
    return [load_model("glove50"), load_model("spacy300")]


@pytest.fixture(scope="module")
def computed(models):
    """What an ensemble derives with no cache at all."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(CACHE_ENV, "off")
        return _derived(models)


def _same(got, want) -> None:
    assert got[0] == want[0]
    assert len(got[1]) == len(want[1])
    for a, b in zip(got[1], want[1]):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def test_a_second_process_reads_what_the_first_wrote(models, computed, tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    _same(_derived(models), computed)                     # computed, written
    [entry] = (tmp_path / "ensembles").iterdir()
    assert sorted(p.name for p in entry.iterdir()) == ["clue_words.txt", "proper.npy", "vectors0.npy",
                                                      "vectors1.npy", "zipf.npy"]
    again = _derived(models)                              # read back
    _same(again, computed)
    assert not again[1][0].flags.writeable


def test_a_damaged_entry_is_computed_again_and_rewritten(models, computed, tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    _derived(models)
    [entry] = (tmp_path / "ensembles").iterdir()
    (entry / "vectors1.npy").write_bytes((entry / "vectors1.npy").read_bytes()[:1000])   # cut short
    words = (entry / "clue_words.txt").read_text()
    (entry / "clue_words.txt").write_text(words[: len(words) // 2])                      # no final newline
    _same(_derived(models), computed)
    _same(_derived(models), computed)
    assert (entry / "clue_words.txt").read_text() == words


def test_an_unwritable_cache_is_skipped(models, computed, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory would be")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    _same(_derived(models), computed)
    assert blocker.read_text().startswith("a file")


def test_off_disables_it_and_a_changed_model_file_gets_a_new_entry(models, tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "off")
    assert cache_dir() is None
    Ensemble(models).zipf
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    model_dir = tmp_path / "glove-copy"
    model_dir.mkdir()
    for f in models[0].path.iterdir():
        if f.is_file():
            (model_dir / f.name).write_bytes(f.read_bytes())
    Ensemble([load_model(model_dir)]).zipf
    st = (model_dir / "rows.npy").stat()
    os.utime(model_dir / "rows.npy", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    Ensemble([load_model(model_dir)]).zipf
    assert len(list((tmp_path / "ensembles").iterdir())) == 2


def test_default_location_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert cache_dir() == tmp_path / "duetbot"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")      # the XDG spec: ignore a relative value
    assert cache_dir() is not None and cache_dir().is_absolute()


def test_the_strict_index_is_kept_and_read_back_the_same(models, tmp_path, monkeypatch):
    from duetbot.bots.strict_clues import StrictIndex
    from duetbot.wordpool import default_pool

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    words = list(default_pool())[:60] + ["ICE CREAM", "LOCH NESS"]
    built = Ensemble(models).strict_index                    # built and written
    [entry] = (tmp_path / "strict").iterdir()
    assert (entry / "index.json").is_file()
    read = Ensemble(models).strict_index                     # read back
    assert read.by_word(words) == built.by_word(words) == StrictIndex(Ensemble(models).clue_words).by_word(words)


def test_old_entries_are_pruned(tmp_path, monkeypatch):
    from duetbot.embeddings import cache

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(cache, "KEEP", 3)
    for i in range(5):
        cache.DerivedCache("things", [i]).words("w", lambda i=i: [f"word{i}"])
    kept = sorted(p.name for p in (tmp_path / "things").iterdir())
    assert len(kept) == 3
    assert cache.DerivedCache("things", [4]).dir.name in kept        # the newest stay
    assert cache.DerivedCache("things", [0]).dir.name not in kept


def test_no_home_directory_means_no_cache(monkeypatch):
    from pathlib import Path

    def nowhere() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(nowhere))
    assert cache_dir() is None


def test_the_models_cache_command_shows_and_clears_it(models, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from duetbot.cli import app

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    Ensemble(models).zipf
    shown = CliRunner().invoke(app, ["models", "cache"])
    assert shown.exit_code == 0 and str(tmp_path) in shown.output and "1 entry" in shown.output
    cleared = CliRunner().invoke(app, ["models", "cache", "--clear"])
    assert cleared.exit_code == 0 and "deleted 1 entry" in cleared.output
    assert not any((tmp_path / "ensembles").iterdir())
    assert "0 entries" in CliRunner().invoke(app, ["models", "cache"]).output
    monkeypatch.setenv(CACHE_ENV, "off")
    assert "the cache is off" in CliRunner().invoke(app, ["models", "cache"]).output


def test_the_models_cache_command_counts_and_clears_every_kind(models, tmp_path, monkeypatch):
    """The mask of the clue words a person would say is an entry too (it was left out of the
    count and of --clear)."""
    from typer.testing import CliRunner

    from duetbot.cli import app

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    Ensemble(models).people_would_say
    assert {p.parent.name for p in tmp_path.glob("*/*")} == {"ensembles", "said"}
    assert "2 entries" in CliRunner().invoke(app, ["models", "cache"]).output
    assert "deleted 2 entries" in CliRunner().invoke(app, ["models", "cache", "--clear"]).output
    assert not any(tmp_path.glob("*/*"))
