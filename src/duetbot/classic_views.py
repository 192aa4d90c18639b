"""What one classic Codenames player may see. Bots receive these views, never the state.

Public: the board, every covered card and what it turned out to be (the tiles lie on the
table), every clue and guess, the team to move, and how many agents each team has left
(9 and 8 are known, and the tiles say how many were found). Hidden: the key. A spymaster
sees the whole key (:class:`ClassicSpymasterView`); an operative sees none of it
(:class:`ClassicGuesserView` has no key field at all).

Also here: turning a ``suggest`` request at a real table into the same views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .rules.classic import Card, ClassicResult, ClassicRules, ClassicState, Team
from .rules.duet import Clue, Phase, Turn
from .rules.keycard import BOARD_SIZE
from .views import BoardLookups


@dataclass(frozen=True)
class ClassicPublicView(BoardLookups):
    team: Team
    """The viewer's team."""
    words: tuple[str, ...]
    covered: dict[int, Card]
    """Covered positions and the tile on each (public)."""
    turns: tuple[Turn, ...]
    starting: Team
    my_left: int
    """How many of my team's agents are still uncovered (public: 9 or 8 minus tiles placed)."""
    opponent_left: int
    phase: Phase
    rules: ClassicRules



@dataclass(frozen=True)
class ClassicSpymasterView(ClassicPublicView):
    key: tuple[Card, ...] = ()
    """The whole key (spymasters see it)."""

    def _left(self, card: Card) -> frozenset[int]:
        return frozenset(i for i, lab in enumerate(self.key) if lab is card and i not in self.covered)

    @property
    def my_agents(self) -> frozenset[int]:
        return self._left(self.team.label)

    @property
    def opponent_agents(self) -> frozenset[int]:
        return self._left(self.team.other.label)

    @property
    def assassins(self) -> frozenset[int]:
        return self._left(Card.ASSASSIN)

    @property
    def bystanders(self) -> frozenset[int]:
        return self._left(Card.BYSTANDER)


@dataclass(frozen=True)
class ClassicGuesserView(ClassicPublicView):
    """An operative's view: no key."""

    guessable: tuple[int, ...] = ()
    guesses_left: int | None = None
    """Guesses left this turn (number + 1 cap), or ``None`` when unlimited."""
    guesses_this_turn: int = 0

    @property
    def clues_to_me(self) -> tuple[Turn, ...]:
        """My spymaster's clues, oldest first."""
        return self.clues_given_by(self.team)


def _public(state: ClassicState, team: Team) -> dict:
    return dict(team=team, words=state.deal.words, covered=dict(state.covered), turns=tuple(state.turns),
                starting=state.starting, my_left=len(state.agents_left(team)),
                opponent_left=len(state.agents_left(team.other)), phase=state.phase, rules=state.rules)


def classic_spymaster_view(state: ClassicState, team: Team) -> ClassicSpymasterView:
    return ClassicSpymasterView(**_public(state, team), key=state.deal.key.labels)


def classic_guesser_view(state: ClassicState, team: Team) -> ClassicGuesserView:
    turn = state.current_turn
    return ClassicGuesserView(**_public(state, team), guessable=tuple(state.guessable()),
                              guesses_left=state.guesses_left(),
                              guesses_this_turn=len(turn.guesses) if turn is not None else 0)


# --- suggest requests ----------------------------------------------------------------------


def _board(req: dict) -> tuple[str, ...]:
    from .suggest import _board as duet_board

    return duet_board(req)


def _indices(req: dict, name: str, board: Sequence[str], required: bool = False) -> list[int]:
    from .suggest import _words

    return _words(req, name, board, required)


def _clue_list(req: dict, name: str) -> list[Clue]:
    from .suggest import RequestError, _clue

    items = req.get(name)
    if items is None:
        return []
    if not isinstance(items, list):
        raise RequestError(f"field {name!r} must be a list of {{clue, number}}")
    return [_clue(item, name) for item in items]


def spymaster_request_view(req: dict[str, Any]) -> ClassicSpymasterView:
    """A classic spymaster request: ``board``, ``team_agents`` (mine, still to find),
    ``opponent_agents``, ``assassin``, ``covered``; optional ``history`` ({clue, number})."""
    from .suggest import RequestError

    board = _board(req)
    covered = set(_indices(req, "covered", board))
    mine = set(_indices(req, "team_agents", board, required=True)) - covered
    if not mine:
        raise RequestError("no agent of your team is left to clue: 'team_agents' lists none that is not covered")
    theirs = set(_indices(req, "opponent_agents", board)) - covered
    assassin = set(_indices(req, "assassin", board)) - covered
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
    from .suggest import RequestError

    board = _board(req)
    covered = set(_indices(req, "covered", board))
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


__all__ = ["ClassicGuesserView", "ClassicPublicView", "ClassicSpymasterView", "ClassicResult",
           "classic_guesser_view", "classic_spymaster_view", "guesser_request_view", "spymaster_request_view"]
