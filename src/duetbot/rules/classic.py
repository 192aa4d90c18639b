"""Classic Codenames (two teams) on the same engine pieces as Duet.

A variant that shares the rules engine, not a fork: the actions are Duet's :class:`Clue`,
:class:`Guess` and :class:`EndTurn`, clue legality is the same :func:`check_clue` on the words
still visible, errors are the same ``ValueError`` subclasses, events and turns are Duet's
:class:`Event` and :class:`Turn` (with a :class:`Team` in the player slot). What differs is
the key (one side, 9/8/7/1) and who wins (seeds/001, "How to Play Codenames"):

- red and blue teams; the starting team has 9 agents, the other 8; 7 bystanders; 1 assassin;
- a clue is one word and one number; at most number + 1 guesses per turn (the rule book's
  rule applies to every number; ``ClassicRules(zero_unlimited=True)`` is the published
  full rule book's "0 means unlimited", which seeds/001 does not state);
- own agent: covered, the team may go on; bystander: covered, the turn ends; the other team's
  agent: covered for them, the turn ends; assassin: the guessing team loses at once;
- a team wins the moment all its agents are covered, even by the other team's guess;
- operatives may stop after at least one guess.

``ClassicRules(solo=True)`` is the "one team alone" mode of the published vector-bot studies
(Kim et al. 2019, Stephenson et al. 2024): only the starting team plays, turn after turn.

>>> d = deal_classic(3, [f"W{i}" for i in range(40)])
>>> s = ClassicState(d)
>>> s.to_move() == (d.key.starting,)
True
>>> sorted(d.key.counts().values())
[1, 7, 8, 9]
>>> len(d.key.agents(d.key.starting)), len(d.key.agents(d.key.starting.other))
(9, 8)
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..words import spelling, word_key
from .clues import check_clue
from .base import Action, Clue, EndTurn, Event, GameOverError, Guess, IllegalActionError, Phase, Turn, action_from_json
from .keycard import BOARD_SIZE, BoardError, KeyCardError, UnknownBoardWordError

STARTING_AGENTS = 9
SECOND_AGENTS = 8
CLASSIC_BYSTANDERS = 7
CLASSIC_ASSASSINS = 1


class Team(enum.IntEnum):
    RED = 0
    BLUE = 1

    @property
    def other(self) -> Team:
        return Team(1 - self)

    @property
    def label(self) -> Card:
        return Card.RED if self is Team.RED else Card.BLUE

    @classmethod
    def parse(cls, text: str | int | Team) -> Team:
        if isinstance(text, Team):
            return text
        try:
            return cls(text) if isinstance(text, int) else cls[str(text).strip().upper()]
        except (KeyError, ValueError):
            raise ValueError(f"unknown team {text!r}: use 'red' or 'blue'") from None


class Card(str, enum.Enum):
    """What a word is on the classic key."""

    RED = "red"
    BLUE = "blue"
    BYSTANDER = "bystander"
    ASSASSIN = "assassin"

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        if isinstance(text, Card):
            return text
        key = str(text).strip().lower()
        aliases = {"r": "red", "b": "blue", "n": "bystander", "neutral": "bystander", "tan": "bystander",
                   "x": "assassin", "a": "assassin", "black": "assassin"}
        try:
            return cls(aliases.get(key, key))
        except ValueError:
            raise ValueError(f"unknown classic key label {text!r}: use red, blue, bystander or assassin") from None


class ClassicResult(str, enum.Enum):
    """A guess, judged by the guessing team."""

    AGENT = "agent"
    """One of my team's agents."""
    OPPONENT = "opponent"
    """The other team's agent (covered for them)."""
    BYSTANDER = "bystander"
    ASSASSIN = "assassin"


class ClassicTermination(str, enum.Enum):
    AGENTS = "agents"
    """The winner's agents are all covered."""
    ASSASSIN = "assassin"
    """The loser touched the assassin."""


