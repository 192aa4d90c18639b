"""Every number the spymaster uses, in one nested config: a part per rule group.

benchmarks/RESULTS.md, "Where the config defaults come from", has the measurements behind
the defaults (``bench_strength.py`` re-tunes them).

>>> cfg = SpymasterConfig(words=WordsConfig(strict_clues=False))
>>> cfg.words.strict_clues, cfg.number.honest_ratio
(False, 0.8)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..reader import ReaderModel

#: People as readers of clues (``benchmarks/bench_people.py --part fit``): family weights,
#: temperature and lapse by maximum likelihood of the human guessers' guesses, in order, in
#: the human Duet dev set (444 turns, 519 guesses, 100 games); stop rates counted from what
#: people did after a correct guess (below the number 18 stopped, 56 went on; at it 347
#: stopped, 16 went on). Held-out log-likelihood per guess, 5 folds grouped by game: -1.56,
#: against -2.24 for the spymaster's old fixed model (equal mixture of the three embeddings,
#: Gaussian noise 0.35). People read mostly like ``eat`` and ``minilm``.
PEOPLE = ReaderModel(("glove50", "spacy300", "minilm", "eat"), (0.080, 0.009, 0.368, 0.543),
                     temperature=0.639, lapse=0.006, stop_early=0.25, bonus=0.047)


def people_model(families: Sequence[str]) -> ReaderModel:
    """:data:`PEOPLE` over these families (weights renormalised; a family it was not fitted
    with gets the mean weight)."""
    return PEOPLE.restricted(families)


def spymaster_partner(families: Sequence[str]) -> ReaderModel:
    """The spymaster's default partner model: every family of its ensemble equally likely,
    temperature 0.2, people's lapse and stop rates. The fitted weights and temperature of
    :data:`PEOPLE` were measured as the spymaster's model and lost in leave-one-family-out
    play (benchmarks/RESULTS.md, "A partner model learnt from people"): an unseen partner
    is better served by clues every family reads than by clues tuned to eat and minilm."""
    return ReaderModel(tuple(families), tuple(1 / len(families) for _ in families), 0.2,
                       PEOPLE.lapse, PEOPLE.stop_early, PEOPLE.bonus)


@dataclass(frozen=True)
class SearchConfig:
    """The screen and the simulation of partners."""

    samples: int = 64
    """Simulated partners per candidate, shared among the partner model's families by
    weight. RESULTS.md, "A partner model learnt from people" (three quick knobs)."""
    shortlist: int = 240
    """Candidates kept by the cheap screen for the simulation."""
    max_number: int = 4
    """Largest count considered. RESULTS.md, "Where the config defaults come from"."""
    assassin_margin: float = 0.5
    """Screen only: an assassin counts as this much more similar than it is (z units).
    RESULTS.md, "A partner model learnt from people" (three quick knobs)."""


@dataclass(frozen=True)
class WordsConfig:
    """Which clue words the bot may say, and which it prefers."""

    min_zipf: float = 3.0
    """Clue words rarer than this (wordfreq zipf) are never given.
    RESULTS.md, "Where the config defaults come from"."""
    familiarity: float = 0.004
    """Score penalty per zipf unit below 4.5: prefer words a person knows."""
    proper_penalty: float = 0.05
    """Score penalty for the proper nouns that remain (famous ones: Paris, Einstein).
    RESULTS.md, "Strength in full games"."""
    base_forms: bool = True
    """Give only words a person would say (:func:`~duetbot.bots.common_words.people_would_say`).
    RESULTS.md, "Clues a person can read"."""
    strict_clues: bool = True
    """Hold the bot's own clues to :func:`~duetbot.bots.strict_clues.strict_illegal_clues`,
    not only the rule book (``False``: the rule book's filter).
    RESULTS.md, "Where the config defaults come from"."""


@dataclass(frozen=True)
class NumberConfig:
    """The number policy (:mod:`.number`): which numbers a clue may carry."""

    honest: bool = True
    """Hold clues to an honest number (the fields below); off: the number that maximises the
    mixture's chance of winning (the classic bot). RESULTS.md, "Clues a person can read"."""
    honest_ratio: float = 0.8
    """A clue of k is honest when every family's simulated reader puts at least this share
    of k greens in its top k. RESULTS.md, "Clues a person can read"."""
    strong_margin: tuple[float, ...] = (0.0, 0.25, 0.6, 0.8)
    """For a clue of k (index k-1), the z margin by which every target must beat every word
    not mine to find, in every family. RESULTS.md, "Where the config defaults come from"."""
    strong_assassin_margin: float = 1.0
    """How much more than a bystander an assassin counts in that check (z units).
    RESULTS.md, "Where the config defaults come from"."""
    honest_levels: int = 3
    """How far the clock may relax the number: 1, honest for every family; 2, on the
    families' average; 3, the clue with the best chance of winning.
    RESULTS.md, "Clues a person can read"."""
    trust_after: int = 1
    """The clock may relax the number only once the partner has read this many more of my
    clues right than wrong. RESULTS.md, "Clues a person can read"."""
    honest_pace: float = 1.2
    """A level's best clue is given when it is expected to find this share of the pace the
    clock asks (greens left per token left), else the next level's.
    RESULTS.md, "Where the config defaults come from"."""
    after_miss_cap: bool = True
    """After the partner missed on my last clue, the next is no bigger, unless the end game
    (``clock_tokens``) leaves nothing else. RESULTS.md, "Clues a person can read"."""
    clock_tokens: int = 4
    """The end game for ``after_miss_cap``: with this many tokens or fewer, a clue no bigger
    than the last may leave too little time."""
    min_link: float = 0.5
    """Every target's link (:attr:`~.position.ClueOption.links`) at least this: the partner
    model expects each target found (issue 36: later clues had been padded with targets
    linked at 0.00). RESULTS.md, "A partner a person wins with"."""
    min_expected_greens: float = 0.5
    """A positive clue must be expected to find at least this many greens (a clue that
    points at nothing reads as a blunder)."""


@dataclass(frozen=True)
class ZeroConfig:
    """``clue: 0`` to warn off an assassin (:mod:`.zero`)."""

    enabled: bool = True
    """Consider zero clues at all (the variant may forbid them too)."""
    trigger: float = 0.02
    """A zero clue is considered only when the best positive clue risks the assassin at
    least this much."""
    guess_risk: float = 0.03
    """Chance that the guess forced by a zero clue hits an assassin."""
    min_margin: float = 0.5
    """A zero clue's word must point at its assassin by this z margin over any other word."""


@dataclass(frozen=True)
class AdaptConfig:
    """Learning this partner during the game from its guesses on my earlier clues
    (:func:`~duetbot.bots.reader.adapted`; the evidence is the view's history)."""

    enabled: bool = True
    """RESULTS.md, "Where the config defaults come from"."""
    prior_clues: float = 2.0
    """How many clues' worth of evidence the prior partner model counts for.
    RESULTS.md, "Where the config defaults come from"."""
    prior_stops: float = 8.0
    """How many stop decisions' worth the prior stop rates count for."""
    lapse: bool = False
    """Learn the lapse too (a partner no family explains makes it grow).
    RESULTS.md, "Where the config defaults come from"."""


@dataclass(frozen=True)
class SpymasterConfig:
    """The spymaster's config: the partner model and one part per rule group."""

    partner: ReaderModel | None = None
    """The partner model (:mod:`..reader`); ``None``: :func:`spymaster_partner` for the
    ensemble's families. RESULTS.md, "A partner model learnt from people"."""
    search: SearchConfig = field(default_factory=SearchConfig)
    words: WordsConfig = field(default_factory=WordsConfig)
    number: NumberConfig = field(default_factory=NumberConfig)
    zero: ZeroConfig = field(default_factory=ZeroConfig)
    adapt: AdaptConfig = field(default_factory=AdaptConfig)
    seed: int = 0
    """The simulated partners' noise."""
