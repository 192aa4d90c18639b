"""The spymaster: clue search by expected outcome over precomputed similarity matrices.

Per board, every clue candidate's similarity to the 25 words is computed once per family
(:class:`~duetbot.bots.ensemble.Ensemble`). Per turn only masks change. A clue is judged by
what a *partner who thinks differently* would do with it: the partner is modelled as a
mixture of embedding families (:mod:`.reader`), each simulated guesser drawn from one
family, ranking the words with Gumbel perception noise and going as deep as people do. For
each candidate and each count k the simulation gives the chance of finding j greens, of
hitting a bystander and of hitting the assassin; a small dynamic programme turns (greens
left, tokens left) into a chance of winning, so a clue's score is the chance of winning
after it. That is the game's real cost model: a bystander
costs the same token as stopping (two on a mission map once bystander tokens are gone), the
assassin costs the game, and a tight clock makes bigger clues worth more risk.

The search (screen, simulation, option ranking) is the same for both games; what a word is
and what an outcome is worth come from the spymaster's cost model (:class:`CostModel`):
:class:`DuetCost` here, ``ClassicCost`` in :mod:`.classic`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

import numpy as np

from ..rules import Clue, GuessResult, Label
from ..rules.clues import clue_conflict, illegal_clues
from ..views import SpymasterView
from ..views.classic import ClassicSpymasterView
from ..words import word_key
from .ensemble import BoardSims, Ensemble
from .reader import ReaderModel, StopCounts, adapted, history_reads, posterior
from .strict_clues import strict_illegal_clues
from .winchance import DUET_TURNS, TurnModel


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
class SpymasterConfig:
    """Every number the spymaster uses; benchmarks/RESULTS.md, "Where the config defaults
    come from", has the measurements behind the defaults (``bench_strength.py`` re-tunes them)."""

    partner: ReaderModel | None = None
    """The partner model (:mod:`.reader`); ``None``: :func:`spymaster_partner` for the
    ensemble's families. RESULTS.md, "A partner model learnt from people"."""
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
    turns: TurnModel = DUET_TURNS
    """What a future turn is assumed to bring, for the win-chance table (:mod:`.winchance`)."""
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
    min_expected_greens: float = 0.5
    """A positive clue must be expected to find at least this many greens (a clue that
    points at nothing reads as a blunder)."""
    zero_clues: bool = True
    """Consider ``clue: 0`` to warn off an assassin."""
    zero_trigger: float = 0.02
    """A zero clue is considered only when the best positive clue risks the assassin at
    least this much."""
    zero_guess_risk: float = 0.03
    """Chance that the guess forced by a zero clue hits an assassin."""
    zero_min_margin: float = 0.5
    """A zero clue's word must point at its assassin by this z margin over any other word."""
    strict_clues: bool = True
    """Hold the bot's own clues to :func:`~duetbot.bots.strict_clues.strict_illegal_clues`,
    not only the rule book (``False``: the rule book's filter).
    RESULTS.md, "Where the config defaults come from"."""
    adapt: bool = True
    """Learn this partner during the game from its guesses on my earlier clues
    (:func:`~duetbot.bots.reader.adapted`; the evidence is the view's history).
    RESULTS.md, "Where the config defaults come from"."""
    adapt_prior_clues: float = 2.0
    """How many clues' worth of evidence the prior partner model counts for.
    RESULTS.md, "Where the config defaults come from"."""
    adapt_prior_stops: float = 8.0
    """How many stop decisions' worth the prior stop rates count for."""
    adapt_lapse: bool = False
    """Learn the lapse too (a partner no family explains makes it grow).
    RESULTS.md, "Where the config defaults come from"."""
    seed: int = 0


@dataclass(frozen=True)
class ClueOption:
    """A suggested clue with its explanation."""

    clue: Clue
    targets: tuple[str, ...]
    score: float
    """Estimated chance of winning after this clue (a ranking score, not a promise)."""
    expected_greens: float
    p_assassin: float
    p_bystander: float
    dangers: tuple[tuple[str, str], ...] = ()
    """The most tempting non-targets: (word, label on my side), most dangerous first."""
    links: tuple[float, ...] = ()
    """How strong the link to each target is, in the order of ``targets``: the chance that a
    reader of the family that reads it worst puts the target before the most tempting word
    that is not mine to find (one pair, the partner model's perception noise). A person
    sees the weak link at a glance."""

    def to_json(self) -> dict:
        return {"clue": self.clue.word, "number": self.clue.number, "targets": list(self.targets),
                "links": [round(v, 2) for v in self.links],
                "score": round(self.score, 4), "expected_greens": round(self.expected_greens, 3),
                "p_assassin": round(self.p_assassin, 4), "p_bystander": round(self.p_bystander, 4),
                "dangers": [{"word": w, "label": lab} for w, lab in self.dangers]}


