"""The partner model (duetbot.bots.reader), its use by the spymaster, and bench_people."""

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duetbot.bots.factory import ensemble
from duetbot.bots.reader import (ReaderModel, ReadTurns, StopCounts, family_log_likelihoods, log_likelihood,
                                 next_guess_chances, posterior)
from duetbot.bots.common_words import people_would_say
from duetbot.bots.spymaster import EmbeddingSpymaster, people_model
from duetbot.bots.spymaster.readers import allocate as _allocate
from duetbot.rules import Player, deal
from duetbot.rules.duet import State
from duetbot.views import spymaster_view
from duetbot.wordpool import default_pool

from .conftest import benchmark

ROOT = Path(__file__).resolve().parents[1]
TURNS = ROOT / "tests" / "data" / "human_turns_sample.jsonl"


def sampled_turns(model: ReaderModel, z: np.ndarray, n: int, seed: int) -> ReadTurns:
    """Guess orders drawn from ``model`` on the fixed (families, words) scores ``z``: the
    first three words of the reader's ranking."""
    rng = np.random.default_rng(seed)
    F, W = z.shape
    out = []
    for _ in range(n):
        f = rng.choice(F, p=model.weights)
        u = z[f] - model.temperature * np.log(-np.log(rng.random(W)))
        out.append(np.argsort(-u)[:3])
    return ReadTurns(np.broadcast_to(z, (n, F, W)).copy(), np.ones((n, W), bool), np.array(out))


@given(st.integers(1, 4), st.floats(0, 1), st.floats(0, 1), st.integers(1, 6))
@settings(max_examples=60, deadline=None)
def test_depth_chances_are_a_distribution(number, stop_early, bonus, max_depth):
    m = ReaderModel(("a",), (1.0,), 1.0, 0.0, stop_early, bonus)
    p = m.depth_chances(number, max_depth)
    assert p.shape == (max_depth + 1,) and p.min() >= 0 and p.sum() == pytest.approx(1)
    assert p[0] == 0  # a reader of a clue of 1 or more always guesses once
    if stop_early == 0 and bonus == 0:
        assert p[min(number, max_depth)] == pytest.approx(1)


def test_likelihood_prefers_the_family_that_made_the_guesses():
    rng = np.random.default_rng(1)
    z = rng.standard_normal((2, 20))
    truth = ReaderModel(("a", "b"), (1.0, 0.0), 0.3)
    turns = sampled_turns(truth, z, 50, seed=2)
    ll = family_log_likelihoods(turns, 0.3)
    assert (ll[:, 0] > ll[:, 1]).mean() > 0.9
    assert np.allclose(ll[:, 2], -np.log([20 * 19 * 18]))  # the random reader
    assert posterior(turns, ReaderModel(("a", "b"), (0.5, 0.5), 0.3))[:, 0].mean() > 0.9
    good = log_likelihood(turns, ReaderModel(("a", "b"), (0.9, 0.1), 0.3)).sum()
    bad = log_likelihood(turns, ReaderModel(("a", "b"), (0.1, 0.9), 0.3)).sum()
    assert good > bad


def test_next_guess_chances_are_distributions_over_the_words_left():
    rng = np.random.default_rng(3)
    z = rng.standard_normal((3, 12))
    turns = sampled_turns(ReaderModel(("a", "b", "c"), (0.2, 0.3, 0.5), 0.5), z, 20, seed=4)
    p = next_guess_chances(turns, ReaderModel(("a", "b", "c"), (0.2, 0.3, 0.5), 0.5, lapse=0.1))
    assert np.allclose(p.sum(axis=2), 1)
    # the second guess never repeats the first
    assert np.all(p[np.arange(20), 1, turns.guesses[:, 0]] == 0)


def test_missing_opinions_borrow_the_other_families():
    z = np.array([[[3.0, 0.0, 0.0], [np.nan, np.nan, np.nan]]])
    turns = ReadTurns(z, np.ones((1, 3), bool), np.array([[0, -1, -1]]))
    ll = family_log_likelihoods(turns, 1.0)
    assert ll[0, 0] == pytest.approx(ll[0, 1])


