"""The clue vocabulary: which words a spymaster may consider as clues.

Two halves:

* **Filters** (run time and build time, pure Python): :func:`clue_reject_reason` says why a
  word is not a clue candidate (stopword, junk, blocklisted, not alphabetic ...), or
  ``None``. The blocklist of profanity and slurs lives in ``duetbot/data/profanity.txt``.
* **Building** (build time only, needs ``wordfreq``): :func:`build_vocabulary` picks a
  model's lookup vocabulary from wordfreq's English frequency list and marks each row with
  its zipf frequency, a proper-noun flag and whether it is a clue candidate. The result is
  stored beside the vectors, so at run time wordfreq is not needed.

>>> clue_reject_reason("ocean") is None
True
>>> clue_reject_reason("the")
'stopword'
>>> clue_reject_reason("gonna")
'junk'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Callable, Iterable, Sequence

from ..words import word_key

__all__ = [
    "STOPWORDS",
    "JUNK",
    "MIN_CLUE_LENGTH",
    "BuiltVocabulary",
    "blocklist",
    "is_blocked",
    "clue_reject_reason",
    "is_clue_candidate",
    "entry_parts",
    "phrase_key",
    "build_vocabulary",
    "pool_entries",
    "pseudo_zipf",
]

#: Shorter words are never clues: two-letter "words" in frequency lists are nearly all
#: abbreviations, interjections or fragments (``uk``, ``ok``, ``mm``, ``ll``).
MIN_CLUE_LENGTH = 3

# Function words: they carry no association a partner could follow. Deliberately narrower
# than general-purpose stopword lists (e.g. scikit-learn's), which also drop content words
# that make good Codenames clues ("fire", "bottom", "empty", "thick", "system", numbers).
STOPWORDS: frozenset[str] = frozenset("""
a about above across after afterwards again against ago ah all almost alone along already
also although always am among amongst an and another any anybody anyhow anyone anything
anyway anyways anywhere are aren around as at away be became because become becomes
becoming been before beforehand behind being below beside besides between beyond both
but by can cannot cant could couldn couldnt did didn didnt do does doesn doesnt doing done
don dont down during each either else elsewhere enough etc even ever every everybody
everyone everything everywhere except few for from further furthermore had hadn hadnt has
hasn hasnt have haven havent having he hed  hence her here hereafter hereby herein
hers herself hes him himself his how however i id ie if  im in inc indeed instead into
is isn isnt it itd itll its itself ive just least less let lets like likely ltd many may
maybe me meanwhile might mightnt more moreover most mostly much must mustnt my myself
namely neither never nevertheless no nobody non none noone nor not nothing now nowhere of
off often oh ok okay on once one ones only onto or other others otherwise ought our ours
ourselves out over own per perhaps quite rather re really said same several shall shan
she   shes should shouldn shouldnt since so some somebody somehow someone
something sometime sometimes somewhat somewhere soon still such than that thats the their
theirs them themselves then thence there thereafter thereby therefore therein theres
thereupon these they theyd theyll theyre theyve this those though through throughout thru
thus  to together too toward towards um un under unless unlike until up upon us very
via vs was wasn wasnt we   were weren werent weve what whatever whats when whence
whenever where whereafter whereas whereby wherein whereupon wherever whether which while
whilst whither who whoever whole whom whos whose why will with within without  wont
would wouldn wouldnt yes yet you youd youll your youre yours yourself yourselves youve
""".split()) | frozenset(
    # frequent non-English function words that wordfreq's English list picks up
    "de del la le les el los las da das der und que por para une est du des di il".split()
)

# Frequent tokens that are not words a player would say as a clue: contraction fragments,
# spelled-out speech, chat abbreviations, web debris. Rules in clue_reject_reason catch most
# abbreviations (no vowel), so this list only holds the ones that look like words.
JUNK: frozenset[str] = frozenset("""
gonna wanna gotta gimme lemme kinda sorta dunno outta lotta hafta coulda woulda shoulda
musta ya yea yeah yep yup nope nah hey hi hmm hmmm huh uh uhh uhm umm mmm mm oops ooh aww
aw haha hahaha hehe lol lmao lmfao rofl omg wtf btw idk imo imho tbh fyi smh af ftw irl
jk np ty thx pls plz ur u r k y ain yall cuz coz tho thru nite tonite ima imma tryna
gon ole ye thee thou thy thine hath doth shalt wilt ere
http https www com org net html htm php asp jpg jpeg png gif pdf url urls
vip pm am mr mrs ms dr jr sr st ft lb lbs oz kg km mph etc al
ii iii iv vi vii viii ix xi xii xiii xiv xv xvi xvii xviii xix xx
""".split())

_ALPHA = re.compile(r"^[a-z]+$")
_TRIPLE = re.compile(r"(.)\1\1")
_VOWEL = re.compile(r"[aeiouy]")
_INFLECTIONS = ("s", "es", "ed", "d", "ing", "er", "ers", "y", "ies")


@lru_cache(maxsize=1)
def blocklist() -> tuple[frozenset[str], tuple[str, ...], frozenset[str]]:
    """(whole words, substrings, exceptions) from ``duetbot/data/profanity.txt``.

    A plain line blocks that word and its regular inflections (see :func:`is_blocked`);
    a line starting with ``~`` blocks every word containing it; a line starting with ``!``
    is an exception that is never blocked. ``#`` starts a comment.
    """
    words: set[str] = set()
    subs: list[str] = []
    allowed: set[str] = set()
    text = resources.files("duetbot").joinpath("data/profanity.txt").read_text(encoding="utf-8")
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip().lower()
        if not line:
            continue
        if line.startswith("~"):
            subs.append(line[1:])
        elif line.startswith("!"):
            allowed.add(line[1:])
        else:
            words.add(line)
    return frozenset(words), tuple(subs), frozenset(allowed)


def is_blocked(word: str) -> bool:
    """True if ``word`` is profanity or a slur per the blocklist (inflections included)."""
    w = word.lower()
    words, subs, allowed = blocklist()
    if w in allowed:
        return False
    if w in words or any(s in w for s in subs):
        return True
    for suffix in _INFLECTIONS:
        if w.endswith(suffix) and len(w) > len(suffix) + 2:
            stem = w[: -len(suffix)]
            if stem in words:
                return True
            # doubled consonant (e.g. "...tted") and y -> ies
            if len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in words:
                return True
            if suffix == "ies" and stem + "y" in words:
                return True
    return False


def clue_reject_reason(word: str) -> str | None:
    """Why ``word`` cannot be a clue candidate, or ``None`` if it can.

    Reasons: ``"not lowercase alphabetic"``, ``"too short"``, ``"stopword"``, ``"junk"``
    (speech spellings, chat abbreviations, words with no vowel such as ``nfl``, letters
    tripled as in ``sooo``), ``"blocklisted"``.
    """
    if not _ALPHA.match(word):
        return "not lowercase alphabetic"
    if len(word) < MIN_CLUE_LENGTH:
        return "too short"
    if word in STOPWORDS:
        return "stopword"
    if word in JUNK or not _VOWEL.search(word) or _TRIPLE.search(word):
        return "junk"
    if is_blocked(word):
        return "blocklisted"
    return None


def is_clue_candidate(word: str) -> bool:
    return clue_reject_reason(word) is None


def entry_parts(entry: str) -> list[str]:
    """The single words of an entry: ``"loch ness"`` -> ``["loch", "ness"]``, ``"t-rex"`` -> ``["t", "rex"]``."""
    return [p for p in re.split(r"[\s\-_]+", word_key(entry)) if p]


_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")
_POSSESSIVE = re.compile(r"(?<=\w)(['\u2019]s|s['\u2019])$")


@lru_cache(maxsize=4096)
def reading_forms(text: str) -> tuple[str, ...]:
    """The forms under which to look up a clue as a person reports it, best first:
    case and surrounding punctuation dropped, then without a possessive ending.

    >>> reading_forms(" Hulk. ")
    ('hulk',)
    >>> reading_forms("God's")
    ("god's", 'god')
    >>> reading_forms("Sci-Fi")
    ('sci-fi',)
    """
    entry = word_key(str(text).replace("\u2019", "'"))
    core = _EDGE_PUNCT.sub("", entry) or entry
    forms = [core]
    bare = _POSSESSIVE.sub("" if core.endswith("'s") else "s", core)
    if bare != core and bare:
        forms.append(bare)
    return tuple(f for f in forms if f)


def phrase_key(entry: str) -> str:
    """The vocabulary key of a multiword entry: words joined by ``_`` (word2vec's phrase convention)."""
    return "_".join(entry_parts(entry))


# ---------------------------------------------------------------------------------------
# Build time


@dataclass
class BuiltVocabulary:
    """A model's lookup vocabulary as chosen at build time.

    ``words[i]`` is the key of row ``i``; ``texts[i]`` the text the source model embeds
    for it (the phrase with spaces for ``loch_ness``); ``zipf``, ``proper`` and ``is_clue``
    are per row. ``missing_pool`` lists pool entries the source could not cover at all.
    """

    words: list[str]
    texts: list[str]
    zipf: list[float]
    proper: list[bool]
    is_clue: list[bool]
    missing_pool: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)


