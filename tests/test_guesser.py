"""The embedding guesser: obvious guesses, zero clues, key-card inference, the stop policy.

Uses the shipped models (loaded once per module) and boards built by hand.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from duetbot.bots.base import Partner
from duetbot.bots.factory import (
    DEFAULT_GUESSER_MODELS,
    DEFAULT_MODELS,
    ensemble,
    spymaster,
)
from duetbot.bots.guesser import EmbeddingGuesser, GuesserConfig, allocate, key_prior
from duetbot.harness import play_game
from duetbot.rules import Clue, EndTurn, Guess, GuessResult, Player, State, deal
from duetbot.suggest import guesser_request_view
from duetbot.views import GuesserView, guesser_view
from duetbot.wordpool import default_pool

from .conftest import G_N, G_X, GG, N_G, N_N, N_X, WORDS, X_G, X_N, X_X, fixed_deal

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_guesser.py"
DATA = ROOT.parent / "shared" / "data" / "human-duet-dev" / "turns.jsonl"

BOARD = ["Storm", "RAINBOW", "piano", "DOCTOR", "pencil", "castle", "banana", "ice cream", "robot",
         "ship", "nurse", "tiger", "bank", "glass", "moon", "engine", "bread", "king", "shoe",
         "river", "clock", "camera", "horse", "chair", "rocket"]
G, A, N = 0, 1, 2  # columns of Belief.p: partner's green, assassin, bystander


@pytest.fixture(scope="module")
def bot() -> EmbeddingGuesser:
    return EmbeddingGuesser(ensemble(DEFAULT_GUESSER_MODELS))


@pytest.fixture(scope="module")
def blind(bot) -> EmbeddingGuesser:
    """The same guesser without my side of the key card (a table request that gives none)."""
    return EmbeddingGuesser(bot.ensemble, replace(bot.config, infer_key=False))


def view(clues, **req) -> GuesserView:
    """A guesser view from a table request on BOARD; ``clues``: [(word, number)], oldest first."""
    v, _ = guesser_request_view({"board": BOARD, "clues": [{"clue": c, "number": n} for c, n in clues], **req})
    return v


def row(belief, word: str) -> tuple[int, np.ndarray, float]:
    """(rank, (P green, P assassin, P bystander), score) of ``word`` in a belief."""
    i = belief.words.index(word)
    return i, belief.p[i], float(belief.score[i])


# --- obvious guesses ---------------------------------------------------------------------------


@pytest.mark.parametrize("guesser", ["bot", "blind"])
def test_obvious_two_word_clue_ranks_its_words_first(guesser, request):
    b = request.getfixturevalue(guesser).belief(view([("hospital", 2)]))
    assert set(b.words[:2]) == {"DOCTOR", "nurse"}
    assert (np.diff(b.score) <= 1e-12).all()  # best first
    assert np.allclose(b.p.sum(axis=1), 1) and (b.p >= 0).all()
    assert b.p[0, G] > 0.3 and b.p[2, G] < b.p[1, G]


@pytest.mark.parametrize("family", DEFAULT_MODELS)
def test_each_family_alone_reads_an_obvious_clue(family):
    g = EmbeddingGuesser(ensemble((family,)), GuesserConfig(infer_key=False))
    assert g.belief(view([("hospital", 2)])).words[0] in ("DOCTOR", "nurse")
    for clue, word in (("launch", "rocket"), ("sailor", "ship"), ("bakery", "bread"), ("saddle", "horse")):
        assert g.belief(view([(clue, 1)])).words[0] == word


def test_guess_action_is_the_top_word(bot):
    assert bot.guess(view([("launch", 1)])) == Guess("rocket")


def test_found_targets_leave_the_clue_with_fewer_to_find(blind):
    """'hospital 2' after DOCTOR was found green: nurse still stands out; once both are
    found the clue spreads nothing and P(green) falls everywhere."""
    v = view([("hospital", 2)], covered=["DOCTOR"])
    turn = replace(v.turns[0], guesses=(("DOCTOR", GuessResult.GREEN),))
    one_left = blind.belief(replace(v, turns=(turn,)))
    assert one_left.words[0] == "nurse"
    v2 = view([("hospital", 2)], covered=["DOCTOR", "nurse"])
    both = replace(v2.turns[0], guesses=(("DOCTOR", GuessResult.GREEN), ("nurse", GuessResult.GREEN)))
    none_left = blind.belief(replace(v2, turns=(both,)))
    assert none_left.p[:, G].max() < 0.05 < one_left.p[0, G]


def test_older_clue_still_counts(blind):
    """An unfinished older clue keeps pointing at its word (with decay)."""
    b = blind.belief(view([("launch", 1), ("hospital", 1)]))
    only = blind.belief(view([("hospital", 1)]))
    assert row(b, "rocket")[1][G] > row(only, "rocket")[1][G] + 0.2
    assert "rocket" in b.words[:2]


# --- zero clues ----------------------------------------------------------------------------------


def test_zero_clue_steers_away_from_its_word(blind):
    """'money: 0' then 'hospital: 2': BANK (like money) is more likely an assassin, scores
    lower and drops in the ranking than after 'hospital: 2' alone."""
    without = blind.belief(view([("hospital", 2)]))
    warned = blind.belief(view([("money", 0), ("hospital", 2)]))
    r0, p0, s0 = row(without, "bank")
    r1, p1, s1 = row(warned, "bank")
    assert p1[A] > p0[A] + 0.2
    assert s1 < s0 and r1 > r0
    assert p1[G] <= p0[G] + 1e-9  # never raised (today a zero clue moves only the non-green share)
    assert set(warned.words[:2]) == {"DOCTOR", "nurse"}
    # a word unlike money is hardly touched
    assert abs(row(warned, "tiger")[1][A] - row(without, "tiger")[1][A]) < 0.1


def test_zero_clue_alone_still_yields_a_guess(bot):
    """A zero clue is legal and the guesser must still make one guess: not the warned word."""
    v = view([("money", 0)], green=["piano"], assassin=["moon"])
    action = bot.guess(v)
    assert isinstance(action, Guess) and action.word != "bank"


# --- key-card inference ----------------------------------------------------------------------


def test_my_assassin_is_more_dangerous_than_my_bystander(bot):
    """Same board, same clue (so equal similarity): only my label of NURSE differs."""
    clue = [("hospital", 1)]
    as_assassin = bot.belief(view(clue, green=["piano"], assassin=["nurse", "moon", "king"]))
    as_bystander = bot.belief(view(clue, green=["piano"], assassin=["moon", "king"]))
    _, pa, sa = row(as_assassin, "nurse")
    _, pb, sb = row(as_bystander, "nurse")
    assert pa[A] > pb[A] and pa[G] < pb[G]
    assert sa < sb
    assert as_assassin.words.index("nurse") >= as_bystander.words.index("nurse")
    assert np.allclose(row(as_assassin, "DOCTOR")[1], row(as_bystander, "DOCTOR")[1])  # others untouched


def test_my_green_sits_between_for_the_assassin_risk(bot):
    """Partner's assassin chance: my assassin 1/3 > my green 1/9 > my bystander 1/13."""
    v = view([("launch", 1)], green=["tiger"], assassin=["horse"])
    b = bot.belief(v)
    pa = {w: row(b, w)[1][A] for w in ("tiger", "horse", "clock")}
    assert pa["horse"] > pa["tiger"] > pa["clock"]


