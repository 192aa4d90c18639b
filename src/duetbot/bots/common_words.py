"""Which clue words a person would say: common English words in their usual form.

The clue vocabulary is every frequent word a model knows; people give far fewer. A clue is
left out when it is

* a person's name (``nora``, ``polly``, ``keller``) or a fragment of a place's name
  (``rica``, ``lanka``, ``angeles``), unless it is also a common English word (``mark``,
  ``rose``) or a name most people know (``paris``, ``einstein``, ``beethoven``:
  ``data/lexicon/famous.txt``);
* a word not for a family table: profanity, slurs, sexual and bodily words
  (``data/profanity.txt``; the shipped vocabularies were built with an older list);
* a proper noun outside the English lexicon, a short form (``usa``, ``bro``, ``ugh``), a
  clipped form of a longer word (``stats``, ``info``, ``promo``, ``specs``: the full word is
  what a player says at the table) or a function word (``unto``, ``whilst``);
* an inflected form rarer than its base: plurals and -s forms (``poets``, ``palms``,
  ``tackles``: the usual word is the base), -ed forms not clearly more common than the
  base (``accounted``, ``posted``; ``united``, ``married`` stay), -ing forms far rarer than
  the base (``bowling``, ``morning`` stay). Plurals that are the usual word stay
  (``glasses``, ``clothes``, ``news``).

Rarity (words outside the commonest 30,000) is the spymaster's ``min_zipf``.

>>> import numpy as np
>>> words = ["poet", "poets", "glass", "glasses", "nora", "paris", "rica", "mark", "ocean"]
>>> zipf = np.array([4.2, 3.8, 4.9, 4.3, 3.5, 4.8, 3.8, 5.1, 4.7])
>>> proper = np.array([False, False, False, False, True, True, True, True, False])
>>> [w for w, ok in zip(words, people_would_say(words, zipf, proper)) if not ok]
['poets', 'nora', 'rica']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np

from ..embeddings.vocab import is_blocked
from ..words.lexicon import data_lines, english_words

#: Words a person would not give as a clue although the clue vocabulary has them.
FUNCTION_WORDS = frozenset("""amid amidst amongst despite former formerly hence hereby herein
latter seem seemed seems thereby therein thereof thus unto upon whereas whereby whilst""".split())

#: Clipped forms of longer words, said in chat but not given as clues (issue 37). Clipped
#: words that are the usual word (phone, photo, exam, gym, lab, math, fridge) are not here.
CLIPPED = frozenset("""ad ads admin approx bio bios biz chem cig cigs combo demo demos dept doc docs
fav fave glam gov govt info intro intros lit mag mags mayo mic pic pics prof profs promo promos
pro pros ref refs rep reps spec specs stat stats sub subs tech techs temp temps uni vax veg vibe
vibes""".split())

#: Parts of place names that people never say alone.
FRAGMENTS = frozenset("""abu aires angeles aviv buenos carolina costa dakota dhabi diego
francisco hong kong lanka leone lumpur orleans petersburg pradesh puerto qaeda rhode rica
rico san santa sri york zealand""".split())

#: Plurals that are the usual word although the singular is more frequent.
USUAL_PLURALS = frozenset("""arms clothes customs glasses goods headquarters jeans manners
means news odds pants remains savings scissors series shorts species sports stairs thanks
trousers woods""".split())

#: Short words outside the English lexicon that are everyday words all the same.
USUAL_SHORT = frozenset("app apps lab pub tab".split())


#: Words outside the English lexicon (and not famous) must be at least this common: below it
#: they are mostly foreign words and fragments (facto, casa, nadu, kung) and names of places
#: few people know, with a few everyday words the lexicon lacks (skillet, clarinet) lost.
UNLISTED_MIN_ZIPF = 3.6


@lru_cache(maxsize=None)
def famous() -> frozenset[str]:
    """Proper nouns most people know (``data/lexicon/famous.txt``)."""
    return frozenset(w for line in data_lines("famous.txt") for w in line.split())


@lru_cache(maxsize=None)
def people_names() -> frozenset[str]:
    """Common first names and surnames (``data/lexicon/names.txt``)."""
    return frozenset(data_lines("names.txt"))


def _rarer_inflection(word: str, freq: dict[str, float], english: frozenset[str]) -> bool:
    """An inflected form (-s, -ed, -ing) rarer than its base, as the module says."""
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")) and word not in USUAL_PLURALS:
        bases = [word[:-1]] + ([word[:-2]] if word.endswith("es") else []) + \
            ([word[:-3] + "y"] if word.endswith("ies") else [])
        base = max((freq[b] for b in bases if b in freq and len(b) >= 3), default=None)
        if base is not None and freq[word] < base:
            return True
        if base is None and any(b in english for b in bases if len(b) >= 3):
            return True   # a form of a word too rare to be a clue itself (pores, pore)
    for suffix, slack in (("ed", 0.3), ("ing", -1.0)):
        stem = word[: -len(suffix)]
        if not word.endswith(suffix) or len(stem) < 3:
            continue
        bases = [stem, stem + "e"] + ([stem[:-1] + "y"] if stem.endswith("i") else []) + \
            ([stem[:-1]] if stem[-1] == stem[-2] else [])
        base = max((freq[b] for b in bases if b in freq), default=None)
        if base is not None and freq[word] < base + slack:
            return True
    return False


def people_would_say(words: Sequence[str], zipf: np.ndarray, proper: np.ndarray) -> np.ndarray:
    """A boolean mask over ``words`` (a clue vocabulary with each word's zipf frequency and
    proper-noun flag): the words a person would give as a clue (the module's rules)."""
    english, well_known, names = english_words(), famous(), people_names()
    freq = dict(zip(words, np.asarray(zipf, float).tolist()))
    out = np.ones(len(words), bool)
    for i, w in enumerate(words):
        if is_blocked(w):         # not for a family table, whatever the vocabulary was built with
            out[i] = False
            continue
        if w in well_known:
            continue
        if w in FRAGMENTS or w in FUNCTION_WORDS or w in CLIPPED or _rarer_inflection(w, freq, english):
            out[i] = False
        elif w not in english and (w in names or proper[i] or freq[w] < UNLISTED_MIN_ZIPF
                                   or (len(w) <= 3 and w not in USUAL_SHORT)):
            out[i] = False
    return out
