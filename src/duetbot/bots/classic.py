"""The embedding bots playing classic Codenames, through the cost model, not a fork.

The Duet spymaster (:class:`EmbeddingSpymaster`) already simulates a partner who thinks
differently: per candidate clue and count, how many targets it finds before its first miss,
and which word that miss is. Classic changes only what the outcomes cost:

- the value of a position is a *race* table ``R[m, o]``: the chance that the team about to
  give a clue wins with ``m`` of its agents and ``o`` of the other team's left, from the
  same kind of assumed per-turn yield as Duet's win table (:mod:`.winchance`, :class:`ClassicCost`). A clue's value
  is ``1 - R[o', m']`` after it (the other team moves next); a bystander leaves ``o``
  unchanged, an opponent agent takes one from ``o`` (and hands them the game at ``o = 1``),
  the assassin is a loss. So the opponent's agent is worse than a bystander by construction.
- one team alone (``solo``): the value is a discounted win chance ``S[m]`` (finish fast).
- the number + 1 cap: the guesser never plans beyond ``guesses_left``.

The guesser (:class:`ClassicGuesser`) wraps :class:`EmbeddingGuesser`'s clue-evidence
ranking (the same similarity machinery, clue history, noise) with key inference off (the
Duet key-card prior does not apply), re-splits a word's non-agent chance into assassin,
opponent and bystander from the public counts, and stops with the same race table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import ClassVar, Mapping

import numpy as np

from ..views.classic import ClassicGuesserView, ClassicSpymasterView
from ..rules import Clue, EndTurn, Guess, GuessResult, Phase, Player, Turn, Variant
from ..rules.classic import STARTING_AGENTS, Card, ClassicResult
from .strict_clues import strict_conflict
from ..views import GuesserView
from .base import Partner
from .ensemble import Ensemble
from .guesser import Belief, EmbeddingGuesser, GuesserConfig
from .spymaster import EmbeddingSpymaster, Outcomes, Position, Situation, SpymasterConfig, Valuation
from .winchance import CLASSIC_TURNS, TurnModel

_OWN, _ASSASSIN, _BYSTANDER, _OPPONENT = 0, 1, 2, 3
_NAMES = {_OWN: "agent", _ASSASSIN: "assassin", _BYSTANDER: "bystander", _OPPONENT: "opponent"}


@dataclass(frozen=True)
class ClassicSituation(Situation):
    """Classic's situation: both teams' agents left, and whether one team plays alone."""

    my_left: int = 0
    opp_left: int = 0
    solo: bool = False


@dataclass(frozen=True)
class ClassicCost:
    """The classic cost model (see the module docstring): its assumptions, shared by the
    spymaster and the guesser, and the spymaster's situation, outcome values and label names
    (:class:`~duetbot.bots.spymaster.CostModel`)."""

    turns: TurnModel = CLASSIC_TURNS
    """What a future turn of either team is assumed to bring (:mod:`.winchance`)."""
    solo_discount: float = 0.8
    """One team alone: the value of winning one turn later (favours fewer turns)."""
    opponent_aversion: float = 0.6
    """Guesser ranking: P(own) - assassin_aversion * P(assassin) - this * P(opponent)."""
    assassin_aversion: float = 1.5

    names: ClassVar[Mapping[int, str]] = _NAMES
    links: ClassVar[bool] = False

    def situation(self, view: ClassicSpymasterView) -> ClassicSituation:
        eligible = np.array(view.visible, dtype=np.int64)
        me, them = view.team.label, view.team.other.label
        code = {me: _OWN, them: _OPPONENT, Card.ASSASSIN: _ASSASSIN, Card.BYSTANDER: _BYSTANDER}
        labels = np.array([code[view.key[i]] for i in eligible], dtype=np.int8)
        return ClassicSituation(eligible, labels, len(view.my_agents), my_left=len(view.my_agents),
                                opp_left=len(view.opponent_agents), solo=view.rules.solo)

    def danger_bonus(self, assassin_margin: float) -> Mapping[int, float]:
        return {_ASSASSIN: assassin_margin, _OPPONENT: assassin_margin / 2, _BYSTANDER: 0.0}

    def values(self, position: Position, outcomes: Outcomes, max_number: int,
               tokens_after: int | None = None) -> Valuation:
        """The race (or solo) table after the simulated outcomes."""
        s = position.situation
        assert isinstance(s, ClassicSituation)
        above, first_miss = outcomes.above, outcomes.first_miss
        ks = np.arange(1, max_number + 1)
        found = np.minimum(above[..., None], ks)                      # (M, n, K)
        missed = above[..., None] < ks
        p_assassin = (missed & (first_miss == _ASSASSIN)[..., None]).astype(np.float64)
        p_opp = (missed & (first_miss == _OPPONENT)[..., None]).astype(np.float64)
        m_after = np.clip(s.my_left - found, 0, STARTING_AGENTS)
        if s.solo:
            S = self.turns.solo_table(self.solo_discount)
            v_next = S[m_after]
            v_opp = S[m_after] if s.opp_left > 1 else np.zeros_like(v_next)
        else:
            R = self.turns.race_table()
            o = s.opp_left
            v_next = np.where(m_after == 0, 1.0, 1.0 - R[o, m_after])
            v_opp = 0.0 if o <= 1 else np.where(m_after == 0, 1.0, 1.0 - R[o - 1, m_after])
        win_now = m_after == 0
        value = np.where(win_now, 1.0,
                         (1 - p_assassin - p_opp) * v_next + p_opp * v_opp).mean(axis=0)
        p_by = (missed - p_assassin - p_opp).mean(axis=0)
        return Valuation(value, found.mean(axis=0), p_assassin.mean(axis=0), p_by)


class ClassicSpymaster(EmbeddingSpymaster):
    """:class:`EmbeddingSpymaster` given the classic cost model (see the module docstring).

    The candidate screen, the partner simulation and the option ranking are the Duet bot's;
    :class:`ClassicCost` supplies the situation, the value of an outcome and the label
    names. Its clue candidates go through the same legality mask, so its own clues pass the
    strict check (``SpymasterConfig.words.strict_clues``) like the Duet bot's. No zero clues
    and no honest number (issue 28's policy is measured for Duet partners only): the number
    that maximises the chance of winning."""

    def __init__(self, ensemble: Ensemble, config: SpymasterConfig | None = None,
                 cost: ClassicCost | None = None) -> None:
        cfg = config or SpymasterConfig()
        super().__init__(ensemble, replace(cfg, zero=replace(cfg.zero, enabled=False),
                                           number=replace(cfg.number, honest=False)),
                         cost or ClassicCost())


class ClassicGuesser:
    """Ranks words for my spymaster's clues and stops by the classic race table."""

    def __init__(self, ensemble: Ensemble, config: GuesserConfig | None = None,
                 cost: ClassicCost | None = None) -> None:
        self.inner = EmbeddingGuesser(ensemble, replace(config or GuesserConfig(), infer_key=False))
        self.cost = cost or ClassicCost()

    @property
    def ensemble(self) -> Ensemble:
        return self.inner.ensemble

    @staticmethod
    def duet_view(view: ClassicGuesserView) -> GuesserView:
        """The classic operative's view in the shape the Duet guesser reads: my spymaster's
        clues (as player B's) with their results, the guessable words, no key."""
        res = {ClassicResult.AGENT: GuessResult.GREEN, ClassicResult.ASSASSIN: GuessResult.ASSASSIN}
        turns = tuple(Turn(Player.B, t.clue, tuple((w, res.get(r, GuessResult.BYSTANDER)) for w, r in t.guesses))
                      for t in view.clues_to_me)
        n = len(view.words)
        from ..rules import Label
        return GuesserView(
            player=Player.A, words=view.words, my_side=(Label.BYSTANDER,) * n, covered=frozenset(view.covered),
            covered_green=frozenset(), my_marks=frozenset(), partner_marks=frozenset(), turns=turns, tokens=9,
            bystander_tokens=9, variant=Variant(), partner_done=False, i_am_done=False, phase=Phase.GUESS,
            guessable=view.guessable, guesses_left=view.guesses_left, correct_this_turn=0, sudden_death=False)

    def belief(self, view: ClassicGuesserView) -> tuple[Belief, np.ndarray]:
        """The ranking and, per ranked word, P(own, assassin, bystander, opponent)."""
        b = self.inner.belief(self.duet_view(view))
        pg = b.p[:, 0]
        n = len(pg)
        # Agents of mine that no live clue accounts for are spread over the other words.
        residual = max(view.my_left - float(pg.sum()), 0.0) / max(n, 1)
        pg = 1 - (1 - pg) * (1 - min(residual, 0.9))
        ratio = b.p[:, 1] / np.clip(b.p[:, 2], 1e-12, None) * (13 / 3)   # clue evidence on the assassin
        covered = list(view.covered.values())
        a_hidden = 0 if Card.ASSASSIN in covered else 1
        by_hidden = max(7 - covered.count(Card.BYSTANDER), 0)
        w = np.stack([a_hidden * ratio, np.full(n, by_hidden, float), np.full(n, view.opponent_left, float)], axis=1)
        w = w / np.clip(w.sum(axis=1, keepdims=True), 1e-12, None)
        p = np.column_stack([pg, (1 - pg)[:, None] * w])               # own, assassin, bystander, opponent
        c = self.cost
        score = p[:, 0] - c.assassin_aversion * p[:, 1] - c.opponent_aversion * p[:, 3]
        order = np.argsort(-score, kind="stable")
        ranked = Belief(tuple(b.words[i] for i in order), b.index[order], b.p[order], score[order])
        return ranked, p[order]

    def _worth(self, p: np.ndarray, m: int, o: int, solo: bool) -> bool:
        """Another guess beats stopping now (``m`` own, ``o`` opposing agents left)."""
        pg, pa, pb, po = p
        c = self.cost
        if solo:
            S = c.turns.solo_table(c.solo_discount)
            stop = S[m]
            go = pg * S[max(m - 1, 0)] + pb * S[m] + po * (S[m] if o > 1 else 0.0)
        else:
            R = c.turns.race_table()
            stop = 1 - R[o, m]
            go = (pg * (1.0 if m <= 1 else 1 - R[o, m - 1]) + pb * stop
                  + po * (0.0 if o <= 1 else 1 - R[o - 1, m]))
        return go > stop

    def guess(self, view: ClassicGuesserView) -> Guess | EndTurn:
        ranked, p = self.belief(view)
        if view.guesses_this_turn >= 1 and not self._worth(p[0], view.my_left, view.opponent_left, view.rules.solo):
            return EndTurn()
        return Guess(ranked.words[0])

    def plan(self, view: ClassicGuesserView) -> tuple[Belief, np.ndarray, int]:
        """Ranking, probabilities and how many words this bot would guess if all were its own."""
        ranked, p = self.belief(view)
        m, n = view.my_left, 0
        for row in p:
            if n >= 1 and (m <= 0 or not self._worth(row, m, view.opponent_left, view.rules.solo)):
                break
            n += 1
            m -= 1
            if view.guesses_left is not None and n >= view.guesses_left:
                break
        return ranked, p, max(n, 1)


# --- random bots (tests) --------------------------------------------------------------------

_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
          "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo")