@dataclass(frozen=True)
class ClassicRules:
    solo: bool = False
    """One team alone: only the starting team plays (published bot studies)."""
    zero_unlimited: bool = False
    """A zero clue allows unlimited guesses (full rule book; not stated in seeds/001)."""

    @classmethod
    def parse(cls, text: str | None) -> ClassicRules:
        """``standard`` or ``solo``, optionally ``+zero`` (unlimited guesses on a zero clue)."""
        head, *mods = [p.strip().lower() for p in (text or "standard").split("+")]
        if head not in ("standard", "classic", "solo"):
            raise ValueError(f"unknown classic variant {head!r}: use standard or solo (one team alone), "
                             "optionally +zero")
        rules = cls(solo=head == "solo")
        for m in mods:
            if m != "zero":
                raise ValueError(f"unknown classic variant modifier {m!r}: use zero")
            rules = cls(solo=rules.solo, zero_unlimited=True)
        return rules

    def __str__(self) -> str:
        return ("solo" if self.solo else "standard") + ("+zero" if self.zero_unlimited else "")

    def to_json(self) -> dict[str, Any]:
        return {"solo": self.solo, "zero_unlimited": self.zero_unlimited}

    @classmethod
    def from_json(cls, data: Any) -> ClassicRules:
        if isinstance(data, str):
            return cls.parse(data)
        return cls(bool(data.get("solo", False)), bool(data.get("zero_unlimited", False)))


@dataclass(frozen=True)
class ClassicKey:
    """The classic key card: one label per board position and the starting team."""

    labels: tuple[Card, ...]
    starting: Team

    def __post_init__(self) -> None:
        if len(self.labels) != BOARD_SIZE:
            raise KeyCardError(f"a classic key has {BOARD_SIZE} labels, not {len(self.labels)}")
        c = Counter(self.labels)
        want = {self.starting.label: STARTING_AGENTS, self.starting.other.label: SECOND_AGENTS,
                Card.BYSTANDER: CLASSIC_BYSTANDERS, Card.ASSASSIN: CLASSIC_ASSASSINS}
        if dict(c) != want:
            raise KeyCardError(
                f"a classic key needs 9 agents of the starting team ({self.starting.name.lower()}), 8 of the other, "
                f"7 bystanders and 1 assassin; got " + ", ".join(f"{k.value} {c.get(k, 0)}" for k in Card))

    @classmethod
    def random(cls, rng: random.Random) -> ClassicKey:
        starting = Team(rng.randrange(2))
        labels = ([starting.label] * STARTING_AGENTS + [starting.other.label] * SECOND_AGENTS
                  + [Card.BYSTANDER] * CLASSIC_BYSTANDERS + [Card.ASSASSIN] * CLASSIC_ASSASSINS)
        rng.shuffle(labels)
        return cls(tuple(labels), starting)

    @classmethod
    def from_labels(cls, labels: Iterable[str | Card], starting: str | Team | None = None) -> ClassicKey:
        labs = tuple(Card.parse(x) for x in labels)
        if starting is None:  # the team with 9 agents starts
            starting = Team.RED if labs.count(Card.RED) >= labs.count(Card.BLUE) else Team.BLUE
        return cls(labs, Team.parse(starting))

    def label(self, i: int) -> Card:
        return self.labels[i]

    def agents(self, team: Team) -> frozenset[int]:
        return frozenset(i for i, lab in enumerate(self.labels) if lab is team.label)

    def indices(self, card: Card) -> frozenset[int]:
        return frozenset(i for i, lab in enumerate(self.labels) if lab is card)

    def counts(self) -> dict[str, int]:
        c = Counter(lab.value for lab in self.labels)
        return {k.value: c.get(k.value, 0) for k in Card}

    def to_json(self) -> dict[str, Any]:
        return {"labels": [lab.value for lab in self.labels], "starting": self.starting.name.lower()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassicKey:
        try:
            return cls.from_labels(data["labels"], data.get("starting"))
        except (KeyError, TypeError):
            raise KeyCardError("a classic key needs 'labels' (25) and 'starting' (red or blue)") from None


@dataclass(frozen=True)
class ClassicDeal:
    words: tuple[str, ...]
    key: ClassicKey
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.words) != BOARD_SIZE:
            raise BoardError(f"a board needs exactly {BOARD_SIZE} words, got {len(self.words)}")
        if len({word_key(w) for w in self.words}) != BOARD_SIZE:
            raise BoardError("the 25 board words must differ")

    def index(self, word: str) -> int:
        f = word_key(word)
        for i, w in enumerate(self.words):
            if word_key(w) == f:
                return i
        raise UnknownBoardWordError(f"{word!r} is not on the board")

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "words": list(self.words), "key": self.key.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassicDeal:
        try:
            return cls(tuple(data["words"]), ClassicKey.from_json(data["key"]), data.get("seed"))
        except (KeyError, TypeError):
            raise BoardError("a classic deal needs 'words' (25) and 'key'") from None


