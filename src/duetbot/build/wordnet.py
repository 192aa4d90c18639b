"""Build the WordNet families from the WordNet 3.0 database (a maintainer step).

``duetbot models build wordnet`` runs this script (the one build entry point; ``--list`` shows
what each target needs). Input: Debian's ``wordnet-base`` package (``apt-get install
wordnet-base``), which holds the database in ``/usr/share/wordnet/`` (``--wordnet`` to point
elsewhere). The files are read directly in their ``wndb(5WN)`` format by the small reader
below (no nltk, no download). Only derived vectors are shipped, with WordNet's licence notice
beside them (``WORDNET_LICENSE.txt`` in each model directory).

    python -m duetbot.build.wordnet                         # shipped settings
    python -m duetbot.build.wordnet --kind gloss --out /tmp/m/wordnet_gloss

Two kinds of family (``--kind``):

* ``relation`` (family ``wordnet``): a word's contexts are the synsets it belongs to and the
  synsets reachable from them through WordNet's pointers (hypernyms, hyponyms, meronyms,
  holonyms, derivations, similar-to, also-see, domains, antonyms, ...): context weights
  ``W (I + b R + b^2 R^2)`` with ``W`` word -> synset membership and ``R`` the row-normalised
  synset pointer graph, i.e. the expected visits of a 2-step random walk from the word.
* ``gloss`` (family ``wordnet_gloss``, dict2vec-like): a word's contexts are the content
  words (lemmatised with WordNet's own morphology) of the definitions of its synsets, and
  the words whose definitions mention it.

Both: PPMI of the word x context matrix (context marginals smoothed ``^--alpha``), truncated
SVD (scikit-learn ``TruncatedSVD``, ARPACK, ``random_state=0``) to ``--dims``, vectors
``U * sigma^--power``; the ``--vocab-size`` most frequent single alphabetic words (wordfreq
zipf) plus the shipped pool's words are shipped, unit rows, float16. Deterministic: the same
database gives the same ``vectors.npy`` checksum.
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from ..embeddings import store
from ..embeddings.vocab import STOPWORDS, entry_parts, is_clue_candidate
from ..wordpool import default_pool, published_cards
from .models import package_version, svd_embedding

DEFAULT_WORDNET = Path("/usr/share/wordnet")
DEFAULT_COPYRIGHT = Path("/usr/share/doc/wordnet-base/copyright")
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
LICENSE_FILE = "WORDNET_LICENSE.txt"
ATTRIBUTION = "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved."
LICENCE = ("WordNet 3.0 licence: use, copy, modify and distribute for any purpose without fee, "
           "keeping the copyright notice and disclaimer (WORDNET_LICENSE.txt beside the vectors)")
SOURCE = "WordNet 3.0 (Princeton University), Debian package wordnet-base, read in its wndb(5WN) format"
#: The notice WordNet's licence asks every copy to carry (from the package's copyright file).
NOTICE = """\
WordNet Release 3.0

This software and database is being provided to you, the LICENSEE, by
Princeton University under the following license.  By obtaining, using
and/or copying this software and database, you agree that you have
read, understood, and will comply with these terms and conditions.:

Permission to use, copy, modify and distribute this software and
database and its documentation for any purpose and without fee or
royalty is hereby granted, provided that you agree to comply with
the following copyright notice and statements, including the disclaimer,
and that the same appear on ALL copies of the software, database and
documentation, including modifications that you make for internal
use or for distribution.

WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.

THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR
IMPLIED.  BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT-
ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE
OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT
INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR
OTHER RIGHTS.

The name of Princeton University or Princeton may not be used in
advertising or publicity pertaining to distribution of the software
and/or database.  Title to copyright in this software, database and
any associated documentation shall at all times remain with
Princeton University and LICENSEE agrees to preserve same.

