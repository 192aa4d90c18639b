"""Codenames: Duet as a state machine: outcomes, timer tokens and sudden death (the actions
are the family's shared ones, :mod:`duetbot.rules.base`).

The state holds everything, both sides of the key card included; what one player may see is
decided by :mod:`duetbot.views`. The state changes only through :meth:`State.apply`, which
either applies a legal action completely or raises a ``ValueError`` subclass and leaves the
state untouched.

>>> from duetbot.rules.keycard import make_deal
>>> from duetbot.rules.keycard import CROSS_COUNTS
>>> pairs = [p for p, n in CROSS_COUNTS.items() for _ in range(n)]
>>> d = make_deal([f"W{i}" for i in range(25)], [a for a, _ in pairs], [b for _, b in pairs])
>>> s = State(d)
>>> s.apply(Clue("alpha", 2))
>>> s.apply(Guess("W0")).value     # W0 is green on A's side: covered
'green'
>>> s.apply(EndTurn()); s.tokens
8
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .base import (
    Action, Clue, EndTurn, Event, GameOverError, Guess, IllegalActionError, Phase, Turn,
)
from .clues import IllegalClueError, check_clue
from .keycard import TOTAL_GREENS, Deal, Label, Player, UnknownBoardWordError
from .variants import InvalidCluePolicy, Variant


# --- outcomes ---------------------------------------------------------------------------

class Termination(str, enum.Enum):
    """How a game ended."""

    WIN = "win"
    """All 15 green agents are covered."""
    ASSASSIN = "assassin"
    """A guesser touched a word that is an assassin on the clue giver's side."""
    SUDDEN_DEATH_MISS = "sudden_death_miss"
    """A guess in sudden death was not a green agent."""
    MISSION_FAILED = "mission_failed"
    """Mission map: a bystander cost two tokens with only one left (sudden death skipped)."""


class GuessResult(str, enum.Enum):
    GREEN = "green"
    BYSTANDER = "bystander"
    ASSASSIN = "assassin"


@dataclass(frozen=True)
class History:
    """The game so far as the table tells it (:meth:`State.history`): each clue with the
    guesses made on it, which of those turns ended voluntarily, then sudden death's guesses."""

    turns: tuple[Turn[Player], ...]
    passed: frozenset[int]
    """Indices into ``turns`` of the turns the guesser ended voluntarily (``pass``)."""
    sudden_death: tuple[Event[Player], ...] = ()
    """The guesses made in sudden death, in order (no clue is given then)."""


# --- the state ---------------------------------------------------------------------------


def mistake_cost(tokens: int, bystander_tokens: int) -> int | None:
    """Timer tokens a mistake (a bystander) costs now: one while bystander-side tokens are
    left; on a mission map once they are gone two, and with only one token left the game is
    lost (``None``). With no token left (after an invalid-clue penalty) nothing.

    >>> mistake_cost(5, 2), mistake_cost(5, 0), mistake_cost(1, 0)
    (1, 2, None)
    """
    if bystander_tokens:
        return 1
    if tokens == 1:
        return None
    return min(tokens, 2)


