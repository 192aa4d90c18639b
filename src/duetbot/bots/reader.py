"""How a partner reads a clue: the spymaster's model of its partner, and its likelihood.

A reader is one of several *families* (embedding families, human associations), chosen per
clue with the family's weight. A reader of family ``f`` ranks the words in play by
``z_f(clue, word) + temperature * Gumbel`` and touches them in that order (a Plackett-Luce
ranking: each next guess is a softmax over the words left, at inverse temperature
``1 / temperature``). With chance ``lapse`` the reader ranks the words at random instead: a
person misreads, mishears or knows something no family knows. How far down the ranking the
reader goes is the *stop* part: after a correct guess below the clue's number they stop early
with chance ``stop_early``; at the number they take one more with chance ``bonus``; a wrong
guess ends the turn, as the rules say.

The same likelihood serves fitting the model to people's guesses
(``benchmarks/bench_people.py --fit``), judging a model on held-out turns, and *adapting* it
to one partner during a game (:func:`adapted`): each past clue's posterior over the families
(and the random reader) counts as one observation of a Dirichlet over the family weights,
the prior worth ``prior_clues`` clues; the stop rates take the partner's own stops the same
way (Beta counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ..rules.base import Turn
from ..rules.duet import GuessResult
from ..words import word_key


@dataclass(frozen=True)
class ReaderModel:
    """The partner model: which families read how, and when the reader stops."""

    families: tuple[str, ...]
    weights: tuple[float, ...]
    """Chance that a clue is read by each family (sums to 1)."""
    temperature: float
    """Gumbel scale in the families' z units: bigger is a less predictable reader."""
    lapse: float = 0.0
    """Chance that a clue is read as if it said nothing (a random order)."""
    stop_early: float = 0.0
    """Chance of stopping after a correct guess while below the clue's number."""
    bonus: float = 0.0
    """Chance of one guess more than the number after reaching it."""

    def __post_init__(self) -> None:
        # held as tuples whatever sequences were given: a model is a cache key (_log_weights)
        object.__setattr__(self, "families", tuple(self.families))
        object.__setattr__(self, "weights", tuple(float(w) for w in self.weights))
        if len(self.families) != len(self.weights) or not self.families:
            raise ValueError("a reader model needs one weight per family")
        if abs(sum(self.weights) - 1) > 1e-6 or min(self.weights) < 0:
            raise ValueError("family weights must be non-negative and sum to 1")
        if self.temperature <= 0 or not 0 <= self.lapse < 1:
            raise ValueError("temperature must be positive and lapse in [0, 1)")

    def restricted(self, families: Sequence[str]) -> "ReaderModel":
        """The same reader over a subset of the families (weights renormalised; a family
        with no fitted weight gets the mean weight)."""
        fitted = dict(zip(self.families, self.weights))
        mean = sum(self.weights) / len(self.weights)
        w = np.array([fitted.get(f, mean) for f in families], float)
        if w.sum() <= 0:
            w = np.ones(len(families))
        return ReaderModel(tuple(families), tuple(float(x) for x in w / w.sum()), self.temperature,
                           self.lapse, self.stop_early, self.bonus)

    def depth_chances(self, number: int, max_depth: int) -> np.ndarray:
        """Chance that the reader, never missing, goes exactly ``d`` guesses deep for a clue
        of ``number`` (index d = 0..max_depth). A miss before depth ``d`` ends the turn
        earlier, whatever the depth."""
        p = np.zeros(max_depth + 1)
        go = 1.0
        for d in range(1, number):                    # stop after the d-th correct guess
            p[min(d, max_depth)] += go * self.stop_early
            go *= 1 - self.stop_early
        p[min(number, max_depth)] += go * (1 - self.bonus)
        p[min(number + 1, max_depth)] += go * self.bonus
        return p