def _prior_row(prior: np.ndarray, i: int) -> list[Fraction]:
    return [Fraction(float(x)).limit_denominator(50) for x in prior[i]]


def test_key_prior_matches_the_official_distribution():
    s = State(fixed_deal())
    s.apply(Clue("music", 1), Player.A)
    prior = key_prior(guesser_view(s, Player.B))
    assert np.allclose(prior.sum(axis=1), 1)
    # B's own side: X_G / X_X / G_X ... read with B as the guesser: mine is the second label
    third = Fraction(1, 3)
    for i in (G_X, X_X, N_X):          # B's assassins
        assert _prior_row(prior, i) == [third, third, third]
    for i in GG + N_G + [X_G]:         # B's greens: partner green 3/9, assassin 1/9
        assert _prior_row(prior, i) == [Fraction(3, 9), Fraction(1, 9), Fraction(5, 9)]
    for i in G_N + N_N + [X_N]:        # B's bystanders: partner green 5/13, assassin 1/13
        assert _prior_row(prior, i) == [Fraction(5, 13), Fraction(1, 13), Fraction(7, 13)]


def test_key_prior_is_symmetric_for_player_a():
    s = State(fixed_deal())
    s.apply(Clue("music", 1), Player.B)
    prior = key_prior(guesser_view(s, Player.A))
    assert _prior_row(prior, X_G) == [Fraction(1, 3)] * 3     # A's assassin
    assert _prior_row(prior, G_X) == [Fraction(3, 9), Fraction(1, 9), Fraction(5, 9)]
    assert _prior_row(prior, N_G[0]) == [Fraction(5, 13), Fraction(1, 13), Fraction(7, 13)]


