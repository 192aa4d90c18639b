"""The spymaster's number policy as named rules, each on tiny arrays; the one rule for what a
turn's outcome costs (the engine, the spymaster's values, the guesser's stop and its plan)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from duetbot.bots.guesser import Belief, EmbeddingGuesser
from duetbot.bots.spymaster.config import NumberConfig
from duetbot.bots.spymaster.number import (
    Numbers, apply, at_most_greens_left, every_target_linked, finds_something, honest_number, no_bolder_after_miss, number_rules,
    strength, trust,
)
from duetbot.bots.winchance import DUET_TURNS, TurnEnd
from duetbot.rules import Label, Phase, Player, Variant
from duetbot.rules.duet import mistake_cost
from duetbot.views import GuesserView

CFG = NumberConfig()
INF = -np.inf


def numbers(found, **kw) -> Numbers:
    found = np.asarray(found, float)
    return Numbers(found=found, greens=kw.pop("greens", 4), **kw)


def test_at_most_greens_left():
    x = numbers([[1.0, 1.5, 1.9, 2.0]], greens=2)
    assert at_most_greens_left(x, x.found, CFG).tolist() == [[True, True, False, False]]


def test_finds_something():
    x = numbers([[0.4, 0.6], [0.5, 0.2]])
    assert finds_something(x, x.found, CFG).tolist() == [[False, True], [True, False]]


@pytest.mark.parametrize("read, tokens, greens, allowed", [
    ((), 9, 8, 4),                         # nothing read yet: no cap
    (((3, False),), 9, 8, 4),              # read well: no cap
    (((3, False), (2, True)), 9, 8, 2),    # missed on a 2: no bigger than 2
    (((2, True),), 3, 8, 4),               # the end game: 2s cannot finish 8 greens in 3 turns
    (((2, True),), 3, 5, 2),               # ... but they can finish 5
])
def test_no_bolder_after_miss(read, tokens, greens, allowed):
    x = numbers(np.ones((1, 4)), read=read, tokens=tokens, greens=greens)
    assert no_bolder_after_miss(x, x.found, CFG)[0].tolist() == [k <= allowed for k in range(1, 5)]
    assert no_bolder_after_miss(x, x.found, NumberConfig(after_miss_cap=False)).all()


def test_every_target_linked():
    """A clue of k only when its weakest of k targets beats the most tempting word not mine
    in every family (a link of 0.5 or more); a board where no clue reaches one green keeps
    its 1s."""
    labels = np.array([0, 0, 0, 2, 1], np.int8)
    z = np.array([[[2.0, 1.5, 0.2, 1.0, 0.5],        # clue 0: two greens above the bystander
                   [0.9, 0.8, 0.7, 1.0, 0.0]]],      # clue 1: the bystander first
                 np.float32)
    x = numbers(np.ones((2, 3)), greens=3, z=z, labels=labels)
    assert every_target_linked(x, x.found, CFG).tolist() == [[True, True, False], [False, False, False]]
    x = numbers(np.ones((1, 3)), greens=3, z=z[:, 1:], labels=labels)
    assert every_target_linked(x, x.found, CFG).tolist() == [[True, False, False]]
    # a stricter link asks for a z gap of temperature * logit(min_link)
    strict = NumberConfig(min_link=0.9)
    x = numbers(np.ones((2, 3)), greens=3, z=z, labels=labels, temperature=0.2)
    assert every_target_linked(x, x.found, strict)[0].tolist() == [True, True, False]   # gap 0.5 >= 0.44
    x = numbers(np.ones((2, 3)), greens=3, z=z, labels=labels, temperature=0.3)
    assert every_target_linked(x, x.found, strict)[0].tolist() == [True, False, False]  # 0.5 < 0.66


def test_trust_counts_clues_read_less_clues_misread():
    assert trust(numbers([[1.0]], read=((2, False), (3, True), (1, False)))) == 1


def _two_candidates(by_family):
    """Two clues over 3 words of mine and 1 other, one family: clue 0 links 2 greens strongly,
    clue 1 links 3 greens weakly."""
    z = np.array([[[3.0, 2.5, -1.0, 0.0],
                   [1.1, 1.0, 0.9, 0.5]]], np.float32)          # (families, candidates, words)
    labels = np.array([0, 0, 0, 2], np.int8)
    found = np.array([[0.95, 1.9, 1.9], [0.9, 1.5, 2.1]])
    return numbers(found, greens=3, by_family=np.asarray(by_family, float), z=z, labels=labels,
                   greens_total=12, tokens=6)


def test_strength_is_the_weakest_targets_margin_over_the_worst_other_word():
    x = _two_candidates(np.ones((1, 2, 3)))
    s = strength(x, CFG)[0]
    assert s[0, :2].tolist() == pytest.approx([3.0, 2.5 - 0.25])
    assert s[1, 2] == pytest.approx(0.9 - 0.5 - 0.6)


def test_honest_number_keeps_only_what_every_family_reads():
    by_family = [[[1.0, 1.9, 1.0], [1.0, 1.2, 2.0]]]
    x = _two_candidates(by_family)
    value = np.array([[0.3, 0.4, 0.2], [0.3, 0.35, 0.5]])
    allowed = honest_number(x, value, CFG)
    # clue 0 for 2 is honest and strong; clue 1 for 3 is neither strong nor read by the family
    assert allowed[0].tolist() == [True, True, False] and not allowed[1, 2]


def test_honest_number_falls_back_to_one_word_when_nothing_is_honest():
    x = _two_candidates(np.zeros((1, 2, 3)))
    allowed = honest_number(x, np.zeros((2, 3)), CFG)
    assert allowed[:, 0].all() and not allowed[:, 1:].any()


def test_rules_apply_in_order_and_can_be_switched_off():
    assert [r.__name__ for r in number_rules(CFG)] == [
        "at_most_greens_left", "finds_something", "no_bolder_after_miss", "every_target_linked", "honest_number"]
    assert [r.__name__ for r in number_rules(NumberConfig(honest=False))] == ["at_most_greens_left", "finds_something"]
    x = numbers([[0.2, 1.5, 2.0, 2.2]], greens=3)
    out = apply([at_most_greens_left, finds_something], x, np.ones((1, 4)), CFG)
    assert out.tolist() == [[INF, 1.0, 1.0, INF]]


# --- what a turn's outcome costs ----------------------------------------------------------------

@pytest.mark.parametrize("tokens, bystander_tokens, ok, miss", [
    (9, 9, 8, 8), (5, 1, 4, 4), (5, 0, 4, 3), (2, 0, 1, 0), (1, 0, 0, None),
])
def test_turn_end_follows_the_rule_book(tokens, bystander_tokens, ok, miss):
    assert TurnEnd.after(tokens, bystander_tokens) == TurnEnd(ok, miss)
    cost = mistake_cost(tokens, bystander_tokens)
    assert (cost is None) == (miss is None)


class _Fixed(EmbeddingGuesser):
    """A guesser whose belief is given: the stop and the plan are tested on their own."""

    def __init__(self, p_green: float) -> None:
        self.config = __import__("duetbot.bots.guesser", fromlist=["GuesserConfig"]).GuesserConfig()
        p = np.array([[p_green, 0.0, 1 - p_green]] * 3)
        self._belief = Belief(("A", "B", "C"), np.arange(3), p, p[:, 0])

    def belief(self, view):
        return self._belief


def _mission_view(greens_left: int, tokens: int, bystander_tokens: int) -> GuesserView:
    n = 25
    return GuesserView(
        player=Player.A, words=tuple(f"W{i}" for i in range(n)), my_side=(Label.BYSTANDER,) * n,
        covered=frozenset(range(3, 3 + 15 - greens_left)), covered_green=frozenset(range(3, 3 + 15 - greens_left)),
        my_marks=frozenset(), partner_marks=frozenset(), turns=(), tokens=tokens, bystander_tokens=bystander_tokens,
        variant=Variant(), partner_done=False, i_am_done=False, phase=Phase.GUESS, guessable=(0, 1, 2),
        correct_this_turn=1)


@pytest.mark.parametrize("p_green", [0.3, 0.4, 0.5, 0.6, 0.7])
def test_the_hint_never_says_stop_now_and_guess_more_at_once(p_green):
    """Issue 35: 2 greens left, 2 tokens, the mission map's bystander tokens spent: a miss
    loses two tokens, so the stop and the plan must agree (they did not: stop, and guess 2)."""
    bot = _Fixed(p_green)
    view = _mission_view(greens_left=2, tokens=2, bystander_tokens=0)
    stop = bot.should_stop(view, bot.belief(view))
    _, n = bot.plan(view)
    assert stop == (n == 0)
    W = DUET_TURNS.duet_table()
    end = TurnEnd.after(2, 0)
    assert stop == (not end.worth_guessing(W, 2, p_green, 1 - p_green))


@pytest.mark.parametrize("number, p_green, stops", [
    (2, 0.55, False),   # within the number: a word likely green is taken, as people do
    (1, 0.55, True),    # past the number: only a word green with 0.85 or more
    (1, 0.9, False),
])
def test_the_guesser_goes_to_the_number_and_seldom_past_it(number, p_green, stops):
    from duetbot.rules import Clue, GuessResult, Turn

    bot = _Fixed(p_green)
    clue = Turn(Player.B, Clue("FRUIT", number), (("W3", GuessResult.GREEN),))
    view = replace(_mission_view(greens_left=10, tokens=6, bystander_tokens=6), turns=(clue,))
    assert bot.should_stop(view, bot.belief(view)) is stops
    assert (bot.plan(view)[1] == 0) is stops