@dataclass(frozen=True)
class ReadTurns:
    """Turns to judge a reader model on, as arrays (one row per turn).

    ``z`` is (turns, families, words): the families' z-scored similarity of the turn's clue
    to each board word (NaN where a family cannot read the clue or the word); ``alive``
    marks the words in play; ``guesses`` holds the touched words' indices in order, -1
    padded."""

    z: np.ndarray
    alive: np.ndarray
    guesses: np.ndarray

    def __len__(self) -> int:
        return len(self.z)

    def subset(self, rows: np.ndarray) -> "ReadTurns":
        return ReadTurns(self.z[rows], self.alive[rows], self.guesses[rows])


def _filled(z: np.ndarray) -> np.ndarray:
    """NaN entries of ``z`` (turns, families, words) replaced by the other families' mean
    (0 where no family has an opinion)."""
    if not np.isnan(z).any():
        return z
    mean = np.nanmean(np.where(np.isnan(z).all(axis=1, keepdims=True), 0.0, z), axis=1, keepdims=True)
    return np.where(np.isnan(z), mean, z)


def _guess_steps(turns: ReadTurns, temperature: float) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """For each guess k: (k, which turns have a k-th guess, (turns, families + 1) the log
    chance of that guess among the words still in play for each family's softmax and, last,
    for a random reader). The guessed words then leave play."""
    z = _filled(turns.z) / temperature                                 # (T, F, W)
    alive = np.broadcast_to(turns.alive[:, None, :], z.shape).copy()
    rows = np.arange(len(z))
    for k in range(turns.guesses.shape[1]):
        g = turns.guesses[:, k]
        on = g >= 0
        if not on.any():
            break
        u = np.where(alive, z, -np.inf)
        top = u.max(axis=2, keepdims=True)
        lse = np.log(np.exp(u - top).sum(axis=2)) + top[..., 0]        # (T, F)
        picked = z[rows, :, np.maximum(g, 0)]                           # (T, F)
        rand = -np.log(np.maximum(alive[:, 0, :].sum(axis=1), 1))
        yield k, on, np.concatenate([picked - lse, rand[:, None]], axis=1)
        alive[rows[on], :, g[on]] = False


def family_log_likelihoods(turns: ReadTurns, temperature: float) -> np.ndarray:
    """(turns, families + 1): log chance of each turn's guess order if its clue was read by
    each family, and, in the last column, by a random reader."""
    out = np.zeros((len(turns), turns.z.shape[1] + 1))
    for _, on, logp in _guess_steps(turns, temperature):
        out += np.where(on[:, None], logp, 0.0)
    return out


@lru_cache(maxsize=64)
def _log_weights(model: ReaderModel) -> np.ndarray:
    """(families + 1,) log chance of each family reading a clue, the random reader last
    (read-only: kept per model, which every turn of a game reads again)."""
    out = np.log(np.concatenate([(1 - model.lapse) * np.asarray(model.weights), [model.lapse]]) + 1e-300)
    out.flags.writeable = False
    return out


def log_likelihood(turns: ReadTurns, model: ReaderModel) -> np.ndarray:
    """Per turn, the log chance of the guess order under ``model`` (the ranking part; the
    stop part is :meth:`StopCounts.log_likelihood`). ``turns.z``'s families are ``model.families``."""
    a = family_log_likelihoods(turns, model.temperature) + _log_weights(model)
    top = a.max(axis=1, keepdims=True)
    return np.log(np.exp(a - top).sum(axis=1)) + top[:, 0]


def posterior(turns: ReadTurns, model: ReaderModel) -> np.ndarray:
    """(turns, families + 1): which family (last column: the random reader) read each turn."""
    a = family_log_likelihoods(turns, model.temperature) + _log_weights(model)
    a -= a.max(axis=1, keepdims=True)
    p = np.exp(a)
    return p / p.sum(axis=1, keepdims=True)


