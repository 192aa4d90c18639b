"""A clue word the bot does not know is caught before the turn is spent (duetbot.bots.spelling)."""

from __future__ import annotations

import pytest

from duetbot.bots import Partner
from duetbot.bots.factory import default_bots
from duetbot.bots.random_bots import RandomGuesser, RandomSpymaster
from duetbot.bots.spelling import UnknownClue, unknown_clue


@pytest.fixture(scope="module")
def bot():
    return Partner(*default_bots())


@pytest.mark.parametrize("word", ["ocean", "weather", "hurricanes", "selfie"])
def test_known_words_pass(bot, word):
    assert unknown_clue(bot, word) is None


@pytest.mark.parametrize("word, suggestion", [("oceon", "ocean"), ("animall", "animal"), ("xkcdqq", None)])
def test_typos_and_nonsense_are_named_with_the_most_frequent_close_word(bot, word, suggestion):
    found = unknown_clue(bot, word)
    assert found == UnknownClue(word, suggestion)
    assert str(found).startswith(f"{word.upper()}: not a word I know.")
    assert ("Did you mean" in str(found)) == (suggestion is not None)


def test_a_bot_without_a_vocabulary_is_never_asked(bot):
    assert unknown_clue(Partner(RandomSpymaster(), RandomGuesser()), "xkcdqq") is None
