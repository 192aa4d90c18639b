"""Classic Codenames at a real table: ``"game": "classic"`` requests of the ``suggest`` contract.

A request becomes the same views the classic bots see in simulated games
(:mod:`duetbot.views.classic`), so the same bots answer.
"""

from __future__ import annotations

from ..bots.classic import ClassicGuesser, ClassicSpymaster
from ..bots.guesser import EmbeddingGuesser
from ..bots.spymaster import EmbeddingSpymaster
from ..rules.classic import CLASSIC_ASSASSINS, SECOND_AGENTS, STARTING_AGENTS, Card, ClassicRules, Team
from ..rules.base import EndTurn, Phase, Turn
from ..views.classic import ClassicGuesserView, ClassicSpymasterView
from .requests import (
    DEFAULT_TOP, BoardWords, ClassicGuess, ClassicGuesserRequest, ClassicGuesserResponse, ClassicSpymasterRequest,
    RequestError, Response, SpymasterResponse, clue_suggestions, read_clue, read_request, reading_notes, unknown_clues,
)
from .hints import Hint

HINT_CLUES = 3
"""Clues a classic hint offers by default."""
TEAM_LEFT, OPPONENT_LEFT = STARTING_AGENTS, SECOND_AGENTS
"""Agents left when a guesser request does not say: a new game, my team starting."""
KEY_RULE = (f"a classic key card has {STARTING_AGENTS} agents a team and {CLASSIC_ASSASSINS} assassin "
            "at most")
"""Why a request may not list more agents or assassins."""


def spymaster_request_view(req: ClassicSpymasterRequest | dict) -> ClassicSpymasterView:
    """A classic spymaster request: ``board``, ``team_agents`` (mine, still to find),
    ``opponent_agents``, ``assassin``, ``covered``; optional ``history`` ({clue, number})."""
    request: ClassicSpymasterRequest = read_request(req, ClassicSpymasterRequest)
    board = BoardWords(request.board)
    covered = set(board.positions("covered", request.covered))
    mine = set(board.positions("team_agents", request.team_agents, STARTING_AGENTS, KEY_RULE)) - covered
    if not mine:
        raise RequestError("no agent of your team is left to clue: 'team_agents' lists none that is not covered")
    theirs = set(board.positions("opponent_agents", request.opponent_agents, STARTING_AGENTS, KEY_RULE)) - covered
    assassin = set(board.positions("assassin", request.assassin, CLASSIC_ASSASSINS, KEY_RULE)) - covered
    if mine & (theirs | assassin) or theirs & assassin:
        raise RequestError("a word is listed in two of 'team_agents', 'opponent_agents', 'assassin'")
    key = [Card.BYSTANDER] * len(board)
    for i in mine:
        key[i] = Card.RED
    for i in theirs:
        key[i] = Card.BLUE
    for i in assassin:
        key[i] = Card.ASSASSIN
    turns = tuple(Turn(Team.RED, read_clue(c, "history")) for c in request.history or ())
    # Covered words: what they were does not matter to the spymaster; mark them bystanders.
    return ClassicSpymasterView(
        team=Team.RED, words=board.words, covered={i: Card.BYSTANDER for i in covered}, turns=turns,
        starting=Team.RED, my_left=len(mine), opponent_left=max(len(theirs), 1), phase=Phase.CLUE,
        rules=ClassicRules(), key=tuple(key))


def guesser_request_view(req: ClassicGuesserRequest | dict) -> ClassicGuesserView:
    """A classic guesser request: ``board``, ``covered``, ``clues`` (my spymaster's, oldest
    first; the last is the current one); optional ``team_left`` / ``opponent_left`` counts and
    ``guesses`` (guesses already made on the current clue)."""
    request: ClassicGuesserRequest = read_request(req, ClassicGuesserRequest)
    board = BoardWords(request.board)
    covered = set(board.positions("covered", request.covered))
    clues = [read_clue(c, "clues") for c in request.clues]
    guessable = tuple(i for i in range(len(board)) if i not in covered)
    if not guessable:
        raise RequestError("no word is left to guess: every word is covered")
    made = request.guesses or 0
    rules = ClassicRules(zero_unlimited=bool(request.zero_unlimited))
    last = clues[-1]
    left = None if (last.number == 0 and rules.zero_unlimited) else last.number + 1 - made
    if left is not None and left <= 0:
        raise RequestError("no guess is left on the current clue (number + 1 guesses made)")
    turns = tuple(Turn(Team.RED, c) for c in clues)
    return ClassicGuesserView(
        team=Team.RED, words=board.words, covered={i: Card.BYSTANDER for i in covered}, turns=turns,
        starting=Team.RED, my_left=request.team_left or TEAM_LEFT,
        opponent_left=request.opponent_left or OPPONENT_LEFT, phase=Phase.GUESS, rules=rules,
        guessable=guessable, guesses_left=left, guesses_this_turn=made)


class ClassicSuggester:
    """Answers the classic requests of the contract (routed here by :class:`~duetbot.suggest.Suggester`)."""

    def __init__(self, spymaster: ClassicSpymaster, guesser: ClassicGuesser) -> None:
        self.spymaster = spymaster
        self.guesser = guesser

    @classmethod
    def from_duet(cls, spymaster: EmbeddingSpymaster, guesser: EmbeddingGuesser) -> ClassicSuggester:
        return cls(ClassicSpymaster(spymaster.ensemble, spymaster.config),
                   ClassicGuesser(guesser.ensemble, guesser.config))

    def answer(self, request: ClassicSpymasterRequest | ClassicGuesserRequest) -> Response:
        """Spymaster: the best clues for my team's agents; guesser: every uncovered word ranked,
        and where to stop. Raises ``ValueError`` for a request the board position refutes."""
        if isinstance(request, ClassicSpymasterRequest):
            spy_view = spymaster_request_view(request)
            top = DEFAULT_TOP if request.top is None else request.top
            return SpymasterResponse(id=request.id, clues=clue_suggestions(self.spymaster.suggest(spy_view, top=top)),
                                     notes=reading_notes(request.history or (), spy_view.words, spy_view.covered,
                                                         self.spymaster.ensemble))
        view = guesser_request_view(request)
        guesses, stop = self._ranked(view)
        unknown = unknown_clues(request.clues, self.guesser.ensemble)
        return ClassicGuesserResponse(id=request.id, guesses=guesses, stop_after=stop, unknown_clues=unknown,
                                      notes=reading_notes(request.clues, view.words, view.covered,
                                                          self.guesser.ensemble, unknown))

    def hint(self, view: ClassicSpymasterView | ClassicGuesserView, top: int | None = None) -> Hint:
        """The bots' suggestion for the seat whose view this is (see ``Suggester.hint``)."""
        if isinstance(view, ClassicSpymasterView):
            return Hint(clues=tuple(self.spymaster.suggest(view, top=HINT_CLUES if top is None else top)))
        guesses, stop = self._ranked(view)
        stop_now = bool(view.guesses_this_turn) and isinstance(self.guesser.guess(view), EndTurn)
        return Hint(guesses=tuple(guesses), stop_after=stop, stop_now=stop_now)

    def _ranked(self, view: ClassicGuesserView) -> tuple[list[ClassicGuess], int]:
        ranked, p, stop = self.guesser.plan(view)
        return [ClassicGuess(word=w, score=round(float(s), 4), p_agent=round(float(q[0]), 4),
                             p_assassin=round(float(q[1]), 4), p_opponent=round(float(q[3]), 4))
                for w, s, q in zip(ranked.words, ranked.score, p)], stop

