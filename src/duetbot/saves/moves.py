"""One move of the person per call: a saved Duet game played a move at a time.

``duetbot play --resume FILE --move "OCEAN 2"`` (correspondence play, scripts, chat bots,
language-model players) is this module behind a thin command: :func:`play_moves` applies the
person's moves (player A) to a game, then lets the bot play its part until the person must
act again or the game is over. Nothing is asked of anyone: a move the rules refuse is a
:class:`MoveError` raised before anything changed, so the caller keeps the save as it was.

>>> from duetbot.bots import Partner
>>> from duetbot.rules import Clue, State, deal
>>> class Scripted:  # a bot that guesses one word and then clues
...     def guess(self, view): return Guess(view.words[view.guessable[0]])
...     def give_clue(self, view): return Clue("zephyr", 1)
>>> state = State(deal(1, [f"W{i}" for i in range(25)]))
>>> report = play_moves(state, Partner(Scripted(), Scripted(), "bot"), ["zephyr 2"])
>>> report.applied, [str(e.action) for e in report.events][-1], expected_move(state).kind
(['zephyr 2'], 'ZEPHYR: 1', 'guess')
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..bots import Partner
from ..harness.duet import step
from ..rules.keycard import find_word
from ..rules import (
    Clue, EndTurn, Event, Guess, IllegalClueError, InvalidClueError, Phase, Player, State,
    UnknownBoardWordError,
)
from . import BOT, HUMAN

__all__ = ["PASS", "SHOW", "ExpectedMove", "GameOver", "MoveError", "MoveReport", "UnknownClueWord", "expected_move",
           "parse_clue", "play_moves", "refusal", "split_moves"]

SHOW = "show"
"""The move that changes nothing: the situation is shown (the bot still plays if it is its move)."""

PASS = "pass"


class MoveError(ValueError):
    """The person's move was refused; the game is unchanged (the message names the problem and the fix)."""


class GameOver(MoveError):
    """A move on a finished game."""


class UnknownClueWord(MoveError):
    """A clue word the bot does not know (a typo, most likely): refused unless ``insist``."""

    def __init__(self, unknown: Any) -> None:
        super().__init__(str(unknown))
        self.unknown = unknown


@dataclass
class MoveReport:
    """What one call did: the person's moves applied (as typed), those not played because
    the person's part ended before them, and every event applied (the person's and the bot's)."""

    applied: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    events: list[Event[Player]] = field(default_factory=list)


@dataclass(frozen=True)
class ExpectedMove:
    """What the person must do next: ``kind`` is ``"clue"``, ``"guess"``, ``"sudden death"``
    or ``"over"``; ``clue`` the clue being guessed on; ``guessed`` the words guessed on it so far."""

    kind: str
    clue: Clue | None = None
    guessed: tuple[str, ...] = ()
    guesses_left: int | None = None
    can_pass: bool = False


def expected_move(state: State) -> ExpectedMove:
    """The person's next move in ``state`` (call it when the bot is not to move)."""
    if state.is_over():
        return ExpectedMove("over")
    if state.mover() is not HUMAN:
        raise ValueError("it is the bot's move")
    if state.phase is Phase.CLUE:
        return ExpectedMove("clue")
    if state.phase is Phase.SUDDEN_DEATH:
        return ExpectedMove("sudden death")
    turn = state.current_turn
    assert turn is not None
    return ExpectedMove("guess", turn.clue, tuple(w for w, _ in turn.guesses), state.guesses_left(),
                        state.can_end_turn())


def split_moves(texts: Sequence[str]) -> list[str]:
    """The moves of one call, in order: each text may hold several, comma-separated
    (``"CASTLE, KNIGHT"``); whitespace is collapsed and empty pieces dropped.

    >>> split_moves(["castle, knight", "  pass "])
    ['castle', 'knight', 'pass']
    """
    return [" ".join(piece.split()) for text in texts for piece in text.split(",") if piece.strip()]


_NUMBER = re.compile(r"[-+]?\d+")
_CLUE_LIKE = re.compile(r".+[\s:][-+]?\d+")


def parse_clue(text: str) -> Clue:
    """``Clue.parse`` with clearer messages for the usual slips (no number, number in words).

    >>> parse_clue("ocean 2")
    Clue('ocean', 2)
    >>> parse_clue("ocean")
    Traceback (most recent call last):
    ...
    duetbot.rules.clues.InvalidClueError: invalid clue 'ocean': add a number, how many words the clue is for, e.g. 'ocean 2'
    """
    try:
        return Clue.parse(text)
    except InvalidClueError as exc:
        parts = text.replace(":", " ").split()
        if len(parts) == 1 and _NUMBER.fullmatch(parts[0]):
            raise InvalidClueError(text, "give a word before the number, e.g. 'ocean 2'") from None
        if len(parts) == 1:
            raise InvalidClueError(text, "add a number, how many words the clue is for, e.g. 'ocean 2'") from None
        if parts and not _NUMBER.fullmatch(parts[-1]):
            raise InvalidClueError(text, f"{parts[-1]!r} is not a number; "
                                         "give one word and a number in digits, e.g. 'ocean 2'") from None
        raise exc from None


