"""Human word associations (the shipped ``eat`` model) in the guesser.

The artifact is derived from the Edinburgh Associative Thesaurus; these tests read only the
shipped vectors, never the norms; the benchmark tests read the human dev set when it is beside
the repository, else a made-up sample in its format.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from duetbot.bots.factory import DEFAULT_GUESSER_MODELS, DEFAULT_MODELS, PartnerSpec, ensemble
from duetbot.bots.guesser import EmbeddingGuesser, GuesserConfig
from duetbot.embeddings import load_model, store
from duetbot.suggest import guesser_request_view

from .conftest import benchmark

ROOT = Path(__file__).resolve().parent.parent
DEV = ROOT.parent / "shared" / "data" / "human-duet-dev" / "turns.jsonl"
#: Human turns for the benchmark tests: the dev set when it is beside the repository, else a
#: made-up sample in its format (tests/data/README.md), so the tests run everywhere.
TURNS = DEV if DEV.is_file() else Path(__file__).resolve().parent / "data" / "human_turns_sample.jsonl"

# "web" reads as the internet to the embedding families; to people it is a spider's.
BOARD = ["spider", "smoke", "frog", "wave", "church", "cat", "handle", "tomato", "candle", "computer", "fan",
         "zoo", "doll", "penny", "millionaire", "police", "potato", "monster", "arm", "pump", "door", "virus",
         "warrior", "volcano", "trap"]


def _view(clue: str, board=BOARD):
    view, _ = guesser_request_view({"board": board, "clues": [{"clue": clue, "number": 1}]})
    return view


def test_eat_model_ships_and_loads_offline(monkeypatch):
    monkeypatch.delenv(store.ENV_VAR, raising=False)  # only the package's own models
    m = load_model("eat")
    assert m.family == "eat" and m.path == store.package_models_dir() / "eat"
    assert m._raw.dtype == np.float16 and 5000 <= len(m.words) <= 20000 and 32 <= m.dim <= 256
    assert "Edinburgh Associative Thesaurus (Kiss et al. 1973), Open Government Licence v3" in m.meta["attribution"]
    assert m.meta["checksum"] == store.sha256_file(m.path / store.VECTORS_FILE)
    assert m.knows("spider") and m.knows("web") and not m.knows("browser")


def test_models_stay_within_the_size_budget():
    """Every shipped model together (the families and the subword fallback): 60 MB (issue 29)."""
    from duetbot.embeddings.subword import subword_dir

    dirs = (store.package_models_dir(), subword_dir())
    total = sum(f.stat().st_size for d in dirs for f in d.rglob("*") if f.is_file())
    assert total <= 60_000_000


def test_artifact_holds_the_human_association():
    m = load_model("eat")
    web_spider, web_computer = m.similarity(["web"], ["spider", "computer"])[0]
    assert web_spider > 0.3 > web_computer


def test_association_moves_the_ranking_towards_the_human_reading():
    # the eat family on its own, without the association table's lift (which also knows it)
    cfg = GuesserConfig(infer_key=False)
    view = _view("web")
    guessers = ensemble(DEFAULT_GUESSER_MODELS, associations=False)
    without = EmbeddingGuesser(ensemble(tuple(DEFAULT_MODELS), associations=False), cfg).belief(view).words
    with_eat = EmbeddingGuesser(guessers, cfg).belief(view).words
    assert with_eat[0] == "spider"
    assert with_eat.index("spider") < without.index("spider")  # the embeddings alone put it lower
    # a heavier association weight only strengthens that; weight 0 silences the family
    heavy = EmbeddingGuesser(guessers, GuesserConfig(infer_key=False, family_weights=(("eat", 5.0),))).belief(view)
    assert heavy.words[0] == "spider"
    mute = EmbeddingGuesser(guessers, GuesserConfig(infer_key=False, family_weights=(("eat", 0.0),))).belief(view)
    assert mute.words.index("spider") > 0


def test_a_clue_people_gave_no_association_falls_back_to_the_embeddings():
    bot = EmbeddingGuesser(ensemble(DEFAULT_GUESSER_MODELS), GuesserConfig(infer_key=False))
    words = bot.belief(_view("browser")).words  # not in the EAT vocabulary
    assert words[0] == "computer"


def test_weighted_family_average_ignores_unknown_families():
    models = [SimpleNamespace(family="glove"), SimpleNamespace(family="eat")]
    bot = EmbeddingGuesser(SimpleNamespace(models=models), GuesserConfig(family_weights=(("eat", 3.0),)))
    z = np.array([[1.0, 0.0, np.nan], [np.nan, 2.0, np.nan]])
    out = bot._combine(z)
    assert out[0] == pytest.approx(1.0)            # eat has no opinion: glove alone
    assert out[1] == pytest.approx((0 + 3 * 2) / 4)  # weighted mean
    assert np.isnan(out[2])                        # nobody knows it
    plain = EmbeddingGuesser(SimpleNamespace(models=models), GuesserConfig(family_weights=()))
    assert plain._combine(z)[1] == pytest.approx(1.0)  # unweighted = the old nanmean


def test_default_partner_reads_clues_with_associations():
    spec = PartnerSpec()
    assert "eat" in spec.guesser_models and spec.spymaster_models == DEFAULT_MODELS
    assert PartnerSpec.parse("model=glove50").guesser_models == ("glove50",)


def test_benchmark_runs_on_a_small_slice():
    bench_associations = benchmark("bench_associations")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench_associations.main(["--quick", "--data", str(TURNS)]) == 0
    text = out.getvalue()
    assert "| before: glove50+spacy300+minilm |" in text and "| after: " in text and "P@number" in text


def test_benchmark_skips_without_data(tmp_path):
    bench_associations = benchmark("bench_associations")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench_associations.main(["--quick", "--data", str(tmp_path / "none.jsonl")]) == 0
    assert "SKIPPED" in out.getvalue()


def test_fusion_logit_recovers_the_informative_family():
    # Two "families" over 30 turns of 10 words: the target is the argmax of the first, the
    # second is noise. The conditional logit must weigh the first far above the second.
    bf = benchmark("bench_fusion")
    rng = np.random.default_rng(0)
    x, y = [], []
    for _ in range(30):
        f = rng.standard_normal((10, 2))
        x.append(f)
        y.append(f[:, 0] == f[:, 0].max())
    w = bf.fit_logit(x, y, l2=0.01)
    assert w[0] > 1.0 and abs(w[1]) < w[0] / 3


def test_fusion_benchmark_skips_without_data(tmp_path):
    bf = benchmark("bench_fusion")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bf.main(["--quick", "--data", str(tmp_path / "none.jsonl")]) == 0
    assert "SKIPPED" in out.getvalue()


def test_fusion_benchmark_runs_on_a_small_slice():
    bf = benchmark("bench_fusion")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bf.main(["--quick", "--data", str(TURNS)]) == 0
    text = out.getvalue()
    assert "| fixed weights [1.0, 1.0, 1.0, 2.0] (default" in text and "conditional logit: z (CV)" in text
