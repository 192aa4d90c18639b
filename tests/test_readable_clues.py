"""Clues a person can read (issue 28): an honest number, words people say, no bolder clue
after a partner's miss, and every target's link strength shown."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from duetbot.bots.common_words import famous, people_names, people_would_say
from duetbot.bots.factory import default_bots
from duetbot.cli import app
from duetbot.rules import EndTurn, Guess, Label, Player, State, Variant, deal
from duetbot.views import spymaster_view
from duetbot.wordpool import default_pool

#: The odd clue words a new user met (issue 28): names, fragments of names, inflected forms.
NEVER = {"nora", "rica", "shiva", "elsa", "polly", "poets", "palms", "tackles", "tribes", "gods",
         "pores", "bubbles", "inscriptions",
         "stats", "info", "promo", "specs", "admin", "pics", "tech", "vibe"}  # clipped forms (issue 37)
#: Ordinary words the bot gave as 4s on boards where they link only two or three words.
NOT_AS_A_BIG_NUMBER = {"judge", "food", "travel", "painful", "bluetooth", "librarian", "imagery",
                       "cricketer", "waitress", "potter", "tragedy", "disposal"}


@pytest.fixture(scope="module")
def spymaster():
    return default_bots()[0]


def first_boards(seeds=range(10)):
    """The first clue turn of seeded default games, for each player (the issue's boards)."""
    for seed in seeds:
        state = State(deal(seed, default_pool()), Variant.parse("standard"))
        for player in (Player.A, Player.B):
            yield seed, player, state


def test_people_would_say_drops_names_fragments_and_rarer_inflections():
    words = ["poet", "poets", "glass", "glasses", "nora", "paris", "einstein", "rica", "mark", "tackle", "tackles",
             "news", "new", "bro", "app", "despite"]
    zipf = np.array([4.2, 3.8, 4.9, 4.3, 3.5, 4.8, 3.7, 3.8, 5.1, 4.1, 3.8, 5.4, 6.4, 3.9, 4.5, 4.8])
    proper = np.isin(words, ["nora", "paris", "einstein", "rica", "mark"])
    dropped = {w for w, ok in zip(words, people_would_say(words, zipf, proper)) if not ok}
    assert dropped == {"poets", "nora", "rica", "tackles", "bro", "despite"}


def test_famous_and_names_lists_load_and_do_not_overlap_the_wrong_way():
    assert {"paris", "einstein", "beethoven", "christmas"} <= famous()
    assert {"nora", "polly", "john", "keller"} <= people_names()
    assert "nora" not in famous()


def test_the_odd_words_are_never_clue_candidates(spymaster):
    index = spymaster.ensemble.index
    known = [w for w in NEVER if w in index]
    assert known, "the test list should meet the vocabulary"
    assert all(spymaster.words.never[index[w]] for w in known)


def test_first_clues_have_an_honest_number_and_people_words(spymaster):
    firsts = []
    for seed, player, state in first_boards():
        options = spymaster.suggest(spymaster_view(state, player), top=12)
        firsts.append(options[0].clue.number)
        for o in options:
            assert o.clue.word not in NEVER, (seed, player, o.clue)
            if o.clue.number >= 3:
                assert o.clue.word not in NOT_AS_A_BIG_NUMBER, (seed, player, o.clue)
            if o.clue.number:
                # every family's readers put 0.8 k greens in their top k (the honest level);
                # found before a miss, with people's early stops, a little less
                assert o.expected_greens >= 0.75 * o.clue.number, (seed, player, o)
                assert len(o.links) == o.clue.number and all(0 <= v <= 1 for v in o.links)
    assert max(firsts) <= 3 and np.mean(firsts) < 2.5   # a 4 on eight seeds of eight, before


def test_no_bolder_clue_after_the_partner_missed(spymaster):
    """A gives a 1, B touches one of A's bystanders; B gives a clue and A guesses; A's next
    clue is a 1 again (the clock is loose)."""
    checked = 0
    for seed in range(6):
        state = State(deal(seed, default_pool()), Variant.parse("standard"))
        first = spymaster.suggest(spymaster_view(state, Player.A), top=12)
        one = next(o.clue for o in first if o.clue.number == 1)
        state.apply(one, Player.A)
        side = spymaster_view(state, Player.A).my_side
        state.apply(Guess(next(state.deal.words[i] for i in range(25) if side[i] is Label.BYSTANDER)), Player.B)
        b_clue = spymaster.suggest(spymaster_view(state, Player.B), top=1)[0]
        state.apply(b_clue.clue, Player.B)
        state.apply(Guess(b_clue.targets[0]), Player.A)
        if state.outcome is not None:
            continue
        if state.can_end_turn():
            state.apply(EndTurn(), Player.A)
        again = spymaster.suggest(spymaster_view(state, Player.A), top=12)
        assert all(o.clue.number <= 1 for o in again), (seed, [str(o.clue) for o in again])
        checked += 1
    assert checked >= 4


def test_suggest_shows_each_targets_link_strength():
    board = ("SHIP NURSE BANK BREAD KING SHOE CLOCK CAMERA HORSE CHAIR ROCKET TRAIN MOUSE STORM RAINBOW "
             "PIANO DOCTOR PENCIL CASTLE BANANA ROBOT TIGER GLASS ENGINE LAWYER").split()
    request = {"id": 1, "role": "spymaster", "board": board, "green": ["STORM", "RAINBOW", "DOCTOR", "NURSE"],
               "assassin": ["GLASS", "ENGINE", "LAWYER"]}
    result = CliRunner().invoke(app, ["suggest", "jsonl"], input=json.dumps(request) + "\n")
    assert result.exit_code == 0, result.output
    clues = json.loads(result.output)["clues"]
    assert all(len(c["links"]) == len(c["targets"]) for c in clues)
    table = CliRunner().invoke(app, ["suggest", "clue", "--board", ",".join(board), "--green",
                                     "STORM,RAINBOW,DOCTOR,NURSE", "--assassin", "GLASS,ENGINE,LAWYER"])
    assert table.exit_code == 0, table.output
    assert any(word in table.output for word in ("strong", "fair", "weak"))


def test_no_word_for_no_family_table_is_ever_said(spymaster):
    """Issue 36: no sexual or vulgar word as a clue or hint in any face (SPERM, SUCKING,
    STIMULATE were offered): every blocklisted word of the whole clue vocabulary is one the
    spymaster never says, and the issue's words are blocklisted."""
    from duetbot.embeddings.vocab import is_blocked

    assert all(is_blocked(w) for w in ("sperm", "sucking", "stimulate", "orgasm", "nipple"))
    never = spymaster.words.never
    said = [w for i, w in enumerate(spymaster.ensemble.clue_words) if not never[i] and is_blocked(w)]
    assert said == []


def test_every_target_of_every_clue_is_linked_at_every_clock(spymaster):
    """Issue 36: later clues had been padded with targets the bot's own links rated at zero
    (DIAMOND 2 for PEARL 0.99 and COFFEE 0.00) once the partner had read a clue well and the
    clock was tight. Over seeded full games played with a partner of another family (so
    trust and a tight clock both come), every target of every clue given or suggested has a
    link of at least 0.5."""
    from duetbot.bots.base import Partner
    from duetbot.bots.factory import PartnerSpec
    from duetbot.harness.duet import play

    seen: list[tuple[int, str, float]] = []

    class Watching:
        def give_clue(self, view):
            options = spymaster.suggest(view, top=5)
            for o in options:
                if o.clue.number:
                    seen.extend((view.tokens, o.clue.word, link) for link in o.links)
                    assert len(o.links) == o.clue.number
            return options[0].clue

    for seed in range(4):
        partner = PartnerSpec.parse("model=minilm,noise=0.2").build(seed)
        play(State(deal(100 + seed, default_pool())), (Partner(Watching(), partner.guesser, "watched"), partner))
    assert sum(1 for t, _, _ in seen if t <= 4) > 10
    weak = [(t, w, round(link, 2)) for t, w, link in seen if link < 0.5]
    assert not weak, weak
