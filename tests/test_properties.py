"""Invariants over many random games (hypothesis). Together these tests play well over 10,000
complete games per run: each example plays several games from seeds hypothesis chooses."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from duetbot.bots import random_partner
from duetbot.harness import play, step
from duetbot.records import GameRecord
from duetbot.rules import CROSS_COUNTS, Phase, Player, State, Variant, deal

POOL = [f"WORD{i:03d}" for i in range(200)]
VARIANTS = ["standard", "easy", "easier", "mission:8:4", "mission:11:2", "seed003",
            "standard+loose", "standard+cap", "mission:3:0+cap+loose"]
GAMES_PER_EXAMPLE = 10


def checked_play(state: State, seed: int) -> State:
    """Play to the end with random bots, checking invariants after every action."""
    partners = (random_partner(seed), random_partner(seed + 7))
    greens = state.deal.key.all_greens()
    while not state.is_over():
        before = len(state.covered_green)
        mover = state.mover()
        assert mover in state.to_move()
        event = step(state, partners)
        assert event.player is mover and event is state.events[-1]
        assert state.tokens >= 0 and state.bystander_tokens >= 0 and state.check_tokens >= 0
        assert state.covered_green <= greens and len(state.covered_green) <= 15
        assert len(state.covered_green) >= before
        assert not (state.marks[0] & state.covered_green & state.marks[1])
        assert len(state.events) < 200
        if state.phase is Phase.SUDDEN_DEATH:
            assert state.tokens == 0
    return state


@settings(max_examples=500)
@given(seed=st.integers(0, 2**40), variant=st.sampled_from(VARIANTS))
def test_random_games_keep_invariants_and_terminate(seed, variant):
    for k in range(GAMES_PER_EXAMPLE):
        s = checked_play(State(deal(seed + k, POOL), Variant.parse(variant)), seed + k)
        assert s.outcome is not None
        if s.score() is not None:
            assert len(s.covered_green) == 15
            assert s.score() == 3 * s.tokens + s.voluntary_ends - s.sudden_death


@settings(max_examples=500)
@given(seed=st.integers(0, 2**40), variant=st.sampled_from(VARIANTS))
def test_replay_from_record_reproduces_final_state(seed, variant):
    for k in range(GAMES_PER_EXAMPLE):
        s = play(State(deal(seed + k, POOL), Variant.parse(variant)),
                 (random_partner(seed + k), random_partner(seed + k + 1)))
        rec = GameRecord.loads(GameRecord.from_state(s).dumps())
        again = rec.replay()
        assert again == s and rec.outcome == s.outcome and rec.score == s.score()


@settings(max_examples=400)
@given(seed=st.integers(0, 2**63))
def test_dealt_key_cards_have_official_counts(seed):
    d = deal(seed, POOL)
    assert Counter(zip(*d.key.sides)) == Counter(CROSS_COUNTS)
    for p in Player:
        assert d.key.counts(p) == {"green": 9, "assassin": 3, "bystander": 13}
    assert len(set(d.words)) == 25


@settings(max_examples=300)
@given(seed=st.integers(0, 2**40), cut=st.integers(0, 60))
def test_game_saved_midway_resumes_to_the_same_end(seed, cut):
    """Save after ``cut`` actions, load, resume with the same bots: same game as uninterrupted."""
    d = deal(seed, POOL)
    full = play(State(d), (random_partner(seed), random_partner(seed + 1)))
    partial = State(d)
    partners = (random_partner(seed), random_partner(seed + 1))
    for _ in range(cut):
        if partial.is_over():
            break
        step(partial, partners)
    saved = GameRecord.from_state(partial).dumps()
    resumed = GameRecord.loads(saved).replay()
    assert resumed == partial  # sudden-death alternation included: the record alone decides who is next
    while not resumed.is_over():
        step(resumed, partners)
    assert resumed.events == full.events