def next_guess_chances(turns: ReadTurns, model: ReaderModel) -> np.ndarray:
    """(turns, guesses, words): the model's chance of each word as the k-th guess, given the
    turn's earlier guesses (rows of padded guesses are zero), for calibration."""
    z = _filled(turns.z) / model.temperature
    T, F, W = z.shape
    K = turns.guesses.shape[1]
    alive = turns.alive.copy()
    out = np.zeros((T, K, W))
    # the family posterior after the earlier guesses weighs each family's next-guess softmax
    logpost = np.broadcast_to(_log_weights(model), (T, F + 1)).copy()
    rows = np.arange(T)
    for k in range(K):
        u = np.where(alive[:, None, :], z, -np.inf)
        u -= u.max(axis=2, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=2, keepdims=True)                               # (T, F, W)
        rand = alive / np.maximum(alive.sum(axis=1, keepdims=True), 1)
        fam = np.concatenate([p, rand[:, None, :]], axis=1)             # (T, F+1, W)
        post = np.exp(logpost - logpost.max(axis=1, keepdims=True))
        post /= post.sum(axis=1, keepdims=True)
        g = turns.guesses[:, k]
        on = g >= 0
        out[:, k] = np.where(on[:, None], (post[:, :, None] * fam).sum(axis=1), 0.0)
        logpost += np.where(on[:, None], np.log(fam[rows, :, np.maximum(g, 0)] + 1e-300), 0.0)
        alive[rows[on], g[on]] = False
    return out


@dataclass(frozen=True)
class StopCounts:
    """What people did after each correct guess: ``(stopped, went on)`` below the number,
    at it, and above it."""

    below: tuple[int, int]
    at: tuple[int, int]
    above: tuple[int, int]

    @classmethod
    def count(cls, turns: Sequence[tuple[int, Sequence[bool]]]) -> "StopCounts":
        """From (number, whether each guess was a green) per turn."""
        c = {"below": [0, 0], "at": [0, 0], "above": [0, 0]}
        for number, results in turns:
            for d, ok in enumerate(results, start=1):
                if not ok:
                    break
                where = "below" if d < number else "at" if d == number else "above"
                c[where][1 if d < len(results) else 0] += 1
        return cls(tuple(c["below"]), tuple(c["at"]), tuple(c["above"]))  # type: ignore[arg-type]

    def log_likelihood(self, model: ReaderModel) -> float:
        """Log chance of these stop decisions under ``model``'s stop rates (above the number
        left out: the model has no choice there)."""
        (sb, gb), (sa, ga) = self.below, self.at
        e, b = min(max(model.stop_early, 1e-6), 1 - 1e-6), min(max(model.bonus, 1e-6), 1 - 1e-6)
        return sb * np.log(e) + gb * np.log1p(-e) + sa * np.log1p(-b) + ga * np.log(b)

    def rates(self) -> tuple[float, float]:
        """(stop_early, bonus), with one pseudo-count each way."""
        (sb, gb), (sa, ga) = self.below, self.at
        return (sb + 1) / (sb + gb + 2), (ga + 1) / (sa + ga + 2)


def history_reads(turns: Sequence[Turn[Any]], words: Sequence[str], giver: Any,
                  clue_z: Callable[[str], np.ndarray], max_guesses: int = 6) -> tuple[ReadTurns, np.ndarray]:
    """The guesses made on ``giver``'s clues in a game's history, as :class:`ReadTurns`
    (``clue_z(word)``: (families, words) z of a clue, raising ``ValueError`` for a clue no
    family reads, which is left out), with whether each guess was green ((turns, guesses)
    bool). A word is in play for a guess unless covered green before it or already touched
    as a bystander by the same guesser. Zero clues and turns without a guess are left out.
    A guess that is not one of ``words`` (a history of another board) raises ``ValueError``."""
    index = _board_index(tuple(words))
    covered: set[int] = set()
    marked: dict[Any, set[int]] = {}
    zs, alive, guesses, hits = [], [], [], []
    for t in turns:
        theirs = marked.setdefault(t.giver, set())    # bystanders touched on this giver's clues
        live = np.ones(len(words), bool)
        live[list(covered | theirs)] = False
        done = []
        for w, r in t.guesses:
            i = index.get(word_key(w))
            if i is None:
                raise ValueError(f"the guess {w!r} on the clue {t.clue} is not on the board: "
                                 f"a history of another board")
            done.append((i, r is GuessResult.GREEN))
        picked = [i for i, _ in done][:max_guesses]
        greens = [ok for _, ok in done][:max_guesses]
        for i, ok in done:
            (covered if ok else theirs).add(i)
        if t.giver != giver or t.clue.number == 0 or not picked:
            continue
        try:
            z = np.asarray(clue_z(t.clue.word), np.float64)
        except ValueError:
            continue
        zs.append(z)
        alive.append(live)
        guesses.append(picked + [-1] * (max_guesses - len(picked)))
        hits.append(greens + [False] * (max_guesses - len(greens)))
    if not zs:
        return ReadTurns(np.zeros((0, 0, len(words))), np.zeros((0, len(words)), bool),
                         np.zeros((0, max_guesses), np.int64)), np.zeros((0, max_guesses), bool)
    return ReadTurns(np.array(zs), np.array(alive), np.array(guesses)), np.array(hits)


