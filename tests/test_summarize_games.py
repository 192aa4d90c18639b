"""benchmarks/person_like/summarize_games.py: the counting on a hand-made game, and a folder of saves."""

from __future__ import annotations

import json

from duetbot.rules import Clue, EndTurn, Guess, Label, Player, State, deal
from duetbot.saves import save_game

from .conftest import benchmark

A, B = Player.A, Player.B
summ = benchmark("person_like.summarize_games")


def words_of(d, on, label, other=None):
    """Board words that are ``label`` on ``on``'s side (and ``other`` on the other side, if given)."""
    return [d.words[i] for i in sorted(d.key.indices(on, label))
            if other is None or d.key.label(on.other, i) is other]


def hand_made() -> State:
    d = deal(5, [f"W{i}" for i in range(25)])
    st = State(d)
    a_green = words_of(d, A, Label.GREEN, Label.BYSTANDER)
    b_green = words_of(d, B, Label.GREEN, Label.BYSTANDER)
    neither = words_of(d, A, Label.BYSTANDER, Label.BYSTANDER)
    a_assassin = words_of(d, A, Label.ASSASSIN, Label.BYSTANDER)
    # the person (A) clues 1; the bot finds one, goes past the number and misses
    st.apply(Clue("zephyr", 1), A)
    st.apply(Guess(a_green[0]), B)
    st.apply(Guess(neither[0]), B)
    # the bot clues 2; the person finds two, one past the number too, then passes
    st.apply(Clue("quasar", 2), B)
    for w in b_green[:3]:
        st.apply(Guess(w), A)
    st.apply(EndTurn(), A)
    # the person clues 2; the bot's first guess is an assassin on the person's side
    st.apply(Clue("nebula", 2), A)
    st.apply(Guess(a_assassin[0]), B)
    assert st.is_over()
    return st


def test_counts_on_a_hand_made_game():
    s = summ.summarize([hand_made()])
    assert s["games"] == 1 and s["wins"] == {"k": 0, "n": 1, "rate": 0.0}
    assert s["losses_by_cause"]["assassin"]["k"] == 1
    bot, person = s["bot_clues_guessed_by_person"], s["person_clues_guessed_by_bot"]
    assert bot["clues"] == 1 and bot["greens_per_clue"] == {"value": 3.0, "count": 1}
    assert bot["guesses_past_number"]["guesses"] == 1 and bot["guesses_past_number"]["misses"]["k"] == 0
    assert person["clues"] == 2 and person["greens_per_clue"] == {"value": 0.5, "count": 2}
    assert person["ended_on_assassin"] == {"k": 1, "n": 2, "rate": 0.5}
    assert person["ended_on_bystander"]["k"] == 1 and person["first_guess_green"]["k"] == 1
    past = person["guesses_past_number"]
    assert past["guesses"] == 1 and past["misses"] == {"k": 1, "n": 1, "rate": 1.0} and past["assassins"]["k"] == 0
    assert s["padded_targets"]["available"] is False
    assert "Padded targets: unavailable" in summ.render(s)


def test_a_loss_on_an_assassin_in_sudden_death_is_counted_apart():
    d = deal(5, [f"W{i}" for i in range(25)])
    st = State(d)
    misses = {A: words_of(d, A, Label.BYSTANDER, Label.BYSTANDER), B: words_of(d, B, Label.BYSTANDER, Label.BYSTANDER)}
    giver = A
    while not st.sudden_death:            # every clue read wrong (a bystander on both sides): no tokens left
        st.apply(Clue("zephyr", 1), giver)
        st.apply(Guess(misses[giver].pop(0)), giver.other)
        giver = giver.other
    guesser = st.mover()                  # judged by the other side: an assassin there, untouched
    st.apply(Guess(words_of(d, guesser.other, Label.ASSASSIN, Label.BYSTANDER)[0]), guesser)
    assert st.is_over()
    s = summ.summarize([st])
    assert s["losses_by_cause"]["assassin"]["k"] == 1
    assert s["lost_on_an_assassin_in_sudden_death"] == {"k": 1, "n": 1, "rate": 1.0}
    assert "Lost, assassin: 1 of 1 (100.0%)\n  of which in sudden death: 1 of 1" in summ.render(s)
    assert summ.summarize([hand_made()])["lost_on_an_assassin_in_sudden_death"]["k"] == 0


def test_a_turn_in_progress_is_left_out():
    d = deal(5, [f"W{i}" for i in range(25)])
    st = State(d)
    st.apply(Clue("zephyr", 1), A)
    s = summ.summarize([st])
    assert s["unfinished"] == 1 and s["person_clues_guessed_by_bot"]["clues"] == 0


def test_folder_of_saves(tmp_path, capsys):
    save_game(hand_made(), tmp_path / "one.json", "duetbot")
    (tmp_path / "junk.json").write_text("{}")
    out = tmp_path / "summary.json"
    assert summ.main([str(tmp_path), "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["games"] == 1 and data["skipped_files"] == 1
    assert data["players"] == {"A: human": 1, "B: duetbot": 1}
    captured = capsys.readouterr()
    assert "Games: 1" in captured.out and "skipped:" in captured.err
    assert summ.main([str(tmp_path / "none")]) == 2
