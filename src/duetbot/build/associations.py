"""Build the ``eat`` model: word vectors from human word associations (a maintainer step).

``duetbot models build eat`` runs this script (the one build entry point; ``--list`` shows
what each target needs).

Input: the Edinburgh Associative Thesaurus as ``stimulus<TAB>response<TAB>count`` rows
(``--eat PATH``; a copy lives outside the repository, with the other shared data). The norms themselves are never copied into the repository: only the
derived vectors are shipped, with the attribution "Edinburgh Associative Thesaurus
(Kiss et al. 1973), Open Government Licence v3".

    duetbot models build eat --eat PATH                                  # shipped settings
    python -m duetbot.build.associations --eat PATH --dims 96 --vocab-size 15000 --out /tmp/m

Steps (all deterministic; same input -> same ``vectors.npy`` checksum):

1. Words: stimuli and responses lower-cased; only alphabetic words are kept (empty and
   punctuation responses, multiword and hyphenated responses are dropped).
2. Forward strength ``F[s, r]`` = share of the people shown ``s`` who answered ``r`` (the
   denominator counts every answer, filtered ones too). The association graph is made
   symmetric with the backward strengths: ``S = F + F^T`` (clue -> word plus word -> clue).
3. Positive PMI of ``S`` over every word with at least ``--min-degree`` distinct associates
   (context-distribution smoothing ``--alpha`` on the marginals), truncated SVD
   (scikit-learn ``TruncatedSVD``, ARPACK, ``random_state=0``) to ``--dims`` dimensions,
   vectors ``U * sigma^--power``.
4. Shipped rows: the ``--vocab-size`` words with the largest association mass (row sum of
   ``S``; ties by word), alphabetical order, unit-normalised, cast to float16.

Output: a model directory (``model.json``, ``vectors.npy``, ``vocab.txt``, ``rows.npy``)
that ``duetbot.embeddings.load_model("eat")`` reads like any other model; family ``eat``.
"""

from __future__ import annotations

import argparse
import gzip
import platform
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

from ..embeddings import store
from ..embeddings.vocab import entry_parts, is_clue_candidate
from ..wordpool import default_pool
from .models import package_version, svd_embedding

DEFAULT_OUT = store.package_models_dir() / "eat"
ATTRIBUTION = "Edinburgh Associative Thesaurus (Kiss et al. 1973), Open Government Licence v3"
LICENCE = "Open Government Licence v3 (UK public sector data); derived vectors, attribution required"
SOURCE = ("Edinburgh Associative Thesaurus (G. R. Kiss, C. Armstrong, R. Milroy, J. Piper, 1973; "
          "8,210 stimuli, ~100 British students each, 1968-1971), restructured by M. Wilson (RAL), "
          "Pajek network EATnew.net by V. Batagelj (bavla/Nets), converted to TSV")
_ALPHA = re.compile(r"^[a-z]+$")

#: The shipped settings (tuned on the human Duet dev set with benchmarks/bench_associations.py).
DEFAULTS: dict[str, Any] = {"vocab_size": 10000, "dims": 144, "min_degree": 2, "alpha": 0.75, "power": 0.5}


def read_eat(path: Path) -> tuple[dict[tuple[str, str], float], dict[str, float], dict[str, int]]:
    """(kept (stimulus, response) -> count, stimulus -> all answers counted, stats)."""
    pairs: dict[tuple[str, str], float] = {}
    totals: dict[str, float] = {}
    stats = {"rows": 0, "dropped_rows": 0}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            parts = line.rstrip("\n").split("\t")
            if i == 0 and parts[:2] == ["stimulus", "response"]:
                continue
            if len(parts) != 3:
                stats["dropped_rows"] += 1
                continue
            s, r, c = parts[0].strip().lower(), parts[1].strip().lower(), parts[2].strip()
            try:
                n = float(c)
            except ValueError:
                stats["dropped_rows"] += 1
                continue
            stats["rows"] += 1
            if not _ALPHA.match(s):
                stats["dropped_rows"] += 1
                continue
            totals[s] = totals.get(s, 0.0) + n
            if not _ALPHA.match(r) or r == s or n <= 0:
                stats["dropped_rows"] += 1
                continue
            pairs[(s, r)] = pairs.get((s, r), 0.0) + n
    stats["stimuli"] = len(totals)
    stats["pairs"] = len(pairs)
    return pairs, totals, stats