The vectors in this directory are derived from WordNet 3.0 by duetbot
(duetbot/build/wordnet.py); they are not WordNet itself.
"""

#: The shipped settings (measured on the human Duet dev set with benchmarks/bench_wordnet.py).
DEFAULTS: dict[str, dict[str, Any]] = {
    "relation": {"vocab_size": 20000, "dims": 96, "alpha": 0.75, "power": 0.5, "hop": 0.5, "smooth": 1.0, "weighting": "ppmi"},
    "graph": {"vocab_size": 20000, "dims": 96, "alpha": 0.75, "power": 0.5, "hop": 0.5, "smooth": 1.0,
              "weighting": "ppmi"},
    "gloss": {"vocab_size": 20000, "dims": 96, "alpha": 0.75, "power": 0.5, "hop": 0.5, "smooth": 1.0, "weighting": "ppmi"},
}
NAMES = {"relation": "wordnet", "gloss": "wordnet_gloss", "graph": "wordnet_graph"}
_ALPHA = re.compile(r"^[a-z]+$")
_GLOSS_WORD = re.compile(r"[a-z]+")
_MARKER = re.compile(r"\((a|p|ip)\)$")

# --- the wndb reader ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pointer:
    symbol: str        # "@" hypernym, "~" hyponym, "+" derivation, ... (wninput(5WN))
    target: str        # "offset pos" key of the target synset
    source_word: int   # 0: semantic (synset to synset); k: lexical, from the synset's k-th word
    target_word: int


@dataclass
class Synset:
    key: str                     # "offset pos" (pos "s", adjective satellite, is read as "a")
    lex_file: int
    words: list[str]             # lemmas as written, "_" for spaces, adjective markers removed
    lex_ids: list[int] = field(default_factory=list)  # each word's lex_id (its sense key's third field)
    satellite: bool = False      # ss_type "s"
    pointers: list[Pointer] = field(default_factory=list)
    gloss: str = ""


def parse_data_line(line: str, pos: str) -> Synset | None:
    """One line of ``data.<pos>`` (wndb(5WN)); ``None`` for the licence header lines.

    >>> s = parse_data_line("02084071 05 n 03 dog 0 domestic_dog 0 Canis_familiaris 0 002 "
    ...     "@ 02083346 n 0000 #m 02083863 n 0000 | a member of the genus Canis", "n")
    >>> s.key, s.words, [(p.symbol, p.target) for p in s.pointers], s.gloss
    ('02084071 n', ['dog', 'domestic_dog', 'Canis_familiaris'], [('@', '02083346 n'), ('#m', '02083863 n')], 'a member of the genus Canis')
    """
    if not line or line.startswith("  "):
        return None
    head, _, gloss = line.partition(" | ")
    f = head.split()
    offset, lex_file, n_words = f[0], int(f[1]), int(f[3], 16)
    words = [_MARKER.sub("", f[4 + 2 * i]) for i in range(n_words)]
    lex_ids = [int(f[5 + 2 * i], 16) for i in range(n_words)]
    i = 4 + 2 * n_words
    n_ptr = int(f[i])
    i += 1
    pointers = []
    for _ in range(n_ptr):
        sym, off, p, st = f[i:i + 4]
        i += 4
        pointers.append(Pointer(sym, f"{off} {'a' if p == 's' else p}", int(st[:2], 16), int(st[2:], 16)))
    return Synset(f"{offset} {pos}", lex_file, words, lex_ids, f[2] == "s", pointers, gloss.strip())


def read_synsets(wordnet: Path) -> Iterator[Synset]:
    """Every synset of the four ``data.*`` files, in file order."""
    for pos, name in POS_FILES.items():
        with open(wordnet / f"data.{name}", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                s = parse_data_line(line.rstrip("\n"), pos)
                if s is not None:
                    yield s


_SS_TYPE = {"n": 1, "v": 2, "a": 3, "r": 4}


def read_tag_counts(wordnet: Path) -> dict[tuple[str, int, int, int], int]:
    """(lemma, ss_type, lex_file, lex_id) -> how often the sense was tagged in the semantic
    concordance (``cntlist.rev``: ``sense_key sense_number tag_cnt``; the satellite head is
    ignored). Empty when the file is absent."""
    out: dict[tuple[str, int, int, int], int] = {}
    path = wordnet / "cntlist.rev"
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) != 3 or "%" not in parts[0]:
            continue
        lemma, _, rest = parts[0].partition("%")
        f = rest.split(":")
        try:
            key = (lemma.lower(), int(f[0]), int(f[1]), int(f[2]))
            out[key] = out.get(key, 0) + int(parts[2])
        except (ValueError, IndexError):
            continue
    return out


def sense_weight(s: Synset, k: int, counts: dict[tuple[str, int, int, int], int], smooth: float) -> float:
    """How much of a word's mass goes to its ``k``-th word's sense ``s``: tagged count + smooth."""
    ss = 5 if s.satellite else _SS_TYPE[s.key[-1]]
    lid = s.lex_ids[k] if k < len(s.lex_ids) else 0
    return counts.get((s.words[k].lower(), ss, s.lex_file, lid), 0) + smooth


def read_exceptions(wordnet: Path) -> dict[str, dict[str, str]]:
    """pos -> inflected form -> base form, from the ``*.exc`` files."""
    out: dict[str, dict[str, str]] = {}
    for pos, name in POS_FILES.items():
        table: dict[str, str] = {}
        path = wordnet / f"{name}.exc"
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = line.split()
                if len(parts) >= 2:
                    table.setdefault(parts[0], parts[1])
        out[pos] = table
    return out


#: WordNet's detachment rules (morphy(7WN)), tried in order per part of speech.
_RULES = {
    "n": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
          ("ies", "y")],
    "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
    "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    "r": [],
}


def morphy(word: str, lemmas: set[str], exceptions: dict[str, dict[str, str]]) -> str:
    """The base form WordNet would give ``word`` (the word itself when it is a lemma or no rule
    finds one): nouns first, then verbs, adjectives.

    >>> morphy("dogs", {"dog"}, {"n": {}, "v": {}, "a": {}, "r": {}})
    'dog'
    """
    if word in lemmas:
        return word
    for pos in ("n", "v", "a"):
        base = exceptions.get(pos, {}).get(word)
        if base and base in lemmas:
            return base
        for suffix, repl in _RULES[pos]:
            if word.endswith(suffix):
                cand = word[: len(word) - len(suffix)] + repl
                if cand in lemmas:
                    return cand
    return word


# --- the two families -----------------------------------------------------------------------------


def _vocab(synsets: list[Synset]) -> tuple[list[str], dict[str, int], dict[str, bool]]:
    """Lower-cased lemmas (sorted) with their row, and whether every spelling is capitalised."""
    capital: dict[str, bool] = {}
    for s in synsets:
        for w in s.words:
            low = w.lower()
            capital[low] = capital.get(low, True) and w != low
    words = sorted(capital)
    return words, {w: i for i, w in enumerate(words)}, capital


def relation_contexts(synsets: list[Synset], hop: float, counts=None, smooth: float = 1.0):
    """(words, word x synset context matrix): membership, then 1 and 2 pointer hops
    (``hop`` per step; lexical pointers also link their two words' synsets)."""
    from scipy import sparse

    words, widx, _ = _vocab(synsets)
    sidx = {s.key: i for i, s in enumerate(synsets)}
    r, c = [], []
    mr, mc, mv = [], [], []
    for i, s in enumerate(synsets):
        for k, w in enumerate(s.words):
            mr.append(widx[w.lower()])
            mc.append(i)
            mv.append(sense_weight(s, k, counts or {}, smooth))
        for p in s.pointers:
            j = sidx.get(p.target)
            if j is not None and j != i:
                r.append(i)
                c.append(j)
    n = len(synsets)
    member = sparse.csr_matrix((np.array(mv), (mr, mc)), shape=(len(words), n))
    rel = sparse.csr_matrix((np.ones(len(r)), (r, c)), shape=(n, n))
    rel = ((rel + rel.T) > 0).astype(np.float64)  # every relation read both ways
    deg = np.asarray(rel.sum(axis=1)).ravel()
    rel = sparse.diags(1.0 / np.where(deg > 0, deg, 1.0)) @ rel
    walk = sparse.identity(n, format="csr") + hop * rel + hop * hop * (rel @ rel)
    # a word spreads one unit of mass over its senses, by how often each was tagged
    wdeg = np.asarray(member.sum(axis=1)).ravel()
    member = sparse.diags(1.0 / np.where(wdeg > 0, wdeg, 1.0)) @ member
    return words, (member @ walk).tocsr()


def gloss_contexts(synsets: list[Synset], wordnet: Path, counts=None, smooth: float = 1.0):
    """(words, word x word context matrix): a lemma -> the content words of its synsets'
    definitions (example sentences in quotes dropped), made symmetric (defined by + defines)."""
    from scipy import sparse

    words, widx, _ = _vocab(synsets)
    lemmas = set(widx)
    exceptions = read_exceptions(wordnet)
    cache: dict[str, str] = {}
    pairs: dict[tuple[int, int], float] = defaultdict(float)
    total_weight: dict[str, float] = defaultdict(float)
    for s in synsets:
        for k, w in enumerate(s.words):
            total_weight[w.lower()] += sense_weight(s, k, counts or {}, smooth)
    for s in synsets:
        text = s.gloss.split('"')[0].lower()  # the definition, not the examples
        toks = []
        for t in _GLOSS_WORD.findall(text):
            if len(t) < 3 or t in STOPWORDS:
                continue
            base = cache.get(t)
            if base is None:
                base = cache[t] = morphy(t, lemmas, exceptions)
            if base in widx:
                toks.append(widx[base])
        if not toks:
            continue
        members: dict[int, float] = {}
        for k, w in enumerate(s.words):
            members[widx[w.lower()]] = sense_weight(s, k, counts or {}, smooth) / total_weight[w.lower()]
        for m, share in members.items():
            for t in toks:
                if t != m:
                    pairs[(m, t)] += share / len(toks)
    keys = sorted(pairs)
    rows = np.fromiter((k[0] for k in keys), np.int64, len(keys))
    cols = np.fromiter((k[1] for k in keys), np.int64, len(keys))
    vals = np.fromiter((pairs[k] for k in keys), np.float64, len(keys))
    m = sparse.csr_matrix((vals, (rows, cols)), shape=(len(words), len(words)))
    return words, (m + m.T).tocsr()


def ppmi(m, alpha: float):
    """Positive PMI of a (words, contexts) matrix, context marginals smoothed ``^alpha``."""
    from scipy import sparse

    m = m.tocoo()
    total = m.sum()
    rs = np.asarray(m.tocsr().sum(axis=1)).ravel()
    cs = np.asarray(m.tocsc().sum(axis=0)).ravel() ** alpha
    cs = cs / cs.sum()
    pmi = np.log((m.data / total) / ((rs[m.row] / total) * cs[m.col]))
    keep = pmi > 0
    out = sparse.csr_matrix((pmi[keep], (m.row[keep], m.col[keep])), shape=m.shape)
    out.sort_indices()
    return out


def hellinger(m):
    """Square roots of each row's context distribution: cosines of these rows are the
    Bhattacharyya overlap of two words' walk distributions (no rare-context boost, unlike PMI)."""
    m = m.tocsr().astype(np.float64)
    rs = np.asarray(m.sum(axis=1)).ravel()
    from scipy import sparse

    out = sparse.diags(1.0 / np.where(rs > 0, rs, 1.0)) @ m
    out.data = np.sqrt(out.data)
    return out.tocsr()


def _zipf(words: list[str]) -> np.ndarray:
    from wordfreq import zipf_frequency

    return np.array([zipf_frequency(w, "en") for w in words], np.float32)


def _pool_words() -> set[str]:
    """The shipped pool's words and phrase keys, and the published card lists'."""
    out: set[str] = set()
    for entry in (*published_cards(), *default_pool()):
        out.update(entry_parts(entry))
        out.add("_".join(entry_parts(entry)))
    return out


def build(wordnet: Path, out: Path, kind: str = "relation", vocab_size: int | None = None,
          dims: int | None = None, alpha: float | None = None, power: float | None = None,
          hop: float | None = None, smooth: float | None = None,
          weighting: str | None = None, graph_weight: float = 1.0, fit_size: int = 0, log=print) -> dict[str, Any]:
    """Build the model directory ``out`` of one WordNet family; returns the metadata written."""
    d = DEFAULTS[kind]
    vocab_size = d["vocab_size"] if vocab_size is None else vocab_size
    dims = d["dims"] if dims is None else dims
    alpha = d["alpha"] if alpha is None else alpha
    power = d["power"] if power is None else power
    hop = d["hop"] if hop is None else hop
    smooth = d["smooth"] if smooth is None else smooth
    weighting = d["weighting"] if weighting is None else weighting
    synsets = list(read_synsets(wordnet))
    counts = read_tag_counts(wordnet)
    if kind == "relation":
        words, m = relation_contexts(synsets, hop, counts, smooth)
    elif kind == "gloss":
        words, m = gloss_contexts(synsets, wordnet, counts, smooth)
    else:  # both context blocks side by side, each weighted on its own below
        words, rel = relation_contexts(synsets, hop, counts, smooth)
        _, gl = gloss_contexts(synsets, wordnet, counts, smooth)
        from scipy import sparse

        m = sparse.hstack([rel, gl]).tocsr()
        n_rel = rel.shape[1]
    _, _, capital = _vocab(synsets)
    # fit on the single alphabetic words and the pool's phrases; ship the frequent ones
    pool = _pool_words()
    fit = np.array([i for i, w in enumerate(words) if _ALPHA.match(w) or w in pool], np.int64)
    sub = m[fit].tocsr()
    fit = fit[np.diff(sub.indptr) > 0]
    sub = m[fit].tocsr()
    if kind == "gloss":
        sub = sub[:, fit].tocsr()
    if kind == "graph":
        from scipy import sparse

        sub = sparse.hstack([sub[:, :n_rel], sub[:, n_rel:][:, fit]]).tocsr()
    fit_words = [words[i] for i in fit]
    log(f"{NAMES[kind]}: {len(synsets)} synsets, {len(words)} lemmas; PPMI + SVD of {len(fit_words)} words x "
        f"{sub.shape[1]} contexts ({sub.nnz} non-zero) to {dims} dims")
    weigh = ppmi if weighting == "ppmi" else (lambda x, _a: hellinger(x))
    if kind == "graph":  # PPMI per block, so neither block's marginals rule the other's
        from scipy import sparse

        n_rel = len(synsets)
        weighted = sparse.hstack([weigh(sub[:, :n_rel], alpha), graph_weight * weigh(sub[:, n_rel:], alpha)]).tocsr()
    else:
        weighted = weigh(sub, alpha)
    zipf = _zipf(fit_words)
    order = sorted(range(len(fit_words)), key=lambda i: (-float(zipf[i]), fit_words[i]))
    chosen = set(order[:vocab_size]) | {i for i, w in enumerate(fit_words) if w in pool}
    ship = sorted(chosen)
    # the SVD is fitted on the shipped rows (or the fit_size most frequent, if larger): its
    # dimensions go to the words a game meets, not to rare species and obsolete senses
    rows = ship if fit_size <= len(ship) else sorted(chosen | set(order[:fit_size]))
    vec, sigma = svd_embedding(weighted[rows], dims, power)
    vec = vec[np.searchsorted(rows, ship)]
    vocab = [fit_words[i] for i in ship]
    vec16 = vec.astype(np.float16)
    is_clue = np.array([is_clue_candidate(w) for w in vocab], bool)
    proper = np.array([capital.get(w, False) for w in vocab], bool)

    vs = set(vocab)
    pool_missing = [w for w in default_pool() if "_".join(entry_parts(w)) not in vs
                    and not all(p in vs for p in entry_parts(w))]
    cmd = (f"python -m duetbot.build.wordnet --kind {kind} --vocab-size {vocab_size} "
           f"--dims {dims} --weighting {weighting} --alpha {alpha} --power {power} --smooth {smooth}" + (f" --hop {hop}" if kind == "relation" else ""))
    method = {
        "relation": ("word x synset contexts W (I + hop R + hop^2 R^2): W membership (a word's senses share one "
                     "unit, by tagged count + smooth, cntlist.rev), R the symmetric row-normalised pointer graph (all pointer types)"),
        "graph": "relation contexts and gloss contexts side by side (each block weighted alone)",
        "gloss": ("word x word contexts: the lemmatised content words of the definitions of a word's synsets "
                  "(examples dropped), symmetric"),
    }[kind]
    meta = {
        "name": out.name,
        "family": NAMES[kind],
        "description": {"graph": "WordNet 3.0 relations and definitions together, PPMI + SVD",
                        "relation": "WordNet 3.0 relations (synsets, hypernyms, meronyms, ...), PPMI + SVD",
                        "gloss": "WordNet 3.0 definitions (a word and the words of its glosses), PPMI + SVD"}[kind],
        "attribution": ATTRIBUTION,
        "licence": LICENCE,
        "source": {"description": SOURCE, "package": "wordnet-base (Debian)", "version": "3.0",
                   "licence": "WordNet 3.0 licence", "attribution": ATTRIBUTION,
                   "files": {f"data.{n}": store.sha256_file(wordnet / f"data.{n}") for n in POS_FILES.values()},
                   "synsets": len(synsets), "lemmas": len(words)},
        "build": {
            "script": "duetbot/build/wordnet.py", "command": cmd, "kind": kind, "vocab_size": vocab_size,
            "dims": dims, "alpha": alpha, "power": power, "smooth": smooth, "weighting": weighting, **({"hop": hop} if kind == "relation" else {}),
            "method": method + "; PPMI with context marginals^alpha; TruncatedSVD(arpack, random_state=0); "
                               "U * sigma^power; unit rows; float16",
            "fitted_words": len(fit_words),
            "singular_values_top5": [round(float(x), 4) for x in sigma[:5]],
            "pool_not_covered": pool_missing,
            "pool_entries": len(default_pool()),
            "python": platform.python_version(),
            "versions": {"numpy": package_version("numpy"), "scipy": package_version("scipy"),
                         "scikit-learn": package_version("scikit-learn"), "wordfreq": package_version("wordfreq")},
        },
        "clue_vocabulary": {"filters": "duetbot.embeddings.vocab.is_clue_candidate",
                            "zipf": "wordfreq 'en' (data CC BY-SA 4.0)"},
    }
    result = store.write_model(out, vocab, vec16, zipf[ship], proper, is_clue, meta)
    (out / LICENSE_FILE).write_text(NOTICE, encoding="utf-8")
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--wordnet", type=Path, default=DEFAULT_WORDNET, help="WordNet dict directory (default: %(default)s)")
    p.add_argument("--kind", choices=("relation", "gloss", "graph", "both"), default="both",
                   help="which family: relation (wordnet), gloss (wordnet_gloss) or both (default)")
    p.add_argument("--out", type=Path, default=None,
                   help="model directory (one kind) or parent directory (both; default: the package's data/models)")
    p.add_argument("--vocab-size", type=int, default=None)
    p.add_argument("--dims", type=int, default=None)
    p.add_argument("--alpha", type=float, default=None, help="PMI context marginal smoothing")
    p.add_argument("--power", type=float, default=None, help="singular value weighting")
    p.add_argument("--hop", type=float, default=None, help="relation: weight per pointer step of the walk")
    p.add_argument("--weighting", choices=("ppmi", "hellinger"), default=None,
                   help="ppmi: positive PMI of word x context; hellinger: square roots of each word's distribution")
    p.add_argument("--fit-size", type=int, default=0,
                   help="fit the SVD on this many most frequent words (default: the shipped ones)")
    p.add_argument("--graph-weight", type=float, default=1.0, help="graph: weight of the gloss block")
    p.add_argument("--smooth", type=float, default=None,
                   help="added to each sense's tagged count (cntlist.rev) when a word's mass is spread over its senses")
    a = p.parse_args(argv)
    if not (a.wordnet / "data.noun").is_file():
        print(f"no WordNet database at {a.wordnet} (apt-get install wordnet-base, or pass --wordnet DIR)",
              file=sys.stderr)
        return 2
    kinds = ["relation", "gloss"] if a.kind == "both" else [a.kind]
    for kind in kinds:
        if a.kind == "both" or a.out is None:
            out = (a.out or store.package_models_dir()) / NAMES[kind]
        else:
            out = a.out
        meta = build(a.wordnet, out, kind, a.vocab_size, a.dims, a.alpha, a.power, a.hop, a.smooth, a.weighting, a.graph_weight, a.fit_size)
        size = sum(f["bytes"] for f in meta["files"].values())
        print(f"wrote {out}: {meta['vocab_size']} words x {meta['dim']} dims, {size / 1e6:.2f} MB, "
              f"checksum {meta['checksum']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
