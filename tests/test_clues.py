"""Clue legality: the rule book's examples, morphology, bulk masking, robustness."""

from __future__ import annotations

import importlib.metadata
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duetbot.bots import strict_clues
from duetbot.rules import clues
from duetbot.rules.clues import (
    IllegalClueError,
    InvalidClueError,
    check_clue,
    clue_conflict,
    illegal_clues,
    is_legal_clue,
    normalize_clue,
)
from duetbot.words import lexicon as lex, morphology
from duetbot.words.morphology import components, stems

from .conftest import bare_env

ROOT = Path(__file__).resolve().parents[1]

# A board in the spirit of the game, used where any board will do.
BOARD = [
    "HIDE", "EARTHQUAKE", "STORM", "RAINBOW", "MOUSE", "RUN", "ICE CREAM", "LOCH NESS",
    "PIANO", "SCHOOL", "LIGHT", "BEAR", "CARPET", "SAW", "DRESS", "WATER", "TABLE",
    "PENGUIN", "HONEY", "FIRE", "BANK", "SPY", "CHARGE", "SCREEN", "AMBULANCE",
]


def illegal(clue: str, visible: list[str]) -> IllegalClueError:
    with pytest.raises(IllegalClueError) as info:
        check_clue(clue, visible)
    return info.value


def _clear_caches() -> None:
    """Forget every memoised analysis (not the lexicon), so bulk checks take their cold path."""
    cleared = 0
    for module in (morphology, clues, strict_clues):
        for obj in vars(module).values():
            if (hasattr(obj, "cache_clear") and getattr(obj, "__module__", None) == module.__name__
                    and obj is not morphology.irregular_chains):  # read from the lexicon, as the lexicon is
                obj.cache_clear()
                cleared += 1
    assert cleared >= 8  # the memos are still there to clear


# ---------------------------------------------------------------------------
# The visible word itself, and its forms
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("clue", ["apple", "APPLE", "Apple", "  aPPle  "])
def test_visible_word_itself_in_any_case(clue):
    """"The clue word itself cannot be any of the words visible in the 5×5 grid."."""
    err = illegal(clue, ["TREE", "APPLE"])
    assert err.clue == "apple"
    assert err.board_word == "APPLE"
    assert "visible word" in err.reason


def test_board_words_in_any_case():
    """"The clue word itself cannot be any of the words visible in the 5×5 grid."."""
    for board in (["apple"], ["Apple"], ["APPLE"]):
        assert not is_legal_clue("apple", board)
        assert not is_legal_clue("apples", board)


def test_form_of_visible_word():
    """"Furthermore, you cannot use a form of a visible word as your clue."."""
    err = illegal("trees", ["APPLE", "TREE"])
    assert err.board_word == "TREE"
    assert "form" in err.reason


# HIDE: "hid", "hidden", "rawhide" are not permissible; "hideous" is.

HIDE_RULE = (
    "Any form of a word currently visible on the grid is prohibited as intelligence. "
    "If “HIDE” is visible, “hid,” “hidden,” or “rawhide” are not permissible. "
    "However, “hideous” would be acceptable."
)


def test_hide_hid_illegal():
    """"Any form of a word currently visible on the grid is prohibited as intelligence.
    If “HIDE” is visible, “hid,” “hidden,” or “rawhide” are not permissible." — hid."""
    err = illegal("hid", ["HIDE"])
    assert (err.clue, err.board_word) == ("hid", "HIDE")
    assert "form" in err.reason


def test_hide_hidden_illegal():
    """"Any form of a word currently visible on the grid is prohibited as intelligence.
    If “HIDE” is visible, “hid,” “hidden,” or “rawhide” are not permissible." — hidden."""
    assert "form" in illegal("hidden", ["HIDE"]).reason


def test_hide_rawhide_illegal():
    """"Any form of a word currently visible on the grid is prohibited as intelligence.
    If “HIDE” is visible, “hid,” “hidden,” or “rawhide” are not permissible." — rawhide."""
    err = illegal("rawhide", ["HIDE"])
    assert "compound" in err.reason and "raw + hide" in err.reason


