"""The guesser: ranked guesses from the whole clue history, key-card inference, stop policy.

For each word still guessable the guesser estimates the chance that it is green, an
assassin or a bystander on its partner's side:

1. **Clue evidence.** Each clue the partner gave me that still has targets to find spreads
   its remaining count over the board by a softmax of the (per-board z-scored, family-
   averaged) similarity: ``a_t(w)`` is the chance that ``w`` is one of clue ``t``'s targets.
   Older clues count with a decay; a zero clue carries no targets and instead marks words
   like it as dangerous.
2. **Key-card inference.** The official distribution links the two sides: a word that is an
   assassin on my side is my partner's green with chance 1/3, a bystander 5/13, a green 3/9;
   their assassin 1/3, 1/13, 1/9. What the game reveals (my guesses judged by my partner's
   side) updates those counts. The clue evidence is combined with this prior in odds form:
   ``odds(G | clues, my label) = odds(G | clues) * odds(G | my label) / odds(G)``.
3. **Stop policy.** After a correct guess another guess is worth it when the chance of winning
   after it (green: one fewer green left; bystander: the turn ends at the same token cost as
   stopping, or two on a mission map; assassin: lost) beats stopping now, using the same
   win-chance table as the spymaster.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from ..rules import EndTurn, Guess, GuessResult, Label, Phase
from ..rules.keycard import ASSASSINS_PER_SIDE, BOARD_SIZE, BYSTANDERS_PER_SIDE, CROSS_COUNTS, GREENS_PER_SIDE, Player
from ..views import GuesserView
from ..embeddings import UnknownWordError
from ..words.phrases import phrase_row
from .ensemble import BoardRows, BoardSims, Ensemble
from .reader import ReaderModel, adapted, history_reads, outcome_posterior
from .winchance import DUET_TURNS, TurnEnd, TurnModel

_G, _A, _N = 0, 1, 2
_LABEL_CODE = {Label.GREEN: _G, Label.ASSASSIN: _A, Label.BYSTANDER: _N}
_RESULT_CODE = {GuessResult.GREEN: _G, GuessResult.BYSTANDER: _N, GuessResult.ASSASSIN: _A}


@dataclass(frozen=True)
class GuesserConfig:
    """Every number the guesser uses; benchmarks/RESULTS.md, "Where the config defaults come
    from", has the measurements behind the defaults."""

    sharpness: float = 2.5
    """Softmax temperature over z-scored similarity: how sure the bot is that a clue points at
    its best match (the stop policy, not the order).
    RESULTS.md, "Where the config defaults come from"."""
    history_decay: float = 0.8
    """Weight of a clue per turn of age: older clues still count, but less.
    RESULTS.md, "Where the config defaults come from"."""
    max_target_prob: float = 0.97
    """No word is a clue's target for sure. RESULTS.md, "Where the config defaults come from"."""
    assassin_shyness: float = 0.3
    """How much a clue's similarity lowers a word's assassin odds (the giver avoided it), per
    z. RESULTS.md, "Where the config defaults come from"."""
    zero_clue_weight: float = 1.0
    """How strongly a zero clue marks similar words as assassins, per z unit above the mean."""
    assassin_aversion: float = 1.0
    """Ranking: P(green) - aversion * P(assassin) (in sudden death, where any miss loses,
    P(green) alone).
    RESULTS.md, "Where the config defaults come from"."""
    infer_key: bool = True
    """Use my own side of the key card (the official cross-side distribution)."""
    noise: float = 0.0
    """Perception noise added to every similarity, z units: 0 for the real bot; benchmarks
    use it to make a partner that thinks a little differently."""
    seed: int = 0
    unaimed_greens: float = 0.0
    """Share of the base rate of greens no clue aims at that a word keeps when no clue aims at
    it (``a + (1 - a) * unaimed_greens * q``); only the stop changes.
    RESULTS.md, "Where the config defaults come from"."""
    family_weights: tuple[tuple[str, float], ...] = (("eat", 2.0), ("wordllama", 1.0))
    """Weight of each family in the average of z-scored clue similarities (``(family, weight)``
    pairs, unlisted 1; a family that lacks the clue drops out).
    RESULTS.md, "Where the config defaults come from"."""
    turns: TurnModel = DUET_TURNS
    """The win-chance table's assumptions, shared with the spymaster (:mod:`.winchance`)."""
    adapt: bool = True
    """Learn how this partner means their clues from what my guesses on them turned out to be
    (:func:`~duetbot.bots.reader.outcome_posterior`): a partner whose clues my families read
    poorly moves the weights toward the family that reads them. RESULTS.md, "A guesser that
    knows when it is lost"."""
    adapt_prior_clues: float = 4.0
    """How many clues' worth of evidence the prior family weights count for."""
    phrase_bonus: float = 1.0
    """Added to a word's z when the clue and the word make a two-word phrase people read
    together (POLICE -> STATION, GAS -> LAMP; :mod:`~duetbot.words.phrases`), z units.
    RESULTS.md, "A partner a person wins with"."""
    within_number_green: float = 0.5
    """Within the clue's number, the next guess is taken whenever the word is green with at
    least this chance (as people do: they went on below the number 56 times in 74), even
    where the win table would stop. RESULTS.md, "A partner a person wins with"."""
    past_number_green: float = 0.85
    """A guess past the clue's number (its number found this turn) only when the word is
    green with at least this chance, whatever the clock: people seldom go past the number
    (16 of 363 times in the dev set), and the bot's misses there ended games.
    RESULTS.md, "A partner a person wins with"."""


