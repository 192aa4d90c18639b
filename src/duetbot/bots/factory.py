"""Building bots from short text specs, with each embedding model loaded once per process.

A partner spec is ``key=value`` pairs separated by commas:

- ``model=NAME[+NAME...]``: the families both roles think with (default: the shipped default
  partner model); ``spymaster=...`` / ``guesser=...`` set one role's families alone.
- ``noise=SIGMA``: perception noise of the guesser (z units), for benchmark partners.
- ``infer=off``: the guesser ignores its own side of the key card.
- ``adapt=on|off|spymaster|guesser``: which roles learn the partner during a game, the
  spymaster from the partner's guesses, the guesser from how the partner's clues turned out
  (default: as the configs ship, both; ``spymaster``: the guesser reads with fixed weights).
- ``vector=WORD=LIKE+LIKE...``: a vector for a word the models lack (or a meaning to use
  instead of theirs): the centroid of the words it is like, in every family (repeatable).
- ``assoc=off``: the families' z without the association table's lift
  (:data:`~.ensemble.DEFAULT_LIFT`; on by default), for comparing the two.
- ``bot=random``: random bots (tests); ``bot=threshold``: a plain clue bot of the published
  kind (:mod:`.threshold`, Kim et al. 2019) on the spymaster families, for benchmarks.

>>> PartnerSpec.parse("model=glove50,noise=0.2").guesser_models
('glove50',)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

import numpy as np

from ..embeddings import EmbeddingModel, UnknownWordError, described_vectors, load_model
from ..words import word_key
from ..embeddings.cache import DerivedCache, code_stamp
from ..words import associations as associations_module, keys as keys_module
from ..words.associations import TABLE, Associations, default_associations
from ..words import evokes as evokes_module, morphology as morphology_module
from ..words.evokes import TABLE as EVOKES, Evokes, default_evokes
from ..words.lexicon import LEXICON_DIR
from ..embeddings.subword import SOURCE_FAMILY, load_subword
from .base import Partner
from .ensemble import Ensemble
from .guesser import EmbeddingGuesser, GuesserConfig
from .random_bots import random_partner
from .spymaster import AdaptConfig, EmbeddingSpymaster, SpymasterConfig
from .threshold import ThresholdSpymaster

#: The families the shipped bots think with. The spymaster models its partner as a mixture
#: of all of them (mixtures beat averages and single families against unseen partners:
#: docs/architecture.md, "Where the defaults come from"); the guesser combines them.
DEFAULT_MODELS: tuple[str, ...] = ("glove50", "spacy300", "minilm")

#: The guesser also reads clues through human word associations (``eat``: Edinburgh
#: Associative Thesaurus vectors, weighted by ``GuesserConfig.family_weights``): P@1 on
#: people's clues 61% -> 72% (benchmarks/bench_associations.py); and through WordLlama's
#: token codebook (``wordllama``, issue 29): 72.7% -> 74.5% (benchmarks/bench_lm_families.py).
#: ``smollm`` (SmolLM2-135M read as association norms) ships and loads by name, but did not
#: lift it on held-out folds (benchmarks/RESULTS.md, issue 29).
DEFAULT_GUESSER_MODELS: tuple[str, ...] = (*DEFAULT_MODELS, "eat", "wordllama")

#: Families without a fallback: a word people gave no association has no ``eat`` opinion, a
#: word WordNet lacks no ``wordnet``/``wordnet_gloss`` one (built with ``duetbot models build
#: wordnet``, not shipped); the ensemble lets the other families speak for it. ``smollm`` is
#: two-sided (clue rows and board-word rows of one association table), so no single map can
#: place a word it was not asked about; it covers both boxes and the pool, and for any other
#: word the other families speak. Every other family reads a word its table lacks through the
#: subword fallback (benchmarks/bench_fallback.py).
NO_FALLBACK_FAMILIES = frozenset({"eat", "smollm", "wordnet", "wordnet_gloss"})


#: Board words whose products a simulation's spymaster keeps (``PartnerSpec.build(pool=...)``):
#: the shipped pool's 578 words and a few more, about 100 MB with the default families.
POOL_WORDS = 640


class SpecError(ValueError):
    """A partner spec that cannot be read."""


#: Words described by the user: ``((word, (like, ...)), ...)``, sorted (hashable, picklable).
Described = tuple[tuple[str, tuple[str, ...]], ...]


def parse_described(text: str) -> tuple[str, tuple[str, ...]]:
    """``"GRYFFINDOR=lion+wizard"`` -> ``("gryffindor", ("lion", "wizard"))``.

    >>> parse_described("Ice Cream = sundae + cone")
    ('ice cream', ('sundae', 'cone'))
    """
    word, sep, like = text.partition("=")
    word = word_key(word)
    parts = tuple(word_key(p) for p in like.split("+") if p.strip())
    if not sep or not word or not parts:
        raise SpecError(f"bad word vector {text!r}: write WORD=LIKE+LIKE, the words it is like, e.g. gryffindor=lion+wizard")
    return word, parts


class _LazyFallback:
    """A family's fallback, loaded on the first word its table lacks (start-up stays fast)."""

    def __init__(self, table: EmbeddingModel) -> None:
        self.table = table                  # the family's own table, without a fallback
        self._fallback: Callable[[str], np.ndarray] | None = None

    def __call__(self, word: str) -> np.ndarray:
        if self._fallback is None:
            source = model(SOURCE_FAMILY) if self.table.name != SOURCE_FAMILY else None
            self._fallback = load_subword().fallback_for(self.table, source)
        return self._fallback(word)


