"""Learning the partner during a game: the evidence from the history, the posterior, and its
use by the spymaster and the guesser (and bench_adapt)."""

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest

from duetbot.bots.factory import PartnerSpec, SpecError, ensemble
from duetbot.bots.guesser import EmbeddingGuesser, GuesserConfig
from duetbot.bots.reader import ReaderModel, ReadTurns, StopCounts, adapted, history_reads, outcome_posterior
from duetbot.bots.spymaster import AdaptConfig, EmbeddingSpymaster, SpymasterConfig
from duetbot.rules import Clue, EndTurn, Guess, GuessResult, Player
from duetbot.rules import State, Turn
from duetbot.views import guesser_view, spymaster_view

from .conftest import A_GREENS, WORDS, benchmark, fixed_deal

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = ("glove50", "spacy300", "minilm")
G, N = GuessResult.GREEN, GuessResult.BYSTANDER


@pytest.fixture(scope="module")
def spy() -> EmbeddingSpymaster:
    return EmbeddingSpymaster(ensemble(FAMILIES))


def test_history_reads_rebuilds_what_was_in_play():
    words = ["a", "b", "c", "d"]
    z = {"x": np.array([[1.0, 2.0, 3.0, 4.0]]), "y": np.array([[4.0, 3.0, 2.0, 1.0]])}
    turns = [Turn(Player.A, Clue("x", 2), (("D", G), ("c", N))),
             Turn(Player.B, Clue("y", 1), (("a", G),)),
             Turn(Player.A, Clue("zero", 0), (("b", G),)),
             Turn(Player.A, Clue("y", 2), (("b", G), ("a", N)))]
    reads, hits = history_reads(turns, words, Player.A, z.__getitem__, max_guesses=3)
    assert len(reads) == 2  # B's clue and the zero clue are not A's evidence
    assert reads.guesses.tolist() == [[3, 2, -1], [1, 0, -1]]
    assert hits.tolist() == [[True, False, False], [True, False, False]]
    assert reads.alive[0].all()
    # before A's last clue: d and a covered green (A's own and B's clue), c touched as a
    # bystander by A's partner, b covered by the zero clue's guess
    assert reads.alive[1].tolist() == [False, False, False, False]
    # a clue no family reads is left out
    reads, _ = history_reads(turns[:1], words, Player.A, lambda w: (_ for _ in ()).throw(ValueError(w)))
    assert len(reads) == 0


def test_history_reads_finds_guesses_by_word_key_and_refuses_a_word_off_the_board():
    words = ["ICE CREAM", "Café", "b"]
    z = {"x": np.array([[1.0, 2.0, 3.0]])}
    turns = [Turn(Player.A, Clue("x", 2), (("ice  cream", G), ("CAFÉ", N)))]
    reads, hits = history_reads(turns, words, Player.A, z.__getitem__, max_guesses=2)
    assert reads.guesses.tolist() == [[0, 1]] and hits.tolist() == [[True, False]]
    off = [Turn(Player.B, Clue("x", 1), (("zebra", G),))]
    with pytest.raises(ValueError, match="'zebra'.*not on the board"):
        history_reads(off, words, Player.A, z.__getitem__)


def test_adapted_without_evidence_is_the_prior_and_moves_with_it():
    prior = ReaderModel(("a", "b"), (0.5, 0.5), 0.3, lapse=0.1, stop_early=0.25, bonus=0.05)
    assert adapted(prior, np.zeros((0, 3)), 4.0) is prior
    m = adapted(prior, np.array([[1.0, 0.0, 0.0]] * 4), 4.0)
    assert m.weights[0] == pytest.approx((4 * 0.45 + 4) / (4 * 0.9 + 4))  # Dirichlet counts
    assert m.lapse == pytest.approx(0.4 / 8)
    # a partner who never stops early and always takes the bonus
    stops = StopCounts(below=(0, 6), at=(0, 4), above=(0, 0))
    s = adapted(prior, np.zeros((0, 3)), 4.0, stops, 8.0)
    assert s.stop_early == pytest.approx(8 * 0.25 / 14) and s.bonus == pytest.approx((8 * 0.05 + 4) / 12)
    assert StopCounts(below=(1, 0), at=(0, 0), above=(0, 0)).log_likelihood(s) == pytest.approx(np.log(s.stop_early))