@lru_cache(maxsize=16)
def _board_index(words: tuple[str, ...]) -> dict[str, int]:
    """Each board word's position by its key (a game's history is read again at every turn,
    on the same board). Shared: not to be changed."""
    return {word_key(w): i for i, w in enumerate(words)}


def outcome_posterior(turns: ReadTurns, hits: np.ndarray, model: ReaderModel) -> np.ndarray:
    """(turns, families + 1): which family the *giver* of each clue thought with, judged by
    what the guesses on it turned out to be: a green guess is likely among the giver's
    targets, so a family that ranks it high is credited (its softmax chance over the words in
    play); a miss is unlikely to be a target (one minus that chance)."""
    a = np.broadcast_to(_log_weights(model), (len(turns), turns.z.shape[1] + 1)).copy()
    for k, on, logp in _guess_steps(turns, model.temperature):
        fam = np.exp(logp)
        step = np.where(hits[:, k, None], logp, np.log1p(-np.minimum(fam, 1 - 1e-9)))
        a += np.where(on[:, None], step, 0.0)
    a -= a.max(axis=1, keepdims=True)
    post = np.exp(a)
    return post / post.sum(axis=1, keepdims=True)


def adapted(model: ReaderModel, post: np.ndarray, prior_clues: float, stops: StopCounts | None = None,
            prior_stops: float = 0.0, learn_lapse: bool = True) -> ReaderModel:
    """``model`` after seeing one partner: ``post`` is (clues, families + 1), each past
    clue's posterior over the families and the random reader (:func:`posterior`,
    :func:`outcome_posterior`), added as counts to a Dirichlet whose prior is ``model``'s
    weights and lapse worth ``prior_clues`` clues. ``learn_lapse=False`` keeps the lapse
    and counts each clue among the families only (its posterior given that some family
    read it). With ``stops`` (this partner's own stops) and ``prior_stops`` > 0 the stop
    rates are updated the same way (Beta counts)."""
    if len(post) == 0 and stops is None:
        return model
    if not learn_lapse and len(post):
        fam = post[:, :-1] / np.maximum(post[:, :-1].sum(axis=1, keepdims=True), 1e-300)
        post = np.concatenate([(1 - model.lapse) * fam, np.full((len(fam), 1), model.lapse)], axis=1)
    prior = np.exp(_log_weights(model))
    counts = prior_clues * prior + post.sum(axis=0)
    share = counts / counts.sum()
    lapse = float(share[-1])
    w = share[:-1] / max(share[:-1].sum(), 1e-12)
    stop_early, bonus = model.stop_early, model.bonus
    if stops is not None and prior_stops > 0:
        (sb, gb), (sa, ga) = stops.below, stops.at
        stop_early = (prior_stops * stop_early + sb) / (prior_stops + sb + gb)
        bonus = (prior_stops * bonus + ga) / (prior_stops + sa + ga)
    return ReaderModel(model.families, tuple(float(x) for x in w), model.temperature,
                       min(lapse, 0.999), stop_early, bonus)