def association_matrix(pairs: dict[tuple[str, str], float], totals: dict[str, float]):
    """(words sorted, symmetric scipy CSR ``S = F + F^T``)."""
    from scipy import sparse

    words = sorted({w for p in pairs for w in p})
    idx = {w: i for i, w in enumerate(words)}
    keys = sorted(pairs)
    rows = np.fromiter((idx[s] for s, _ in keys), np.int64, len(keys))
    cols = np.fromiter((idx[r] for _, r in keys), np.int64, len(keys))
    vals = np.fromiter((pairs[k] / totals[k[0]] for k in keys), np.float64, len(keys))
    n = len(words)
    f = sparse.csr_matrix((vals, (rows, cols)), shape=(n, n))
    s = (f + f.T).tocsr()
    s.sum_duplicates()
    s.sort_indices()
    return words, s


def select_vocabulary(words: list[str], s, vocab_size: int, min_degree: int) -> np.ndarray:
    """Row indices of the kept words: degree >= min_degree, largest mass first, ties by word."""
    degree = np.diff(s.indptr)
    mass = np.asarray(s.sum(axis=1)).ravel()
    ok = np.flatnonzero(degree >= min_degree)
    order = sorted(ok.tolist(), key=lambda i: (-round(float(mass[i]), 9), words[i]))
    return np.array(sorted(order[:vocab_size]), dtype=np.int64)  # keep alphabetical row order


def ppmi(s, alpha: float):
    """Positive PMI of a symmetric co-occurrence matrix, smoothed marginals ``m^alpha``."""
    from scipy import sparse

    s = s.tocoo()
    total = s.sum()
    m = np.asarray(s.tocsr().sum(axis=1)).ravel()
    ms = m ** alpha
    ms = ms / ms.sum()
    p_ij = s.data / total
    pmi = np.log(p_ij / ((m[s.row] / total) * ms[s.col]))
    keep = pmi > 0
    out = sparse.csr_matrix((pmi[keep], (s.row[keep], s.col[keep])), shape=s.shape)
    out = (out + out.T) / 2  # the smoothing is one-sided: restore symmetry
    out.sort_indices()
    return out


def _zipf(words: list[str]) -> np.ndarray:
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # zipf is informational for this model
        return np.zeros(len(words), np.float32)
    return np.array([zipf_frequency(w, "en") for w in words], np.float32)