@dataclass
class State:
    """A game in progress. ``apply`` is the only way it changes."""

    deal: Deal
    variant: Variant = field(default_factory=Variant)
    bystander_tokens: int = field(init=False)
    check_tokens: int = field(init=False)
    phase: Phase = field(init=False, default=Phase.CLUE)
    outcome: Termination | None = field(init=False, default=None)
    covered_green: set[int] = field(init=False, default_factory=set)
    marks: tuple[set[int], set[int]] = field(init=False, default_factory=lambda: (set(), set()))
    """``marks[p]``: words player ``p`` touched as guesser that were bystanders for the giver."""
    turns: list[Turn[Player]] = field(init=False, default_factory=list)
    events: list[Event[Player]] = field(init=False, default_factory=list)
    giver: Player | None = field(init=False, default=None)
    """The giver of the current (or last) clue."""
    clues_in_a_row: int = field(init=False, default=0)
    voluntary_ends: int = field(init=False, default=0)
    sudden_death: bool = field(init=False, default=False)
    sudden_death_guesses: int = field(init=False, default=0)
    """Guesses made in sudden death so far: who is asked next alternates with it (:meth:`mover`)."""
    _greens: tuple[frozenset[int], frozenset[int]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.bystander_tokens = self.variant.initial_bystander_tokens
        self.check_tokens = self.variant.tokens - self.bystander_tokens
        self._greens = (self.deal.key.indices(Player.A, Label.GREEN),
                        self.deal.key.indices(Player.B, Label.GREEN))

    # --- queries ---------------------------------------------------------------------------

    @property
    def tokens(self) -> int:
        """Timer tokens left in the time bank."""
        return self.bystander_tokens + self.check_tokens

    @property
    def words(self) -> tuple[str, ...]:
        return self.deal.words

    def is_over(self) -> bool:
        return self.outcome is not None

    def covered(self) -> frozenset[int]:
        """Words no one may guess or clue: green agents found, and words marked by both."""
        return frozenset(self.covered_green | (self.marks[0] & self.marks[1]))

    def visible_words(self) -> list[str]:
        """Words a clue must not be a form of (rule book: visible until covered)."""
        cov = self.covered()
        return [w for i, w in enumerate(self.deal.words) if i not in cov]

    def greens_left(self, player: Player) -> frozenset[int]:
        """Words green on ``player``'s side not yet covered: what their partner still must find."""
        return self._greens[player] - self.covered_green

    def is_done(self, player: Player) -> bool:
        """All of ``player``'s greens are covered; they announce it and give no more clues."""
        return not self.greens_left(player)

    def clue_givers(self) -> tuple[Player, ...]:
        """Who may give the next clue (empty outside the clue phase)."""
        if self.phase is not Phase.CLUE:
            return ()
        able = [p for p in Player if not self.is_done(p)]
        if len(able) == 1 or self.giver is None:
            return tuple(able)
        if self.clues_in_a_row >= self.variant.max_clues_in_a_row:
            return (self.giver.other,)
        return (self.giver.other, self.giver) if self.variant.max_clues_in_a_row > 1 else (self.giver.other,)

    @property
    def guesser(self) -> Player | None:
        """The guesser of the current turn (``None`` outside the guess phase)."""
        return self.giver.other if self.phase is Phase.GUESS and self.giver is not None else None

    def sudden_death_guessers(self) -> tuple[Player, ...]:
        """Players who still have agents to find (their partner's greens) in sudden death."""
        if self.phase is not Phase.SUDDEN_DEATH:
            return ()
        return tuple(p for p in Player if self.greens_left(p.other))

    def to_move(self) -> tuple[Player, ...]:
        """Players who may act now, the default first."""
        if self.phase is Phase.CLUE:
            return self.clue_givers()
        if self.phase is Phase.GUESS and self.giver is not None:
            return (self.giver.other,)
        return self.sudden_death_guessers()

    def mover(self) -> Player:
        """The player a game loop asks to act now (one of :meth:`to_move`).

        In sudden death the rule book lets the guessers guess in any order (and :meth:`apply`
        takes a guess from either); the loop asks them in turn, one word each, player B
        first when both still have agents to find.

        >>> from duetbot.rules.keycard import deal
        >>> State(deal(1, [f"W{i}" for i in range(25)])).mover().name
        'A'
        """
        movers = self.to_move()
        if not movers:
            raise GameOverError(f"the game is over ({self.outcome.value if self.outcome else 'over'}); no one moves")
        if self.phase is Phase.SUDDEN_DEATH:
            return movers[(1 + self.sudden_death_guesses) % len(movers)]
        return movers[0]

    @property
    def current_turn(self) -> Turn[Player] | None:
        return self.turns[-1] if self.phase is Phase.GUESS and self.turns else None

    def guesses_left(self) -> int | None:
        """Guesses still allowed this turn under the number+1 cap (``None``: no cap)."""
        turn = self.current_turn
        if turn is None or not self.variant.guess_cap or turn.clue.number == 0:
            return None
        return turn.clue.number + 1 - len(turn.guesses)

    def can_end_turn(self) -> bool:
        turn = self.current_turn
        return turn is not None and any(r is GuessResult.GREEN for _, r in turn.guesses)

    def guessable(self, player: Player) -> list[int]:
        """Indices ``player`` may touch now: not covered, not already marked on their own guess."""
        cov = self.covered()
        return [i for i in range(len(self.deal.words)) if i not in cov and i not in self.marks[player]]

    def history(self) -> History:
        """Each clue with its guesses, the turns ended voluntarily and sudden death's guesses:
        what a clue log shows.

        >>> from duetbot.rules import deal
        >>> from duetbot.wordpool import default_pool
        >>> s = State(deal(1, default_pool()))
        >>> s.apply(Clue("ocean", 2), Player.A)
        >>> h = s.history()
        >>> [str(t.clue) for t in h.turns], h.passed, h.sudden_death
        (['OCEAN: 2'], frozenset(), ())
        """
        passed: set[int] = set()
        n_clue = -1
        guesses = []
        for ev in self.events:
            if isinstance(ev.action, Clue):
                n_clue += 1
            elif isinstance(ev.action, EndTurn):
                passed.add(n_clue)
            else:
                guesses.append(ev)
        in_turns = sum(len(t.guesses) for t in self.turns)
        return History(tuple(self.turns), frozenset(passed), tuple(guesses[in_turns:]))

    def score(self) -> int | None:
        """The rule book's score on a win: 3 per unused token, +1 per turn ended voluntarily,
        -1 if sudden death was needed. ``None`` unless the game was won."""
        if self.outcome is not Termination.WIN:
            return None
        return 3 * self.tokens + self.voluntary_ends - (1 if self.sudden_death else 0)

    # --- applying actions ------------------------------------------------------------------

    def apply(self, action: Action, player: Player | None = None) -> GuessResult | None:
        """Apply ``action`` by ``player`` (default: :meth:`mover`).

        Returns the result of a guess, ``None`` otherwise. Raises ``InvalidClueError``,
        ``IllegalClueError``, ``IllegalActionError`` or ``UnknownBoardWordError`` (all
        ``ValueError``) with the state unchanged.
        """
        if self.outcome is not None:
            raise GameOverError(f"the game is over ({self.outcome.value}); no more actions")
        movers = self.to_move()
        player = self.mover() if player is None else Player.parse(player)
        if player not in movers:
            who = " or ".join(p.name for p in movers)
            raise IllegalActionError(
                f"it is not player {player.name}'s move: {who} is to {self._phase_verb()}"
            )
        if isinstance(action, Clue):
            self._apply_clue(action, player)
            return None
        if isinstance(action, Guess):
            return self._apply_guess(action, player)
        if isinstance(action, EndTurn):
            self._apply_end(player)
            return None
        raise IllegalActionError(f"unknown action {action!r}: expected Clue, Guess or EndTurn")

    def _phase_verb(self) -> str:
        return {Phase.CLUE: "give a clue", Phase.GUESS: "guess",
                Phase.SUDDEN_DEATH: "guess (sudden death)", Phase.OVER: "stop"}[self.phase]

    def _apply_clue(self, clue: Clue, player: Player) -> None:
        if self.phase is not Phase.CLUE:
            raise IllegalActionError(f"no clue now: {self._phase_verb()} (phase {self.phase.value})")
        if clue.number == 0 and not self.variant.zero_clues:
            raise IllegalActionError("zero clues are not allowed in this variant; give a number of 1 or more")
        penalised = False
        try:
            check_clue(clue.word, self.visible_words())
        except IllegalClueError:
            if self.variant.invalid_clue is InvalidCluePolicy.REJECT:
                raise
            penalised = True
        if penalised:
            self._spend(1, prefer_check=True)
        self.clues_in_a_row = self.clues_in_a_row + 1 if self.giver == player else 1
        self.giver = player
        self.turns.append(Turn(player, clue, penalised=penalised))
        self.phase = Phase.GUESS
        self.events.append(Event(player, clue, "penalty" if penalised else "ok"))

    def _resolve_word(self, word: str, player: Player) -> int:
        try:
            i = self.deal.index(word)
        except UnknownBoardWordError:
            raise UnknownBoardWordError(f"{word!r} is not a word on this board") from None
        if i in self.covered():
            raise IllegalActionError(f"{self.deal.words[i]!r} is covered; guess a word still in play")
        if i in self.marks[player]:
            raise IllegalActionError(
                f"{self.deal.words[i]!r} was already a bystander on your guess; guess another word"
            )
        return i

    def _apply_guess(self, guess: Guess, player: Player) -> GuessResult:
        if self.phase not in (Phase.GUESS, Phase.SUDDEN_DEATH):
            raise IllegalActionError(f"no guess now: a clue must come first ({self._phase_verb()})")
        i = self._resolve_word(guess.word, player)
        judge = player.other  # a guess is judged by the clue giver's side
        label = self.deal.key.label(judge, i)
        result = GuessResult(label.value)
        word = self.deal.words[i]
        self.events.append(Event(player, Guess(word), result.value))
        if self.phase is Phase.SUDDEN_DEATH:
            self.sudden_death_guesses += 1
        if self.phase is Phase.GUESS:
            t = self.turns[-1]
            self.turns[-1] = Turn(t.giver, t.clue, t.guesses + ((word, result),), t.penalised)
        if result is GuessResult.ASSASSIN:
            self._finish(Termination.ASSASSIN)
        elif result is GuessResult.GREEN:
            self.covered_green.add(i)
            if len(self.covered_green) == TOTAL_GREENS:
                self._finish(Termination.WIN)
            elif self.phase is Phase.GUESS:
                left = self.guesses_left()
                if self.is_done(judge) or (left is not None and left <= 0):
                    # Nothing left to find on this clue (or the cap is reached): the turn
                    # ends as a voluntary end after correct guesses would.
                    self._end_turn(voluntary=True)
        else:  # bystander
            if self.phase is Phase.SUDDEN_DEATH:
                self.marks[player].add(i)
                self._finish(Termination.SUDDEN_DEATH_MISS)
            else:
                self.marks[player].add(i)
                self._end_turn(voluntary=False)
        return result

    def _apply_end(self, player: Player) -> None:
        if self.phase is Phase.SUDDEN_DEATH:
            raise IllegalActionError("no turns to end in sudden death: guess, or the game is lost")
        if self.phase is not Phase.GUESS:
            raise IllegalActionError(f"no turn to end now: {self._phase_verb()}")
        if not self.can_end_turn():
            raise IllegalActionError(
                "a turn may be ended only after at least one correct guess; make a guess first"
            )
        self.events.append(Event(player, EndTurn()))
        self._end_turn(voluntary=True)

    def _spend(self, n: int, prefer_check: bool) -> bool:
        """Take ``n`` tokens from the bank; False if fewer than ``n`` are left (nothing taken)."""
        if self.tokens < n:
            return False
        for _ in range(n):
            if (prefer_check and self.check_tokens) or not self.bystander_tokens:
                self.check_tokens -= 1
            else:
                self.bystander_tokens -= 1
        return True

    def _end_turn(self, voluntary: bool) -> None:
        if voluntary:
            # The guesser takes a checkmark-side token if any, else a bystander-side one.
            if self.tokens:
                self._spend(1, prefer_check=True)
            self.voluntary_ends += 1
        else:
            cost = mistake_cost(self.tokens, self.bystander_tokens)
            if cost is None:
                self._finish(Termination.MISSION_FAILED)
                return
            if self.bystander_tokens:
                self.bystander_tokens -= cost
            else:
                self.check_tokens -= cost
        # (no token at all is left only after an invalid-clue penalty took the last one)
        if self.tokens == 0:
            self.phase = Phase.SUDDEN_DEATH
            self.sudden_death = True
        else:
            self.phase = Phase.CLUE

    def _finish(self, how: Termination) -> None:
        self.outcome = how
        self.phase = Phase.OVER

    # --- replay ----------------------------------------------------------------------------

    @classmethod
    def replay(cls, deal: Deal, variant: Variant, events: list[Event[Player]]) -> State:
        """Rebuild a state by applying recorded events; raises if the record disagrees."""
        state = cls(deal, variant)
        for n, ev in enumerate(events):
            result = state.apply(ev.action, ev.player)
            got = result.value if result is not None else state.events[-1].result
            if got != ev.result:
                raise ValueError(
                    f"record disagrees with the rules at event {n + 1}: recorded {ev.result!r}, replay gives {got!r}"
                )
        return state