class Legality:
    """Which clue candidates are legal this turn, checked only as far as the search asks.

    ``ok`` is False for every candidate known to be illegal and True for the rest; ``known``
    marks the candidates whose legality is settled. A candidate not yet known is checked
    (``check``: candidate indices -> which of them are illegal) when :meth:`resolve` reaches
    it. The answers are those of the full mask: a search that only ever trusts known
    candidates (as :meth:`EmbeddingSpymaster._shortlist` does) picks what it would have
    picked with every candidate checked.
    """

    def __init__(self, ok: np.ndarray, known: np.ndarray | None = None,
                 check: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        self.ok = ok
        self.known = known if known is not None else np.ones(len(ok), bool)
        self._check = check

    @property
    def complete(self) -> bool:
        """Whether every candidate is settled already."""
        return self._check is None

    def resolve(self, cols: np.ndarray | Sequence[int]) -> np.ndarray:
        """Settle ``cols`` (candidate indices); returns those of them that are legal."""
        cols = np.asarray(cols, dtype=np.int64)
        new = cols[~self.known[cols]]
        if len(new):
            assert self._check is not None
            self.ok[new[self._check(new)]] = False
            self.known[new] = True
        return cols[self.ok[cols]]

    def full(self) -> np.ndarray:
        """The whole mask, every candidate checked."""
        self.resolve(np.flatnonzero(~self.known))
        return self.ok

    def without(self, c: int) -> Legality:
        """A copy in which candidate ``c`` is illegal too."""
        out = Legality(self.ok.copy(), self.known.copy(), self._check)
        out.ok[c], out.known[c] = False, True
        return out


@dataclass
class _Turn:
    """The masks of one turn."""

    sims: BoardSims
    eligible: np.ndarray      # board indices the partner may touch
    labels: np.ndarray        # my labels of eligible words: 0 green, 1 assassin, 2 bystander
    legal: Legality           # which clue candidates may be given
    greens_total: int
    tokens: int
    bystander_tokens: int
    partner: ReaderModel      # the partner model for this turn (adapted to the history)
    rows: list[slice]         # simulated partners of each family (then the random readers)
    zero_clues: bool = False  # whether a zero clue may be considered this turn
    number_cap: int = 0       # the honest number's cap (``SpymasterConfig.after_miss_cap``)
    trust: int = 0            # how well the partner has read my clues (``trust_after``)


#: The spymasters' views: Duet's (:class:`DuetCost`) and classic's (``ClassicCost``).
AnyView = SpymasterView | ClassicSpymasterView


class CostModel(Protocol):
    """What a game makes of a clue: the spymaster's search (screen, partner simulation,
    option ranking) is shared, its cost model says what the words are and what the
    simulated outcomes are worth. Labels are small ints: 0 is a word of mine to find, 1 the
    assassin; the rest are the game's own (:meth:`option` names them)."""

    def turn(self, spymaster: EmbeddingSpymaster, view: Any) -> _Turn:
        """The masks and labels of this turn."""
        ...

    def values(self, spymaster: EmbeddingSpymaster, turn: _Turn, cand: np.ndarray,
               eligible_mask: np.ndarray | None = None,
               tokens_after: int | None = None) -> tuple[np.ndarray, ...]:
        """(value, found, p_assassin, p_bystander, ...) per candidate and number, as
        :meth:`EmbeddingSpymaster._values` describes."""
        ...

    def option(self, spymaster: EmbeddingSpymaster, view: Any, turn: _Turn, c: int, number: int,
               score: float, found: float, p_a: float, p_b: float) -> ClueOption:
        """Clue candidate ``c`` with ``number`` as a :class:`ClueOption` (targets, dangers)."""
        ...


def labelled_option(spymaster: EmbeddingSpymaster, view: AnyView, turn: _Turn, c: int, number: int,
                    score: float, found: float, p_a: float, p_b: float, names: Mapping[int, str],
                    bonus: Mapping[int, float], links: bool) -> ClueOption:
    """The :class:`ClueOption` of candidate ``c``: its ``number`` closest words of mine as
    targets, the three most tempting other words as dangers (each label's ``bonus`` added
    to its similarity, ``names`` naming it), and the link strengths if ``links``."""
    zbar = turn.sims.zbar[c, turn.eligible]
    order = np.argsort(-zbar)
    targets = [view.words[turn.eligible[i]] for i in order if turn.labels[i] == 0][:number]
    danger_order = sorted((i for i in order if turn.labels[i] != 0),
                          key=lambda i: -(zbar[i] + bonus[int(turn.labels[i])]))
    dangers = tuple((view.words[turn.eligible[i]], names[int(turn.labels[i])]) for i in danger_order[:3])
    strengths = spymaster._link_strengths(turn, c, order, number) if links else ()
    return ClueOption(Clue(spymaster.ensemble.clue_words[c], number), tuple(targets) if number else (),
                      score, found, p_a, p_b, dangers, strengths)


class EmbeddingSpymaster:
    """Gives the clue with the best estimated chance of winning, by its game's cost model
    (:class:`DuetCost` unless given another, e.g. classic's ``ClassicCost``).

    >>> # spymaster = EmbeddingSpymaster(Ensemble([load_model("glove50"), load_model("minilm")]))
    """

    def __init__(self, ensemble: Ensemble, config: SpymasterConfig | None = None,
                 cost: CostModel | None = None) -> None:
        self.ensemble = ensemble
        self.cost: CostModel = cost or DuetCost()
        self.config = cfg = config or SpymasterConfig()
        self.partner = partner = (cfg.partner or spymaster_partner(ensemble.names)).restricted(ensemble.names)
        rng = np.random.default_rng(cfg.seed)
        # A simulated partner ranks the words by z + temperature * Gumbel noise (Plackett-Luce).
        u = rng.random((cfg.samples, cfg.shortlist, 25))
        # (samples, words, candidates): see _simulate
        self._eps = np.ascontiguousarray((-partner.temperature * np.log(-np.log(u))).astype(np.float32)
                                         .transpose(0, 2, 1))
        self._family_rows = self._rows(partner)
        self._work = np.empty(cfg.samples * 25 * cfg.shortlist, np.float32)
        z = ensemble.zipf
        self._prior = (-cfg.familiarity * np.clip(4.5 - z, 0, None)
                       - cfg.proper_penalty * ensemble.is_proper).astype(np.float32)
        self._too_rare = (z < cfg.min_zipf) | (~ensemble.people_would_say if cfg.base_forms else False)
        self._illegal_cache: dict[str, np.ndarray] = {}
        self._seen: set[str] = set()   # board words met (folded), checked or not
        self._depth_cache: dict[tuple[int, float, float], np.ndarray] = {}

    # --- public ------------------------------------------------------------------------------

    def give_clue(self, view: AnyView) -> Clue:
        return self.suggest(view, top=1)[0].clue

    def suggest(self, view: AnyView, top: int = 5) -> list[ClueOption]:
        """The ``top`` best clues, best first (a zero clue among them when it is best)."""
        turn = self._turn(view)
        options = self._positive_options(view, turn, top=max(top, 1))
        if turn.zero_clues and options and options[0].p_assassin >= self.config.zero_trigger:
            zero = self._zero_option(view, turn, options[0])
            if zero is not None:
                options.insert(0, zero)
        if not options:
            options = [self._fallback(view, turn)]
        return options[:top]

    # --- per turn ------------------------------------------------------------------------------

    def _illegal(self, words: Sequence[str]) -> None:
        """Cache, for each board word, the clue-candidate indices it forbids: the strict check
        the bot holds its own clues to (``config.strict_clues``), else the rule book's. Boards
        are dealt from a few hundred words, so a long simulation checks each word once."""
        index = self.ensemble.index
        if self.config.strict_clues:
            # The vocabulary is indexed once (~0.3 s), after which a new word costs ~0.3 ms.
            for w, flagged in self.ensemble.strict_index.by_word(words).items():
                self._illegal_cache[word_key(w)] = np.array(sorted(index[c] for c in flagged), dtype=np.int64)
        else:
            bad = sorted(illegal_clues(self.ensemble.clue_words, words))
            for w in words:
                self._illegal_cache[word_key(w)] = np.array([index[c] for c in bad if clue_conflict(c, w)],
                                                          dtype=np.int64)

    def _legal(self, view) -> Legality:
        """Clue candidates allowed now: familiar enough, legal on the visible words, not
        given before. A session's first boards (up to :data:`INDEX_AFTER_WORDS` words) are
        checked lazily, only for the candidates the search reaches (a few hundred of the
        vocabulary, so one request or one game never waits for the whole vocabulary's
        check); later boards' words are checked against the whole vocabulary once each and
        cached."""
        legal = ~self._too_rare
        for t in view.turns:
            j = self.ensemble.index.get(t.clue.word)
            if j is not None:
                legal[j] = False
        words = [view.words[i] for i in view.visible]
        keys = [word_key(w) for w in words]
        new = {k: w for k, w in zip(keys, words) if k not in self._illegal_cache}
        self._seen.update(new)
        if new and (not self.config.strict_clues or len(self._seen) > INDEX_AFTER_WORDS):
            self._illegal(list(new.values()))
            new = {}
        for k in keys:
            if k not in new:
                legal[self._illegal_cache[k]] = False
        if not new:
            return Legality(legal)
        unchecked, clue_words = list(new.values()), self.ensemble.clue_words

        def check(cols: np.ndarray) -> np.ndarray:
            cands = [clue_words[c] for c in cols.tolist()]
            flagged = strict_illegal_clues(cands, unchecked)
            return np.fromiter((c in flagged for c in cands), bool, count=len(cands))

        return Legality(legal, ~legal, check)

    def _turn(self, view: AnyView) -> _Turn:
        return self.cost.turn(self, view)

    def _values(self, turn: _Turn, cand: np.ndarray, eligible_mask: np.ndarray | None = None,
                tokens_after: int | None = None) -> tuple[np.ndarray, ...]:
        """Simulate the partner on candidates ``cand``. Returns (value, found, p_assassin,
        p_bystander), each (len(cand), max_number): column k-1 is the clue with number k; the
        Duet cost model adds (families, len(cand), max_number): each family's simulated
        readers' greens in their top k. ``eligible_mask`` leaves words out of play,
        ``tokens_after`` sets the clock after the clue (a zero clue's)."""
        return self.cost.values(self, turn, cand, eligible_mask, tokens_after)

    def _option(self, view: AnyView, turn: _Turn, c: int, number: int, score: float, found: float,
                p_a: float, p_b: float) -> ClueOption:
        return self.cost.option(self, view, turn, c, number, score, found, p_a, p_b)

    def adapted_partner(self, view: SpymasterView) -> ReaderModel:
        """The partner model after the partner's guesses on my earlier clues in this game
        (``config.adapt``), else the prior one."""
        mine = _read_clues(view)
        if not self.config.adapt or not mine:
            return self.partner
        sims = self.ensemble.board(view.words)
        reads, _ = history_reads(view.turns, view.words, view.player, lambda w: self.ensemble.clue_z(w, sims))
        stops = StopCounts.count([(t.clue.number, [r is GuessResult.GREEN for _, r in t.guesses]) for t in mine])
        cfg = self.config
        return adapted(self.partner, posterior(reads, self.partner), cfg.adapt_prior_clues,
                       stops, cfg.adapt_prior_stops, cfg.adapt_lapse)

    def _rows(self, partner: ReaderModel) -> list[slice]:
        """Simulated partners in blocks, one per family by weight (the random readers last,
        left out: their rows keep only the noise)."""
        counts = _allocate(self.config.samples, [(1 - partner.lapse) * w for w in partner.weights] + [partner.lapse])
        bounds = np.concatenate([[0], np.cumsum(counts)])
        return [slice(int(a), int(b)) for a, b in zip(bounds, bounds[1:])][:-1]

    def _simulate(self, zt: np.ndarray, good: np.ndarray, labels: np.ndarray,
                  family_rows: list[slice]) -> tuple[np.ndarray, np.ndarray]:
        """Simulated partners reading each candidate clue. ``zt`` is (families, words,
        candidates). Returns, per sample and candidate, how many ``good`` words come before
        the first other word, and that word's label (-1 if there is none)."""
        e, n = zt.shape[1], zt.shape[2]
        M = len(self._eps)
        bad, good_cols = np.flatnonzero(~good), np.flatnonzero(good)
        if len(bad) == 0:
            return np.full((M, n), e), np.full((M, n), -1)
        # (samples, words, candidates), candidates contiguous: each step below is a pass over
        # whole rows (with 25 words last, each was a short inner loop, five times slower).
        noisy = self._work[:M * e * n].reshape(M, e, n)
        eps = self._eps[:, :e, :n]
        for f, rows in enumerate(family_rows):                          # samples grouped by family
            np.add(eps[rows], zt[f], out=noisy[rows])
        end = family_rows[-1].stop if family_rows else 0
        noisy[end:] = eps[end:]                                         # random readers: noise alone
        # The first other word is the highest-ranked one: the best of each label's best.
        kinds = _unique(labels[bad])
        tops = np.empty((len(kinds), M, n), np.float32)
        for top, kind in zip(tops, kinds):
            first_row, *rest = bad[labels[bad] == kind]
            top[...] = noisy[:, first_row]
            for j in rest:
                np.maximum(top, noisy[:, j], out=top)
        first = tops.argmax(axis=0)
        best = tops.max(axis=0)
        above = np.zeros((M, n), np.intp)
        for j in good_cols:
            above += noisy[:, j] > best
        return above, kinds[first]

    def _depths(self, greens: int, partner: ReaderModel) -> np.ndarray:
        """(max_number, max_number + 2): chance that the partner goes d deep for a clue of k
        (row k-1), never deeper than the greens they can find."""
        deepest = min(greens, self.config.max_number + 1)
        key = (deepest, partner.stop_early, partner.bonus)
        hit = self._depth_cache.get(key)
        if hit is None:
            K = self.config.max_number
            hit = np.zeros((K, K + 2))
            for k in range(1, K + 1):
                hit[k - 1, :deepest + 1] = partner.depth_chances(k, deepest)
            if len(self._depth_cache) > 256:
                self._depth_cache.clear()
            self._depth_cache[key] = hit
        return hit

    def _shortlist(self, turn: _Turn, legal: Legality, eligible_mask: np.ndarray | None = None) -> np.ndarray:
        """Cheap screen: for each count k, the legal candidates whose k-th best green beats
        every other word (assassins handicapped) by the widest family-average margin. Only
        the candidates that reach a count's best are checked for legality (at first twice
        as many, so that an illegal one seldom costs another pass)."""
        cfg = self.config
        cols = turn.eligible if eligible_mask is None else turn.eligible[eligible_mask]
        labels = turn.labels if eligible_mask is None else turn.labels[eligible_mask]
        green = labels == 0
        if not green.any():
            return np.zeros(0, dtype=np.int64)
        zt = turn.sims.zbar_t                                            # (words, C)
        greens = zt[cols[green]]
        if green.all():
            bad = np.full(zt.shape[1], -10.0, np.float32)
        else:
            handicap = np.where(labels[~green] == 1, cfg.assassin_margin, 0.0).astype(np.float32)
            bad = (zt[cols[~green]] + handicap[:, None]).max(axis=0)
        K = min(cfg.max_number, len(greens))
        margin = _top_rows(greens, K) - bad                              # (K, C)
        per_k = max(cfg.shortlist // K, 1)
        if zt.shape[1] <= per_k:
            return np.flatnonzero(legal.full())
        margin[:, ~legal.ok] = -np.inf
        reach = per_k if legal.complete else 2 * per_k
        while True:
            best = _best_columns(margin, reach)
            if legal.complete:
                break
            unknown = _unique(best[~legal.known[best]])
            legal.resolve(unknown)
            illegal = unknown[~legal.ok[unknown]]
            if len(illegal) == 0:
                break
            margin[:, illegal] = -np.inf
        best = best.reshape(K, -1)[:, :per_k]        # each count's best come first in its block
        cand = _unique(best)
        return cand[legal.ok[cand]][: cfg.shortlist]

    def _positive_options(self, view: AnyView, turn: _Turn, top: int) -> list[ClueOption]:
        cfg = self.config
        cand = self._shortlist(turn, turn.legal)
        if len(cand) == 0:
            return []
        values = self._values(turn, cand)
        value, found, p_a, p_b = values[:4]
        n_green = int((turn.labels == 0).sum())
        value = value + self._prior[cand][:, None]
        value[:, n_green:] = -np.inf                                   # no number above greens left
        value[found < cfg.min_expected_greens] = -np.inf               # a clue is for finding greens
        K = value.shape[1]
        if cfg.honest:
            value[:, turn.number_cap:] = -np.inf                       # no bolder after a miss
            need = cfg.honest_ratio * np.arange(1, K + 1)
            # Levels: honest for every family, honest on the families' average, any. A level's
            # best is given when it keeps the clock's pace; once the partner has shown it reads
            # my clues (``trust_after``) the clock may reach the next level.
            every = (values[4].min(axis=0) >= need) & (self._strength(turn, cand).min(axis=0) >= 0)
            average = values[4].mean(axis=0) >= need
            pace = cfg.honest_pace * turn.greens_total / max(turn.tokens, 1)
            levels = (every, average, np.ones_like(every))[:cfg.honest_levels if turn.trust >= cfg.trust_after else 1]
            for level, allowed in enumerate(levels):
                kept = np.where(allowed, value, -np.inf)
                if not np.isfinite(kept).any():
                    continue
                best = np.unravel_index(int(np.argmax(kept)), kept.shape)
                if level == len(levels) - 1 or found[best] >= pace:
                    value = kept
                    break
            else:  # not even that (a board of weak links): the best clue for one word
                value[:, 1:] = -np.inf
        # The best clue for each number first, best first (a person picks the risk they
        # like), then the next best clues whatever their number.
        firsts: list[tuple[int, int]] = []
        for k in np.argsort(-value.max(axis=0)):
            taken = {c for c, _ in firsts}
            ci = next((int(c) for c in np.argsort(-value[:, k]) if int(c) not in taken), None)
            if ci is not None and np.isfinite(value[ci, k]):
                firsts.append((ci, int(k)))
        rest = (divmod(int(f), K) for f in np.argsort(-value, axis=None))   # read only as far as needed
        out: list[ClueOption] = []
        seen: set[int] = set()
        for pairs in (firsts, rest):
            out.sort(key=lambda o: -o.score)        # the per-number bests, best first
            for ci, k in pairs:
                if len(out) >= top:
                    break
                if ci in seen or not np.isfinite(value[ci, k]):
                    continue
                seen.add(ci)
                word = self.ensemble.clue_words[int(cand[ci])]
                if any(clue_conflict(word, o.clue.word) for o in out):
                    continue  # another form of a clue already listed (colony, colonies)
                out.append(self._option(view, turn, int(cand[ci]), k + 1, float(value[ci, k]),
                                        float(found[ci, k]), float(p_a[ci, k]), float(p_b[ci, k])))
        return out

    def _strength(self, turn: _Turn, cand: np.ndarray) -> np.ndarray:
        """(families, n, max_number): for a clue of k, how far its weakest target stands above
        the strongest word that is not mine to find (an assassin ``strong_assassin_margin``
        more) in each family, less ``strong_margin[k-1]``: >= 0 where that family reads the
        clue as meant."""
        cfg = self.config
        K = cfg.max_number
        F = turn.sims.z.shape[0]
        out = np.full((F, len(cand), K), -np.inf, np.float32)
        green = turn.labels == 0
        if not green.any():
            return out
        z = np.take(turn.sims.z, cand, axis=1)[:, :, turn.eligible]                # (F, n, eligible)
        # each family's z of my greens, in the candidate's order (family average, best first)
        zg = z[:, :, green]
        zg = np.take_along_axis(zg, np.argsort(-zg.mean(axis=0), axis=1, kind="stable")[None], axis=2)
        if green.all():
            worst_bad = np.full(zg.shape[:2], -10.0, np.float32)
        else:
            handicap = np.where(turn.labels[~green] == 1, cfg.strong_assassin_margin, 0.0).astype(np.float32)
            worst_bad = (z[:, :, ~green] + handicap).max(axis=2)                    # (F, n)
        weakest = np.minimum.accumulate(zg, axis=2)[:, :, :K]                       # (F, n, <=K)
        gap = np.nan_to_num(weakest - worst_bad[:, :, None], nan=np.inf)            # (F, n, <=K)
        k = gap.shape[2]
        out[:, :, :k] = gap - np.asarray(cfg.strong_margin[:k], np.float32)
        return out

    def _trust(self, view: SpymasterView) -> int:
        """How well my partner has read my clues this game: clues read without a miss within
        their number, less clues misread."""
        return sum(-1 if _misread(t) else 1 for t in _read_clues(view))

    def _number_cap(self, view: SpymasterView, turn: _Turn) -> int:
        """The largest number allowed now: no bolder than my last clue when the partner
        missed on it (``config.after_miss_cap``), unless the clock leaves nothing else."""
        cfg = self.config
        mine = _read_clues(view)
        if not cfg.after_miss_cap or not mine:
            return cfg.max_number
        last = mine[-1]
        if not _misread(last):
            return cfg.max_number
        cap = last.clue.number
        if turn.tokens <= cfg.clock_tokens and int((turn.labels == 0).sum()) > cap * max(turn.tokens, 1):
            return cfg.max_number   # the end game: clues this size cannot finish in time
        return cap

    def _link_strengths(self, turn: _Turn, c: int, order: np.ndarray, number: int) -> tuple[float, ...]:
        """:attr:`ClueOption.links` of clue candidate ``c`` for its top ``number`` greens in
        ``order`` (eligible positions, best first). Two Gumbel readers' difference is
        logistic, so the chance is a logistic of the z gap over the partner's temperature."""
        mine = [i for i in order if turn.labels[i] == 0][:number]
        if not mine:
            return ()
        z = turn.sims.z[:, c, turn.eligible]                                        # (F, e)
        bad = turn.labels != 0
        worst_bad = z[:, bad].max(axis=1) if bad.any() else np.full(len(z), -10.0, np.float32)
        gap = np.nanmin(z[:, mine] - worst_bad[:, None], axis=0)
        p = 1 / (1 + np.exp(-np.clip(gap / max(turn.partner.temperature, 1e-3), -30, 30)))
        return tuple(float(v) for v in p)

    def _zero_option(self, view: AnyView, turn: _Turn, current: ClueOption) -> ClueOption | None:
        """``clue: 0`` for the assassin that most endangers the best clue, when the best clue
        without that assassin in play, one turn later, beats the best clue now."""
        cfg = self.config
        threat = next((w for w, label in current.dangers if label == "assassin"), None)
        if threat is None:
            return None
        a = [view.words[i] for i in turn.eligible].index(threat)
        zbar = turn.sims.zbar[:, turn.eligible]
        others = np.ones(len(turn.eligible), bool)
        others[a] = False
        margin = zbar[:, a] - zbar[:, others].max(axis=1)
        margin[~turn.legal.ok] = -np.inf
        while True:
            c = int(np.argmax(margin))
            if margin[c] < cfg.zero_min_margin:
                return None
            if len(turn.legal.resolve([c])):
                break
            margin[c] = -np.inf
        cand = self._shortlist(turn, turn.legal.without(c), others)
        if len(cand) == 0:
            return None
        value, *_ = self._values(turn, cand, others, tokens_after=turn.tokens - 2)
        value = value + self._prior[cand][:, None]
        value[:, int((turn.labels[others] == 0).sum()):] = -np.inf
        score = (1 - cfg.zero_guess_risk) * float(value.max()) + float(self._prior[c])
        if score <= current.score:
            return None
        return ClueOption(Clue(self.ensemble.clue_words[c], 0), (), score, 0.0,
                          cfg.zero_guess_risk, 0.0, ((threat, "assassin"),))

    def _fallback(self, view: AnyView, turn: _Turn) -> ClueOption:
        """No candidate survived (tiny vocabulary): the most familiar legal clue, number 1."""
        legal = np.flatnonzero(turn.legal.full())
        if len(legal) == 0:
            raise RuntimeError("no legal clue word is left in the clue vocabulary")
        c = int(legal[np.argmax(self.ensemble.zipf[legal])])
        return self._option(view, turn, c, 1, 0.0, 0.0, 0.0, 0.0)


class DuetCost:
    """Duet's cost model: greens, the assassin and bystanders on my side of the key; a clue
    is worth the chance of winning after it, from the win table over (greens left, tokens
    left) (:mod:`.winchance`): a bystander costs a token (two on a mission map once the
    bystander tokens are gone), the assassin the game. The partner model adapts to the
    partner's guesses (``SpymasterConfig.adapt``)."""

    names = {0: "green", 1: "assassin", 2: "bystander"}

    def turn(self, spymaster: EmbeddingSpymaster, view: SpymasterView) -> _Turn:
        sm, cfg = spymaster, spymaster.config
        sims = sm.ensemble.board(view.words)
        excluded = set(view.covered) | set(view.partner_marks)
        eligible = np.array([i for i in range(len(view.words)) if i not in excluded], dtype=np.int64)
        code = {Label.GREEN: 0, Label.ASSASSIN: 1, Label.BYSTANDER: 2}
        labels = np.array([code[view.my_side[i]] for i in eligible], dtype=np.int8)
        legal = sm._legal(view)
        partner = sm.adapted_partner(view)
        rows = sm._family_rows if partner is sm.partner else sm._rows(partner)
        turn = _Turn(sims, eligible, labels, legal, 15 - len(view.covered_green),
                     view.tokens, view.bystander_tokens, partner, rows,
                     zero_clues=cfg.zero_clues and view.variant.zero_clues)
        turn.number_cap = sm._number_cap(view, turn)
        turn.trust = sm._trust(view)
        return turn

    def values(self, spymaster: EmbeddingSpymaster, turn: _Turn, cand: np.ndarray,
               eligible_mask: np.ndarray | None = None,
               tokens_after: int | None = None) -> tuple[np.ndarray, ...]:
        sm, cfg = spymaster, spymaster.config
        cols = turn.eligible if eligible_mask is None else turn.eligible[eligible_mask]
        labels = turn.labels if eligible_mask is None else turn.labels[eligible_mask]
        green = labels == 0
        above, first_miss = sm._simulate(turn.sims.z[:, cand[None, :], cols[:, None]], green, labels, turn.rows)
        W = cfg.turns.duet_table()
        t_next = (turn.tokens - 1) if tokens_after is None else tokens_after
        t_ok = max(t_next, 0)
        if turn.bystander_tokens > 0 or tokens_after is not None:
            t_miss, miss_lost = t_ok, False
        else:  # mission map: a mistake costs two tokens, or the game with one left
            t_miss, miss_lost = max(t_next - 1, 0), t_next < 1
        # A simulated partner's outcome is (a: greens before the first other word, x: whether
        # that word is the assassin); the clue's figures are the share of each outcome times
        # what it brings. The partner goes d deep (d = 0 .. max_number + 1) unless a miss stops
        # them first; the partner model says how likely each depth is for a clue of k.
        M, n = above.shape
        A = int(above.max()) + 1
        key = above * 2 + (first_miss == 1) + (2 * A) * np.arange(n)
        share = np.bincount(key.ravel(), minlength=2 * A * n).reshape(n, 2 * A) / M   # (n, 2A)
        a = np.arange(A)[:, None, None]
        ds = np.arange(cfg.max_number + 2)[None, None, :]
        found = np.broadcast_to(np.minimum(a, ds), (A, 2, ds.shape[2]))              # (A, 2, D)
        missed = np.broadcast_to(a < ds, found.shape)
        assassin = missed & (np.arange(2)[None, :, None] == 1)
        left = np.clip(turn.greens_total - found, 0, 15)
        w_miss = 0.0 if miss_lost else W[left, t_miss]
        value = (1 - assassin) * np.where(missed, w_miss, W[left, t_ok])
        depth = sm._depths(int(green.sum()), turn.partner)                          # (K, D)
        out = tuple((share @ x.reshape(2 * A, -1)) @ depth.T
                    for x in (value, found, assassin, missed & ~assassin))
        # The honest number's yardstick: each family's simulated partners' greens in their top
        # k (read k deep; the random readers left out).
        to_k = found.reshape(2 * A, -1)[:, 1:cfg.max_number + 1]                     # (2A, K)
        by_family = []
        for rows in turn.rows if cfg.honest else ():
            if rows.stop > rows.start:
                k = key[rows]
                s = np.bincount(k.ravel(), minlength=2 * A * n).reshape(n, 2 * A) / len(k)
                by_family.append(s @ to_k)
        return (*out, np.array(by_family) if by_family else np.full((1, *out[1].shape), np.inf))

    def option(self, spymaster: EmbeddingSpymaster, view: AnyView, turn: _Turn, c: int, number: int,
               score: float, found: float, p_a: float, p_b: float) -> ClueOption:
        margin = spymaster.config.assassin_margin
        return labelled_option(spymaster, view, turn, c, number, score, found, p_a, p_b,
                               self.names, {1: margin, 2: 0}, links=True)


def _read_clues(view: SpymasterView) -> list:
    """My clues (not zero clues) that my partner has guessed on, oldest first."""
    return [t for t in view.turns if t.giver == view.player and t.clue.number > 0 and t.guesses]


def _misread(turn) -> bool:
    """Whether the partner missed within the clue's number (a miss on a guess past the
    number, after every target was found, is the usual end of a good turn)."""
    return any(r is not GuessResult.GREEN for _, r in turn.guesses[:turn.clue.number])


def _unique(a: np.ndarray) -> np.ndarray:
    """``np.unique`` (of the flattened array), without its check for masked arrays (which
    imports ``numpy.ma``, 20 ms, on a process's first call)."""
    a = np.sort(a, axis=None)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) else a


def _best_columns(values: np.ndarray, k: int, stride: int = 8) -> np.ndarray:
    """The columns of the ``k`` largest values of each row of ``values``, all rows together.

    Each row's k-th largest among every ``stride``-th column cannot beat its k-th largest
    overall, so the columns at or above it hold the row's best k; ranking only those is
    several times faster than partitioning the whole row. Equal values go to the earlier
    column (they do occur: clue words with the same vectors).
    """
    n = values.shape[1]
    if n // stride > 4 * k:
        floor = -np.partition(-values[:, ::stride], k - 1, axis=1)[:, k - 1]
    else:
        floor = np.full(values.shape[0], -np.inf, values.dtype)
    out = []
    for row, least in zip(values, floor):
        c = np.flatnonzero(row >= least)                         # ascending: ties keep this order
        out.append(c[np.argsort(-row[c], kind="stable")[:k]])
    return np.concatenate(out)


def _top_rows(rows: np.ndarray, k: int) -> np.ndarray:
    """(k, columns): the ``k`` largest values of each column of ``rows``, largest first. A
    max/min network over the few rows: a column-wise sort of a (9, 14451) array is ten
    times slower (numpy sorts each column alone)."""
    out = np.full((k, rows.shape[1]), -np.inf, rows.dtype)
    for r in rows:
        carry = r
        for i in range(k):
            lower = np.minimum(out[i], carry)
            np.maximum(out[i], carry, out=out[i])
            carry = lower
    return out


def _allocate(total: int, shares: Sequence[float]) -> list[int]:
    """``total`` rows shared by ``shares`` (largest remainders), at least one row for every
    positive share."""
    shares_ = np.asarray(shares, float)
    exact = total * shares_ / shares_.sum()
    out = np.floor(exact).astype(int)
    out[(shares_ > 0) & (out == 0)] = 1
    while out.sum() > total:
        out[np.argmax(out)] -= 1
    for i in np.argsort(-(exact - np.floor(exact))):
        if out.sum() >= total:
            break
        out[i] += 1
    return [int(x) for x in out]


#: Board words checked one by one before the spymaster indexes its vocabulary for the
#: strict clue check (:class:`~duetbot.bots.strict_clues.StrictIndex`): two boards.
INDEX_AFTER_WORDS = 50