def test_outcome_posterior_credits_the_family_that_ranked_the_greens_first():
    z = np.array([[[3.0, 0.0, 0.0, 2.5]], [[0.0, 0.0, 3.0, 0.0]]]).transpose(1, 0, 2)  # (1, F, W)
    z = np.repeat(z, 2, axis=0)
    reads = ReadTurns(z, np.ones((2, 4), bool), np.array([[0, 3], [0, 2]]))
    hits = np.array([[True, True], [True, False]])
    post = outcome_posterior(reads, hits, ReaderModel(("a", "b"), (0.5, 0.5), 0.5, lapse=0.05))
    assert post.shape == (2, 3) and np.allclose(post.sum(axis=1), 1)
    assert post[0, 0] > 0.9      # both of a's favourites were green
    assert post[1, 0] > post[1, 1]  # b's favourite was a miss


def _clue_read_by(spy: EmbeddingSpymaster, family: int, other: int) -> tuple[str, list[str]]:
    """A clue whose two best words for ``family`` are A's greens, not ``other``'s two best."""
    sims = spy.ensemble.board(WORDS)
    greens = set(A_GREENS)
    for c in np.argsort(-sims.z[family].max(axis=1))[:3000]:
        top = list(np.argsort(-sims.z[family, c])[:2])
        if set(top) <= greens and set(top).isdisjoint(np.argsort(-sims.z[other, c])[:2]):
            word = spy.ensemble.clue_words[int(c)]
            if all(word not in w.lower() and w.lower() not in word for w in WORDS):
                return word, [WORDS[i] for i in top]
    raise AssertionError("no such clue")


def _after(clue: str, guesses: list[str]) -> State:
    state = State(fixed_deal())
    state.apply(Clue(clue, 2), Player.A)
    for w in guesses:
        assert state.apply(Guess(w), Player.B) is GuessResult.GREEN
    state.apply(EndTurn(), Player.B)
    return state


@pytest.mark.parametrize("family,other", [(0, 2), (2, 0)])
def test_spymaster_learns_which_family_its_partner_reads_like(spy, family, other):
    clue, guesses = _clue_read_by(spy, family, other)
    view = spymaster_view(_after(clue, guesses), Player.A)
    assert spy.adapted_partner(spymaster_view(State(fixed_deal()), Player.A)) is spy.partner
    learnt = spy.adapted_partner(view)
    assert learnt.weights[family] > spy.partner.weights[family] + 0.02
    assert learnt.weights[other] < spy.partner.weights[other]
    # stateless: the same view gives the same clue; adaptation off keeps the prior
    assert spy.give_clue(view) == spy.give_clue(view)
    off = EmbeddingSpymaster(spy.ensemble, SpymasterConfig(adapt=AdaptConfig(enabled=False)))
    assert off.adapted_partner(view) is off.partner


def test_guesser_learns_which_family_its_partner_clues_with(spy):
    clue, guesses = _clue_read_by(spy, 0, 2)
    state = _after(clue, guesses)
    bot = EmbeddingGuesser(ensemble(FAMILIES), GuesserConfig(adapt=True))
    base = bot.family_weights(guesser_view(State(fixed_deal()), Player.B))
    assert base.tolist() == [1.0, 1.0, 1.0]
    # B guessed on A's clue; B's weights for A's next clue move to the family that read it
    state.apply(Clue("fruit", 1), Player.B)
    state.apply(Guess("APPLE"), Player.A)
    state.apply(EndTurn(), Player.A)
    state.apply(Clue("animal", 1), Player.A)
    view = guesser_view(state, Player.B)
    w = bot.family_weights(view)
    assert w[0] > 1.0 > w[2] and w.sum() == pytest.approx(3.0)
    assert EmbeddingGuesser(ensemble(FAMILIES), GuesserConfig(adapt=False)).family_weights(view).tolist() == [1, 1, 1]
    # the clue I am guessing on is not evidence yet: one turn's guesses share one reading
    green = next(i for i in A_GREENS if i not in view.covered)
    state.apply(Guess(view.words[green]), Player.B)
    during = guesser_view(state, Player.B)
    assert during.correct_this_turn == 1 and during.turns[-1].guesses
    fresh = EmbeddingGuesser(ensemble(FAMILIES), GuesserConfig(adapt=True))
    assert fresh.family_weights(during).tolist() == pytest.approx(w.tolist())


