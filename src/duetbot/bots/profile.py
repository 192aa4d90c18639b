"""What the bots learnt of one person, carried from game to game (``duetbot play --profile``).

During a game the bots learn their partner from the history (:mod:`.reader`,
``SpymasterConfig.adapt.enabled``, ``GuesserConfig.adapt``). A profile keeps the result when a game
ends: the spymaster's partner model (family weights, lapse, stop rates) and the guesser's
family weights. The next game's bots start from it, and the in-game learning then counts it
as its prior (worth ``adapt_prior_clues`` clues), so older games fade as new ones come.
A profile is never required, and deleting its file starts afresh. Files are read and written
by the caller (the CLI); this module only turns profiles into JSON and bots, and back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..views import GuesserView, SpymasterView
from .base import Partner
from .guesser import EmbeddingGuesser
from .reader import ReaderModel
from .spymaster import EmbeddingSpymaster

PROFILE_VERSION = 1
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


class ProfileError(ValueError):
    """A profile name or file that cannot be used (one line: what and how to fix it)."""


def check_name(name: str) -> str:
    """A profile name: letters, digits, ``-`` and ``_``, at most 40 (it names a file)."""
    if not NAME.fullmatch(name):
        raise ProfileError(f"bad profile name {name!r}: use letters, digits, - and _ (at most 40), e.g. alice")
    return name


@dataclass(frozen=True)
class Profile:
    name: str
    games: int = 0
    reader: ReaderModel | None = None
    """The spymaster's model of this person as a reader of its clues."""
    guesser_weights: tuple[tuple[str, float], ...] = ()
    """The guesser's weight of each family when reading this person's clues."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": PROFILE_VERSION, "name": self.name, "games": self.games}
        if self.reader is not None:
            r = self.reader
            out["reader"] = {"weights": {f: round(w, 6) for f, w in zip(r.families, r.weights)},
                             "temperature": r.temperature, "lapse": round(r.lapse, 6),
                             "stop_early": round(r.stop_early, 6), "bonus": round(r.bonus, 6)}
        if self.guesser_weights:
            out["guesser_weights"] = {f: round(w, 6) for f, w in self.guesser_weights}
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "profile") -> Profile:
        def bad(what: str) -> ProfileError:
            return ProfileError(f"{where}: not a duetbot profile ({what}); delete it to start afresh")

        if not isinstance(data, dict) or data.get("version") != PROFILE_VERSION:
            raise bad(f"expected an object with version {PROFILE_VERSION}")
        name, games = data.get("name"), data.get("games", 0)
        if not isinstance(name, str) or not isinstance(games, int) or games < 0:
            raise bad("name or games")
        reader = None
        if "reader" in data:
            r = data["reader"]
            try:
                weights = r["weights"]
                families = tuple(str(f) for f in weights)
                w = np.array([float(weights[f]) for f in families])
                reader = ReaderModel(families, tuple(float(x) for x in w / w.sum()), float(r["temperature"]),
                                     float(r["lapse"]), float(r["stop_early"]), float(r["bonus"]))
            except (TypeError, KeyError, ValueError, ZeroDivisionError) as exc:
                raise bad(f"reader: {exc}") from None
        gw = data.get("guesser_weights", {})
        if not isinstance(gw, dict) or not all(isinstance(v, (int, float)) and v >= 0 for v in gw.values()):
            raise bad("guesser_weights")
        return cls(name, games, reader, tuple((str(f), float(v)) for f, v in gw.items()))


def with_profile(partner: Partner, profile: Profile) -> Partner:
    """``partner``'s bots starting from what ``profile`` learnt (a family the profile does not
    know keeps its weight; bots that are not embedding bots are left as they are)."""
    spy, guesser = partner.spymaster, partner.guesser
    if isinstance(spy, EmbeddingSpymaster) and profile.reader is not None:
        if set(profile.reader.families) == set(spy.ensemble.names):
            spy = EmbeddingSpymaster(spy.ensemble, replace(spy.config, partner=profile.reader))
    if isinstance(guesser, EmbeddingGuesser) and profile.guesser_weights:
        known = dict(guesser.config.family_weights) | dict(profile.guesser_weights)
        guesser = EmbeddingGuesser(guesser.ensemble, replace(guesser.config, family_weights=tuple(known.items())))
    return Partner(spy, guesser, partner.name)


def learnt(profile: Profile, partner: Partner, as_spymaster: SpymasterView, as_guesser: GuesserView) -> Profile:
    """``profile`` after one more game: the bot's views of it at the end (its own side only)."""
    spy, guesser = partner.spymaster, partner.guesser
    reader, weights = profile.reader, profile.guesser_weights
    if isinstance(spy, EmbeddingSpymaster):
        reader = spy.adapted_partner(as_spymaster)
    if isinstance(guesser, EmbeddingGuesser):
        w = guesser.family_weights(as_guesser)
        weights = tuple((m.family, float(x)) for m, x in zip(guesser.ensemble.models, w))
    return Profile(profile.name, profile.games + 1, reader, weights)
