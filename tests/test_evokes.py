"""What a clue calls to mind (``duetbot/data/evokes.tsv``): the lists, what they reach, and the
spymaster that gives no clue reaching an assassin of its own."""

from __future__ import annotations

import pytest

from duetbot.bots.ensemble import Ensemble
from duetbot.bots.factory import PartnerSpec, shipped_evokes
from duetbot.bots.spymaster import EmbeddingSpymaster
from duetbot.build.evokes import MOST, assemble, clean
from duetbot.embeddings.vocab import is_blocked
from duetbot.harness import play_game
from duetbot.rules import Clue, Label, Player, State, deal
from duetbot.rules.clues import clue_conflict
from duetbot.views import spymaster_view
from duetbot.wordpool import default_pool
from duetbot.words.evokes import TABLE, Evokes, EvokesError, default_evokes, parse_evokes, reached

from .test_spymaster import GREENS, position, spymaster  # noqa: F401  (a fixture)


def test_parse_joins_a_clue_given_twice_and_skips_comments():
    lists = parse_evokes("# a comment\n\nShark\tfin, Jaws\nshark\tjaws, teeth\nsea\tboat\n")
    assert lists == {"shark": ("fin", "jaws", "teeth"), "sea": ("boat",)}


@pytest.mark.parametrize("line", ["shark", "shark\t", "\tfin", "shark\t , ,"])
def test_a_bad_line_is_named_with_its_number(line):
    with pytest.raises(EvokesError, match=r"line 2: .* is not 'clue<TAB>association, association, \.\.\.'"):
        parse_evokes("sea\tboat\n" + line)


def test_an_association_reaches_its_words_their_forms_and_a_compounds_parts():
    assert {"boat", "boats"} <= reached("Boats")
    assert {"hammerhead", "head", "hammer"} <= reached("hammerhead")
    assert {"trick of the light", "light", "trick"} <= reached("trick of the light")
    assert "hear" not in reached("hearth")          # (a part of two letters is no compound's)


def test_the_index_by_board_word_and_its_state():
    table = Evokes.from_lists({"shark": ("fin", "hammerhead", "sharks"), "sea": ("boats", "ice cream")})
    assert table.clues("HEAD") == ("shark",) and table.clues("Boat") == ("sea",)
    assert table.clues("ICE CREAM") == ("sea",) and table.clues("ship") == ()
    assert table.clues("shark") == ()                # a clue does not reach itself
    assert Evokes.from_state(table.state()).state() == table.state() and len(table) == len(Evokes.from_state(table.state()))


def test_assembly_cleans_the_writers_lists():
    assert clean("shark", ["Fin", "sharks", "fin", "  great   white ", "jaws!", ""]) == ["fin", "great white", "jaws"]
    assert len(clean("sea", [f"w{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(MOST + 5)])) == MOST
    logged: list[str] = []
    text = assemble(["sea\tboat, waves\nice cream\tcone\n", "sea\tboat, salt\nsky\tsky, skies\n"], log=logged.append)
    assert text.splitlines()[-1] == "sea\tboat, waves, salt"
    assert "sky" not in text.split("#")[-1].split("\n", 1)[1] and len(logged) == 2
    assert parse_evokes(text) == {"sea": ("boat", "waves", "salt")}


def test_the_shipped_lists():
    lists = parse_evokes(TABLE.read_text(encoding="utf-8"))
    assert len(lists) > 3000
    for clue, found in lists.items():
        assert clue.isalpha() and clue.islower(), clue
        assert 10 <= len(found) <= MOST, (clue, len(found))
        for a in found:
            assert clue_conflict(clue, a) is None and not any(is_blocked(t) for t in a.split()), (clue, a)
    # every pool word is reached by some clue (else the lists say nothing of it)
    pool = default_pool()
    unreached = [w for w in pool if not default_evokes().clues(w)]
    assert len(unreached) < len(pool) // 20, unreached[:10]


def test_the_index_reads_back_from_the_cache_as_built(tmp_path, monkeypatch):
    from duetbot.embeddings.cache import CACHE_ENV

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    written = shipped_evokes.__wrapped__()
    assert [p.parent.name for p in tmp_path.glob("*/*")] == ["evokes"]
    read = shipped_evokes.__wrapped__()
    assert written.state() == read.state() == default_evokes().state()
    assert read.clues("boat") == default_evokes().clues("boat") and "cargo" in read.clues("BOAT")


def test_no_clue_that_calls_an_assassin_of_mine_to_mind(spymaster):  # noqa: F811
    greens = ["PIANO", "GUITAR"] + [w for w in GREENS if w != "PIANO"][:7]
    state = position(greens, ["GLASS", "ENGINE", "LAWYER"], {"PIANO", "GUITAR"})
    view = spymaster_view(state, Player.A)
    best = spymaster.suggest(view, top=1)[0].clue

    def wary(lists: dict) -> EmbeddingSpymaster:
        ens = spymaster.ensemble
        return EmbeddingSpymaster(Ensemble(ens.models, associations=ens.associations, evokes=Evokes.from_lists(lists)),
                                  spymaster.config)

    options = wary({best.word: ("broken glass",)}).suggest(view, top=5)
    assert best.word not in [o.clue.word for o in options] and options[0].clue.number >= 1
    # the same link to a bystander of mine (BANK) leaves the clue alone
    assert wary({best.word: ("bank",)}).suggest(view, top=1)[0].clue == best


def test_no_bot_clue_reaches_a_live_assassin_over_seeded_games():
    """Issue 36: over seeded games of the shipped pair, no clue the bot gives is one whose
    associations reach an assassin of its own still in play."""
    evokes = shipped_evokes()
    pool = default_pool()
    given = 0
    p = PartnerSpec.parse("default")
    for seed in range(6):
        rec = play_game(deal(seed, pool), (p.build(seed), p.build(seed + 1)))
        state = State(rec.deal, rec.variant)
        for e in rec.events:
            if isinstance(e.action, Clue):
                given += 1
                view = spymaster_view(state, e.player)
                live = [view.words[i] for i, label in enumerate(view.my_side)
                        if label is Label.ASSASSIN and i not in view.covered and i not in view.partner_marks]
                assert not [w for w in live if e.action.word in evokes.clues(w)], (seed, e.action, live)
            state.apply(e.action, e.player)
    assert given > 30
