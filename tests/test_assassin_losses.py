"""benchmarks/person_like/assassin_losses.py: losses on an assassin classed by the guess that lost."""

from __future__ import annotations

from duetbot.rules import Clue, Guess, Label, State, deal
from duetbot.saves import save_game

from .conftest import benchmark
from .test_summarize_games import A, B, hand_made, words_of

losses = benchmark("person_like.assassin_losses")


def person_past_the_number() -> State:
    """The bot (B) clues 1; the person finds it and goes on onto an assassin of the bot's."""
    d = deal(7, [f"W{i}" for i in range(25)])
    st = State(d)
    st.apply(Clue("quasar", 1), B)
    st.apply(Guess(words_of(d, B, Label.GREEN)[0]), A)
    st.apply(Guess(words_of(d, B, Label.ASSASSIN)[0]), A)
    assert st.is_over()
    return st


def test_causes_and_the_listed_bot_clues(tmp_path, capsys):
    save_game(hand_made(), tmp_path / "a.json", "duetbot")
    save_game(person_past_the_number(), tmp_path / "b.json", "duetbot")
    n, by_cause, listed, clues = losses.causes(tmp_path)
    assert n == 2
    assert clues["bot"] >= 1 and clues["bot on an assassin"] == 1
    assert clues["person on an assassin"] == 1 and clues["person"] >= 1
    assert dict(by_cause) == {"bot on the person's clue, within the number": 1,
                              "person on the bot's clue, past the number": 1}
    assert len(listed) == 1 and listed[0].startswith("seed 7: quasar 1: ")
    losses.main([str(tmp_path)])
    out = capsys.readouterr().out
    assert "2 games, 2 lost on an assassin" in out and "quasar 1" in out


def test_people_beside_the_saves(tmp_path, capsys):
    """People's turns: a turn counts when its first miss is the assassin (not a later guess)."""
    import json

    turns = [{"game": 1, "human_guesses": ["a", "x"], "green": ["a"], "black": ["x"]},
             {"game": 1, "human_guesses": ["b", "x"], "green": ["a"], "black": ["x"]},
             {"game": 2, "human_guesses": ["a"], "green": ["a"], "black": ["x"]}]
    data = tmp_path / "turns.jsonl"
    data.write_text("".join(json.dumps(t) + "\n" for t in turns))
    assert losses.people_turns(data) == (3, 1, 2, 1)
    saves = tmp_path / "games"
    saves.mkdir()
    save_game(person_past_the_number(), saves / "b.json", "duetbot")
    losses.main(["--people", "--data", str(data), str(saves)])
    out = capsys.readouterr().out
    assert "the bot's: 1 of 1 (100.0%)" in out
    assert "people's own (one giver, one guesser): 1 of 3 (33.3%); 1 of 2 of their games" in out
    losses.main(["--people", "--data", str(tmp_path / "absent.jsonl"), str(saves)])
    assert "not found (--data PATH)" in capsys.readouterr().out


def test_bot_clues_against_the_free_associations(tmp_path):
    """``--evokes``: each bot clue outside sudden death, the live assassins its list reaches
    (none for a word the lists lack) and the assassin the person's guesses touched."""
    save_game(person_past_the_number(), tmp_path / "b.json", "duetbot")
    d = deal(7, [f"W{i}" for i in range(25)])
    assert losses.reaching([tmp_path]) == [("quasar", (), words_of(d, B, Label.ASSASSIN)[0])]