def model(name: str, described: Described = ()) -> EmbeddingModel:
    """A model by name, reading words its table lacks through the subword fallback (but
    ``eat``), with the user's described words (loaded once per process)."""
    return _model(name, described)


@lru_cache(maxsize=16)
def _model(name: str, described: Described) -> EmbeddingModel:
    if described:
        m = model(name)
        extra = described_vectors(m, dict(described))
        return m.with_extra_vectors(extra) if extra else m
    m = load_model(name)
    return m if m.family in NO_FALLBACK_FAMILIES else m.with_fallback(_LazyFallback(m))


def ensemble(names: tuple[str, ...], described: Described = (), pool: tuple[str, ...] = (),
             associations: bool = True) -> Ensemble:
    """The ensemble of these families (one per process), ``pool``: one of its own for many
    games dealt from these words, which keeps up to :data:`POOL_WORDS` board words' products
    (:meth:`~.ensemble.Ensemble.keep_word_columns`); the others never keep them (a server's
    memory stays flat). ``associations``: lifted by the shipped association table."""
    return _ensemble(tuple(names), described, pool, associations)


@lru_cache(maxsize=16)
def _ensemble(names: tuple[str, ...], described: Described, pool: tuple[str, ...], associations: bool) -> Ensemble:
    out = Ensemble([model(n, described) for n in names],
                   associations=shipped_associations() if associations else None,
                   evokes=shipped_evokes() if associations else None)
    if pool:
        out.keep_word_columns(POOL_WORDS, pool)
    return out


T = TypeVar("T")


def _read_back(kind: str, files: Sequence[object], parsed: Callable[[], Any], from_state: Callable[[Any], T]) -> T:
    """Package data ``parsed()`` (an object with ``state()``) read back from the user's cache
    (:mod:`duetbot.embeddings.cache`), keyed by ``files`` (the data and the code that reads
    it); parsed here when one of them cannot be read as a file."""
    try:
        stamp = code_stamp(*(Path(str(f)) for f in files))
    except OSError:
        return parsed()
    return from_state(DerivedCache(kind, [stamp]).json("state", lambda: parsed().state()))


@lru_cache(maxsize=1)
def shipped_associations() -> Associations:
    """The shipped association table (:func:`~duetbot.words.associations.default_associations`),
    read back packed from the user's cache: 6 ms where parsing its text took 77, at every
    start of a process that plays (the simulate command's checks and each of its workers,
    ``suggest``, ``play``, ``serve``)."""
    return _read_back("associations", (TABLE, associations_module.__file__, keys_module.__file__),
                      default_associations, Associations.from_state)


@lru_cache(maxsize=1)
def shipped_evokes() -> Evokes:
    """The shipped free associations (:func:`~duetbot.words.evokes.default_evokes`), their
    index read back from the user's cache (20 ms; built from the text, 1.2 s)."""
    lexicon = [resources.files("duetbot").joinpath(f"{LEXICON_DIR}/{n}")
               for n in ("words.txt", "irregular.txt", "blocked.txt")]
    return _read_back("evokes", (EVOKES, evokes_module.__file__, keys_module.__file__, morphology_module.__file__,
                                 *lexicon), default_evokes, Evokes.from_state)


def spymaster(names: tuple[str, ...], described: Described = (), adapt: bool = AdaptConfig.enabled,
              pool: tuple[str, ...] = (), associations: bool = True) -> EmbeddingSpymaster:
    """Spymasters are deterministic and keep only per-board caches: one per model set (and
    per ``pool`` and ``associations``, see :func:`ensemble`)."""
    return _spymaster(tuple(names), described, adapt, pool, associations)


@lru_cache(maxsize=16)
def _spymaster(names: tuple[str, ...], described: Described, adapt: bool, pool: tuple[str, ...],
               associations: bool) -> EmbeddingSpymaster:
    return EmbeddingSpymaster(ensemble(names, described, pool, associations),
                              SpymasterConfig(adapt=AdaptConfig(enabled=adapt)))


ADAPT = {"on": (True, True), "off": (False, False), "spymaster": (True, False), "guesser": (False, True)}