def test_key_prior_updates_after_a_revealed_guess():
    """B guesses a word that is B's bystander and A's green: it is known green, and B's
    other bystanders now share 4 greens, 1 assassin, 7 bystanders among 12."""
    s = State(fixed_deal())
    s.apply(Clue("music", 1), Player.A)
    assert s.apply(Guess(WORDS[G_N[0]]), Player.B) is GuessResult.GREEN
    s.apply(EndTurn(), Player.B)
    s.apply(Clue("sport", 1), Player.B)   # B clues; A guesses
    s.apply(Guess(WORDS[N_N[0]]), Player.A)
    s.apply(Clue("weather", 1), Player.A)
    v = guesser_view(s, Player.B)
    prior = key_prior(v)
    assert _prior_row(prior, G_N[0]) == [1, 0, 0]
    for i in G_N[1:] + [X_N]:
        assert _prior_row(prior, i) == [Fraction(4, 12), Fraction(1, 12), Fraction(7, 12)]
    # B's greens and assassins are untouched
    assert _prior_row(prior, GG[0]) == [Fraction(3, 9), Fraction(1, 9), Fraction(5, 9)]
    assert _prior_row(prior, X_X) == [Fraction(1, 3)] * 3


def test_key_prior_after_partner_done_has_no_green():
    v = replace(view([("hospital", 1)], green=["piano"]), partner_done=True)
    assert (key_prior(v)[:, G] == 0).all()


# --- sudden death, covered and marked words ---------------------------------------------------


def test_sudden_death_picks_a_clued_word_first(bot):
    v = view([("hospital", 2)], tokens=0, green=["piano", "river"], assassin=["moon"])
    assert v.sudden_death
    belief, stop_after = bot.plan(v)
    assert belief.words[0] in ("DOCTOR", "nurse") and stop_after == 1
    # even after a correct guess this turn, sudden death never ends the turn voluntarily
    assert isinstance(bot.guess(replace(v, correct_this_turn=1)), Guess)
    # any miss loses there, a bystander as surely as the assassin: the green chance alone ranks
    assert np.all(np.diff(belief.p[:, G]) <= 0)


def test_no_guess_on_covered_or_my_marked_words(bot, blind):
    v = view([("hospital", 2)], covered=["DOCTOR", "rocket"], wrong=["nurse", "ship"])
    for g in (bot, blind):
        b = g.belief(v)
        assert not {"DOCTOR", "rocket", "nurse", "ship"} & set(b.words)
        assert sorted(b.index.tolist()) == sorted(v.guessable)
        assert g.guess(v).word not in ("DOCTOR", "nurse")


def test_guesses_in_a_real_game_stay_legal(bot):
    s = State(fixed_deal())
    s.apply(Clue("fruit", 2), Player.B)
    first = bot.guess(guesser_view(s, Player.A))
    assert isinstance(first, Guess)
    s.apply(first, Player.A)
    if s.phase.value == "guess" and s.to_move() == (Player.A,):
        v = guesser_view(s, Player.A)
        nxt = bot.guess(v)
        if isinstance(nxt, Guess):
            assert v.index(nxt.word) in v.guessable and nxt.word != first.word


# --- allocate ----------------------------------------------------------------------------------