class ClassicRandomSpymaster:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def give_clue(self, view: ClassicSpymasterView) -> Clue:
        visible = [view.words[i] for i in view.visible]
        number = self.rng.randint(0, len(view.my_agents))
        for word in self.rng.sample(_WORDS, len(_WORDS)):
            if strict_conflict(word, visible) is None:  # a bot's clue: the strict check
                return Clue(word, number)
        raise RuntimeError("every random clue word clashes with the board")


class ClassicRandomGuesser:
    def __init__(self, seed: int | None = None, stop: float = 0.4) -> None:
        self.rng = random.Random(seed)
        self.stop = stop

    def guess(self, view: ClassicGuesserView) -> Guess | EndTurn:
        if view.guesses_this_turn and self.rng.random() < self.stop:
            return EndTurn()
        return Guess(view.words[self.rng.choice(view.guessable)])


def classic_random_team(seed: int | None = None) -> Partner:
    return Partner(ClassicRandomSpymaster(seed), ClassicRandomGuesser(None if seed is None else seed + 1),
                   "random")


# --- building teams from partner specs -------------------------------------------------------


@lru_cache(maxsize=16)
def classic_spymaster(names: tuple[str, ...], described: tuple = (), associations: bool = True) -> ClassicSpymaster:
    from .factory import ensemble

    return ClassicSpymaster(ensemble(names, described, associations=associations))


def classic_team(spec, seed: int = 0) -> Partner:
    """A classic team (spymaster + operatives) from a :class:`~duetbot.bots.factory.PartnerSpec`:
    the spec's spymaster families clue the spec's guesser families (with its noise)."""
    from .factory import ensemble

    if spec.random:
        return classic_random_team(seed)
    if spec.threshold:
        from .factory import SpecError

        raise SpecError("bot=threshold plays Duet only: use bot=embedding or bot=random in classic games")
    guesser = ClassicGuesser(ensemble(spec.guesser_models, spec.described, associations=spec.associations),
                             GuesserConfig(noise=spec.noise, seed=seed))
    return Partner(classic_spymaster(spec.spymaster_models, spec.described, spec.associations), guesser, spec.text)