def test_the_shipped_guesser_learns_its_partner():
    assert GuesserConfig().adapt and PartnerSpec.parse("default").build().guesser.config.adapt
    assert not PartnerSpec.parse("adapt=spymaster").build().guesser.config.adapt


def test_spec_adapt_key():
    assert PartnerSpec.parse("adapt=off").label == "adapt=off"
    assert PartnerSpec.parse("model=glove50,adapt=on").label == "model=glove50,adapt=on"
    assert PartnerSpec.parse("model=glove50").build().spymaster.config.adapt.enabled
    p = PartnerSpec.parse("model=glove50+minilm,adapt=guesser").build()
    assert not p.spymaster.config.adapt.enabled and p.guesser.config.adapt
    with pytest.raises(SpecError, match="adapt"):
        PartnerSpec.parse("adapt=maybe")


def test_bench_adapt_runs_on_the_sample():
    bench_adapt = benchmark("bench_adapt")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench_adapt.main(["--quick", "--data", str(ROOT / "tests" / "data" / "human_turns_sample.jsonl")]) == 0
    assert "| not adapted |" in out.getvalue() and "adapted, prior = 4 clues" in out.getvalue()


def test_profile_carries_what_was_learnt_into_the_next_game(spy):
    from duetbot.bots import Partner
    from duetbot.bots.profile import Profile, ProfileError, check_name, learnt, with_profile

    clue, guesses = _clue_read_by(spy, 0, 2)
    state = _after(clue, guesses)
    bots = Partner(spy, EmbeddingGuesser(ensemble(FAMILIES)), "duetbot")
    # the bot is A here: it gave the clue its partner read like glove50
    p = learnt(Profile("alice"), bots, spymaster_view(state, Player.A), guesser_view(state, Player.A))
    assert p.games == 1 and p.reader.weights[0] > 1 / 3
    again = Profile.from_json(p.to_json())
    assert again.games == 1 and again.reader.weights == pytest.approx(p.reader.weights, abs=1e-5)
    nxt = with_profile(bots, again)
    assert nxt.spymaster.partner.weights[0] == pytest.approx(p.reader.weights[0], abs=1e-5)
    # A was never clued: its guesser learnt nothing and keeps equal weights
    weights = dict(nxt.guesser.config.family_weights)
    assert [weights[m.family] for m in nxt.guesser.ensemble.models] == [1.0, 1.0, 1.0]
    # a profile of other families leaves the spymaster as it is
    other = Profile("bob", 1, ReaderModel(("eat",), (1.0,), 0.2))
    assert with_profile(bots, other).spymaster is spy
    for bad in ({"version": 2}, {"version": 1, "name": 3}, {"version": 1, "name": "x", "reader": {"weights": {}}}):
        with pytest.raises(ProfileError, match="not a duetbot profile"):
            Profile.from_json(bad)
    with pytest.raises(ProfileError):
        check_name("a/b")


def test_a_suggest_request_carries_the_partners_guesses(spy):
    from duetbot.suggest.duet import spymaster_request_view
    from duetbot.suggest.requests import RequestError

    clue, guesses = _clue_read_by(spy, 0, 2)
    greens = [WORDS[i] for i in A_GREENS]
    req = {"role": "spymaster", "board": WORDS, "green": greens, "assassin": ["OCEAN", "PIANO", "QUEEN"],
           "covered": guesses, "history": [{"clue": clue, "number": 2, "guesses": [g.lower() for g in guesses] + ["SNAKE"]}]}
    view = spymaster_request_view(req)
    assert view.turns[0].guesses == ((guesses[0], G), (guesses[1], G), ("SNAKE", N))
    assert spy.adapted_partner(view).weights[0] > spy.partner.weights[0]
    with pytest.raises(RequestError, match="history guesses.*not on the board"):
        spymaster_request_view({**req, "history": [{"clue": clue, "guesses": ["nowhere"]}]})