READ_CACHE_SIZE = 256
"""Clue readings a guesser keeps (a game has about ten clues; a long-lived suggester more)."""


@dataclass(frozen=True)
class Belief:
    words: tuple[str, ...]
    index: np.ndarray
    """Board indices of the guessable words, in ranking order (best first)."""
    p: np.ndarray
    """(n, 3): chance of green, assassin, bystander on my partner's side, same order."""
    score: np.ndarray


def allocate(weights: np.ndarray, total: float, cap: float) -> np.ndarray:
    """Spread ``total`` over words in proportion to ``weights``, no word above ``cap``
    (water-filling: words that would exceed the cap are capped and the rest rescaled).

    >>> allocate(np.array([10.0, 1.0, 1.0]), 2, 0.9).round(2).tolist()
    [0.9, 0.55, 0.55]
    """
    total = min(total, cap * len(weights))
    sw = weights.sum()
    if sw > 0:  # the usual case: nothing reaches the cap on the first pass
        p = total * weights / sw
        if not (p > cap).any():
            return p
    p = np.zeros_like(weights, dtype=float)
    free = np.ones(len(weights), bool)
    left = total
    for _ in range(len(weights)):
        if not free.any():
            break
        w = weights[free]
        sw = w.sum()
        if sw <= 0:
            p[free] = left / free.sum()
            break
        p[free] = left * w / sw
        over = free & (p > cap)
        if not over.any():
            break
        p[over] = cap
        free &= ~over
        left = total - cap * (~free).sum()
    return p


def _cross_counts(me: Player) -> np.ndarray:
    """(3, 3): how many words of each of my labels (rows) have each label on my partner's side."""
    counts = np.zeros((3, 3))
    for (a, b), n in CROSS_COUNTS.items():
        mine, theirs = (a, b) if me is Player.A else (b, a)
        counts[_LABEL_CODE[mine], _LABEL_CODE[theirs]] += n
    return counts


_CROSS = {p: _cross_counts(p) for p in Player}
_CROSS_ROWS = {p: c.tolist() for p, c in _CROSS.items()}
_UNIFORM = np.array([GREENS_PER_SIDE, ASSASSINS_PER_SIDE, BYSTANDERS_PER_SIDE]) / BOARD_SIZE
_UNIFORM_ROW = _UNIFORM.tolist()


@lru_cache(maxsize=64)
def _label_codes(side: tuple[Label, ...]) -> tuple[list[int], np.ndarray]:
    """My side's label codes, as a list and as an index array (a game asks for the same side
    at every guess)."""
    mine = [_LABEL_CODE[label] for label in side]
    return mine, np.array(mine, np.intp)