# The guesser's weights are exp(sharpness * (z - max z)): the largest is 1, none subnormal.
weights = st.lists(st.one_of(st.just(0.0), st.floats(1e-9, 1e3)), min_size=1, max_size=25).map(np.array)
# allocate divides by the number of free words once every word is capped (0/0 on an empty
# selection: a harmless RuntimeWarning, reported to the lead, not ours to change here).
no_empty_divide = pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")


@no_empty_divide
@given(weights, st.floats(0, 5), st.floats(0.05, 1))
def test_allocate_water_filling(w, total, cap):
    p = allocate(w, total, cap)
    assert p.shape == w.shape
    assert (p >= -1e-12).all() and (p <= cap + 1e-9).all()
    assert p.sum() == pytest.approx(min(total, cap * len(w)), abs=1e-9)
    order = np.argsort(-w, kind="stable")
    assert (np.diff(p[order]) <= 1e-9).all()       # more weight never gets less
    uncapped = p < cap - 1e-9
    if w[uncapped].sum() > 0 and uncapped.sum() > 1:  # uncapped words stay proportional
        share = p[uncapped] / np.where(w[uncapped] > 0, w[uncapped], np.nan)
        share = share[np.isfinite(share)]
        assert np.allclose(share, share[0], rtol=1e-6)


@no_empty_divide
def test_allocate_examples():
    assert allocate(np.array([10.0, 1.0, 1.0]), 2, 0.9).round(2).tolist() == [0.9, 0.55, 0.55]
    assert allocate(np.array([1.0, 3.0]), 1, 1.0).tolist() == [0.25, 0.75]          # no cap binds
    assert allocate(np.array([0.0, 0.0, 0.0]), 1.5, 0.9).tolist() == [0.5, 0.5, 0.5]  # no signal: even
    assert allocate(np.array([5.0, 1.0]), 3, 0.9).tolist() == [0.9, 0.9]            # total above n * cap


# --- stop policy ---------------------------------------------------------------------------------


def test_never_ends_turn_before_a_correct_guess(bot):
    # a clue whose only target is already found: nothing left to look for, still a guess
    v = view([("launch", 1)], covered=["rocket"], green=["piano"], assassin=["moon"])
    turn = replace(v.turns[0], guesses=(("rocket", GuessResult.GREEN),))
    v = replace(v, turns=(turn,), correct_this_turn=0)
    assert isinstance(bot.guess(v), Guess)
    assert bot.plan(v)[1] >= 1


def test_ends_turn_when_the_clue_is_used_up(bot):
    v = view([("launch", 1)], covered=["rocket"], green=["piano"], assassin=["moon"])
    turn = replace(v.turns[0], guesses=(("rocket", GuessResult.GREEN),))
    assert isinstance(bot.guess(replace(v, turns=(turn,), correct_this_turn=1)), EndTurn)


def test_keeps_going_when_the_clue_has_targets_left(bot):
    v = view([("hospital", 2)], covered=["DOCTOR"], green=["piano"], assassin=["moon"])
    turn = replace(v.turns[0], guesses=(("DOCTOR", GuessResult.GREEN),))
    assert bot.guess(replace(v, turns=(turn,), correct_this_turn=1)) == Guess("nurse")


class _Checked:
    """Wraps a guesser and checks every decision against the stop rules."""

    def __init__(self, inner):
        self.inner, self.ends = inner, 0

    def guess(self, v: GuesserView):
        action = self.inner.guess(v)
        if isinstance(action, EndTurn):
            assert v.correct_this_turn >= 1 and not v.sudden_death
            self.ends += 1
        else:
            assert v.index(action.word) in v.guessable
        return action


def test_stop_policy_in_full_games(bot):
    spy = spymaster(DEFAULT_MODELS)
    noisy = EmbeddingGuesser(ensemble(("minilm",)), GuesserConfig(noise=0.5, seed=1))
    checked = [_Checked(bot), _Checked(noisy)]
    for seed in (11, 12):
        play_game(deal(seed, default_pool()), (Partner(spy, checked[0]), Partner(spy, checked[1])))
    assert sum(c.ends for c in checked) >= 1


