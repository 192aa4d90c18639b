"""Building bots from short text specs, with each embedding model loaded once per process.

A partner spec is ``key=value`` pairs separated by commas:

- ``model=NAME[+NAME...]``: the families both roles think with (default: the shipped default
  partner model); ``spymaster=...`` / ``guesser=...`` set one role's families alone.
- ``noise=SIGMA``: perception noise of the guesser (z units), for benchmark partners.
- ``infer=off``: the guesser ignores its own side of the key card.
- ``bot=random``: random bots (tests).

>>> PartnerSpec.parse("model=glove50,noise=0.2").guesser_models
('glove50',)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Sequence

from ..embeddings import EmbeddingModel, UnknownWordError, load_model
from ..embeddings.model import translate_vectors
from ..wordpool import default_pool
from .base import Partner
from .ensemble import Ensemble
from .guesser import EmbeddingGuesser, GuesserConfig
from .random_bots import random_partner
from .spymaster import EmbeddingSpymaster, SpymasterConfig

#: The families the shipped bots think with. The spymaster models its partner as a mixture
#: of all of them (DESIGN.md: mixtures beat averages and single families against unseen
#: partners); the guesser combines them.
DEFAULT_MODELS: tuple[str, ...] = ("glove50", "spacy300", "minilm")

#: The guesser also reads clues through human word associations (``eat``: Edinburgh
#: Associative Thesaurus vectors, weighted by ``GuesserConfig.family_weights``): P@1 on
#: people's clues 61% -> 72% (benchmarks/bench_associations.py).
DEFAULT_GUESSER_MODELS: tuple[str, ...] = (*DEFAULT_MODELS, "eat")

#: Families that never borrow stand-in vectors: a word people gave no association has no
#: ``eat`` opinion (the ensemble lets the other families speak for it).
NO_LOAN_FAMILIES = frozenset({"eat"})


class SpecError(ValueError):
    """A partner spec that cannot be read."""


#: Lends stand-in vectors (a least-squares map into the other space) for default-pool words
#: that another model lacks: spaCy's table has no own vector for 32 of them (models/README.md).
DONOR_MODEL = "glove50"


@lru_cache(maxsize=16)
def model(name: str) -> EmbeddingModel:
    m = load_model(name)
    missing = [w for w in default_pool() if not m.knows(w)]
    if missing and name != DONOR_MODEL and m.family not in NO_LOAN_FAMILIES:
        m = m.with_extra_vectors(translate_vectors(m, load_model(DONOR_MODEL), missing))
    return m


@lru_cache(maxsize=16)
def ensemble(names: tuple[str, ...]) -> Ensemble:
    return Ensemble([model(n) for n in names])


@lru_cache(maxsize=16)
def spymaster(names: tuple[str, ...]) -> EmbeddingSpymaster:
    """Spymasters are deterministic and keep only per-board caches: one per model set."""
    return EmbeddingSpymaster(ensemble(names), SpymasterConfig())


@dataclass(frozen=True)
class PartnerSpec:
    spymaster_models: tuple[str, ...] = DEFAULT_MODELS
    guesser_models: tuple[str, ...] = DEFAULT_GUESSER_MODELS
    noise: float = 0.0
    infer_key: bool = True
    random: bool = False
    text: str = "default"

    @classmethod
    def parse(cls, text: str) -> PartnerSpec:
        spec = cls(text=text.strip() or "default")
        if not text.strip() or text.strip() == "default":
            return spec
        for part in text.split(","):
            key, sep, value = (p.strip() for p in part.partition("="))
            if not sep or not value:
                raise SpecError(f"bad partner spec part {part!r}: write key=value, e.g. model=glove50,noise=0.2")
            names = tuple(v.strip() for v in value.split("+") if v.strip())
            if key == "model":
                spec = replace(spec, spymaster_models=names, guesser_models=names)
            elif key == "spymaster":
                spec = replace(spec, spymaster_models=names)
            elif key == "guesser":
                spec = replace(spec, guesser_models=names)
            elif key == "noise":
                try:
                    spec = replace(spec, noise=float(value))
                except ValueError:
                    raise SpecError(f"noise={value!r} is not a number") from None
                if spec.noise < 0:
                    raise SpecError("noise must be >= 0")
            elif key == "infer":
                if value not in ("on", "off"):
                    raise SpecError("infer must be on or off")
                spec = replace(spec, infer_key=value == "on")
            elif key == "bot":
                if value not in ("random", "embedding"):
                    raise SpecError(f"unknown bot {value!r}: use random or embedding")
                spec = replace(spec, random=value == "random")
            else:
                raise SpecError(f"unknown partner spec key {key!r}: use model, spymaster, guesser, noise, infer or bot")
        return spec

    def check(self, pool: Sequence[str] = ()) -> None:
        """Load every model now and check that they know every word of ``pool`` (at least one
        family per role), so a bad name or an unknown word fails before any game is played."""
        if self.random:
            return
        for names in {self.spymaster_models, self.guesser_models}:
            models = ensemble(names).models
            for word in pool:
                if not any(m.knows(word) for m in models):
                    try:
                        models[0].vector(word)
                    except UnknownWordError as exc:
                        raise UnknownWordError(word, "+".join(names), exc.suggestions) from None

    def build(self, seed: int = 0) -> Partner:
        if self.random:
            return random_partner(seed)
        spy = spymaster(self.spymaster_models)
        guesser = EmbeddingGuesser(ensemble(self.guesser_models),
                                   GuesserConfig(noise=self.noise, infer_key=self.infer_key, seed=seed))
        return Partner(spy, guesser, self.text)


def default_bots() -> tuple[EmbeddingSpymaster, EmbeddingGuesser]:
    """The shipped spymaster and guesser."""
    p = PartnerSpec().build()
    return p.spymaster, p.guesser  # type: ignore[return-value]
