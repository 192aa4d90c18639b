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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..rules import Clue, GuessResult, Label
from ..rules.clues import clue_conflict, illegal_clues
from ..views import SpymasterView
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
    """Every number the spymaster uses. Initial values come from the prototype measurements
    (docs/architecture.md, "Where the defaults come from"); ``benchmarks/bench_strength.py`` is the benchmark that re-tunes them, and
    benchmarks/RESULTS.md lists the variants tried (none beat these defaults beyond noise in
    leave-one-family-out play, 2 rotations x 100 games each)."""

    partner: ReaderModel | None = None
    """The partner model (:mod:`.reader`); ``None``: :func:`spymaster_partner` for the
    ensemble's families."""
    samples: int = 64
    """Simulated partners per candidate (common random numbers across candidates), shared
    among the partner model's families by weight."""
    shortlist: int = 240
    """Candidates kept by the cheap screen for the simulation."""
    max_number: int = 4
    """Largest count considered. Capping at 2 cost 30-40 points of win rate (docs/architecture.md,
    "Where the defaults come from")."""
    assassin_margin: float = 0.5
    """Screen only: an assassin counts as this much more similar than it is (z units)."""
    min_zipf: float = 2.8
    """Clue words rarer than this (wordfreq zipf) are never given."""
    familiarity: float = 0.004
    """Score penalty per zipf unit below 4.5: prefer words a person knows."""
    proper_penalty: float = 0.05
    """Score penalty for proper nouns (allowed by the rules, harder for partners). At 0.01
    2.2% of the bot's clues were proper nouns, nearly all obscure first names (adrian, royce,
    wyatt), where people's 2.0% are famous (batman, everest, california); 0.05 gives none,
    with win rates unchanged within noise (300 games: shipped pair 83.0 -> 81.3%, LOFO mean
    8.9 -> 9.3%)."""
    base_forms: bool = True
    """Give no function word (despite, unto), no -ed form not clearly more common than its
    base (accounted, posted, consulted go; united, married stay) and no -ing form far rarer
    than its base (bowling, morning stay). On people's boards 4.0% of the old spymaster's
    clues were -ed/-ing forms, 1.1% with this, people's 2.9% (``benchmarks/bench_people.py``)."""
    turns: TurnModel = DUET_TURNS
    """What a future turn is assumed to bring, for the win-chance table (:mod:`.winchance`)."""
    min_expected_greens: float = 0.5
    """A positive clue must be expected to find at least this many greens: with a loose clock
    a clue that points at nothing (the partner's guess a bystander, most likely) can score
    as well as a real one, and a person would take it for a blunder."""
    zero_clues: bool = True
    """Consider ``clue: 0`` to warn off an assassin."""
    zero_trigger: float = 0.02
    """A zero clue is considered only when the best positive clue risks the assassin at least
    this much (it is what a zero clue is for, and it saves time on safe turns)."""
    zero_guess_risk: float = 0.03
    """Chance that the guess forced by a zero clue hits an assassin."""
    zero_min_margin: float = 0.5
    """A zero clue's word must point at its assassin by this z margin over any other word."""
    strict_clues: bool = True
    """Hold the bot's own clues to :func:`~duetbot.bots.strict_clues.strict_illegal_clues`, not
    only the rule book: no clue containing a visible word or contained in one (3+ letters:
    "officers" with ICE, "cola" with CHOCOLATE, "doctoral" with DOCTOR), no derived form
    ("tribal" with TRIBE), no shared compound part. People are still judged by the rule
    book. ``benchmarks/bench_strict.py`` (1,000 games per run, same seeds): with the
    rule-book filter 0.8% of the bot's clues were flagged by the strict check (shipped pair
    and leave-one-family-out alike: kingdom/KING, transport/PORT, email/MAIL, monk/MONKEY,
    basketball/FOOTBALL), with this one none; win rates unchanged within noise (shipped pair
    80.3 -> 80.4%, LOFO glove50+spacy300 -> minilm 3.7 -> 4.5%). ``False`` restores the
    rule-book filter (for that benchmark)."""
    adapt: bool = True
    """Learn this partner during the game: the partner model's family weights and stop rates
    are updated from the partner's guesses on my earlier clues
    (:func:`~duetbot.bots.reader.adapted`). Stateless: the evidence is the view's history.
    ``benchmarks/bench_adapt.py``, 500 games a row, same seeds, off -> on: in-family (the
    partner is one of the modelled families) 59.7 -> 77.7% (+18.0 +- 2.3 points, every
    family +10 to +22); leave-one-family-out mean of 5 rotations 7.0 -> 7.9% (+1.0 +- 1.1);
    shipped pair 78.6 -> 78.4% (-0.2 +- 3.9). On people's games the adapted model predicts
    the human guesser's next guesses better (log-likelihood per guess -2.066 -> -2.047)."""
    adapt_prior_clues: float = 2.0
    """How many clues' worth of evidence the prior partner model counts for (people's
    games: 2-4 best; full games: 2 beat 4 by about a point, within noise)."""
    adapt_prior_stops: float = 8.0
    """How many stop decisions' worth the prior stop rates count for."""
    adapt_lapse: bool = False
    """Learn the lapse too. A partner of a family the bot does not know is explained by no
    family at temperature 0.2, so the learnt lapse grows (to 0.2-0.25 after a few clues)
    and a quarter of the simulated partners become random readers: leave-one-family-out
    mean 7.2 -> 6.5% with it (prior 4 clues), 7.2 -> 8.0% without it (prior 2), and
    in-family +11.8 instead of +17.5 points (both in the first measurement, before the adaptation read the whole history)."""
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

    def to_json(self) -> dict:
        return {"clue": self.clue.word, "number": self.clue.number, "targets": list(self.targets),
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


class EmbeddingSpymaster:
    """Gives the clue with the best estimated chance of winning.

    >>> # spymaster = EmbeddingSpymaster(Ensemble([load_model("glove50"), load_model("minilm")]))
    """

    def __init__(self, ensemble: Ensemble, config: SpymasterConfig | None = None) -> None:
        self.ensemble = ensemble
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
        self._too_rare = (z < cfg.min_zipf) | (_not_a_clue(ensemble.clue_words, z) if cfg.base_forms else False)
        self._illegal_cache: dict[str, np.ndarray] = {}
        self._seen: set[str] = set()   # board words met (folded), checked or not
        self._depth_cache: dict[tuple[int, float, float], np.ndarray] = {}

    # --- public ------------------------------------------------------------------------------

    def give_clue(self, view: SpymasterView) -> Clue:
        return self.suggest(view, top=1)[0].clue

    def suggest(self, view: SpymasterView, top: int = 5) -> list[ClueOption]:
        """The ``top`` best clues, best first (a zero clue among them when it is best)."""
        turn = self._turn(view)
        options = self._positive_options(view, turn, top=max(top, 1))
        if (self.config.zero_clues and view.variant.zero_clues and options
                and options[0].p_assassin >= self.config.zero_trigger):
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

    def _turn(self, view: SpymasterView) -> _Turn:
        sims = self.ensemble.board(view.words)
        excluded = set(view.covered) | set(view.partner_marks)
        eligible = np.array([i for i in range(len(view.words)) if i not in excluded], dtype=np.int64)
        code = {Label.GREEN: 0, Label.ASSASSIN: 1, Label.BYSTANDER: 2}
        labels = np.array([code[view.my_side[i]] for i in eligible], dtype=np.int8)
        legal = self._legal(view)
        partner = self.adapted_partner(view)
        rows = self._family_rows if partner is self.partner else self._rows(partner)
        return _Turn(sims, eligible, labels, legal, 15 - len(view.covered_green),
                     view.tokens, view.bystander_tokens, partner, rows)

    def adapted_partner(self, view: SpymasterView) -> ReaderModel:
        """The partner model after the partner's guesses on my earlier clues in this game
        (``config.adapt``), else the prior one."""
        mine = [t for t in view.turns if t.giver == view.player and t.clue.number > 0 and t.guesses]
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

    def _values(self, turn: _Turn, cand: np.ndarray, eligible_mask: np.ndarray | None = None,
                tokens_after: int | None = None) -> tuple[np.ndarray, ...]:
        """Simulate the partner on candidates ``cand``. Returns (value, found, p_assassin,
        p_bystander), each (len(cand), max_number): column k-1 is the clue with number k."""
        cfg = self.config
        cols = turn.eligible if eligible_mask is None else turn.eligible[eligible_mask]
        labels = turn.labels if eligible_mask is None else turn.labels[eligible_mask]
        green = labels == 0
        above, first_miss = self._simulate(turn.sims.z[:, cand[None, :], cols[:, None]], green, labels, turn.rows)
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
        depth = self._depths(int(green.sum()), turn.partner)                          # (K, D)
        return tuple((share @ x.reshape(2 * A, -1)) @ depth.T
                     for x in (value, found, assassin, missed & ~assassin))

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

    def _positive_options(self, view: SpymasterView, turn: _Turn, top: int) -> list[ClueOption]:
        cfg = self.config
        cand = self._shortlist(turn, turn.legal)
        if len(cand) == 0:
            return []
        value, found, p_a, p_b = self._values(turn, cand)
        n_green = int((turn.labels == 0).sum())
        value = value + self._prior[cand][:, None]
        value[:, n_green:] = -np.inf                                   # no number above greens left
        value[found < cfg.min_expected_greens] = -np.inf               # a clue is for finding greens
        # The best clue for each number first, best first (a person picks the risk they
        # like), then the next best clues whatever their number.
        K = value.shape[1]
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

    def _option(self, view, turn: _Turn, c: int, number: int, score: float, found: float,
                p_a: float, p_b: float) -> ClueOption:
        zbar = turn.sims.zbar[c, turn.eligible]
        order = np.argsort(-zbar)
        targets = [view.words[turn.eligible[i]] for i in order if turn.labels[i] == 0][:number]
        names = {0: "green", 1: "assassin", 2: "bystander"}
        danger_order = sorted((i for i in order if turn.labels[i] != 0),
                              key=lambda i: -(zbar[i] + (self.config.assassin_margin if turn.labels[i] == 1 else 0)))
        dangers = tuple((view.words[turn.eligible[i]], names[int(turn.labels[i])]) for i in danger_order[:3])
        return ClueOption(Clue(self.ensemble.clue_words[c], number), tuple(targets) if number else (),
                          score, found, p_a, p_b, dangers)

    def _zero_option(self, view: SpymasterView, turn: _Turn, current: ClueOption) -> ClueOption | None:
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

    def _fallback(self, view: SpymasterView, turn: _Turn) -> ClueOption:
        """No candidate survived (tiny vocabulary): the most familiar legal clue, number 1."""
        legal = np.flatnonzero(turn.legal.full())
        if len(legal) == 0:
            raise RuntimeError("no legal clue word is left in the clue vocabulary")
        c = int(legal[np.argmax(self.ensemble.zipf[legal])])
        return self._option(view, turn, c, 1, 0.0, 0.0, 0.0, 0.0)


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

#: Words a person would not give as a clue although the clue vocabulary has them.
FUNCTION_WORDS = frozenset("""amid amidst amongst despite former formerly hence hereby herein
latter seem seemed seems thereby therein thereof thus unto upon whereas whereby whilst""".split())


def _not_a_clue(words: Sequence[str], zipf: np.ndarray) -> np.ndarray:
    """Function words; -ed forms not clearly more common than a base form in ``words``
    (accounted, posted go; united, married, tired stay); -ing forms more than one zipf unit
    rarer than their base (people say bowling, gambling, morning)."""
    freq = dict(zip(words, np.asarray(zipf).tolist()))
    hits = []
    for i, w in enumerate(words):
        if w in FUNCTION_WORDS:
            hits.append(i)
            continue
        if not w.endswith(("ed", "ing")):
            continue
        for suffix, slack in (("ed", 0.3), ("ing", -1.0)):
            stem = w[: -len(suffix)]
            if not w.endswith(suffix) or len(stem) < 3:
                continue
            bases = [stem, stem + "e"] + ([stem[:-1] + "y"] if stem.endswith("i") else []) + \
                ([stem[:-1]] if stem[-1] == stem[-2] else [])
            base = max((freq[b] for b in bases if b in freq), default=None)
            if base is not None and freq[w] < base + slack:
                hits.append(i)
    out = np.zeros(len(words), bool)
    out[hits] = True
    return out