# --- the benchmark ---------------------------------------------------------------------------


def test_benchmark_quick(capsys):
    turns = DATA if DATA.is_file() else Path(__file__).resolve().parent / "data" / "human_turns_sample.jsonl"
    spec = importlib.util.spec_from_file_location("bench_guesser", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--quick", "--data", str(turns)]) == 0
    out = capsys.readouterr().out
    assert "## a." in out and "## b." in out and "## c." in out
    assert "Parts run: a, b, c" in out
    assert "(default guesser) |" in out


def test_benchmark_skips_without_data(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("bench_guesser", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--quick", "--parts", "a", "--data", str(tmp_path / "none.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "SKIPPED" in out and "skipped: a (no data)" in out


def test_a_clue_cannot_aim_at_more_words_than_my_partner_has_left(blind):
    """Seven of my partner's greens found on earlier clues: 'weather 9' can have two targets at
    most, so it reads like 'weather 2' (not as nine near-certain targets)."""
    found = ["DOCTOR", "nurse", "bank", "king", "shoe", "clock", "horse"]
    earlier = view([("hospital", 7)], covered=found).turns[0]
    earlier = replace(earlier, guesses=tuple((w, GuessResult.GREEN) for w in found))

    def read(number):
        v = view([("hospital", 7), ("weather", number)], covered=found)
        return blind.belief(replace(v, turns=(earlier, v.turns[1])))

    nine, two = read(9), read(2)
    assert nine.words == two.words
    assert np.allclose(nine.p, two.p)
    assert nine.p[:, G].sum() < 4


def test_board_rows_read_like_the_full_board():
    """A guesser's rows (from the vocabulary's moments, no full product) are the full board's
    z-scores to float rounding, and a guesser always gets the rows, cached board or not."""
    from duetbot.bots.ensemble import BoardRows

    ens = ensemble(DEFAULT_GUESSER_MODELS)
    words = deal(41, default_pool()).words
    rows = ens.board_rows(words)
    full = ens.board(words)
    assert isinstance(rows, BoardRows) and ens.board_rows(words) is rows
    np.testing.assert_allclose(rows.mean, full.mean, rtol=1e-5)
    np.testing.assert_allclose(rows.std, full.std, rtol=1e-5)
    for clue in ("ocean", "music", "king", "animal"):
        i = ens.index[clue]
        np.testing.assert_allclose(rows.row(i), full.row(i), atol=1e-4)
    assert not rows.row(i).flags.writeable  # cached rows are shared by every guess


def test_phrase_readings_people_rely_on(bot):
    """Issue 36: POLICE -> STATION and GAS -> LAMP (two-word phrases, WordNet): the phrase lifts
    its word (STATION from second to first; LAMP into the top two, beside GAS ENGINE), and so
    does the association table on its own (police -> STATION, turtle -> NINJA)."""
    from duetbot.words.phrases import in_phrase

    assert in_phrase("police", "STATION") and in_phrase("lamp", "gas") and not in_phrase("police", "lamp")
    board = ["STATION", "LAMP", "NINJA", *BOARD[3:]]
    unlifted = ensemble(DEFAULT_GUESSER_MODELS, associations=False)
    plain = EmbeddingGuesser(unlifted, replace(bot.config, phrase_bonus=0.0))
    phrases = EmbeddingGuesser(unlifted, bot.config)
    table = EmbeddingGuesser(bot.ensemble, replace(bot.config, phrase_bonus=0.0))
    police = view_on(board, "police")
    assert plain.belief(police).words[0] != "STATION"
    assert phrases.belief(police).words[0] == table.belief(police).words[0] == bot.belief(police).words[0] == "STATION"
    gas = view_on(board, "gas")
    assert "LAMP" in phrases.belief(gas).words[:2]
    assert bot.belief(gas).words[0] == "STATION" and "LAMP" in bot.belief(gas).words[:3]  # gas station, people's first
    assert bot.belief(view_on(board, "turtle")).words[0] == "NINJA"


def view_on(board, clue: str) -> GuesserView:
    v, _ = guesser_request_view({"board": board, "clues": [{"clue": clue, "number": 1}]})
    return v