def deal_classic(seed: int, pool: Sequence[str]) -> ClassicDeal:
    """25 distinct words from ``pool``, a random classic key and starting team, from ``seed``."""
    distinct: dict[str, str] = {}
    for w in pool:
        distinct.setdefault(word_key(w), spelling(w))
    if len(distinct) < BOARD_SIZE:
        raise BoardError(f"the word pool has {len(distinct)} distinct words; dealing needs at least {BOARD_SIZE}")
    rng = random.Random(f"classic:{seed}")
    words = tuple(rng.sample(sorted(distinct.values()), BOARD_SIZE))
    return ClassicDeal(words, ClassicKey.random(rng), seed)


def make_classic_deal(words: Sequence[str], labels: Iterable[str | Card],
                      starting: str | Team | None = None) -> ClassicDeal:
    return ClassicDeal(tuple(spelling(w) for w in words), ClassicKey.from_labels(labels, starting))


def event_from_json(d: dict[str, Any]) -> Event[Team]:
    """A classic event: Duet's :class:`Event` JSON with a team in the ``player`` field."""
    return Event(Team.parse(d["player"]), action_from_json(d), d.get("result", "ok"))


@dataclass
class ClassicState:
    """A classic game in progress; :meth:`apply` is the only way it changes."""

    deal: ClassicDeal
    rules: ClassicRules = field(default_factory=ClassicRules)
    phase: Phase = field(init=False, default=Phase.CLUE)
    team: Team = field(init=False)
    """The team to move (its spymaster in the clue phase, its operatives in the guess phase)."""
    covered: dict[int, Card] = field(init=False, default_factory=dict)
    turns: list[Turn[Team]] = field(init=False, default_factory=list)
    events: list[Event[Team]] = field(init=False, default_factory=list)
    outcome: ClassicTermination | None = field(init=False, default=None)
    winner: Team | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.team = self.deal.key.starting

    # --- queries -----------------------------------------------------------------------------
    @property
    def words(self) -> tuple[str, ...]:
        return self.deal.words

    @property
    def starting(self) -> Team:
        return self.deal.key.starting

    def is_over(self) -> bool:
        return self.outcome is not None

    def to_move(self) -> tuple[Team, ...]:
        return () if self.outcome is not None else (self.team,)

    def mover(self) -> Team:
        """The team a game loop asks to act now (its spymaster or its operatives, by phase)."""
        if self.outcome is not None:
            raise GameOverError("the game is over; no one moves")
        return self.team

    def visible_words(self) -> list[str]:
        return [w for i, w in enumerate(self.deal.words) if i not in self.covered]

    def guessable(self) -> list[int]:
        return [i for i in range(BOARD_SIZE) if i not in self.covered]

    def agents_left(self, team: Team) -> frozenset[int]:
        return self.deal.key.agents(team) - self.covered.keys()

    @property
    def current_turn(self) -> Turn[Team] | None:
        return self.turns[-1] if self.phase is Phase.GUESS and self.turns else None

    def guesses_left(self) -> int | None:
        """Guesses still allowed this turn: number + 1 minus guesses made (``None``: unlimited)."""
        turn = self.current_turn
        if turn is None:
            return None
        if turn.clue.number == 0 and self.rules.zero_unlimited:
            return None
        return turn.clue.number + 1 - len(turn.guesses)

    def can_end_turn(self) -> bool:
        turn = self.current_turn
        return turn is not None and len(turn.guesses) >= 1

    # --- actions -----------------------------------------------------------------------------
    def apply(self, action: Action, player: Team | str | None = None) -> ClassicResult | None:
        """Apply ``action`` by ``player`` (a team; default: the team to move). Returns a guess's
        result. Raises a ``ValueError`` subclass with the state unchanged when refused."""
        if self.outcome is not None:
            won = self.winner.name.lower() if self.winner is not None else "nobody"
            raise GameOverError(f"the game is over ({won} won); no more actions")
        team = self.team if player is None else Team.parse(player)
        if team is not self.team:
            verb = "give a clue" if self.phase is Phase.CLUE else "guess"
            raise IllegalActionError(f"it is not the {team.name.lower()} team's move: "
                                     f"{self.team.name.lower()} is to {verb}")
        if isinstance(action, Clue):
            if self.phase is not Phase.CLUE:
                raise IllegalActionError("no clue now: the operatives are guessing")
            check_clue(action.word, self.visible_words())
            self.turns.append(Turn(team, action))
            self.events.append(Event(team, action))
            self.phase = Phase.GUESS
            return None
        if isinstance(action, Guess):
            return self._guess(action, team)
        if isinstance(action, EndTurn):
            if self.phase is not Phase.GUESS:
                raise IllegalActionError("no turn to end now: a clue must come first")
            if not self.can_end_turn():
                raise IllegalActionError("operatives may stop only after at least one guess; guess first")
            self.events.append(Event(team, EndTurn()))
            self._end_turn()
            return None
        raise IllegalActionError(f"unknown action {action!r}: expected Clue, Guess or EndTurn")

    def _guess(self, guess: Guess, team: Team) -> ClassicResult:
        if self.phase is not Phase.GUESS:
            raise IllegalActionError("no guess now: a clue must come first")
        try:
            i = self.deal.index(guess.word)
        except UnknownBoardWordError:
            raise UnknownBoardWordError(f"{guess.word!r} is not a word on this board") from None
        if i in self.covered:
            raise IllegalActionError(f"{self.deal.words[i]!r} is covered; guess a word still in play")
        card = self.deal.key.label(i)
        if card is team.label:
            result = ClassicResult.AGENT
        elif card is team.other.label:
            result = ClassicResult.OPPONENT
        else:
            result = ClassicResult(card.value)
        word = self.deal.words[i]
        self.covered[i] = card
        self.events.append(Event(team, Guess(word), result.value))
        t = self.turns[-1]
        self.turns[-1] = Turn(t.giver, t.clue, t.guesses + ((word, result),))
        if result is ClassicResult.ASSASSIN:
            self._finish(ClassicTermination.ASSASSIN, team.other)
        elif not self.agents_left(team):
            self._finish(ClassicTermination.AGENTS, team)
        elif not self.agents_left(team.other):
            self._finish(ClassicTermination.AGENTS, team.other)
        elif result is not ClassicResult.AGENT:
            self._end_turn()
        else:
            left = self.guesses_left()
            if left is not None and left <= 0:
                self._end_turn()
        return result

    def _end_turn(self) -> None:
        self.phase = Phase.CLUE
        if not self.rules.solo:
            self.team = self.team.other

    def _finish(self, how: ClassicTermination, winner: Team) -> None:
        self.outcome = how
        self.winner = winner
        self.phase = Phase.OVER

    # --- replay ------------------------------------------------------------------------------
    @classmethod
    def replay(cls, deal: ClassicDeal, rules: ClassicRules, events: Sequence[Event[Team]]) -> ClassicState:
        state = cls(deal, rules)
        for n, ev in enumerate(events):
            result = state.apply(ev.action, ev.player)
            got = result.value if result is not None else state.events[-1].result
            if got != ev.result:
                raise ValueError(f"record disagrees with the rules at event {n + 1}: "
                                 f"recorded {ev.result!r}, replay gives {got!r}")
        return state