def test_hide_hideous_legal():
    """"However, “hideous” would be acceptable."."""
    assert check_clue("hideous", ["HIDE"]) == "hideous"
    assert clue_conflict("hideous", "HIDE") is None
    assert components("hideous") == ()


@pytest.mark.parametrize("clue", ["hides", "hiding", "hideaway", "hideaways", "rawhides", "unhidden"])
def test_hide_more_forms_illegal(clue):
    """"Any form of a word currently visible on the grid is prohibited as intelligence."."""
    assert not is_legal_clue(clue, ["HIDE"])


def test_visibility_is_the_callers_list():
    """"A word is considered “visible” until it is either covered ... A word marked as an
    incorrect guess from only one operative remains “visible”." — the caller decides what is
    visible; only the words passed count."""
    assert not is_legal_clue("hid", ["HIDE", "TREE"])
    assert is_legal_clue("hid", ["TREE"])  # HIDE covered: no longer passed in
    assert is_legal_clue("hid", [])


# ---------------------------------------------------------------------------
# Compounds
# ---------------------------------------------------------------------------

EARTHQUAKE_RULE = (
    "Components of compound words visible on the grid cannot be used as intelligence. "
    "If “EARTHQUAKE” is visible, “earth,” “quake,” “earthy,” or “quaking” are invalid. "
    "However, “hearth” and “ear” would be acceptable."
)


@pytest.mark.parametrize("clue", ["earth", "quake"])
def test_earthquake_components_illegal(clue):
    """"Components of compound words visible on the grid cannot be used as intelligence.
    If “EARTHQUAKE” is visible, “earth,” “quake,” “earthy,” or “quaking” are invalid."."""
    err = illegal(clue, ["EARTHQUAKE"])
    assert "component" in err.reason and err.board_word == "EARTHQUAKE"


@pytest.mark.parametrize("clue,part", [("earthy", "earth"), ("quaking", "quake")])
def test_earthquake_forms_of_components_illegal(clue, part):
    """"If “EARTHQUAKE” is visible, “earth,” “quake,” “earthy,” or “quaking” are invalid."."""
    err = illegal(clue, ["EARTHQUAKE"])
    assert "component" in err.reason and repr(part) in err.reason


@pytest.mark.parametrize("clue", ["hearth", "ear"])
def test_earthquake_hearth_and_ear_legal(clue):
    """"However, “hearth” and “ear” would be acceptable."."""
    assert check_clue(clue, ["EARTHQUAKE"]) == clue
    assert clue_conflict(clue, "EARTHQUAKE") is None


def test_components_need_real_words_of_three_letters():
    """"Components of compound words visible on the grid cannot be used as intelligence." —
    a split needs real words of at least three letters: not ear + thquake, not h + earth."""
    assert components("earthquake") == ("earth", "quake")
    assert components("hearth") == ()
    assert components("rawhide") == ("raw", "hide")


def test_storm_and_rainbow():
    """"Components of compound words visible on the grid cannot be used as intelligence."
    — with STORM and RAINBOW visible, "storm" and "rain" are invalid, "weather" is valid."""
    board = ["STORM", "RAINBOW"]
    assert illegal("storm", board).board_word == "STORM"
    err = illegal("rain", board)
    assert err.board_word == "RAINBOW" and "component" in err.reason
    assert check_clue("weather", board) == "weather"


def test_clue_containing_visible_word_as_component():
    """"If “HIDE” is visible, “hid,” “hidden,” or “rawhide” are not permissible." — a compound
    built on a visible word is out, also with the word inflected at its end."""
    assert not is_legal_clue("brainstorm", ["STORM"])
    assert not is_legal_clue("outran", ["RUN"])  # out + ran, ran a form of run
    assert not is_legal_clue("sportsman", ["SPORT"])  # linking -s
    assert is_legal_clue("ranking", ["RUN"])  # ran + king is no compound of RUN
    assert is_legal_clue("earthworm", ["EARTHQUAKE"])  # sharing a part is no clash


@pytest.mark.parametrize("clue", ["ice", "cream", "icecream", "creamy", "icy", "ICECREAM"])
def test_multiword_entry_ice_cream(clue):
    """Board entries may be multiword ("ICE CREAM"): each part is a component and the closed
    form "icecream" is the visible word ("Components of compound words visible on the grid
    cannot be used as intelligence.")."""
    assert illegal(clue, ["ICE CREAM"]).board_word == "ICE CREAM"