def _action(state: State, text: str, bot: Partner, insist: bool) -> Clue | Guess | EndTurn:
    """The person's move ``text`` read for the phase ``state`` is in (``MoveError`` if it cannot be)."""
    if state.phase is Phase.CLUE:
        try:
            clue = parse_clue(text)
        except ValueError as exc:
            raise MoveError(f"{exc}; it is your turn to give a clue: one word and a number") from None
        if not insist:
            _check_known(bot, clue, state)
        return clue
    if text.casefold() != PASS:
        if _CLUE_LIKE.fullmatch(text) and find_word(state.deal.words, text) is None:
            raise MoveError(f"{text!r} looks like a clue, but it is your turn to guess; "
                            "guess a word on the board" + ("" if state.phase is Phase.SUDDEN_DEATH else ", or pass"))
        return Guess(text)
    if state.phase is Phase.SUDDEN_DEATH:
        raise MoveError("no passing in sudden death: guess one word")
    if not state.can_end_turn():
        raise MoveError("you can pass only after a correct guess this turn; guess a word first")
    return EndTurn()


def _check_known(bot: Partner, clue: Clue, state: State) -> None:
    from ..bots.spelling import unknown_clue
    from ..rules import check_clue

    try:
        word = check_clue(clue.word, state.visible_words())
    except ValueError:
        return  # the rules refuse it and say why
    unknown = unknown_clue(bot, word)
    if unknown is not None:
        raise UnknownClueWord(unknown)


def refusal(action: Clue | Guess | EndTurn, exc: ValueError) -> str:
    """Why the rules refused a person's move, in one line saying what to do instead (the
    terminal's one-move mode and the web game say the same)."""
    if isinstance(exc, IllegalClueError):
        return (f"{exc} (rule book: a clue may not be a word visible on the grid, a form of one, "
                "or a component of a visible compound); give another clue")
    if isinstance(exc, UnknownBoardWordError) and isinstance(action, Guess):
        return f"{action.word!r} is not a word on this board; guess one of the words shown"
    return str(exc)


class _Person:
    """Player A's two roles in the game loop, answering with one given action each time
    (a refusal is a :class:`MoveError`: the loop must not ask again)."""

    def __init__(self) -> None:
        self.action: Clue | Guess | EndTurn | None = None

    def give_clue(self, view: object) -> Any:
        return self._take()

    def guess(self, view: object) -> Any:
        return self._take()

    def _take(self) -> Any:
        action, self.action = self.action, None
        if action is None:
            raise RuntimeError("the game loop asked the person for an answer not given")
        return action

    def refused(self, action: Clue | Guess | EndTurn, exc: ValueError) -> None:
        raise MoveError(refusal(action, exc))


def _person_moves(state: State, moves: Sequence[str], bot: Partner, insist: bool,
                  observe: Callable[[State, Event[Player]], None] | None,
                  report: MoveReport) -> None:
    """Apply the person's moves in order while the person is to move; the rest are skipped."""
    person = _Person()
    players: tuple[Partner[Any, Any], Partner[Any, Any]] = (Partner(person, person, "human"), bot)
    for k, text in enumerate(moves):
        if state.is_over() or state.mover() is not HUMAN or (report.events and not _goes_on(state, report.events[-1])):
            report.skipped.extend(moves[k:])
            return
        if text.casefold() == SHOW:
            continue
        person.action = _action(state, text, bot, insist)
        try:
            report.events.append(step(state, players, observe))
        except MoveError as exc:
            raise MoveError(f"move {text!r}: {exc}" if len(moves) > 1 else str(exc)) from None
        report.applied.append(text)


def _goes_on(state: State, last: Event[Player]) -> bool:
    """Whether the person may play another move of the same call after ``last``: only a
    correct guess leaves them guessing (a clue, a pass or a miss hands the play on)."""
    return isinstance(last.action, Guess) and last.result == "green" and state.phase is not Phase.CLUE


def play_moves(state: State, bot: Partner, moves: Sequence[str], *, insist: bool = False,
               observe: Callable[[State, Event[Player]], None] | None = None) -> MoveReport:
    """Apply the person's ``moves`` (player A) in order, then let ``bot`` (player B) play
    until the person is to move again or the game is over; ``observe(state, event)`` sees
    every applied action as it happens.

    A move is read for the phase it meets: a clue (``"ocean 2"``) when the person gives a
    clue, a board word or ``pass`` when guessing (sudden death: a word), ``show`` anywhere
    (no change). Moves are applied in order while the person goes on guessing: after a clue,
    a ``pass`` or a guess that is not an agent the moves left are not played
    (``report.skipped``). ``insist`` gives a clue word the bot does not know all the same.

    All the person's moves are checked before any is applied: a refused one raises
    :class:`MoveError` (:class:`GameOver` on a finished game, :class:`UnknownClueWord` for a
    clue word the bot does not know) with ``state`` unchanged. A bot action the rules refuse
    is a :class:`~duetbot.harness.BotError` (``state`` then holds everything applied before it).
    """
    if state.is_over() and any(m.casefold() != SHOW for m in moves):
        raise GameOver("the game is over; no more moves")
    trial = copy.deepcopy(state)
    _person_moves(trial, moves, bot, insist, None, MoveReport())  # raises before anything changed
    report = MoveReport()
    _person_moves(state, moves, bot, True, observe, report)  # the clue words were checked on the trial
    person = _Person()
    players: tuple[Partner[Any, Any], Partner[Any, Any]] = (Partner(person, person, "human"), bot)
    while not state.is_over() and state.mover() is BOT:
        report.events.append(step(state, players, observe))
    return report