def build(eat: Path, out: Path, vocab_size: int = DEFAULTS["vocab_size"], dims: int = DEFAULTS["dims"],
          min_degree: int = DEFAULTS["min_degree"], alpha: float = DEFAULTS["alpha"],
          power: float = DEFAULTS["power"], log=print) -> dict[str, Any]:
    """Build the model directory ``out`` from the EAT file ``eat``; returns the metadata written."""
    pairs, totals, stats = read_eat(eat)
    words, s = association_matrix(pairs, totals)
    # fit on every word with enough associates, ship the vocab_size with the largest mass
    fit = select_vocabulary(words, s, len(words), min_degree)
    sub = s[fit][:, fit].tocsr()
    # a word whose only associates were dropped has an empty row: leave it out
    nonempty = np.flatnonzero(np.diff(sub.indptr) > 0)
    fit_words = [words[fit[i]] for i in nonempty]
    sub = sub[nonempty][:, nonempty].tocsr()
    log(f"eat: {stats['rows']} rows, {stats['stimuli']} stimuli, {len(words)} words in the graph, "
        f"PPMI + SVD of {len(fit_words)} to {dims} dims, shipping {min(vocab_size, len(fit_words))}")
    vec, sigma = svd_embedding(ppmi(sub, alpha), dims, power)
    ship = select_vocabulary(fit_words, sub, vocab_size, 1)
    vocab = [fit_words[i] for i in ship]
    vec16 = vec[ship].astype(np.float16)
    zipf = _zipf(vocab)
    is_clue = np.array([is_clue_candidate(w) for w in vocab], bool)
    pool_missing: list[str] = []
    try:
        vs = set(vocab)
        pool_missing = [w for w in default_pool() if not all(p in vs for p in entry_parts(w))]
    except Exception:  # pragma: no cover - informational only
        pass
    stimuli_kept = sum(1 for w in vocab if w in totals)
    meta = {
        "name": out.name,
        "family": "eat",
        "description": "Human word associations: Edinburgh Associative Thesaurus, symmetric PPMI + SVD",
        "attribution": ATTRIBUTION,
        "licence": LICENCE,
        "source": {"description": SOURCE, "file": eat.name, "sha256": store.sha256_file(eat),
                   "rows": stats["rows"], "stimuli": stats["stimuli"], "pairs_kept": stats["pairs"]},
        "build": {
            "script": "duetbot/build/associations.py",
            "command": (f"python -m duetbot.build.associations --vocab-size {vocab_size} "
                        f"--dims {dims} --min-degree {min_degree} --alpha {alpha} --power {power}"),
            "vocab_size": vocab_size, "dims": dims, "min_degree": min_degree, "alpha": alpha, "power": power,
            "method": ("forward strength F[s,r] = count / answers to s; S = F + F^T; PPMI with marginals^alpha; "
                       "TruncatedSVD(arpack, random_state=0); U * sigma^power; unit rows; float16"),
            "graph_words": len(words),
            "fitted_words": len(fit_words),
            "stimuli_in_vocabulary": stimuli_kept,
            "singular_values_top5": [round(float(x), 4) for x in sigma[:5]],
            "pool_entries_not_covered": pool_missing,
            "python": platform.python_version(),
            "versions": {"numpy": package_version("numpy"), "scipy": package_version("scipy"),
                         "scikit-learn": package_version("scikit-learn"), "wordfreq": package_version("wordfreq")},
        },
        "clue_vocabulary": {"filters": "duetbot.embeddings.vocab.is_clue_candidate",
                            "zipf": "wordfreq 'en' (data CC BY-SA 4.0)"},
    }
    return store.write_model(out, vocab, vec16, zipf, np.zeros(len(vocab), bool), is_clue, meta)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--eat", type=Path, required=True, help="the EAT norms, stimulus<TAB>response<TAB>count rows (.tsv or .tsv.gz)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="model directory (default: %(default)s)")
    p.add_argument("--vocab-size", type=int, default=DEFAULTS["vocab_size"])
    p.add_argument("--dims", type=int, default=DEFAULTS["dims"])
    p.add_argument("--min-degree", type=int, default=DEFAULTS["min_degree"],
                   help="fewest distinct associates a word needs (default %(default)s)")
    p.add_argument("--alpha", type=float, default=DEFAULTS["alpha"], help="PMI marginal smoothing")
    p.add_argument("--power", type=float, default=DEFAULTS["power"], help="singular value weighting")
    a = p.parse_args(argv)
    if not a.eat.is_file():
        print(f"no EAT file at {a.eat} (pass --eat PATH)", file=sys.stderr)
        return 2
    meta = build(a.eat, a.out, a.vocab_size, a.dims, a.min_degree, a.alpha, a.power)
    size = sum(f["bytes"] for f in meta["files"].values())
    print(f"wrote {a.out}: {meta['vocab_size']} words x {meta['dim']} dims, {size / 1e6:.2f} MB, "
          f"checksum {meta['checksum']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