@pytest.mark.parametrize("clue", ["loch", "ness", "lochs", "lochness"])
def test_multiword_entry_loch_ness(clue):
    """Board entries may be multiword ("LOCH NESS"): "loch" and "ness" are components
    ("Components of compound words visible on the grid cannot be used as intelligence.")."""
    assert not is_legal_clue(clue, ["Loch Ness"])


def test_multiword_entry_details():
    """"Components of compound words visible on the grid cannot be used as intelligence." —
    words of a multi-word entry count as visible inside compound clues; unrelated words pass."""
    assert "'ice'" in illegal("iceberg", ["ICE CREAM"]).reason
    assert is_legal_clue("scream", ["ICE CREAM"])
    assert is_legal_clue("nessie", ["LOCH NESS"])
    with pytest.raises(InvalidClueError):
        check_clue("ice cream", ["ICE CREAM"])  # a two-word clue is malformed anyway


# ---------------------------------------------------------------------------
# Single-word constraint and well-formedness
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("clue", ["Leonardo da Vinci", "moth-eaten", "guinea pig", "moth–eaten"])
def test_single_word_constraint(clue):
    """“Leonardo da Vinci,” “IRS”... “moth-eaten,” and “guinea pig” violate the single-word
    constraint (multi-word, hyphenated)."""
    with pytest.raises(InvalidClueError) as info:
        check_clue(clue, ["TREE"])
    assert info.value.clue == clue
    assert re.search(r"single-word|single word|hyphen", str(info.value))
    assert "\n" not in str(info.value)


def test_single_word_proper_noun_valid():
    """"Proper nouns consisting of a single word are permissible. “Michelangelo” is a valid
    clue"."""
    assert check_clue("Michelangelo", BOARD) == "michelangelo"


@pytest.mark.parametrize("clue,expected", [("One", "one"), ("B", "b"), ("7", "7"), ("2", "2")])
def test_alphanumeric_clues_valid(clue, expected):
    """"Alphanumeric characters can serve as valid intelligence": “One: 2” and “B: 2” are
    valid clues; so are single letters and numbers."""
    assert check_clue(clue, BOARD) == expected
    assert is_legal_clue(clue, BOARD)


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("don't", "apostrophe"),
        ("earth’s", "apostrophe"),
        ("U.S.", "'.'"),
        ("hello!", "'!'"),
        ("a_b", "'_'"),
        ("tab\there", "whitespace"),
        ("line\nbreak", "whitespace"),
        ("½", "U+00BD"),
        ("😀", "U+1F600"),
    ],
)
def test_malformed_clues(text, fragment):
    """Clues are single words of letters and/or digits; everything else is malformed."""
    with pytest.raises(InvalidClueError) as info:
        normalize_clue(text)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message and info.value.reason in message


@pytest.mark.parametrize(
    "text,expected",
    [
        ("  Ocean ", "ocean"),
        ("CAFÉ", "café"),
        ("cafe\u0301", "café"),  # decomposed accent: NFC
        ("Straße", "strasse"),  # casefold
        ("mp3", "mp3"),
        ("٣", "٣"),  # a decimal digit in another script
    ],
)
def test_normalize_clue(text, expected):
    """Normalisation: NFC, strip, casefold."""
    assert normalize_clue(text) == expected


def test_normalize_rejects_non_text():
    with pytest.raises(InvalidClueError, match="must be text"):
        normalize_clue(None)  # type: ignore[arg-type]


def test_accents_do_not_matter_for_clashes():
    """"The clue word itself cannot be any of the words visible in the 5×5 grid." — café and
    CAFE are the same word."""
    assert not is_legal_clue("cafe", ["CAFÉ"])
    assert not is_legal_clue("Café", ["CAFE"])
    assert not is_legal_clue("cafés", ["cafe"])