#: (rank, zipf) of wordfreq's English list, counting lowercase alphabetic words only: the
#: median zipf of the words within 20% of each rank 10^(k/4) (wordfreq 3.1.1, 289,023 words).
#: :func:`pseudo_zipf` interpolates it so a file ranked by its own row order gets zipf values
#: on wordfreq's scale (the spymaster's familiarity floor and prior read that scale).
_RANK_ZIPF: tuple[tuple[int, float], ...] = (
    (1, 7.58), (2, 7.43), (3, 7.41), (6, 7.18), (10, 7.0), (18, 6.75), (32, 6.52), (56, 6.3),
    (100, 6.0), (178, 5.69), (316, 5.45), (562, 5.23), (1000, 5.01), (1778, 4.74), (3162, 4.45),
    (5623, 4.13), (10000, 3.75), (17783, 3.35), (31623, 2.89), (56234, 2.39), (100000, 1.88),
    (177828, 1.39), (289023, 1.01),
)


def pseudo_zipf(rank: int) -> float:
    """A zipf frequency for the word at ``rank`` (1 = most frequent) of a frequency-ordered
    list, as wordfreq's English list would give its word of that rank; 0.0 past its end.

    >>> pseudo_zipf(1000), pseudo_zipf(10**6)
    (5.01, 0.0)
    """
    if rank < 1:
        raise ValueError("ranks start at 1")
    last_rank, last_zipf = _RANK_ZIPF[-1]
    if rank > last_rank:
        return 0.0
    lo_rank, lo_zipf = _RANK_ZIPF[0]
    for hi_rank, hi_zipf in _RANK_ZIPF[1:]:
        if rank <= hi_rank:
            # linear in log(rank): Zipf's law makes frequency a power of rank
            t = (math.log(rank) - math.log(lo_rank)) / (math.log(hi_rank) - math.log(lo_rank))
            return round(lo_zipf + t * (hi_zipf - lo_zipf), 2)
        lo_rank, lo_zipf = hi_rank, hi_zipf
    return last_zipf  # pragma: no cover - the loop returns for every rank <= last_rank


