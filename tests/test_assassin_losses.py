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
    n, by_cause, listed = losses.causes(tmp_path)
    assert n == 2
    assert dict(by_cause) == {"bot on the person's clue, within the number": 1,
                              "person on the bot's clue, past the number": 1}
    assert len(listed) == 1 and listed[0].startswith("seed 7: quasar 1: ")
    losses.main([str(tmp_path)])
    out = capsys.readouterr().out
    assert "2 games, 2 lost on an assassin" in out and "quasar 1" in out