# ---------------------------------------------------------------------------
# Morphology: regular and irregular forms
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "board,clue",
    [
        ("WALK", "walks"), ("WALK", "walked"), ("WALK", "walking"), ("BOX", "boxes"),
        ("CITY", "cities"), ("STOP", "stopped"), ("STOP", "stopping"), ("BAKE", "baking"),
        ("BAKE", "baked"), ("HAPPY", "happier"), ("HAPPY", "happiest"), ("HAPPY", "happily"),
        ("HAPPY", "happiness"), ("BIG", "bigger"), ("DIE", "dying"), ("HOUSE", "housing"),
        ("SUN", "sunny"), ("TEACH", "teacher"), ("RUN", "runners"), ("LOCK", "unlock"),
        ("RUN", "rerun"), ("CARE", "careless"), ("USE", "useful"),
    ],
)
def test_regular_forms_illegal(board, clue):
    """"Furthermore, you cannot use a form of a visible word as your clue." — regular
    plural, past, -ing, comparative and close derivations, with spelling rules."""
    err = illegal(clue, [board])
    assert "form" in err.reason


@pytest.mark.parametrize(
    "board,clue",
    [
        ("MOUSE", "mice"), ("RUN", "ran"), ("RUN", "running"), ("GOOSE", "geese"),
        ("CHILD", "children"), ("GO", "went"), ("FOOT", "feet"), ("TOOTH", "teeth"),
        ("KNIFE", "knives"), ("LEAF", "leaves"), ("SWIM", "swam"), ("TAKE", "took"),
        ("TAKE", "taken"), ("GOOD", "better"), ("MAN", "men"), ("THINK", "thought"),
        ("PERSON", "people"), ("MICE", "mouse"), ("SAW", "see"),
    ],
)
def test_irregular_forms_illegal(board, clue):
    """"Any form of a word currently visible on the grid is prohibited as intelligence." —
    irregular plurals and verb forms, both ways round."""
    assert "form" in illegal(clue, [board]).reason


@pytest.mark.parametrize(
    "board,clue",
    [("NEWS", "new"), ("SEED", "see"), ("RUN", "brunch"), ("RUN", "quarantine"),
     ("LIGHT", "quality"), ("LIGHT", "liter"), ("WATER", "wat")],
)
def test_lookalikes_legal(board, clue):
    """"However, “hideous” would be acceptable." — spelling overlap alone is no form:
    "news" is not new+s, "seed" not see+d (as lemminflect knows)."""
    assert is_legal_clue(clue, [board])


def test_stems():
    assert {"hid", "hide"} <= stems("hid")
    assert "mouse" in stems("mice")
    assert "new" not in stems("news")


# ---------------------------------------------------------------------------
# API shape
# ---------------------------------------------------------------------------


def test_check_clue_names_first_clashing_word_in_order():
    err = illegal("Hidden", ["TREE", "HIDE", "HIDEAWAY"])
    assert err.clue == "hidden" and err.board_word == "HIDE"
    message = str(err)
    assert "'hidden'" in message and "'HIDE'" in message and "\n" not in message
    assert isinstance(err, ValueError)


def test_clue_conflict():
    assert clue_conflict("earth", "EARTHQUAKE") is not None
    assert clue_conflict("Earth", "earthquake") is not None
    assert clue_conflict("ocean", "EARTHQUAKE") is None
    assert clue_conflict("", "EARTHQUAKE") is None
    assert clue_conflict("x", "") is None


def test_is_legal_clue():
    assert is_legal_clue("ocean", BOARD) is True
    assert is_legal_clue("piano", BOARD) is False
    assert is_legal_clue("two words", BOARD) is False


# ---------------------------------------------------------------------------
# Bulk masking
# ---------------------------------------------------------------------------


def _sample_candidates(rng: random.Random, board: list[str], n: int) -> list[str]:
    lexicon = sorted(lex.english_words())
    cands = rng.sample(lexicon, n)
    for b in board:
        w = b.lower().replace(" ", "")
        cands += [w, b, w + "s", w + "ing", w + "er", w + "y", "re" + w, "un" + w + "ed",
                  "raw" + w, w + "house", w[:-1], w[1:], w + "-x", "two " + w, ""]
    return cands


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_illegal_clues_agrees_with_check_clue(seed):
    """illegal_clues is exactly the set of candidates check_clue rejects."""
    rng = random.Random(seed)
    lexicon_upper = [w.upper() for w in sorted(lex.english_words()) if len(w) >= 3]
    board = rng.sample(lexicon_upper, 20) + rng.sample(BOARD, 5)
    cands = _sample_candidates(rng, board, 2000)
    _clear_caches()  # cold path: the prefilter must not lose anything
    bulk = illegal_clues(cands, board)
    for cand in cands:
        assert (cand in bulk) == (not is_legal_clue(cand, board)), cand
    assert illegal_clues(cands, board) == bulk  # warm path too


