"""The double-sided Duet key card and dealing a board from a seed.

Each side of a key card shows 9 green agents, 3 assassins and 13 bystanders. The two sides
are correlated in a fixed way (rule book, "Duet key cards"): of the 25 positions, 3 are
green on both sides, 5 green/bystander, 5 bystander/green, 1 green/assassin,
1 assassin/green, 1 assassin/assassin, 1 assassin/bystander, 1 bystander/assassin and
7 bystander/bystander. That makes 15 distinct green agents.

>>> d = deal(7, [f"W{i}" for i in range(100)])
>>> len(d.words), d.key.counts(Player.A)
(25, {'green': 9, 'assassin': 3, 'bystander': 13})
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence

from ..words import spelling, word_key

BOARD_SIZE = 25
GREENS_PER_SIDE = 9
ASSASSINS_PER_SIDE = 3
BYSTANDERS_PER_SIDE = 13
TOTAL_GREENS = 15


class Player(enum.IntEnum):
    """One of the two partners. A player's *side* of the key card is the one facing them."""

    A = 0
    B = 1

    @property
    def other(self) -> Player:
        return Player(1 - self)

    @classmethod
    def parse(cls, text: str | int | Player) -> Player:
        if isinstance(text, Player):
            return text
        try:
            return cls[str(text).strip().upper()] if not isinstance(text, int) else cls(text)
        except (KeyError, ValueError):
            raise ValueError(f"unknown player {text!r}: use 'A' or 'B'") from None


class Label(str, enum.Enum):
    """What a word is on one side of the key card."""

    GREEN = "green"
    """An agent: the clue giver wants the partner to guess it."""
    ASSASSIN = "assassin"
    """Guessing it loses the game at once."""
    BYSTANDER = "bystander"
    """An innocent bystander: guessing it ends the turn."""

    @classmethod
    def parse(cls, text: str | Label) -> Label:
        if isinstance(text, Label):
            return text
        key = str(text).strip().lower()
        aliases = {"g": "green", "a": "assassin", "black": "assassin", "x": "assassin",
                   "b": "bystander", "tan": "bystander", "n": "bystander", "neutral": "bystander"}
        try:
            return cls(aliases.get(key, key))
        except ValueError:
            raise ValueError(
                f"unknown key-card label {text!r}: use green, assassin or bystander"
            ) from None


G, X, N = Label.GREEN, Label.ASSASSIN, Label.BYSTANDER

#: The official cross-side distribution: (label on side A, label on side B) -> positions.
CROSS_COUNTS: dict[tuple[Label, Label], int] = {
    (G, G): 3, (G, N): 5, (N, G): 5,
    (G, X): 1, (X, G): 1, (X, X): 1,
    (X, N): 1, (N, X): 1, (N, N): 7,
}


class KeyCardError(ValueError):
    """A key card that is not a legal Duet key card."""


class BoardError(ValueError):
    """A board that is not 25 distinct words."""


@dataclass(frozen=True)
class KeyCard:
    """Both sides of one key card: ``sides[p][i]`` is word ``i`` as player ``p`` sees it."""

    sides: tuple[tuple[Label, ...], tuple[Label, ...]]

    def __post_init__(self) -> None:
        for player, side in zip(Player, self.sides):
            if len(side) != BOARD_SIZE:
                raise KeyCardError(
                    f"side {player.name} of the key card has {len(side)} labels; it needs {BOARD_SIZE}"
                )
        counts = Counter(zip(*self.sides))
        if dict(counts) != {k: v for k, v in CROSS_COUNTS.items()}:
            for player in Player:
                c = self.counts(player)
                want = {"green": GREENS_PER_SIDE, "assassin": ASSASSINS_PER_SIDE,
                        "bystander": BYSTANDERS_PER_SIDE}
                if c != want:
                    raise KeyCardError(
                        f"side {player.name} of the key card has {c['green']} green, "
                        f"{c['assassin']} assassin, {c['bystander']} bystander; "
                        "each side needs 9 green, 3 assassin, 13 bystander"
                    )
            got = ", ".join(f"{a.value}/{b.value} {counts.get((a, b), 0)} (needs {n})"
                            for (a, b), n in CROSS_COUNTS.items() if counts.get((a, b), 0) != n)
            raise KeyCardError(f"the two sides do not match the official distribution: {got}")

    @classmethod
    def from_labels(cls, side_a: Iterable[str | Label], side_b: Iterable[str | Label]) -> KeyCard:
        """Build and validate a key card from two sequences of 25 labels (names or letters)."""
        return cls((tuple(Label.parse(x) for x in side_a), tuple(Label.parse(x) for x in side_b)))

    @classmethod
    def random(cls, rng: random.Random) -> KeyCard:
        """A key card with the official distribution, positions shuffled by ``rng``."""
        pairs = [pair for pair, n in CROSS_COUNTS.items() for _ in range(n)]
        rng.shuffle(pairs)
        return cls((tuple(a for a, _ in pairs), tuple(b for _, b in pairs)))

    def side(self, player: Player) -> tuple[Label, ...]:
        return self.sides[player]

    def label(self, player: Player, index: int) -> Label:
        return self.sides[player][index]

    def indices(self, player: Player, label: Label) -> frozenset[int]:
        return frozenset(i for i, lab in enumerate(self.sides[player]) if lab is label)

    def counts(self, player: Player) -> dict[str, int]:
        c = Counter(lab.value for lab in self.sides[player])
        return {lab.value: c.get(lab.value, 0) for lab in Label}

    def all_greens(self) -> frozenset[int]:
        return self.indices(Player.A, G) | self.indices(Player.B, G)

    def to_json(self) -> dict[str, list[str]]:
        return {p.name: [lab.value for lab in self.sides[p]] for p in Player}

    @classmethod
    def from_json(cls, data: dict[str, Sequence[str]]) -> KeyCard:
        try:
            return cls.from_labels(data["A"], data["B"])
        except (KeyError, TypeError):
            raise KeyCardError("a key card needs both sides, as {'A': [25 labels], 'B': [25 labels]}") from None


