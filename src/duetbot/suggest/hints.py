"""A hint: the bots' suggestion for a person's own move, in either game.

Every face that offers hints (``duetbot play`` in both games, ``duetbot serve``) asks
:meth:`duetbot.suggest.Suggester.hint` with the person's own view, so a hint sees only what
the person may see and reads with the same families as the partner they play with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence, Union

from .requests import ClassicGuess, DuetGuess

if TYPE_CHECKING:  # pragma: no cover
    from ..bots.spymaster import ClueOption

__all__ = ["Hint", "link_word", "linked_targets"]


def link_word(strength: float) -> str:
    """A link's strength (:attr:`~duetbot.bots.spymaster.ClueOption.links`) in a word.

    >>> link_word(0.95), link_word(0.8), link_word(0.3)
    ('strong', 'fair', 'weak')
    """
    return "strong" if strength >= 0.9 else "fair" if strength >= 0.7 else "weak"


def linked_targets(targets: Sequence[str], links: Sequence[float], percent: bool = True) -> str:
    """Each target with its link's strength, so the weak one shows at a glance.

    >>> linked_targets(["NURSE", "DOCTOR"], [0.97, 0.41])
    'NURSE (strong 97%), DOCTOR (weak 41%)'
    >>> linked_targets(["NURSE"], [0.97], percent=False)
    'NURSE (strong)'
    """
    if len(links) != len(targets):
        return ", ".join(targets)
    return ", ".join(f"{t} ({link_word(v)}" + (f" {round(100 * v)}%)" if percent else ")")
                     for t, v in zip(targets, links))


@dataclass(frozen=True)
class Hint:
    """What the bots would do in the person's place.

    A clue hint has ``clues`` (best first; empty with ``done`` when the person has no agent
    left to clue); a guess hint ranks every guessable word in ``guesses`` (best first), with
    how many of them the bot would guess this turn (``stop_after``), whether it would end the
    turn now (``stop_now``, after a correct guess) and whether this is sudden death.
    """

    clues: tuple[ClueOption, ...] = ()
    guesses: tuple[Union[DuetGuess, ClassicGuess], ...] = ()
    stop_after: int = 0
    stop_now: bool = False
    sudden_death: bool = False
    done: bool = False
    own_assassins: frozenset[str] = frozenset()
    """The guessing person's own assassins (their side of the key card), named in the text."""

    @property
    def role(self) -> str:
        """``"clue"`` or ``"guess"``: which move the hint is for."""
        return "guess" if self.guesses else "clue"

    def text(self, longest: int = 3) -> str:
        """The hint in one line, for a terminal.

        >>> Hint(done=True).text()
        'all your agents are found; the bot gives every remaining clue'
        >>> Hint(guesses=(DuetGuess("OCEAN", 1.0, 0.9, 0.0), DuetGuess("SHIP", 0.5, 0.5, 0.1)), stop_after=1,
        ...      own_assassins=frozenset({"SHIP"})).text(longest=2)
        'best guesses: OCEAN (agent 90%, assassin 0%), then stop; next would be SHIP (agent 50%, assassin 10%, your assassin)'
        """
        if self.done:
            return "all your agents are found; the bot gives every remaining clue"
        if self.clues:
            return "try " + "; or ".join(
                f"{o.clue}" + (f" (for {linked_targets(o.targets, o.links, percent=False)})" if o.targets
                               else f" (to steer away from {o.dangers[0][0]})" if o.dangers else "")
                for o in self.clues)
        first = self._odds(self.guesses[0])
        if self.sudden_death:
            return f"sudden death: the safest guess looks like {first}"
        if self.stop_now:
            return f"consider 'pass': the next best guess, {first}, looks risky"
        shown = self.guesses[:max(self.stop_after, longest)]
        go, rest = shown[:self.stop_after], shown[self.stop_after:]
        text = ("best guesses: " + ", ".join(map(self._odds, go)) + ", then stop") if go else "the bot would stop now"
        return text + ("; next would be " + ", ".join(map(self._odds, rest)) if rest else "")

    def _odds(self, guess: Union[DuetGuess, ClassicGuess]) -> str:
        """``OCEAN (agent 90%, assassin 0%)``, and ``your assassin`` for one of the person's own."""
        agent = guess.p_green if isinstance(guess, DuetGuess) else guess.p_agent
        own = ", your assassin" if guess.word in self.own_assassins else ""
        return f"{guess.word} (agent {_percent(agent)}, assassin {_percent(guess.p_assassin)}{own})"


def _percent(p: float) -> str:
    """A chance in whole per cent; ``<1%`` for one that is small but not nil (as the web page)."""
    return "<1%" if 0 < p < 0.005 else f"{round(100 * p)}%"
