"""Random bots: legal, seeded, and useless on purpose. They exercise the engine and harness."""

from __future__ import annotations

import random

from ..rules import Clue, EndTurn, Guess, is_legal_clue
from ..views import GuesserView, SpymasterView
from .base import Partner

# Clue words for the random spymaster; any that clash with the board are skipped.
_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
          "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
          "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu")


class RandomSpymaster:
    """Gives a random legal clue word with a number between 0 and the greens left."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def give_clue(self, view: SpymasterView) -> Clue:
        visible = [view.words[i] for i in view.visible]
        lo = 0 if view.variant.zero_clues else 1
        number = self.rng.randint(lo, max(lo, len(view.greens_left)))
        for word in self.rng.sample(_WORDS, len(_WORDS)):
            if is_legal_clue(word, visible):
                return Clue(word, number)
        raise RuntimeError("every random clue word clashes with the board")


class RandomGuesser:
    """Guesses a random guessable word; after a correct guess stops with probability ``stop``."""

    def __init__(self, seed: int | None = None, stop: float = 0.4) -> None:
        self.rng = random.Random(seed)
        self.stop = stop

    def guess(self, view: GuesserView) -> Guess | EndTurn:
        if view.correct_this_turn and not view.sudden_death and self.rng.random() < self.stop:
            return EndTurn()
        return Guess(view.words[self.rng.choice(view.guessable)])


def random_partner(seed: int | None = None) -> Partner:
    return Partner(RandomSpymaster(seed), RandomGuesser(None if seed is None else seed + 1), "random")
