"""Classic Codenames at a real table: ``"game": "classic"`` requests of the ``suggest`` contract.

A request becomes the same views the classic bots see in simulated games
(:mod:`duetbot.views.classic`), so the same bots answer.
"""

from __future__ import annotations

from typing import Any

from ..bots.classic import ClassicGuesser, ClassicSpymaster
from ..bots.guesser import EmbeddingGuesser
from ..bots.spymaster import EmbeddingSpymaster
from ..rules.classic import Card, ClassicRules, Team
from ..rules.duet import Clue, Phase, Turn
from ..rules.keycard import BOARD_SIZE
from ..views.classic import ClassicGuesserView, ClassicSpymasterView
from .requests import RequestError, read_board, read_clue, short, read_words, check_top


def _clue_list(req: dict, name: str) -> list[Clue]:
    items = req.get(name)
    if items is None:
        return []
    if not isinstance(items, list):
        raise RequestError(f"field {name!r} must be a list of {{clue, number}}")
    return [read_clue(item, name) for item in items]


def spymaster_request_view(req: dict[str, Any]) -> ClassicSpymasterView:
    """A classic spymaster request: ``board``, ``team_agents`` (mine, still to find),
    ``opponent_agents``, ``assassin``, ``covered``; optional ``history`` ({clue, number})."""
    board = read_board(req)
    covered = set(read_words(req, "covered", board))
    mine = set(read_words(req, "team_agents", board, required=True)) - covered
    if not mine:
        raise RequestError("no agent of your team is left to clue: 'team_agents' lists none that is not covered")
    theirs = set(read_words(req, "opponent_agents", board)) - covered
    assassin = set(read_words(req, "assassin", board)) - covered
    if mine & (theirs | assassin) or theirs & assassin:
        raise RequestError("a word is listed in two of 'team_agents', 'opponent_agents', 'assassin'")
    key = [Card.BYSTANDER] * len(board)
    for i in mine:
        key[i] = Card.RED
    for i in theirs:
        key[i] = Card.BLUE
    for i in assassin:
        key[i] = Card.ASSASSIN
    turns = tuple(Turn(Team.RED, c) for c in _clue_list(req, "history"))  # type: ignore[arg-type]
    # Covered words: what they were does not matter to the spymaster; mark them bystanders.
    return ClassicSpymasterView(
        team=Team.RED, words=board, covered={i: Card.BYSTANDER for i in covered}, turns=turns,
        starting=Team.RED, my_left=len(mine), opponent_left=max(len(theirs), 1), phase=Phase.CLUE,
        rules=ClassicRules(), key=tuple(key))


def guesser_request_view(req: dict[str, Any]) -> ClassicGuesserView:
    """A classic guesser request: ``board``, ``covered``, ``clues`` (my spymaster's, oldest
    first; the last is the current one); optional ``team_left`` / ``opponent_left`` counts and
    ``guesses`` (guesses already made on the current clue)."""
    board = read_board(req)
    covered = set(read_words(req, "covered", board))
    clues = _clue_list(req, "clues")
    if not clues:
        raise RequestError("field 'clues' must list at least one {clue, number}, oldest first")
    guessable = tuple(i for i in range(BOARD_SIZE) if i not in covered)
    if not guessable:
        raise RequestError("no word is left to guess: every word is covered")
    made = req.get("guesses", 0)
    if isinstance(made, bool) or not isinstance(made, int) or made < 0:
        raise RequestError("field 'guesses' must be a whole number >= 0")
    my_left = req.get("team_left", 9)
    opp_left = req.get("opponent_left", 8)
    for name, v in (("team_left", my_left), ("opponent_left", opp_left)):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 9:
            raise RequestError(f"field {name!r} must be a whole number from 1 to 9")
    rules = ClassicRules(zero_unlimited=bool(req.get("zero_unlimited", False)))
    last = clues[-1]
    left = None if (last.number == 0 and rules.zero_unlimited) else last.number + 1 - made
    if left is not None and left <= 0:
        raise RequestError("no guess is left on the current clue (number + 1 guesses made)")
    turns = tuple(Turn(Team.RED, c) for c in clues)  # type: ignore[arg-type]
    return ClassicGuesserView(
        team=Team.RED, words=board, covered={i: Card.BYSTANDER for i in covered}, turns=turns,
        starting=Team.RED, my_left=my_left, opponent_left=opp_left, phase=Phase.GUESS, rules=rules,
        guessable=guessable, guesses_left=left, guesses_this_turn=made)


class ClassicSuggester:
    def __init__(self, spymaster: ClassicSpymaster, guesser: ClassicGuesser) -> None:
        self.spymaster = spymaster
        self.guesser = guesser

    @classmethod
    def from_duet(cls, spymaster: EmbeddingSpymaster, guesser: EmbeddingGuesser) -> ClassicSuggester:
        return cls(ClassicSpymaster(spymaster.ensemble, spymaster.config),
                   ClassicGuesser(guesser.ensemble, guesser.config))

    def handle(self, req: dict) -> dict:
        """``role`` spymaster -> ``{"clues": [...]}``; guesser -> ``{"guesses", "stop_after"}``.
        Raises ``ValueError`` for a bad request (the caller turns it into an error line)."""
        role = req.get("role")
        if role == "spymaster":
            top = check_top(req)
            view = spymaster_request_view(req)
            return {"id": req.get("id"), "clues": [o.to_json() for o in self.spymaster.suggest(view, top=top)]}
        if role == "guesser":
            view = guesser_request_view(req)
            ranked, p, stop = self.guesser.plan(view)
            guesses = [{"word": w, "score": round(float(s), 4), "p_agent": round(float(q[0]), 4),
                        "p_assassin": round(float(q[1]), 4), "p_opponent": round(float(q[3]), 4)}
                       for w, s, q in zip(ranked.words, ranked.score, p)]
            return {"id": req.get("id"), "guesses": guesses, "stop_after": stop}
        raise RequestError(f"field 'role' must be 'spymaster' or 'guesser', not {short(role)}")
