"""A hint: the bots' suggestion for a person's own move, in either game.

Every face that offers hints (``duetbot play`` in both games, ``duetbot serve``) asks
:meth:`duetbot.suggest.Suggester.hint` with the person's own view, so a hint sees only what
the person may see and reads with the same families as the partner they play with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from .requests import ClassicGuess, DuetGuess

if TYPE_CHECKING:  # pragma: no cover
    from ..bots.spymaster import ClueOption

__all__ = ["Hint"]


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

    @property
    def role(self) -> str:
        """``"clue"`` or ``"guess"``: which move the hint is for."""
        return "guess" if self.guesses else "clue"

    def text(self, longest: int = 3) -> str:
        """The hint in one line, for a terminal.

        >>> Hint(done=True).text()
        'all your agents are found; the bot gives every remaining clue'
        >>> Hint(guesses=(DuetGuess("OCEAN", 1.0, 0.9, 0.0), DuetGuess("SHIP", 0.5, 0.5, 0.1)), stop_after=1).text()
        'best guesses: OCEAN, SHIP'
        """
        if self.done:
            return "all your agents are found; the bot gives every remaining clue"
        if self.clues:
            return "try " + "; or ".join(
                f"{o.clue}" + (f" (for {', '.join(o.targets)})" if o.targets
                               else f" (to steer away from {o.dangers[0][0]})" if o.dangers else "")
                for o in self.clues)
        words = [g.word for g in self.guesses]
        if self.sudden_death:
            return f"sudden death: the safest guess looks like {words[0]}"
        if self.stop_now:
            return f"consider 'pass': the next best guess, {words[0]}, looks risky"
        return "best guesses: " + ", ".join(words[:max(self.stop_after, longest)])
