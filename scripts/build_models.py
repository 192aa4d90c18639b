#!/usr/bin/env python
"""Build duetbot's shipped embedding models: a thin wrapper over ``duetbot models build``.

The one build entry point is ``duetbot models build TARGET...`` (targets: pool, lexicon,
glove50, spacy300, minilm, eat, subword; groups: models, all; ``--list`` shows what each
needs). This script keeps the old command line working and passes its arguments through:

    python scripts/build_models.py                      # = duetbot models build (the three families)
    python scripts/build_models.py minilm --vocab-size 50000 --pca 224 --dtype float16
    python scripts/build_models.py glove50 --out /tmp/models --pool my_words.txt
"""

from __future__ import annotations

import sys

from duetbot.cli.models import app

if __name__ == "__main__":
    app(["build", *sys.argv[1:]], prog_name="build_models.py")
