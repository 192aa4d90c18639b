"""Rule options, as one immutable object with named presets.

A variant string is a preset name optionally followed by modifiers, joined with ``+``:

>>> Variant.parse("standard").tokens
9
>>> v = Variant.parse("mission:8:5+cap+nozero")
>>> (v.tokens, v.bystander_tokens, v.guess_cap, v.zero_clues)
(8, 5, True, False)
>>> str(v)
'mission:8:5+cap+nozero'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any


class VariantError(ValueError):
    """A variant string or option combination that does not describe a playable game."""


class InvalidCluePolicy(str, enum.Enum):
    """What happens when a clue breaks the "valid and invalid clues" rules."""

    REJECT = "reject"
    """The clue is refused and the giver must choose another (bots, and the CLI by default)."""
    PENALTY = "penalty"
    """The rule book's penalty: discard one timer token, then play on with the clue."""


PRESETS: dict[str, str] = {
    "standard": "the rule book's standard game: 9 timer tokens",
    "easy": "10 timer tokens (the rule book's easier game)",
    "easier": "11 timer tokens (the rule book's easiest game)",
    "mission:N:M": "mission map: N tokens, only M of them bystander-side",
    "seed003": "Chinese rules summary house rules: number+1 guess cap, no zero clues",
}

MODIFIERS: dict[str, str] = {
    "cap": "a turn ends after number+1 guesses",
    "nozero": "zero clues are not allowed",
    "loose": "looser turn order: one player may give two clues in a row, never three",
    "penalty": "an invalid clue costs one timer token and play goes on (rule book penalty)",
}


@dataclass(frozen=True)
class Variant:
    """Every rule option the engine knows. The defaults are the standard 9-token game."""

    tokens: int = 9
    """Timer tokens in the time bank at the start."""
    bystander_tokens: int | None = None
    """Mission map: how many tokens lie bystander side up (``None``: all of them). Once those
    are spent a bystander costs two tokens, and the game is lost if only one is left."""
    guess_cap: bool = False
    """Seed 003: at most number+1 guesses per turn (a zero clue keeps no cap)."""
    zero_clues: bool = True
    """Whether ``clue: 0`` is allowed."""
    max_clues_in_a_row: int = 1
    """1 is strict alternation; 2 is the rule book's looser turn order."""
    invalid_clue: InvalidCluePolicy = InvalidCluePolicy.REJECT
    name: str = "standard"
    """The preset this variant was built from (for display and records)."""

    def __post_init__(self) -> None:
        if not 1 <= self.tokens <= 30:
            raise VariantError(f"a game needs between 1 and 30 timer tokens, not {self.tokens}")
        if self.bystander_tokens is not None and not 0 <= self.bystander_tokens <= self.tokens:
            raise VariantError(
                f"mission map: {self.bystander_tokens} bystander-side tokens out of {self.tokens}; "
                f"use between 0 and {self.tokens}"
            )
        if self.max_clues_in_a_row not in (1, 2):
            raise VariantError("a player may give at most two clues in a row (looser turn order)")

    @property
    def initial_bystander_tokens(self) -> int:
        return self.tokens if self.bystander_tokens is None else self.bystander_tokens

    @classmethod
    def parse(cls, spec: str) -> Variant:
        """Parse ``preset[+modifier...]``; see :data:`PRESETS` and :data:`MODIFIERS`."""
        if not isinstance(spec, str) or not spec.strip():
            raise VariantError("empty variant: use e.g. 'standard', 'easy', 'mission:9:5' or 'standard+cap'")
        head, *mods = [p.strip().lower() for p in spec.strip().split("+")]
        if head == "standard":
            v = cls()
        elif head == "easy":
            v = cls(tokens=10, name="easy")
        elif head == "easier":
            v = cls(tokens=11, name="easier")
        elif head == "seed003":
            v = cls(guess_cap=True, zero_clues=False, name="seed003")
        elif head.startswith("mission"):
            parts = head.split(":")
            try:
                n, m = int(parts[1]), int(parts[2])
                if len(parts) != 3:
                    raise ValueError
            except (IndexError, ValueError):
                raise VariantError(
                    f"bad mission variant {head!r}: write mission:N:M (N tokens, M bystander-side), e.g. mission:9:5"
                ) from None
            v = cls(tokens=n, bystander_tokens=m, name=f"mission:{n}:{m}")
        else:
            raise VariantError(f"unknown variant {head!r}: use one of {', '.join(PRESETS)}")
        for mod in mods:
            if mod == "cap":
                v = replace(v, guess_cap=True)
            elif mod == "nozero":
                v = replace(v, zero_clues=False)
            elif mod == "loose":
                v = replace(v, max_clues_in_a_row=2)
            elif mod == "penalty":
                v = replace(v, invalid_clue=InvalidCluePolicy.PENALTY)
            else:
                raise VariantError(f"unknown variant modifier {mod!r}: use one of {', '.join(MODIFIERS)}")
        return v

    def __str__(self) -> str:
        base = Variant.parse(self.name) if self.name else Variant()
        mods = []
        if self.guess_cap and not base.guess_cap:
            mods.append("cap")
        if not self.zero_clues and base.zero_clues:
            mods.append("nozero")
        if self.max_clues_in_a_row == 2:
            mods.append("loose")
        if self.invalid_clue is InvalidCluePolicy.PENALTY:
            mods.append("penalty")
        return "+".join([self.name, *mods])

    def to_json(self) -> dict[str, object]:
        return {"tokens": self.tokens, "bystander_tokens": self.bystander_tokens,
                "guess_cap": self.guess_cap, "zero_clues": self.zero_clues,
                "max_clues_in_a_row": self.max_clues_in_a_row,
                "invalid_clue": self.invalid_clue.value, "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> Variant:
        if isinstance(data, str):
            return cls.parse(data)
        try:
            return cls(**{**data, "invalid_clue": InvalidCluePolicy(data.get("invalid_clue", "reject"))})
        except TypeError as exc:
            raise VariantError(f"bad variant record: {exc}") from None
