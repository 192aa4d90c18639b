"""A plain clue bot of the published kind: one similarity threshold, no model of its partner.

The vector bots of the Codenames papers (Kim et al. 2019, "Cooperation and Codenames") give
the clue word that brings the most of their own words above a similarity threshold while
every other word stays below it. This is that bot on our families' z-scored similarities
(the ensemble's family average; one family for the published kind), with the clue words a
person would say (:attr:`~duetbot.bots.ensemble.Ensemble.people_would_say`) and the rule
book's legality. It does not know about the assassin beyond "not my word", nor its partner.

It is here as a partner to measure against: our guesser reading a plain bot's clues is
closer to reading a person who thinks in one way and never adjusts to us than any partner
made of our own spymaster (``bench_strength.py --rows partner``; ``bot=threshold`` in a
partner spec).
"""

from __future__ import annotations

import numpy as np

from ..rules import Clue, is_legal_clue
from ..views import SpymasterView
from .ensemble import Ensemble


class ThresholdSpymaster:
    """Kim et al.'s threshold clue bot on ``ensemble``: the clue bringing the most greens above
    ``threshold`` (z units) with every other word in play below it; ties go to the clue whose
    weakest target clears the strongest other word by most. When no clue clears the threshold
    it names the one green it separates best, with number 1."""

    def __init__(self, ensemble: Ensemble, threshold: float = 1.5, max_number: int = 4) -> None:
        self.ensemble = ensemble
        self.threshold = threshold
        self.max_number = max_number

    def give_clue(self, view: SpymasterView) -> Clue:
        greens = sorted(view.greens_left)
        # The words my partner may still touch that are not mine to find
        others = [i for i in range(len(view.words))
                  if i not in view.covered and i not in view.partner_marks and i not in view.greens_left]
        z = self.ensemble.board(view.words).zbar   # (clue words, board words)
        g = z[:, greens]
        worst = z[:, others].max(axis=1) if others else np.full(len(z), -np.inf, np.float32)
        above = g > np.maximum(self.threshold, worst)[:, None]
        k = np.minimum(above.sum(axis=1), self.max_number)
        # the margin of the k-th best green over the best other word
        kth = -np.sort(-g, axis=1)[np.arange(len(g)), np.maximum(k, 1) - 1]
        margin = kth - worst
        score = np.where(self.ensemble.people_would_say, k * 100.0 + np.minimum(margin, 99.0), -np.inf)
        visible = [view.words[i] for i in range(len(view.words)) if i not in view.covered]
        for i in np.argsort(-score, kind="stable")[:200].tolist():
            word = self.ensemble.clue_words[i]
            if np.isfinite(score[i]) and is_legal_clue(word, visible):
                return Clue(word, max(int(k[i]), 1))
        raise RuntimeError("no legal clue word among the 200 best: the clue vocabulary is too small")