def test_illegal_clues_includes_malformed_and_keeps_spelling():
    got = illegal_clues(["Hidden", "ocean", "guinea pig", "", "OCEAN", "hideous"], ["HIDE"])
    assert got == {"Hidden", "guinea pig", ""}


def test_illegal_clues_speed():
    """50,000 candidates against 25 board words: well under a second (loose bound for CI)."""
    rng = random.Random(7)
    lexicon = sorted(lex.english_words())
    cands = lexicon[:]
    while len(cands) < 50_000:
        w = rng.choice(lexicon)
        cands.append(w + rng.choice(["s", "ed", "ing", "ly", "ness", "x", "zz"]))
    cands = cands[:50_000]
    _clear_caches()
    start = time.perf_counter()
    bulk = illegal_clues(cands, BOARD)
    first = time.perf_counter() - start
    start = time.perf_counter()
    assert illegal_clues(cands, BOARD) == bulk
    second = time.perf_counter() - start
    print(f"illegal_clues 50k x 25: first {first:.3f}s, cached {second:.3f}s, {len(bulk)} illegal")
    assert first < 3.0 and second < 1.0


# ---------------------------------------------------------------------------
# Robustness (hypothesis)
# ---------------------------------------------------------------------------

board_words = st.lists(st.text(max_size=20), max_size=6)


@settings(max_examples=300)
@given(st.text(max_size=40), board_words)
def test_check_clue_raises_only_its_own_errors(text, visible):
    try:
        clue = check_clue(text, visible)
    except (InvalidClueError, IllegalClueError) as err:
        assert "\n" not in str(err)
        return
    assert clue == normalize_clue(clue)
    assert clue and not any(ch.isspace() for ch in clue)


@settings(max_examples=200)
@given(
    st.lists(
        st.one_of(st.text(max_size=12), st.sampled_from(["hid", "hidden", "rawhide", "earthy", "ice"])),
        max_size=20,
    ),
    st.lists(st.sampled_from(BOARD), min_size=1, max_size=6),
)
def test_illegal_clues_agrees_on_arbitrary_text(cands, visible):
    bulk = illegal_clues(cands, visible)
    for cand in cands:
        assert (cand in bulk) == (not is_legal_clue(cand, visible))


@settings(max_examples=200)
@given(st.from_regex(r"[a-z]{1,12}", fullmatch=True))
def test_word_clashes_with_itself_and_plural(word):
    """A word always clashes with itself; an unknown word (regular rules apply) also with its
    plural.  Known words follow lemminflect: "news" is no form of "new"."""
    assert not is_legal_clue(word, [word.upper()])
    if len(word) >= 2 and not word.endswith("s") and word not in lex.english_words():
        assert not is_legal_clue(word + "s", [word])


# ---------------------------------------------------------------------------
# Generated data
# ---------------------------------------------------------------------------


def test_runtime_needs_neither_lemminflect_nor_wordfreq():
    code = (
        "import sys; sys.modules['lemminflect'] = None; sys.modules['wordfreq'] = None\n"
        "from duetbot.rules.clues import check_clue, illegal_clues\n"
        "assert check_clue('ocean', ['HIDE']) == 'ocean'\n"
        "assert illegal_clues(['hid', 'ocean'], ['HIDE']) == {'hid'}\n"
    )
    env_path = str(ROOT / "src")
    subprocess.run(
        [sys.executable, "-c", code], check=True, env=bare_env(PYTHONPATH=env_path), timeout=60
    )


LEXICON = ROOT / "src" / "duetbot" / "data" / "lexicon"


