#!/usr/bin/env python3
"""Regenerate the word data used by :mod:`duetbot.rules.clues`.

Maintainer-only script.  It needs ``wordfreq`` and ``lemminflect`` (the
runtime code needs neither) and writes two committed modules:

``src/duetbot/rules/_lexicon.py``
    ``WORDS``: the English lexicon, one space-separated string of
    lowercase ASCII words.  It is the ``TOP_N`` most frequent words of
    wordfreq's English list that lemminflect also knows as a lowercase word
    (this drops names, slang and fragments such as "ther", "ing", "str"),
    plus a short hand-written list of closed-class words lemminflect lacks
    ("with", "some", "any", numbers...).  Used to validate morphological
    bases and to split compounds ("earthquake" -> earth + quake).

``src/duetbot/rules/_morphology.py``
    ``IRREGULAR``: ``form:lemma[,lemma...]`` entries for the inflected forms
    whose lemmas the regular suffix rules of
    :func:`duetbot.rules.clues.regular_bases` cannot reach (mice:mouse,
    ran:run, hidden:hide).
    ``BLOCKED``: ``word:base[,base...]`` entries where a regular
    *inflectional* analysis yields a lexicon word lemminflect does not give
    as a lemma of that word (news:new, seed:see), so that the runtime
    agrees with lemminflect on every word in scope.

Scope of the morphology tables: lowercase alphabetic ASCII words known to
lemminflect that are among wordfreq's ``SCOPE_N`` most frequent English
words, or are in the lexicon.

The output depends only on the installed versions of wordfreq and
lemminflect (recorded in the generated headers) and on the constants
below; running the script twice gives identical files.

Usage::

    PYTHONPATH=src python scripts/build_morphology.py [--check]

``--check`` regenerates in memory and exits non-zero if the committed
files differ.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from duetbot.rules.clues import regular_bases  # noqa: E402  (same rules as runtime)

TOP_N = 80_000  # wordfreq rank cut-off for the lexicon
SCOPE_N = 150_000  # wordfreq rank cut-off for the morphology tables
MIN_LEN = 2

# Closed-class words and numerals that lemminflect does not list but that
# build compounds (without, something, anyway, whatever, fourteen...).
EXTRA_WORDS = """
with some any every all into upon onto what
three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty
seventy eighty ninety
""".split()

# Irregular lemmas lemminflect does not give but the rule book's "form of a
# word" clearly covers (suppletive plurals).
EXTRA_IRREGULAR = {
    "people": ["person"],
    "peoples": ["person"],
}

LEXICON_PATH = ROOT / "src" / "duetbot" / "rules" / "_lexicon.py"
MORPHOLOGY_PATH = ROOT / "src" / "duetbot" / "rules" / "_morphology.py"


def _plain(word: str) -> bool:
    return word.isascii() and word.isalpha() and word.islower()


def load_lemminflect() -> tuple[set[str], dict[str, set[str]]]:
    """(lowercase vocabulary, form -> lemmas) from lemminflect's tables."""
    from lemminflect import Inflections, Lemmatizer

    infl = Inflections()._getInflDict()  # lemma -> {tag: (forms,)}
    overrides = Inflections()._getOverridesDict()
    lemma_lu = Lemmatizer()._getLemmaDict()  # form -> {upos: (lemmas,)}

    vocab: set[str] = set()
    lemmas_of: dict[str, set[str]] = {}

    def add(form: str, lemma: str) -> None:
        if not (_plain(form) and _plain(lemma)):
            return
        vocab.add(form)
        vocab.add(lemma)
        lemmas_of.setdefault(form, set()).add(lemma)

    for table in (infl, overrides):
        for lemma, by_tag in table.items():
            add(lemma, lemma)
            for forms in by_tag.values():
                for form in forms:
                    add(form, lemma)
    for form, by_upos in lemma_lu.items():
        for lemmas in by_upos.values():
            for lemma in lemmas:
                add(form, lemma)
    return vocab, lemmas_of


def build() -> tuple[str, str]:
    import wordfreq

    vocab, lemmas_of = load_lemminflect()
    ranked = wordfreq.top_n_list("en", max(TOP_N, SCOPE_N))
    rank = {w: i for i, w in enumerate(ranked)}

    words = {w for w in ranked[:TOP_N] if _plain(w) and len(w) >= MIN_LEN and w in vocab}
    words.update(w for w in EXTRA_WORDS if w in rank)

    scope = sorted(
        w for w in vocab if len(w) >= MIN_LEN and (w in words or rank.get(w, SCOPE_N) < SCOPE_N)
    )

    irregular: dict[str, list[str]] = {}
    blocked: dict[str, list[str]] = {}
    for w in scope:
        truth = lemmas_of.get(w, set()) - {w}
        analyses = regular_bases(w)
        reachable = {b for b, _ in analyses}
        irr = sorted((truth | set(EXTRA_IRREGULAR.get(w, ()))) - reachable)
        if irr:
            irregular[w] = irr
        bad = sorted(
            {b for b, kind in analyses if kind == "infl" and b in words and b != w and b not in truth}
        )
        if bad:
            blocked[w] = bad

    from importlib.metadata import version

    versions = f"wordfreq {version('wordfreq')}, lemminflect {version('lemminflect')}"
    lex_lines = _wrap(sorted(words))
    lexicon_src = (
        '"""English lexicon for clue checking.  GENERATED by scripts/build_morphology.py'
        " -- do not edit.\n\n"
        f"Source: {versions}; wordfreq top {TOP_N} words known to lemminflect,\n"
        f"plus {len(EXTRA_WORDS)} closed-class words.  {len(words)} words.\n"
        '"""\n\n'
        "WORDS = (\n" + lex_lines + ")\n"
    )
    irr_entries = [f"{w}:{','.join(ls)}" for w, ls in sorted(irregular.items())]
    blk_entries = [f"{w}:{','.join(bs)}" for w, bs in sorted(blocked.items())]
    morph_src = (
        '"""Inflection exceptions for clue checking.  GENERATED by scripts/build_morphology.py'
        " -- do not edit.\n\n"
        f"Source: {versions}; scope: {len(scope)} words.\n"
        "IRREGULAR: 'form:lemma,...' for lemmas the regular suffix rules miss"
        f" ({len(irr_entries)} entries).\n"
        "BLOCKED: 'word:base,...' regular inflectional analyses lemminflect rejects"
        f" ({len(blk_entries)} entries).\n"
        '"""\n\n'
        "IRREGULAR = (\n" + _wrap(irr_entries) + ")\n\n"
        "BLOCKED = (\n" + _wrap(blk_entries) + ")\n"
    )
    return lexicon_src, morph_src


def _wrap(items: list[str], width: int = 96) -> str:
    """Items as implicitly concatenated string literals, space-separated."""
    lines: list[str] = []
    cur = ""
    for item in items:
        if cur and len(cur) + len(item) + 1 > width:
            lines.append(cur)
            cur = ""
        cur = f"{cur}{item} "
    if cur:
        lines.append(cur)
    return "".join(f'    "{line}"\n' for line in lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare with the committed files")
    args = parser.parse_args(argv)
    lexicon_src, morph_src = build()
    outputs = {LEXICON_PATH: lexicon_src, MORPHOLOGY_PATH: morph_src}
    if args.check:
        stale = [p for p, src in outputs.items() if not p.exists() or p.read_text() != src]
        for p in stale:
            print(f"stale: {p.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    for path, src in outputs.items():
        path.write_text(src)
        print(f"wrote {path.relative_to(ROOT)} ({len(src.encode()) / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
