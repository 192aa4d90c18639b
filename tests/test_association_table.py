"""The association table (``duetbot/data/associations.tsv``) and the lift it gives the families."""

from __future__ import annotations

import numpy as np
import pytest

from duetbot.bots.ensemble import Ensemble
from duetbot.bots.factory import PartnerSpec, SpecError
from duetbot.embeddings.vocab import is_blocked
from duetbot.rules.clues import clue_conflict
from duetbot.wordpool import default_pool
from duetbot.words import word_key
from duetbot.words.associations import (
    Associations,
    AssociationsError,
    default_associations,
    parse_associations,
)

from .test_spymaster import ToyModel


def test_parse_keeps_the_stronger_of_a_pair_given_twice_and_skips_comments():
    rows = parse_associations("# a comment\n\nSTATION\tpolice\t2\nStation\tPolice\t3\nLAMP\tdesk\t1\n")
    assert rows == {"station": {"police": 3}, "lamp": {"desk": 1}}


@pytest.mark.parametrize("line", ["STATION\tpolice", "STATION\tpolice\t4", "STATION\tpolice\tx", "A\tb\t1\textra"])
def test_a_bad_line_is_named_with_its_number(line):
    with pytest.raises(AssociationsError, match=r"line 2: .* is not 'board word<TAB>clue<TAB>1\|2\|3'"):
        parse_associations("LAMP\tdesk\t1\n" + line)


def test_the_packed_table_reads_as_its_text():
    text = "STATION\tpolice\t2\nLAMP\tdesk\t1\nSTATION\ttrain\t3\nStation\tPolice\t3\n"
    table = Associations.from_text(text)
    assert {w: table.row(w) for w in table.words} == parse_associations(text)
    assert table.row("station") == {"police": 3, "train": 3} and len(table) == 3 and table.row("ninja") == {}


def test_strengths_of_a_clue_over_a_board():
    table = Associations({"station": {"police": 3, "train": 2}, "ice cream": {"cone": 3}})
    assert table.strengths("TRAIN", ["lamp", "Station", "ICE  CREAM"]).tolist() == [0, 2, 0]
    assert table.strengths("cone", ["ice cream"]).tolist() == [3]
    rows, cols, strength = table.board(["LAMP", "STATION"], {"police": 7, "cone": 1})
    assert (rows.tolist(), cols.tolist(), strength.tolist()) == ([7], [1], [3])


def test_the_shipped_table_covers_the_pool_with_legal_clues():
    table = default_associations()
    pool = [word_key(w) for w in default_pool()]
    thin = [w for w in pool if len(table.row(w)) < 25]
    assert not thin, f"pool words with fewer than 25 clues in the table: {thin[:10]}"
    for word in table.words:
        for clue in table.row(word):
            assert clue.isalpha() and clue.islower(), (word, clue)
            assert clue_conflict(clue, word) is None, (word, clue)
            assert not is_blocked(clue), (word, clue)
    # set phrases people rely on (issue 36)
    assert table.strengths("police", ["STATION"])[0] >= 2
    assert table.strengths("turtle", ["NINJA"])[0] >= 1


def _toy() -> tuple[ToyModel, list[str]]:
    rng = np.random.default_rng(3)
    board = {w: rng.standard_normal(16) for w in ("STATION", "LAMP", "OCEAN")}
    clues = {w: rng.standard_normal(16) for w in ("police", "desk", "water", "blue", "paper", "stone")}
    return ToyModel(board, clues), ["STATION", "LAMP", "OCEAN"]


def test_the_lift_raises_each_family_by_the_pair_strength_in_every_reading():
    toy, words = _toy()
    table = Associations({"station": {"police": 3, "ocean": 1}, "lamp": {"desk": 1, "unseen": 2}})
    plain, lifted = Ensemble([toy]), Ensemble([toy], associations=table, lift=(0, 0.5, 1.0, 1.5))
    diff = lifted.board(words).z - plain.board(words).z
    police, desk = lifted.index["police"], lifted.index["desk"]
    expected = np.zeros_like(diff)
    expected[0, police, 0], expected[0, desk, 1] = 1.5, 0.5
    assert np.allclose(diff, expected)
    assert np.allclose(lifted.board(words).zbar - plain.board(words).zbar, expected[0])
    # the guesser's rows and a clue no family has as a clue word read the same lift
    rows_diff = lifted.board_rows(words).row(police) - plain.board_rows(words).row(police)
    assert np.allclose(rows_diff, [[1.5, 0, 0]])
    assert np.allclose(lifted.clue_z("Police", lifted.board_rows(words)), lifted.board(words).row(police), atol=1e-5)
    # a word the family reads but not as a clue word ("ocean", a board word here)
    rows = plain.board_rows(words)
    assert np.allclose(lifted.clue_z("ocean", rows) - plain.clue_z("ocean", rows), [[0.5, 0, 0]])


def test_an_ensemble_keeps_a_bounded_number_of_words_lifts(monkeypatch):
    """A server that meets new board words all day keeps only the last few hundred words'
    lifted pairs; a word forgotten is worked out again, to the same numbers."""
    import duetbot.bots.ensemble as ensemble_module

    toy, words = _toy()
    table = Associations({"station": {"police": 3}, "lamp": {"desk": 1}})
    lifted = Ensemble([toy], associations=table)
    first = lifted._lifted(tuple(words))
    monkeypatch.setattr(ensemble_module, "WORD_VECTORS", 2)
    small = Ensemble([toy], associations=table)
    again = small._lifted(tuple(words))
    assert len(small._word_lifts) == 2
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert all(np.array_equal(a, b) for a, b in zip(first, small._lifted(tuple(words))))


def test_assoc_off_in_a_partner_spec():
    spec = PartnerSpec.parse("assoc=off")
    assert not spec.associations and spec.label == "assoc=off"
    assert PartnerSpec.parse("").associations
    with pytest.raises(SpecError, match="assoc must be on or off"):
        PartnerSpec.parse("assoc=maybe")


def test_the_shipped_table_reads_back_from_the_cache_as_parsed(tmp_path, monkeypatch):
    """Issue 39: a process reads the packed table back from the user's cache; it is the
    table the text parses to."""
    from duetbot.bots.factory import shipped_associations
    from duetbot.embeddings.cache import CACHE_ENV

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    parsed = default_associations()
    written = shipped_associations.__wrapped__()
    assert [p.parent.name for p in tmp_path.glob("*/*")] == ["associations"]
    read = shipped_associations.__wrapped__()
    assert written._packed == parsed._packed and read._packed == parsed._packed
    assert read.row("station") == parsed.row("station") and len(read) == len(parsed)
