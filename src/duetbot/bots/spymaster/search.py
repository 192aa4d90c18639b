"""The clue search: a screen, the simulated partners, the cost model, the number policy.

Per board, every clue candidate's similarity to the 25 words is computed once per family
(:class:`~duetbot.bots.ensemble.Ensemble`); per turn only masks change. :meth:`suggest` reads
top to bottom: the position (:meth:`EmbeddingSpymaster.position`), the cheap screen
(:meth:`~EmbeddingSpymaster.shortlist`), the simulated partners and what their outcomes are
worth (:meth:`~EmbeddingSpymaster.valuation`), the number policy (:mod:`.number`), the
options, and the zero clue (:mod:`.zero`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...rules import Clue, GuessResult
from ...rules.clues import clue_conflict
from ...views import SpymasterView
from ...views.classic import ClassicSpymasterView
from ..ensemble import BoardSims, Ensemble
from ..reader import ReaderModel, StopCounts, adapted, history_reads, posterior
from .config import SpymasterConfig, spymaster_partner
from .costs import DuetCost, read_clues
from .legality import ClueWords, Legality
from .number import Numbers, apply, links, most_tempting, number_rules, targets
from .position import ASSASSIN, GREEN, ClueOption, CostModel, Position, Valuation
from .readers import PartnerSimulation, unique
from .zero import zero_option

#: The spymasters' views: Duet's (:class:`~.costs.DuetCost`) and classic's (``ClassicCost``).
AnyView = SpymasterView | ClassicSpymasterView


class EmbeddingSpymaster:
    """Gives the clue with the best estimated chance of winning, by its game's cost model
    (:class:`~.costs.DuetCost` unless given another, e.g. classic's ``ClassicCost``).

    >>> # spymaster = EmbeddingSpymaster(Ensemble([load_model("glove50"), load_model("minilm")]))
    """

    def __init__(self, ensemble: Ensemble, config: SpymasterConfig | None = None,
                 cost: CostModel | None = None) -> None:
        self.ensemble = ensemble
        self.cost: CostModel = cost or DuetCost()
        self.config = cfg = config or SpymasterConfig()
        self.partner = (cfg.partner or spymaster_partner(ensemble.names)).restricted(ensemble.names)
        self.simulation = PartnerSimulation(self.partner.temperature, cfg.search.samples,
                                            cfg.search.shortlist, cfg.seed)
        self._family_rows = self.simulation.rows(self.partner)
        self.words = ClueWords(ensemble, cfg.words)
        self.rules = number_rules(cfg.number)
        self._screened: tuple[BoardSims, np.ndarray, np.ndarray, np.ndarray] | None = None
        # (the board, the never-said mask, the columns the screen reads, their block of zbar_t)

    # --- public ------------------------------------------------------------------------------

    def give_clue(self, view: AnyView) -> Clue:
        return self.suggest(view, top=1)[0].clue

    def suggest(self, view: AnyView, top: int = 5) -> list[ClueOption]:
        """The ``top`` best clues, best first (a zero clue among them when it is best)."""
        pos = self.position(view)
        options = self._positive_options(view, pos, top=max(top, 1))
        zero = self.config.zero
        if zero.enabled and pos.situation.zero_clues and options and options[0].p_assassin >= zero.trigger:
            z = zero_option(self, view, pos, options[0])
            if z is not None:
                options.insert(0, z)
        if not options:
            options = [self._fallback(view, pos)]
        return options[:top]

    # --- the steps -----------------------------------------------------------------------------

    def position(self, view: AnyView) -> Position:
        """This turn: what is in play, the board's similarities, the legal clue words and the
        partner model (adapted to the history)."""
        partner = self.adapted_partner(view) if isinstance(view, SpymasterView) else self.partner
        rows = self._family_rows if partner is self.partner else self.simulation.rows(partner)
        situation, legal = self.cost.situation(view), self.words.legal(view)
        # no clue that calls to a person's mind an assassin of mine still in play
        for i in situation.eligible[situation.labels == ASSASSIN].tolist():
            legal.forbid(self.ensemble.reaching(view.words[i]))
        return Position(situation, self.ensemble.board(view.words), legal, partner, rows)

    def adapted_partner(self, view: SpymasterView) -> ReaderModel:
        """The partner model after the partner's guesses on my earlier clues in this game
        (``config.adapt``), else the prior one."""
        mine = read_clues(view)
        cfg = self.config.adapt
        if not cfg.enabled or not mine:
            return self.partner
        sims = self.ensemble.board(view.words)
        reads, _ = history_reads(view.turns, view.words, view.player, lambda w: self.ensemble.clue_z(w, sims))
        stops = StopCounts.count([(t.clue.number, [r is GuessResult.GREEN for _, r in t.guesses]) for t in mine])
        return adapted(self.partner, posterior(reads, self.partner), cfg.prior_clues,
                       stops, cfg.prior_stops, cfg.lapse)

    def shortlist(self, pos: Position, legal: Legality, in_play: np.ndarray | None = None) -> np.ndarray:
        """Cheap screen: for each count k, the legal candidates whose k-th best green beats
        every other word (assassins handicapped) by the widest family-average margin. Only
        the candidates that reach a count's best are checked for legality (at first twice
        as many, so that an illegal one seldom costs another pass). ``in_play`` leaves words
        out of play."""
        cfg = self.config.search
        cols = pos.eligible if in_play is None else pos.eligible[in_play]
        labels = pos.labels if in_play is None else pos.labels[in_play]
        green = labels == GREEN
        if not green.any():
            return np.zeros(0, dtype=np.int64)
        say, zt = self._screen_block(pos.sims, legal)                   # (words, columns read)
        greens = zt[cols[green]]
        if green.all():
            bad = np.full(zt.shape[1], -10.0, np.float32)
        else:
            handicap = np.where(labels[~green] == 1, cfg.assassin_margin, 0.0).astype(np.float32)
            bad = _max_rows(zt, cols[~green], handicap)
        K = min(cfg.max_number, len(greens))
        margin = _top_rows(greens, K) - bad                              # (K, columns read)
        per_k = max(cfg.shortlist // K, 1)
        if pos.sims.zbar_t.shape[1] <= per_k:
            return np.flatnonzero(legal.full())
        margin[:, np.flatnonzero(~legal.ok[say])] = -np.inf   # (by index: a boolean mask's set is slower)
        reach = per_k if legal.complete else 2 * per_k
        while True:
            best = say[_best_columns(margin, reach)]
            if legal.complete:
                break
            unknown = unique(best[~legal.known[best]])
            legal.resolve(unknown)
            illegal = unknown[~legal.ok[unknown]]
            if len(illegal) == 0:
                break
            margin[:, np.searchsorted(say, illegal)] = -np.inf
        best = best.reshape(K, -1)[:, :per_k]        # each count's best come first in its block
        cand = unique(best)
        return cand[legal.ok[cand]][: cfg.shortlist]

    def _screen_block(self, sims: BoardSims, legal: Legality) -> tuple[np.ndarray, np.ndarray]:
        """The clue columns the screen reads and ``sims.zbar_t``'s block of them, (words,
        columns): the words the bot may ever say (a third of the vocabulary never is, and
        reading only the rest makes the screen that much faster), or every column where
        ``legal`` allows one of the others. The block is made once per board; a column's
        numbers are the same in it, and the screen ranks ties by column order either way."""
        never = self.words.never
        hit = self._screened
        if hit is None or hit[0] is not sims or hit[1] is not never:
            say = np.flatnonzero(~never)
            hit = self._screened = (sims, never, say, np.take(sims.zbar_t, say, axis=1))
        if (legal.ok & never).any():        # (a boolean gather of a third of the mask is 30 times slower)
            return np.arange(sims.zbar_t.shape[1]), sims.zbar_t
        return hit[2], hit[3]

    def valuation(self, pos: Position, cand: np.ndarray, in_play: np.ndarray | None = None,
                  tokens_after: int | None = None) -> Valuation:
        """The simulated partners on candidates ``cand``, valued by the cost model: each
        (len(cand), max_number), column k-1 the clue of k."""
        cols = pos.eligible if in_play is None else pos.eligible[in_play]
        labels = pos.labels if in_play is None else pos.labels[in_play]
        # (families, words, candidates): the candidates' rows taken whole, then their columns
        # (indexing both at once gathers element by element, several times slower)
        zt = np.ascontiguousarray(np.take(pos.sims.z, cand, axis=1)[:, :, cols].transpose(0, 2, 1))
        outcomes = self.simulation.run(zt, labels == GREEN, labels, pos.rows)
        return self.cost.values(pos, outcomes, self.config.search.max_number, tokens_after)

    def numbers(self, pos: Position, cand: np.ndarray, v: Valuation) -> Numbers:
        """What the number rules read of these candidates."""
        s = pos.situation
        z = np.take(pos.sims.z, cand, axis=1)[:, :, s.eligible] if self.config.number.honest else None
        return Numbers(v.found, int((s.labels == GREEN).sum()), v.by_family, z, s.labels, s.greens_total, s.tokens,
                       s.read, pos.partner.temperature)

    def _positive_options(self, view: AnyView, pos: Position, top: int) -> list[ClueOption]:
        cand = self.shortlist(pos, pos.legal)
        if len(cand) == 0:
            return []
        v = self.valuation(pos, cand)
        value = apply(self.rules, self.numbers(pos, cand, v), v.value + self.words.prior[cand][:, None],
                      self.config.number)
        K = value.shape[1]
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
                out.append(self.option(view, pos, int(cand[ci]), k + 1, float(value[ci, k]),
                                       float(v.found[ci, k]), float(v.p_assassin[ci, k]), float(v.p_bystander[ci, k])))
        return out

    # --- options -------------------------------------------------------------------------------

    def option(self, view: Any, pos: Position, c: int, number: int, score: float, found: float,
               p_a: float, p_b: float) -> ClueOption:
        """The :class:`ClueOption` of candidate ``c``: its ``number`` closest words of mine as
        targets (in the order the number rules read them), each with its link where the game
        shows links, and the three most tempting other words as dangers (the cost model's bonus
        added to each label's similarity)."""
        z = pos.sims.z[:, c:c + 1, :][:, :, pos.eligible]                         # (F, 1, e)
        order, zg, assassin, other = targets(z, pos.labels)
        mine = pos.eligible[pos.labels == GREEN][order[0, :number]]
        strengths: tuple[float, ...] = ()
        if self.cost.links and number and zg.shape[2]:
            gap = np.nanmin(zg[:, 0, :number] - most_tempting(assassin, other, 0.0)[:, :1], axis=0)
            strengths = tuple(float(v) for v in links(gap, pos.partner.temperature))
        zbar = pos.sims.zbar[c, pos.eligible]
        bonus = self.cost.danger_bonus(self.config.search.assassin_margin)
        bad = [i for i in np.argsort(-zbar, kind="stable") if pos.labels[i] != GREEN]
        danger_order = sorted(bad, key=lambda i: -(zbar[i] + bonus[int(pos.labels[i])]))
        names = self.cost.names
        dangers = tuple((view.words[pos.eligible[i]], names[int(pos.labels[i])]) for i in danger_order[:3])
        return ClueOption(Clue(self.ensemble.clue_words[c], number), tuple(view.words[i] for i in mine) if number else (),
                          score, found, p_a, p_b, dangers, strengths)

    def _fallback(self, view: AnyView, pos: Position) -> ClueOption:
        """No candidate survived (tiny vocabulary): the most familiar legal clue, number 1."""
        legal = np.flatnonzero(pos.legal.full())
        if len(legal) == 0:
            raise RuntimeError("no legal clue word is left in the clue vocabulary")
        c = int(legal[np.argmax(self.ensemble.zipf[legal])])
        return self.option(view, pos, c, 1, 0.0, 0.0, 0.0, 0.0)


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


def _max_rows(values: np.ndarray, rows: np.ndarray, add: np.ndarray) -> np.ndarray:
    """``(values[rows] + add[:, None]).max(axis=0)``, a row at a time: the same numbers, twice
    as fast as gathering the rows into one block first."""
    out = values[rows[0]] + add[0]
    tmp = np.empty_like(out)
    for r, a in zip(rows[1:].tolist(), add[1:]):
        np.add(values[r], a, out=tmp)
        np.maximum(out, tmp, out=out)
    return out


def _top_rows(rows: np.ndarray, k: int) -> np.ndarray:
    """(k, columns): the ``k`` largest values of each column of ``rows``, largest first. A
    max/min network over the few rows: a column-wise sort of a (9, 14451) array is ten
    times slower (numpy sorts each column alone). Row ``n`` meets only the ``n`` places
    already filled (the rest still hold -inf, which it would simply replace)."""
    out = np.full((k, rows.shape[1]), -np.inf, rows.dtype)
    bufs = (np.empty(rows.shape[1], rows.dtype), np.empty(rows.shape[1], rows.dtype))
    for n, r in enumerate(rows):
        carry = r
        for i in range(min(n, k)):
            lower = bufs[i % 2]
            np.minimum(out[i], carry, out=lower)
            np.maximum(out[i], carry, out=out[i])
            carry = lower
        if n < k:
            out[n] = carry
    return out