def _header_count(name: str) -> int:
    """The entry count a lexicon file's generated header states ("...  39347 words.")."""
    header = "".join(line for line in (LEXICON / name).read_text(encoding="utf-8").splitlines(True)
                     if line.startswith("#"))
    found = re.findall(r"(\d+) (?:words|entries)\.", header)  # the last: "scope: N words." comes first
    assert found, header
    return int(found[-1])


def test_lexicon_is_data_not_code():
    """The word lists ship as plain-text package data, not as generated Python."""
    for package in ("rules", "words"):
        assert not list((ROOT / "src" / "duetbot" / package).glob("_lexicon*.py"))
        assert not list((ROOT / "src" / "duetbot" / package).glob("_morphology*.py"))
    sizes = {p.name: p.stat().st_size for p in LEXICON.glob("*.txt")}
    assert set(sizes) == {"words.txt", "irregular.txt", "blocked.txt", "famous.txt", "names.txt"}
    assert sum(sizes.values()) < 1_000_000


def test_loaded_lexicon_matches_the_files():
    """What the rules read is what the generator wrote: each file's stated count, its entries
    sorted and unique, known entries of each kind, and the parsed tables."""
    irregular, blocked = lex.irregular(), lex.blocked()
    for name, table in (("words.txt", lex.english_words()), ("irregular.txt", irregular),
                        ("blocked.txt", blocked)):
        entries = lex.data_lines(name)
        assert entries == sorted(set(entries)), name
        assert len(entries) == len(table) == _header_count(name), name
    words = lex.english_words()
    assert {"earthquake", "earth", "quake", "hide", "with", "fourteen"} <= words
    assert all(w.isascii() and w.isalpha() and w.islower() for w in words)
    assert irregular["mice"] == ("mouse",) and irregular["hidden"] == ("hide",)
    assert irregular["people"] == ("person",)  # the script's hand-written addition
    assert "new" in blocked["news"] and "see" in blocked["seed"]
    # every lemma and base is a plain word, as the generator writes them
    for table in (irregular, blocked):
        for form, targets in table.items():
            assert form.isalpha() and targets and all(t.isalpha() for t in targets), form


def test_the_generator_writes_what_the_rules_read(tmp_path):
    """The lexicon build's writer (duetbot/build/morphology.py) and the rules' reader agree
    (no wordfreq needed)."""
    from duetbot.build import morphology as script

    files = script.render(["bar", "foo"], {"mice": ["mouse"], "best": ["good", "well"]}, {"news": ["new"]},
                          "wordfreq 0, lemminflect 0", 3)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        lines = [line for line in text.splitlines() if line and not line.startswith("#")]
        assert lines == [line for line in text.splitlines() if not line.startswith("#")], "no blank lines"
    assert [x for x in files["words.txt"].splitlines() if not x.startswith("#")] == ["bar", "foo"]
    assert [x for x in files["irregular.txt"].splitlines() if not x.startswith("#")] == ["best:good,well", "mice:mouse"]
    assert re.search(r"\b2 words\.", files["words.txt"]) and re.search(r"\b1 entries\.", files["blocked.txt"])