def test_stop_counts_and_rates():
    c = StopCounts.count([(2, [True, True]), (2, [True]), (1, [True, False]), (1, [True]), (1, [True, True])])
    assert c.below == (1, 1) and c.at == (2, 2) and c.above == (1, 0)
    stop_early, bonus = c.rates()
    assert stop_early == pytest.approx(0.5) and bonus == pytest.approx(0.5)


def test_model_checks_and_restriction():
    with pytest.raises(ValueError):
        ReaderModel(("a", "b"), (0.5,), 1.0)
    with pytest.raises(ValueError):
        ReaderModel(("a",), (1.0,), 0.0)
    m = ReaderModel(("a", "b", "c"), (0.5, 0.3, 0.2), 0.7, 0.01, 0.2, 0.05)
    r = m.restricted(("b", "c"))
    assert r.weights == pytest.approx((0.6, 0.4)) and r.temperature == 0.7 and r.bonus == 0.05
    assert m.restricted(("a", "new")).weights == pytest.approx((0.5 / (0.5 + 1 / 3), (1 / 3) / (0.5 + 1 / 3)))


def test_people_model_covers_any_family_set():
    full = people_model(("glove50", "spacy300", "minilm", "eat"))
    assert full.families == ("glove50", "spacy300", "minilm", "eat") and sum(full.weights) == pytest.approx(1)
    assert people_model(("minilm", "mine")).families == ("minilm", "mine")


def test_allocate_shares_rows_and_keeps_every_family():
    assert _allocate(64, [0.5, 0.5]) == [32, 32]
    rows = _allocate(64, [0.9, 0.09, 0.005, 0.005])
    assert sum(rows) == 64 and min(rows) >= 1


def test_not_a_clue_drops_verb_forms_and_function_words_only():
    words = ["account", "accounted", "build", "building", "bowl", "bowling", "despite", "unit", "united", "post", "posted"]
    zipf = np.array([5.0, 3.1, 5.0, 5.2, 4.3, 4.0, 4.8, 4.6, 5.0, 5.3, 4.6])
    dropped = {w for w, ok in zip(words, people_would_say(words, zipf, np.zeros(len(words), bool))) if not ok}
    assert dropped == {"accounted", "despite", "posted"}


@pytest.fixture(scope="module")
def spy():
    return EmbeddingSpymaster(ensemble(("glove50", "spacy300", "minilm", "eat")))


def test_suggestions_offer_the_best_clue_for_each_number(spy):
    pool = tuple(w for w in default_pool() if spy.ensemble.models[3].knows(w))
    varied = 0
    for seed in range(6):
        view = spymaster_view(State(deal(seed, pool)), Player.A)
        options = spy.suggest(view, top=6)
        numbers = [o.clue.number for o in options]
        varied += len(set(numbers[:4])) >= 2   # not five variants of one number when others are honest
        assert options[0].clue == spy.give_clue(view)
        assert [o.score for o in options[:len(set(numbers))]] == sorted(
            (o.score for o in options[:len(set(numbers))]), reverse=True)
        assert len({o.clue.word for o in options}) == len(options)
    assert varied >= 2


def test_bench_people_runs_on_the_sample():
    bench_people = benchmark("bench_people")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench_people.main(["--quick", "--data", str(TURNS), "--readers", "glove50"]) == 0
    text = out.getvalue()
    assert "| fitted |" in text and "| today |" in text and "| glove50 | person" in text and "| glove50 | bot" in text
    assert "| glove50 | bot, its best clue for 1" in text and "| glove50 | bot, its safest clue for 1-2" in text
    with contextlib.redirect_stdout(io.StringIO()) as skipped:
        assert bench_people.main(["--data", str(ROOT / "none.jsonl")]) == 0
    assert "SKIPPED" in skipped.getvalue()


def test_a_model_given_lists_holds_tuples():
    """Families and weights are held as tuples whatever was given, so every model is
    hashable (the log weights are kept per model) and equal to the same model given tuples."""
    listed = ReaderModel(["a", "b"], [0.25, 0.75], 0.3)
    assert listed.families == ("a", "b") and listed.weights == (0.25, 0.75)
    assert listed == ReaderModel(("a", "b"), (0.25, 0.75), 0.3) and hash(listed)