def build_vocabulary(
    knows: Callable[[str], bool],
    vocab_size: int,
    pool: Sequence[str] = (),
    case_form: Callable[[str], str | None] | None = None,
    min_zipf: float = 1.0,
    knows_phrase: Callable[[str], bool] | None = None,
    clue_allowed: Callable[[str], bool] | None = None,
    frequent: Iterable[str] | None = None,
    zipf_of: Callable[[str], float] | None = None,
) -> BuiltVocabulary:
    """Choose a lookup vocabulary (build time; imports wordfreq unless given ``frequent`` and ``zipf_of``).

    The vocabulary is the ``vocab_size`` most frequent lowercase alphabetic English words
    per wordfreq (zipf >= ``min_zipf``) that the source ``knows``, then every word of the
    ``pool`` and the parts of its multiword entries, then (if ``knows_phrase`` accepts it)
    each multiword entry as one key (``ice_cream``). Clue candidates are the rows that pass
    :func:`clue_reject_reason`; phrases are never clues.

    ``case_form(word)`` names the word's most frequent written form in a case-sensitive
    corpus: ``"lower"``, ``"title"`` (``Paris``), ``"upper"`` (``NASA``), ``"mixed"``
    (``iPhone``) or ``None`` if unknown. Title and mixed forms flag the row as a proper
    noun (still a clue candidate); upper-case forms are acronyms and never clues.
    ``clue_allowed(word)`` lets a source veto clue candidates (spaCy: words that share
    another word's vector row).

    ``frequent`` (words, most frequent first) and ``zipf_of`` (a text's zipf frequency)
    replace wordfreq's English list and frequencies: an imported file without wordfreq
    installed ranks by its own row order (:func:`pseudo_zipf`).
    """
    if frequent is None or zipf_of is None:
        from wordfreq import iter_wordlist, zipf_frequency

        frequent = iter_wordlist("en") if frequent is None else frequent
        zipf_of = zipf_of or (lambda text: zipf_frequency(text, "en"))

    form_fn = case_form or (lambda w: None)
    words: list[str] = []
    texts: list[str] = []
    seen: set[str] = set()
    stats = {"scanned": 0, "unknown_to_source": 0}

    def add(key: str, text: str) -> None:
        seen.add(key)
        words.append(key)
        texts.append(text)

    for w in frequent:
        if len(words) >= vocab_size:
            break
        if not _ALPHA.match(w):
            continue
        stats["scanned"] += 1
        if zipf_of(w) < min_zipf:
            break
        if w in seen:
            continue
        if knows(w):
            add(w, w)
        else:
            stats["unknown_to_source"] += 1
    stats["frequent_words"] = len(words)

    missing: list[str] = []
    for raw in pool:
        entry = word_key(raw)
        if not entry:
            continue
        parts = entry_parts(entry)
        covered = True
        for part in parts:
            if part in seen:
                continue
            if knows(part):
                add(part, part)
            else:
                covered = False
        if len(parts) > 1:
            key = phrase_key(entry)
            joined = "".join(parts)
            hyphen = "-".join(parts)
            if key not in seen and knows_phrase is not None and knows_phrase(entry):
                add(key, " ".join(parts))
                covered = True
            for alt in (joined, hyphen):
                if alt not in seen and knows(alt):
                    add(alt, alt)
                    covered = True
        if not covered:
            missing.append(raw.strip())
    stats["pool_extra_rows"] = len(words) - stats["frequent_words"]

    zipf: list[float] = []
    proper: list[bool] = []
    is_clue: list[bool] = []
    stats["acronyms"] = 0
    for key, text in zip(words, texts):
        zipf.append(round(float(zipf_of(text.replace("-", " "))), 2))
        single = "_" not in key
        form = form_fn(key) if single else None
        proper.append(form in ("title", "mixed"))
        ok = single and clue_reject_reason(key) is None
        if ok and form == "upper":
            ok = False
            stats["acronyms"] += 1
        if ok and clue_allowed is not None and not clue_allowed(key):
            ok = False
            stats["vetoed_by_source"] = stats.get("vetoed_by_source", 0) + 1
        is_clue.append(ok)
    stats["clue_words"] = sum(is_clue)
    stats["proper_clue_words"] = sum(1 for p, c in zip(proper, is_clue) if p and c)
    return BuiltVocabulary(words, texts, zipf, proper, is_clue, missing, stats)


def pool_entries(lines: Iterable[str]) -> list[str]:
    """Entries of a word pool file: one per line, blank lines and ``#`` comments skipped."""
    out = []
    for line in lines:
        entry = line.split("#", 1)[0].strip()
        if entry:
            out.append(entry)
    return out