def find_word(words: Sequence[str], word: str) -> int | None:
    """Position of ``word`` among ``words``, case- and whitespace-insensitive, or ``None``.

    A board's words differ even when folded (:class:`Deal` refuses doubles), so a word in
    the board's own spelling, the usual case, is found without folding."""
    if word in words:
        return words.index(word)
    f = word_key(word)
    return next((i for i, w in enumerate(words) if word_key(w) == f), None)


@dataclass(frozen=True)
class Deal:
    """A board of 25 words and the key card that goes with it.

    ``seed`` is the seed it was dealt from, or ``None`` for a board given by hand.
    """

    words: tuple[str, ...]
    key: KeyCard
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.words) != BOARD_SIZE:
            raise BoardError(f"a board needs exactly {BOARD_SIZE} words, got {len(self.words)}")
        seen: dict[str, str] = {}
        for w in self.words:
            if not isinstance(w, str) or not w.strip():
                raise BoardError(f"board word {w!r} is empty; every board entry needs a word")
            f = word_key(w)
            if f in seen:
                raise BoardError(f"board word {w!r} appears twice (as {seen[f]!r}); the 25 words must differ")
            seen[f] = w

    def index(self, word: str) -> int:
        """Position of ``word`` on the board, case- and whitespace-insensitive."""
        i = find_word(self.words, word)
        if i is None:
            raise UnknownBoardWordError(f"{word!r} is not on the board")
        return i

    def to_json(self) -> dict[str, object]:
        return {"seed": self.seed, "words": list(self.words), "key": self.key.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deal:
        try:
            words, key = data["words"], data["key"]
        except (KeyError, TypeError):
            raise BoardError("a deal needs 'words' (25 entries) and 'key' (both sides)") from None
        return cls(tuple(words), KeyCard.from_json(key), data.get("seed"))


class UnknownBoardWordError(ValueError):
    """A word that is not on the board."""


def deal(seed: int, pool: Sequence[str]) -> Deal:
    """Deal 25 distinct words from ``pool`` and a random key card, deterministically from ``seed``."""
    words = pool_words(pool)
    if len(words) < BOARD_SIZE:
        raise BoardError(
            f"the word pool has {len(words)} distinct words; dealing needs at least {BOARD_SIZE}"
        )
    rng = random.Random(seed)
    return Deal(tuple(rng.sample(words, BOARD_SIZE)), KeyCard.random(rng), seed)


def pool_words(pool: Sequence[str]) -> list[str]:
    """The words :func:`deal` draws from ``pool``: its distinct words (the first spelling of
    each), sorted; the same list for the same tuple (do not change it)."""
    return _distinct(pool) if not isinstance(pool, tuple) else _distinct_of_tuple(pool)


def _distinct(pool: Sequence[str]) -> list[str]:
    """The pool's distinct words (the first spelling of each), sorted."""
    distinct: dict[str, str] = {}
    for w in pool:
        distinct.setdefault(word_key(w), spelling(w))
    return sorted(distinct.values())


@lru_cache(maxsize=4)
def _distinct_of_tuple(pool: tuple[str, ...]) -> list[str]:
    """:func:`_distinct` of a pool that cannot change (a run deals every game from one: its
    ~600 words were folded for every game, 1.5 ms each). ``random.sample`` only reads it."""
    return _distinct(pool)


def make_deal(words: Sequence[str], side_a: Iterable[str | Label], side_b: Iterable[str | Label]) -> Deal:
    """A real table's game: the 25 words in grid order and each side's labels, validated."""
    return Deal(tuple(spelling(w) for w in words), KeyCard.from_labels(side_a, side_b))