def key_prior(view: GuesserView) -> np.ndarray:
    """(25, 3) prior over my partner's label of each word from my own side of the key card,
    updated with what the game has revealed of my partner's side."""
    mine, rows_of = _label_codes(view.my_side)
    known: dict[int, int] = {}
    words = view.words
    for t in view.clues_to_me:
        for word, result in t.guesses:
            known[words.index(word) if word in words else view.index(word)] = _RESULT_CODE[result]
    # The (3, 3) counts in plain floats: numpy's calls cost more than the arithmetic on arrays
    # this small, and each number is the same (whole counts, one division each).
    counts = [row[:] for row in _CROSS_ROWS[view.player]]
    for i, lab in known.items():
        counts[mine[i]][lab] -= 1
    rows = []
    for row in counts:
        c = [x if x > 0 else 0.0 for x in row]
        n = c[0] + c[1] + c[2]
        rows.append([x / n for x in c] if n > 0 else _UNIFORM_ROW)
    prior = np.array(rows)[rows_of]
    for i, lab in known.items():
        prior[i] = 0.0
        prior[i, lab] = 1.0
    if view.partner_done:
        prior[:, _G] = 0.0
        prior /= prior.sum(axis=1, keepdims=True)
    return prior


class EmbeddingGuesser:
    """Guesses the word most likely green for its partner, and stops when more is not worth it."""

    def __init__(self, ensemble: Ensemble, config: GuesserConfig | None = None) -> None:
        self.ensemble = ensemble
        self.config = config or GuesserConfig()
        self._reads: dict[tuple, np.ndarray | None] = {}
        self._zs: dict[tuple, np.ndarray] = {}
        self._phrases: dict[tuple, np.ndarray] = {}
        self._learnt: tuple[tuple, np.ndarray] | None = None   # the last family_weights (key, value)

    def _read(self, clue: str, words: tuple[str, ...], sims: BoardSims | BoardRows,
              fam_w: np.ndarray) -> np.ndarray | None:
        """How I perceive ``clue`` on this board: the families' z-scores combined, plus my
        fixed noise; ``None`` for a clue no family knows. Cached: every guess of a turn
        rereads the same clues."""
        key = (clue, words, fam_w.tobytes())
        if key in self._reads:
            return self._reads[key]
        try:
            z: np.ndarray | None = self._combine(self._clue_z(clue, words, sims), fam_w)
        except UnknownWordError:
            z = None
        if z is not None and self.config.noise:
            z = z + self.config.noise * self._noise(clue, words)
        if z is not None and self.config.phrase_bonus:
            z = z + self.config.phrase_bonus * self._phrase_row(clue, words)
        if z is not None:
            z.flags.writeable = False
        if len(self._reads) >= READ_CACHE_SIZE:
            self._reads.clear()
        self._reads[key] = z
        return z

    def _phrase_row(self, clue: str, words: tuple[str, ...]) -> np.ndarray:
        """(words,) whether ``clue`` makes a two-word phrase with each board word (cached: the
        family weights change every turn, the phrases never)."""
        key = (clue, words)
        row = self._phrases.get(key)
        if row is None:
            row = np.array(phrase_row(clue, words))
            if len(self._phrases) >= READ_CACHE_SIZE:
                self._phrases.clear()
            self._phrases[key] = row
        return row

    def _clue_z(self, clue: str, words: tuple[str, ...], sims: BoardSims | BoardRows) -> np.ndarray:
        """(families, words) z of ``clue`` on this board, each family's own (cached: learning
        the partner rereads every earlier clue with new family weights)."""
        key = (clue, words)
        z = self._zs.get(key)
        if z is None:
            z = self.ensemble.clue_z(clue, sims)
            if len(self._zs) >= READ_CACHE_SIZE:
                self._zs.clear()
            self._zs[key] = z
        return z

    # --- beliefs -----------------------------------------------------------------------------

    def _noise(self, clue: str, words: tuple[str, ...]) -> np.ndarray:
        """Fixed noise per (seed, clue, board): the same partner perceives a clue the same way."""
        key = zlib.crc32("\x1f".join((str(self.config.seed), clue, *words)).encode())
        return np.random.default_rng(key).standard_normal(len(words))

    def family_weights(self, view: GuesserView, sims: BoardSims | BoardRows | None = None) -> np.ndarray:
        """(families,) weight of each family in the average of z: the configured weights, or
        with ``config.adapt`` those after the outcomes of my guesses on my partner's earlier
        clues (not the one I am guessing on, so one turn's guesses share one reading; its
        misses end the turn anyway)."""
        cfg = self.config
        base = self._base_weights
        done = view.turns[:-1] if view.phase is Phase.GUESS else view.turns
        if not cfg.adapt or len(base) < 2 or not any(
                t.giver is view.player.other and t.clue.number > 0 and t.guesses for t in done):
            return base
        key = (view.words, view.player, done)
        if self._learnt is not None and self._learnt[0] == key:
            return self._learnt[1]
        sims = sims or self.ensemble.board_rows(view.words)
        reads, hits = history_reads(done, view.words, view.player.other,
                                    lambda w: self._clue_z(w, view.words, sims))
        weights = base
        if len(reads):
            prior = self._prior_reader
            post = adapted(prior, outcome_posterior(reads, hits, prior), cfg.adapt_prior_clues)
            weights = np.asarray(post.weights) * base.sum()
        self._learnt = (key, weights)
        return weights

    @cached_property
    def _base_weights(self) -> np.ndarray:
        """The configured weight of each family (worked out once: a guess reads it every time)."""
        weights = dict(self.config.family_weights)
        base = np.array([weights.get(m.family, 1.0) for m in self.ensemble.models], np.float64)
        base.flags.writeable = False
        return base

    @cached_property
    def _prior_reader(self) -> ReaderModel:
        """The partner model :meth:`family_weights` adapts: the configured weights (the same
        for every turn of every game)."""
        base = self._base_weights
        return ReaderModel(self.ensemble.names, tuple(base / base.sum()), 1 / self.config.sharpness, 0.05)

    def _combine(self, z: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Weighted mean over families of (families, words) z-scores, NaN (unknown) ignored
        (``weights``: :meth:`family_weights`, by default the configured ones)."""
        w = (self._base_weights if weights is None else weights)[:, None]
        if len(w) < 8 and not np.isnan(z).any():
            # Every family reads every word (the usual case): the same sums as below, the
            # families added in order (numpy adds fewer than eight in order too), in fewer
            # calls.
            den = 0.0
            for x in w[:, 0].tolist():
                den += x
            if den > 0:
                return (z * w).sum(axis=0) / den
        known = ~np.isnan(z)
        den = (known * w).sum(axis=0)
        num = (np.where(known, z, 0.0) * w).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)

    def belief(self, view: GuesserView) -> Belief:
        cfg = self.config
        cand = np.array(view.guessable, dtype=np.int64)
        sims = self.ensemble.board_rows(view.words)
        n = len(cand)
        not_target = np.ones(n)
        assassin_logodds = np.zeros(n)
        clues = view.clues_to_me
        # a clue cannot aim at more words than my partner has greens left to find (a reported
        # "ocean 9" on turn 5 would otherwise make every word a near-certain target, and my own
        # assassins with it: each is my partner's assassin with chance 1/3)
        greens_left = 0 if view.partner_done else max(GREENS_PER_SIDE - sum(
            1 for t in clues for _, r in t.guesses if r is GuessResult.GREEN), 0)
        age = 0
        fam_w = self.family_weights(view, sims)
        for t in reversed(clues):
            weight = cfg.history_decay ** age
            age += 1
            read = self._read(t.clue.word, view.words, sims, fam_w)
            if read is None:
                continue  # a clue no family knows tells this bot nothing; guess on the rest
            z = read[cand]
            if t.clue.number == 0:
                assassin_logodds += cfg.zero_clue_weight * weight * np.maximum(z, 0)
                continue
            found = sum(1 for _, r in t.guesses if r is GuessResult.GREEN)
            remaining = min(t.clue.number - found, greens_left)
            if remaining > 0:
                a = allocate(np.exp(cfg.sharpness * (z - z.max())), remaining, cfg.max_target_prob)
                not_target *= 1 - weight * a
            assassin_logodds -= cfg.assassin_shyness * weight * np.maximum(z, 0)
        p_clue = np.minimum(np.maximum(1 - not_target, 1e-4), 1 - 1e-4)  # np.clip, without its overhead
        prior = key_prior(view)[cand] if cfg.infer_key else np.tile(_UNIFORM, (n, 1))
        base = _UNIFORM[_G]
        if cfg.unaimed_greens:
            aimed = float((1 - not_target).sum())
            q = cfg.unaimed_greens * max(greens_left - aimed, 0.0) / max(n - aimed, 1.0)
            p_clue = np.minimum(np.maximum(p_clue + (1 - p_clue) * q, 1e-4), 1 - 1e-4)
            base = min(max(greens_left / max(n, 1), 0.02), 0.98)
        pk = prior[:, _G]
        odds = p_clue / (1 - p_clue) * (pk / np.maximum(1 - pk, 1e-9)) / (base / (1 - base))
        odds = np.where(pk <= 0, 0.0, np.where(pk >= 1, np.inf, odds))
        pg = np.where(np.isinf(odds), 1.0, odds / (1 + odds))
        ra, rn = prior[:, _A] * np.exp(assassin_logodds), prior[:, _N]
        total = np.maximum(ra + rn, 1e-12)
        miss = 1 - pg
        p = np.empty((n, 3))          # (filled by column: np.column_stack's checks cost more)
        p[:, _G] = pg
        np.multiply(miss, ra / total, out=p[:, _A])
        np.multiply(miss, rn / total, out=p[:, _N])
        # In sudden death any miss loses, a bystander as surely as the assassin: the green
        # chance alone ranks the words there.
        score = pg if view.sudden_death else pg - cfg.assassin_aversion * p[:, _A]
        order = np.argsort(-score, kind="stable")
        index = cand[order]
        words = view.words
        return Belief(tuple([words[i] for i in index.tolist()]), index, p[order], score[order])

    # --- decisions ---------------------------------------------------------------------------

    def should_stop(self, view: GuesserView, belief: Belief) -> bool:
        """After a correct guess: is stopping worth more than the best next guess?"""
        if view.sudden_death or view.correct_this_turn == 0 or len(belief.index) == 0:
            return False
        pg, _, pn = belief.p[0]
        return not self._go_on(view, view.greens_to_win, pg, pn, view.correct_this_turn < self._number(view))

    def _go_on(self, view: GuesserView, greens: int, p_green: float, p_bystander: float, within: bool) -> bool:
        """Whether to take another guess: within the clue's number when the word is green with
        ``within_number_green`` or the win table says so; past it only when the table says so
        and the word is green with ``past_number_green``."""
        cfg = self.config
        end = TurnEnd.after(view.tokens, view.bystander_tokens)
        worth = end.worth_guessing(cfg.turns.duet_table(), greens, p_green, p_bystander)
        return (p_green >= cfg.within_number_green or worth) if within else (p_green >= cfg.past_number_green and worth)

    @staticmethod
    def _number(view: GuesserView) -> int:
        """The number of the clue being guessed on (0 outside a clue's turn)."""
        clues = view.clues_to_me
        return clues[-1].clue.number if clues and view.phase is Phase.GUESS else 0

    def guess(self, view: GuesserView) -> Guess | EndTurn:
        belief = self.belief(view)
        if self.should_stop(view, belief):
            return EndTurn()
        return Guess(belief.words[0])

    def plan(self, view: GuesserView) -> tuple[Belief, int]:
        """The ranking and how many of its words this bot would guess, if all were green (0:
        end the turn now, after a correct guess; the same answer as :meth:`should_stop`)."""
        belief = self.belief(view)
        if view.sudden_death:
            return belief, 1
        g, n = view.greens_to_win, 0
        past = self._number(view) - view.correct_this_turn
        for pg, pa, pn in belief.p:
            if (n >= 1 or view.correct_this_turn) and not self._go_on(view, g, pg, pn, n < past):
                break
            n += 1
            g -= 1
            if view.guesses_left is not None and n >= view.guesses_left:
                break
        return belief, n if view.correct_this_turn else max(n, 1)