@pytest.mark.build
def test_generated_data_is_fresh():
    """The lexicon build's --check, where the same wordfreq/lemminflect are installed."""
    pytest.importorskip("wordfreq")
    pytest.importorskip("lemminflect")
    header = (LEXICON / "irregular.txt").read_text(encoding="utf-8")[:400]
    for dist in ("wordfreq", "lemminflect"):
        if f"{dist} {importlib.metadata.version(dist)}" not in header:
            pytest.skip(f"generated with another {dist} version")
    result = subprocess.run(
        [sys.executable, "-m", "duetbot.build.morphology", "--check"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------------------
# The strict check the bots hold their own clues to (issue 13)
# ---------------------------------------------------------------------------

from duetbot.bots.strict_clues import (  # noqa: E402
    StrictIndex,
    is_strictly_legal_clue,
    strict_conflict,
    strict_illegal_by_word,
    strict_illegal_clues,
)


@pytest.mark.parametrize(
    "clue, word",
    [
        ("doctoral", "DOCTOR"),
        ("novelist", "NOVEL"),
        ("tonight", "NIGHT"),
        ("biomass", "MASS"),
        ("mountains", "MOUNT"),
    ],
)
def test_strict_forms_and_compound_parts_the_rule_book_lets_pass(clue, word):
    assert strict_conflict(clue, [word]) is not None
    assert word.lower() in strict_conflict(clue, ["PIANO", word]).lower()  # names the word
    assert not is_strictly_legal_clue(clue, [word])
    assert strict_illegal_clues([clue, "piano"], [word]) == {clue}


@pytest.mark.parametrize(
    "clue, word",
    [
        ("officers", "ICE"),        # the clue contains the visible word
        ("OFFICERS", "ice"),        # any case
        ("scream", "ICE CREAM"),    # a word of a multi-word entry
        ("nessie", "LOCH NESS"),    # per word of the entry
        ("champ", "HAM"),
        ("café", "CAF"),            # accents ignored (letters only)
    ],
)
def test_strict_clue_containing_a_visible_word(clue, word):
    reason = strict_conflict(clue, [word])
    assert reason is not None
    if is_legal_clue(clue, [word]):  # flagged by the letters test, not the rule book
        assert "contain" in reason


@pytest.mark.parametrize(
    "clue, word",
    [
        ("cola", "CHOCOLATE"),      # the clue is contained in the visible word
        ("choc", "CHOCOLATE"),
        ("cream", "ICE CREAM"),     # a word of a multi-word entry
        ("ecre", "ICE CREAM"),      # inside the joined form only
        ("ness", "LOCH NESS"),
        ("cafe", "CAFÉS"),
    ],
)
def test_strict_clue_contained_in_a_visible_word(clue, word):
    reason = strict_conflict(clue, [word])
    assert reason is not None
    if is_legal_clue(clue, [word]):  # flagged by the letters test, not the rule book
        assert "contain" in reason


@pytest.mark.parametrize(
    "clue, word",
    [
        ("ox", "BOX"),        # two letters: too short to count
        ("ocean", "ICE"),     # no three letters in a row
        ("chess", "LOCH NESS"),
        ("piano", "CHOCOLATE"),
        ("music", "PIANO"),
    ],
)
def test_strict_check_leaves_unrelated_clues_alone(clue, word):
    assert strict_conflict(clue, [word]) is None
    assert strict_illegal_clues([clue], [word]) == set()


@pytest.mark.parametrize(
    "clue, word",
    [
        ("tribal", "TRIBE"),         # -e dropped before a derivational suffix
        ("glorious", "GLORY"),       # -y turned into -i
        ("nervously", "NERVE"),
        ("tribal", "TRIBES"),
        ("detected", "DETECTIVE"),   # the visible word derives from the clue's base
        ("earthworm", "EARTHQUAKE"), # a shared compound part
        ("basketball", "FOOTBALL"),
    ],
)
def test_strict_derived_forms_and_shared_compound_parts(clue, word):
    assert is_legal_clue(clue, [word])            # the rule book lets these pass ...
    assert strict_conflict(clue, [word]) is not None  # ... the bot does not give them


def test_strict_check_keeps_every_rule_book_clash():
    for clue, word in [("hid", "HIDE"), ("rawhide", "HIDE"), ("earthy", "EARTHQUAKE"),
                       ("icebox", "ICE CREAM"), ("lochs", "LOCH NESS"), ("ran", "RUN")]:
        assert not is_legal_clue(clue, [word])
        assert strict_conflict(clue, [word]) is not None
    assert strict_conflict("guinea pig", ["HIDE"]).startswith("invalid clue")


def test_people_keep_the_rule_books_judgement():
    """The rule book, which judges people, is unchanged: these pass for a person."""
    assert is_legal_clue("officers", ["ICE"])
    assert check_clue("cola", ["CHOCOLATE"]) == "cola"
    assert is_legal_clue("doctoral", ["DOCTOR"]) and is_legal_clue("tonight", ["NIGHT"])
    assert illegal_clues(["officers", "cola", "biomass"], ["ICE", "CHOCOLATE", "MASS"]) == set()
    assert is_legal_clue("hideous", ["HIDE"])  # the rule book's own example ...
    assert strict_conflict("hideous", ["HIDE"]) is not None  # ... the bot is stricter


def test_strict_conflict_names_first_clashing_word_in_order():
    reason = strict_conflict("icebox", ["PIANO", "BOX", "ICE"])
    assert "'BOX'" in reason
    assert strict_conflict("icebox", ["PIANO"]) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_strict_illegal_clues_agrees_with_strict_conflict(seed):
    from duetbot.wordpool import default_pool

    rng = random.Random(seed)
    pool = list(default_pool())
    board = rng.sample(pool, 23) + ["ICE CREAM", "LOCH NESS"]
    vocab = sorted(set(_VOCAB) | {w.lower() for w in rng.sample(pool, 200)})
    cands = vocab + ["Officers", "mp3", "guinea pig", "", "café"]
    bulk = strict_illegal_clues(cands, board)
    assert bulk == {c for c in cands if strict_conflict(c, board) is not None}
    assert illegal_clues(cands, board) <= bulk
    by_word = strict_illegal_by_word(cands, board)
    assert set(by_word) == set(board)
    for w in board:
        assert by_word[w] == strict_illegal_clues(cands, [w])
    assert set().union(*by_word.values()) == bulk
    # the index over the whole candidate list gives the same, word by word
    assert StrictIndex(cands).by_word(board) == by_word


def test_strict_index_matches_the_per_word_check_on_every_pool_word():
    from duetbot.wordpool import default_pool

    pool = list(default_pool())
    rng = random.Random(3)
    cands = sorted(set(_VOCAB) | {w.lower() for w in rng.sample(pool, 300)}
                   | {f"{w.lower()}{s}" for w in rng.sample(pool, 100) for s in ("s", "ing", "man", "ball")})
    cands += ["Officers", "mp3", "guinea pig", "", "café", "re-enter", "unkind"]
    index = StrictIndex(cands)
    words = pool + ["ICE CREAM", "LOCH NESS", "x", "SCI-FI"]
    for i in range(0, len(words), 40):
        board = words[i:i + 40]
        assert index.by_word(board) == strict_illegal_by_word(cands, board)


def test_strict_illegal_clues_speed():
    """The spymaster screens its whole vocabulary (~15-30k words) per board."""
    from duetbot.wordpool import default_pool

    rng = random.Random(7)
    pool = list(default_pool())
    cands = [f"{a}{b}" for a in _VOCAB[:150] for b in ("", "s", "er", "ing", "ly")] * 4
    cands = cands + [w.lower() for w in pool]
    strict_illegal_clues(cands, rng.sample(pool, 25))  # warm the memoised analyses
    t = time.perf_counter()
    for _ in range(3):
        strict_illegal_clues(cands, rng.sample(pool, 25))
    assert (time.perf_counter() - t) / 3 < 0.5


_VOCAB = [
    "officers", "cola", "doctoral", "novelist", "tonight", "biomass", "mountains", "tribal",
    "glorious", "earthworm", "basketball", "scream", "icebox", "lochs", "chess", "ocean",
    "music", "animal", "water", "fire", "sea", "light", "house", "dark", "night", "sport",
    "run", "runner", "ran", "hide", "hideous", "rawhide", "earth", "quake", "hearth", "ear",
    "storm", "rain", "bow", "rainfall", "snow", "man", "snowball", "king", "queen", "castle",
    "bank", "money", "river", "tree", "forest", "green", "school", "teacher", "doctor",
    "nurse", "hospital", "ship", "boat", "captain", "pirate", "gold", "silver", "metal",
    "screen", "movie", "film", "star", "space", "rocket", "moon", "sun", "planet", "air",
    "plane", "airport", "train", "car", "carpet", "pet", "dog", "cat", "mouse", "mice",
    "computer", "phone", "table", "chair", "bear", "honey", "bee", "penguin", "ice",
    "cream", "chocolate", "cake", "bread", "piano", "violin", "band", "rock", "stone",
    "spy", "agent", "secret", "charge", "battery", "power", "energy", "mass", "weight",
    "ambulance", "siren", "dress", "skirt", "shirt", "shoe", "foot", "football", "ball",
    "game", "play", "player", "theatre", "drama", "novel", "book", "story", "write",
    "mount", "hill", "valley", "climb", "tribe", "nerve", "glory", "fame", "famous",
    "state", "station", "detect", "detective", "act", "actor", "comic", "coming", "mine",
]
