"""Dealing and key cards (rule book: "Duet key cards"; counts from the back page)."""

import random
from collections import Counter

import pytest

from duetbot.rules import (
    CROSS_COUNTS, BoardError, KeyCard, KeyCardError, Label, Player, deal, make_deal,
)

from .conftest import PAIRS, WORDS, fixed_deal

POOL = [f"WORD{i}" for i in range(60)]


def test_each_side_has_9_green_3_assassin_13_bystander():
    """"On your side, nine words are marked in green ... You will also see three assassin words
    marked in black ... The remaining words are innocent bystanders.\""""
    for seed in range(50):
        d = deal(seed, POOL)
        for p in Player:
            assert d.key.counts(p) == {"green": 9, "assassin": 3, "bystander": 13}


def test_cross_side_distribution_is_official():
    """"there are only 15 unique agent words in total, as some overlap between the two sides.\""""
    for seed in range(50):
        d = deal(seed, POOL)
        assert Counter(zip(*d.key.sides)) == Counter(CROSS_COUNTS)
        assert len(d.key.all_greens()) == 15


def test_deal_is_deterministic_and_seed_dependent():
    assert deal(5, POOL) == deal(5, POOL)
    assert deal(5, POOL) != deal(6, POOL)
    assert deal(5, POOL).seed == 5


def test_deal_draws_25_distinct_words_from_the_pool():
    d = deal(1, POOL)
    assert len(set(d.words)) == 25 and set(d.words) <= set(POOL)


def test_deal_ignores_case_duplicates_in_pool_and_needs_25():
    with pytest.raises(BoardError, match="24 distinct"):
        deal(0, [f"w{i}" for i in range(24)] + ["W0", "w1"])


def test_given_board_and_key_card():
    d = fixed_deal()
    assert d.key.label(Player.A, 13) is Label.GREEN and d.key.label(Player.B, 13) is Label.ASSASSIN
    assert d.seed is None
    assert d.index("  apple ") == 0


@pytest.mark.parametrize("n", [24, 26])
def test_board_needs_25_words(n):
    words = [f"W{i}" for i in range(n)]
    with pytest.raises(BoardError, match="exactly 25 words"):
        make_deal(words, [a for a, _ in PAIRS], [b for _, b in PAIRS])


def test_board_rejects_duplicate_words():
    words = WORDS[:24] + ["apple"]
    with pytest.raises(BoardError, match="appears twice"):
        make_deal(words, [a for a, _ in PAIRS], [b for _, b in PAIRS])


def test_key_card_rejects_wrong_side_counts():
    a = [a for a, _ in PAIRS]
    b = [b for _, b in PAIRS]
    a[18] = Label.GREEN  # a tenth green on side A
    with pytest.raises(KeyCardError, match="side A .* 10 green"):
        KeyCard.from_labels(a, b)


def test_key_card_rejects_wrong_cross_distribution():
    a = [a for a, _ in PAIRS]
    b = [b for _, b in PAIRS]
    # swap two B labels so per-side counts hold but the overlaps are wrong
    b[0], b[18] = b[18], b[0]
    with pytest.raises(KeyCardError, match="official distribution"):
        KeyCard.from_labels(a, b)


def test_key_card_rejects_short_side_and_unknown_label():
    with pytest.raises(KeyCardError, match="24 labels"):
        KeyCard.from_labels(["g"] * 24, ["g"] * 25)
    with pytest.raises(ValueError, match="unknown key-card label 'purple'"):
        KeyCard.from_labels(["purple"] * 25, ["g"] * 25)


def test_key_card_json_round_trip_and_letter_labels():
    d = deal(9, POOL)
    assert KeyCard.from_json(d.key.to_json()) == d.key
    letters = {"green": "g", "assassin": "a", "bystander": "b"}
    again = KeyCard.from_labels([letters[x.value] for x in d.key.sides[0]],
                                [letters[x.value] for x in d.key.sides[1]])
    assert again == d.key


def test_random_key_card_uses_given_rng():
    assert KeyCard.random(random.Random(3)) == KeyCard.random(random.Random(3))
