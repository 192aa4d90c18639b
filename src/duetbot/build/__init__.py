"""Building what duetbot ships, and importing a person's own vectors: maintainer work.

Nothing that plays, suggests or serves imports this package: ``duetbot models build`` and
``duetbot models import`` import it inside the command (tests/test_architecture.py holds
that). It needs the ``duetbot[build]`` extra (``models import`` needs only gensim).

- ``targets.py``: every build target, what it needs installed, in which order ``all`` runs;
- ``models.py``: the embedding families (GloVe, spaCy, MiniLM) as shipped tables;
- ``subword.py``: the subword fallback for words a family lacks;
- ``associations.py``, ``wordnet.py``: families from association norms and WordNet;
- ``lm_associations.py``, ``wordllama_family.py``: a small language model read as association
  norms (``smollm``) and WordLlama's token codebook (``wordllama``);
- ``word_pool.py`` (with ``word_pool_curation.txt``): the default word pool;
- ``morphology.py``: the lexicon the clue checks read (``duetbot.words.lexicon``);
- ``names.py``: the people's-names list the spymaster's clue words leave out;
- ``phrases.py``: the two-word phrases the guesser reads (POLICE -> STATION);
- ``importer.py``: ``duetbot models import`` (word2vec, GloVe, fastText, KeyedVectors files).

Each builder with options of its own also runs as ``python -m duetbot.build.NAME --help``.
"""

from pathlib import Path


def write_or_check(target: Path, text: str, check: bool, what: str) -> int:
    """Write a generated data file into the package, or (``check``) say whether the committed
    one is what a fresh build gives (exit status 1 when it differs)."""
    if check:
        same = target.exists() and target.read_text(encoding="utf-8") == text
        print(f"{target}: {'up to date' if same else 'differs from a fresh build'}")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    print(f"{what} -> {target}")
    return 0
