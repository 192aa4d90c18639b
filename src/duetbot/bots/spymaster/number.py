"""The number policy: which (clue, number) pairs may be given, as named rules.

Each rule reads the candidates' figures (:class:`Numbers`) and the values so far and returns a
mask, (candidates, numbers), of what it allows; :func:`apply` applies the list
:func:`number_rules` gives for a config, in order, and any rule can be switched off, moved or
tested on its own on tiny arrays. Column k-1 is the clue of k.

>>> x = Numbers(found=np.array([[0.9, 1.2, 0.4]]), greens=2)
>>> at_most_greens_left(x, x.found, NumberConfig()).tolist()
[[True, True, False]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from .config import NumberConfig
from .position import ASSASSIN, GREEN


@dataclass(frozen=True)
class Numbers:
    """What the number rules read, per candidate (rows) and number (columns)."""

    found: np.ndarray
    """Expected greens found."""
    greens: int
    """Words of mine in play."""
    by_family: np.ndarray | None = None
    """(families, candidates, numbers): each family's simulated readers' greens in their top
    k; ``None``: no yardstick (every clue passes it)."""
    z: np.ndarray | None = None
    """(families, candidates, words in play): each family's z of the candidates."""
    labels: np.ndarray | None = None
    """My label of each word in play."""
    greens_total: int = 0
    """Greens left to win the game."""
    tokens: int = 0
    read: tuple[tuple[int, bool], ...] = ()
    """My earlier clues the partner guessed on: (number, missed within it), oldest first."""
    temperature: float = 1.0
    """The partner model's perception noise (z units): how a z gap turns into a link."""

    @property
    def numbers(self) -> np.ndarray:
        """(1, numbers): the number of each column."""
        return np.arange(1, self.found.shape[1] + 1)[None, :]

    @cached_property
    def _targets(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:func:`targets` with each family's z of the k-th weakest of a clue's k closest
        greens, (families, candidates, <= numbers), in place of the greens' own z."""
        assert self.z is not None and self.labels is not None
        _, zg, assassin, other = targets(self.z, self.labels)
        return np.minimum.accumulate(zg, axis=2)[:, :, :self.found.shape[1]], assassin, other

    def gaps(self, assassin_margin: float) -> np.ndarray:
        """(families, candidates, numbers): for a clue of k, how far its weakest target stands
        above the strongest word not mine to find (an assassin ``assassin_margin`` more), in
        each family; an unknown word passes (+inf), a number beyond my greens fails (-inf)."""
        assert self.z is not None
        out = np.full((*self.z.shape[:2], self.found.shape[1]), -np.inf, np.float32)
        if self.labels is None or not (self.labels == GREEN).any():
            return out
        weakest, assassin, other = self._targets
        worst_bad = most_tempting(assassin, other, assassin_margin)
        k = weakest.shape[2]
        gap = weakest - worst_bad[:, :, None]                  # (finite or NaN: z is never infinite)
        out[:, :, :k] = np.where(np.isnan(gap), np.float32(np.inf), gap)
        return out


def targets(z: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A clue's targets as the number rules and the shown links read them. ``z`` is (families,
    candidates, words in play), ``labels`` my label of each word in play. Returns the greens'
    order (family average, best first; indices among the greens, (candidates, greens)), each
    family's z of the greens in that order (families, candidates, greens), and the most
    tempting assassin's and other word's z (families, candidates; -inf where none)."""
    green = labels == GREEN
    zg = z[:, :, green]
    order = np.argsort(-zg.mean(axis=0), axis=1, kind="stable")
    none = np.full(z.shape[:2], -np.inf, np.float32)
    assassin, other = labels == ASSASSIN, ~green & (labels != ASSASSIN)
    F, n, g = zg.shape
    # each family's row in that order: a take over the flattened rows (take_along_axis
    # builds broadcast index arrays, three times slower)
    flat = (order + g * np.arange(n)[:, None]).ravel()
    return (order, np.take(zg.reshape(F, n * g), flat, axis=1).reshape(F, n, g),
            z[:, :, assassin].max(axis=2) if assassin.any() else none,
            z[:, :, other].max(axis=2) if other.any() else none)


def most_tempting(assassin: np.ndarray, other: np.ndarray, assassin_margin: float) -> np.ndarray:
    """The z a target must beat: the most tempting word not mine to find, an assassin counting
    ``assassin_margin`` more (-10 where only greens are in play)."""
    worst = np.maximum(assassin + np.float32(assassin_margin), other)
    return worst if np.isfinite(worst).any() else np.full(worst.shape, -10.0, np.float32)


def links(gap: np.ndarray, temperature: float) -> np.ndarray:
    """A target's link from its z gap over the most tempting other word: two Gumbel readers'
    difference is logistic, so the chance the target comes first is a logistic of the gap over
    the partner's temperature."""
    return 1 / (1 + np.exp(-np.clip(gap / max(temperature, 1e-3), -30, 30)))


Rule = Callable[[Numbers, np.ndarray, NumberConfig], np.ndarray]


def at_most_greens_left(x: Numbers, value: np.ndarray, cfg: NumberConfig) -> np.ndarray:
    """No number above the greens of mine in play."""
    return np.broadcast_to(x.numbers <= x.greens, value.shape)


def finds_something(x: Numbers, value: np.ndarray, cfg: NumberConfig) -> np.ndarray:
    """A clue is for finding greens: expected to find at least ``min_expected_greens``."""
    return x.found >= cfg.min_expected_greens


def no_bolder_after_miss(x: Numbers, value: np.ndarray, cfg: NumberConfig) -> np.ndarray:
    """After the partner missed on my last clue, the next is no bigger, unless the end game
    leaves nothing else (clues that size cannot finish in time)."""
    cap = value.shape[1]
    if cfg.after_miss_cap and x.read and x.read[-1][1]:
        last = x.read[-1][0]
        end_game = x.tokens <= cfg.clock_tokens and x.greens > last * max(x.tokens, 1)
        cap = cap if end_game else last
    return np.broadcast_to(x.numbers <= cap, value.shape)


def every_target_linked(x: Numbers, value: np.ndarray, cfg: NumberConfig) -> np.ndarray:
    """Every target is one the partner model expects found: its link (the chance that the
    family reading it worst puts it before the most tempting word not mine to find, a
    logistic of the z gap over the partner's temperature) is at least ``min_link``. No
    padding a number with targets the clue does not reach, whatever the clock. A board where
    no clue reaches even one green keeps its clues for one word."""
    if x.z is None:
        return np.ones(value.shape, bool)
    ok = x.gaps(0.0).min(axis=0) >= x.temperature * math.log(cfg.min_link / (1 - cfg.min_link))
    if not ok[:, 0].any():
        ok[:, 0] = True
    return ok


def trust(x: Numbers) -> int:
    """How well my partner has read my clues this game: clues read without a miss within
    their number, less clues misread."""
    return sum(-1 if missed else 1 for _, missed in x.read)


def strength(x: Numbers, cfg: NumberConfig) -> np.ndarray:
    """(families, candidates, numbers): :meth:`Numbers.gaps` (an assassin
    ``strong_assassin_margin`` more) less ``strong_margin[k-1]``: >= 0 where that family
    reads the clue of k as meant."""
    K = x.found.shape[1]
    return x.gaps(cfg.strong_assassin_margin) - np.asarray(cfg.strong_margin[:K], np.float32)


def honest_number(x: Numbers, value: np.ndarray, cfg: NumberConfig) -> np.ndarray:
    """The honest number, relaxed by the clock once the partner has shown it reads my clues.

    Levels, strictest first: honest for every family (each family's simulated readers put
    ``honest_ratio`` of k greens in their top k, and every target beats every other word by
    the ``strong_margin``); honest on the families' average; any. A level's best clue is given
    when it keeps ``honest_pace`` of the clock's pace (greens left per token left); the
    relaxed levels only once :func:`trust` reaches ``trust_after``, and ``honest_levels``
    says how many there are. When no level allows anything (a board of weak links): the
    best clue for one word.
    """
    K = value.shape[1]
    need = cfg.honest_ratio * np.arange(1, K + 1)
    if x.by_family is None:
        every = average = np.ones(value.shape, bool)
    else:
        every = (x.by_family.min(axis=0) >= need) & (strength(x, cfg).min(axis=0) >= 0)
        average = x.by_family.mean(axis=0) >= need
    pace = cfg.honest_pace * x.greens_total / max(x.tokens, 1)
    levels = (every, average, np.ones_like(every))[:cfg.honest_levels if trust(x) >= cfg.trust_after else 1]
    for level, allowed in enumerate(levels):
        kept = np.where(allowed, value, -np.inf)
        if not np.isfinite(kept).any():
            continue
        best = np.unravel_index(int(np.argmax(kept)), kept.shape)
        if level == len(levels) - 1 or x.found[best] >= pace:
            return allowed
    one = np.zeros(value.shape, bool)
    one[:, 0] = True
    return one


def number_rules(cfg: NumberConfig) -> list[Rule]:
    """The rules a config applies, in order."""
    rules: list[Rule] = [at_most_greens_left, finds_something]
    if cfg.honest:
        rules += [no_bolder_after_miss, every_target_linked, honest_number]
    return rules


def apply(rules: list[Rule], x: Numbers, value: np.ndarray, cfg: NumberConfig) -> np.ndarray:
    """``value`` with every pair some rule does not allow set to ``-inf``."""
    for rule in rules:
        value = np.where(rule(x, value, cfg), value, -np.inf)
    return value
