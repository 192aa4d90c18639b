"""The spymaster: clue search by expected outcome over precomputed similarity matrices.

A clue is judged by what a *partner who thinks differently* would do with it: the partner is
modelled as a mixture of embedding families (:mod:`..reader`), each simulated guesser drawn
from one family, ranking the words with Gumbel perception noise and going as deep as people
do. For each candidate and each count k the simulation gives the chance of finding j greens,
of hitting a bystander and of hitting the assassin; the game's cost model turns that into a
chance of winning after the clue, and the number policy says which numbers may be given.

The rooms, each with one job:

- :mod:`.config`: every number it uses, one nested part per rule group;
- :mod:`.position`: the data (the situation, the turn's position, outcomes, valuations, the
  clue offered, the cost-model protocol);
- :mod:`.legality`: which clue words it may say;
- :mod:`.readers`: the simulated partners (no game rules);
- :mod:`.costs`: Duet's cost model (classic's is in :mod:`..classic`);
- :mod:`.number`: the number policy as named rules;
- :mod:`.zero`: the zero clue;
- :mod:`.search`: the search that ties them together (:class:`EmbeddingSpymaster`).
"""

from .config import (
    PEOPLE, AdaptConfig, NumberConfig, SearchConfig, SpymasterConfig, WordsConfig, ZeroConfig, people_model,
    spymaster_partner,
)
from .costs import DuetCost
from .legality import INDEX_AFTER_WORDS, Legality
from .position import ClueOption, CostModel, Outcomes, Position, Situation, Valuation
from .search import AnyView, EmbeddingSpymaster

__all__ = [
    "PEOPLE", "AdaptConfig", "AnyView", "ClueOption", "CostModel", "DuetCost", "EmbeddingSpymaster",
    "INDEX_AFTER_WORDS", "Legality", "NumberConfig", "Outcomes", "Position", "SearchConfig", "Situation",
    "SpymasterConfig", "Valuation", "WordsConfig", "ZeroConfig", "people_model", "spymaster_partner",
]