@dataclass(frozen=True)
class PartnerSpec:
    spymaster_models: tuple[str, ...] = DEFAULT_MODELS
    guesser_models: tuple[str, ...] = DEFAULT_GUESSER_MODELS
    noise: float = 0.0
    infer_key: bool = True
    adapt: str | None = None
    """A key of :data:`ADAPT`; ``None``: the configs' defaults."""
    random: bool = False
    threshold: bool = False
    """The spymaster is :class:`~.threshold.ThresholdSpymaster` on the spymaster families."""
    described: Described = ()
    associations: bool = True
    """Both roles' families lifted by the association table (``assoc=off``: not)."""
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
            elif key == "adapt":
                if value not in ADAPT:
                    raise SpecError(f"adapt={value!r}: use on, off, spymaster or guesser")
                spec = replace(spec, adapt=value)
            elif key == "assoc":
                if value not in ("on", "off"):
                    raise SpecError("assoc must be on or off")
                spec = replace(spec, associations=value == "on")
            elif key == "vector":
                spec = spec.describe([value])
            elif key == "bot":
                if value not in ("random", "embedding", "threshold"):
                    raise SpecError(f"unknown bot {value!r}: use embedding, threshold or random")
                spec = replace(spec, random=value == "random", threshold=value == "threshold")
            else:
                raise SpecError(f"unknown partner spec key {key!r}: use model, spymaster, guesser, noise, infer, adapt, assoc, vector or bot")
        return spec

    @property
    def label(self) -> str:
        """A canonical text for this spec: equal specs give equal labels (records carry it).

        >>> PartnerSpec.parse("noise=0.25,model=glove50").label
        'model=glove50,noise=0.25'
        >>> PartnerSpec.parse("bot=random").label, PartnerSpec.parse("").label
        ('bot=random', 'default')
        >>> PartnerSpec.parse("model=glove50,bot=threshold").label
        'bot=threshold,model=glove50'
        """
        if self.random:
            return "bot=random"
        parts = ["bot=threshold"] if self.threshold else []
        if self.spymaster_models == DEFAULT_MODELS and self.guesser_models == DEFAULT_GUESSER_MODELS:
            pass  # the default partner
        elif self.spymaster_models == self.guesser_models:
            parts.append("model=" + "+".join(self.spymaster_models))
        else:
            parts.append("spymaster=" + "+".join(self.spymaster_models))
            parts.append("guesser=" + "+".join(self.guesser_models))
        if self.noise:
            parts.append(f"noise={self.noise:g}")
        if not self.infer_key:
            parts.append("infer=off")
        if self.adapt is not None:
            parts.append(f"adapt={self.adapt}")
        if not self.associations:
            parts.append("assoc=off")
        parts.extend(f"vector={word}={'+'.join(like)}" for word, like in self.described)
        return ",".join(parts) or "default"

    def describe(self, texts: Sequence[str]) -> PartnerSpec:
        """This spec with more described words (``WORD=LIKE+LIKE``; a later one replaces an earlier)."""
        if not texts:
            return self
        described = dict(self.described)
        described.update(parse_described(t) for t in texts)
        return replace(self, described=tuple(sorted(described.items())))

    def check(self, pool: Sequence[str] = ()) -> None:
        """Load every model now and check that they know every word of ``pool`` and every
        word a described word is like (at least one family per role), so a bad name or an
        unknown word fails before any game is played."""
        if self.random:
            return
        for names in {self.spymaster_models, self.guesser_models}:
            ens = ensemble(names, self.described, associations=self.associations)
            for word, like in self.described:
                for w in like:
                    try:
                        ens.require(w, own=True)
                    except UnknownWordError as exc:
                        raise SpecError(f"vector={word}={'+'.join(like)}: {exc}; describe it with words the models know") from None
            for word in pool:
                ens.require(word)

    def build(self, seed: int = 0, pool: tuple[str, ...] = ()) -> Partner:
        """The partner of this spec for a game of ``seed``; ``pool``: one of many games dealt
        from these words (a simulation: :func:`~duetbot.rules.pool_words`), whose spymaster
        keeps each board word's products with its clue vocabulary
        (:meth:`~.ensemble.Ensemble.keep_word_columns`)."""
        if self.random:
            return random_partner(seed)
        spy_adapt, guesser_adapt = ADAPT.get(self.adapt or "", (AdaptConfig.enabled, GuesserConfig.adapt))
        assoc = self.associations
        spy = (ThresholdSpymaster(ensemble(self.spymaster_models, self.described, pool, assoc)) if self.threshold
               else spymaster(self.spymaster_models, self.described, spy_adapt, pool, assoc))
        guesser = EmbeddingGuesser(ensemble(self.guesser_models, self.described, associations=assoc),
                                   GuesserConfig(noise=self.noise, infer_key=self.infer_key, seed=seed,
                                                 adapt=guesser_adapt))
        return Partner(spy, guesser, self.text)


def default_bots(vectors: Sequence[str] = (), spec: PartnerSpec | None = None) -> tuple[EmbeddingSpymaster,
                                                                                       EmbeddingGuesser]:
    """The shipped spymaster and guesser, or those of ``spec`` (``vectors``: described words,
    ``WORD=LIKE+LIKE``), with every model loaded and checked."""
    spec = (spec or PartnerSpec()).describe(vectors)
    if spec.random:
        raise SpecError("bot=random cannot suggest anything; give embedding models, e.g. model=glove50")
    spec = replace(spec, threshold=False)   # suggestions come from the embedding bots of its families
    spec.check()
    p = spec.build()
    return p.spymaster, p.guesser  # type: ignore[return-value]
