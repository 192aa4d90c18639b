"""One test per rule of Codenames: Duet; each docstring quotes the rule book (seeds/000)."""

import copy

import pytest

from duetbot.rules import (
    Clue, EndTurn, GameOverError, Guess, GuessResult, IllegalActionError, IllegalClueError,
    InvalidClueError, Phase, Player, State, Termination, UnknownBoardWordError, Variant,
)

from .conftest import A_GREENS, B_GREENS, G_X, GG, N_G, N_N, N_X, WORDS, X_N, fixed_deal

A, B = Player.A, Player.B


def new(variant: str = "standard") -> State:
    return State(fixed_deal(), Variant.parse(variant))


def unchanged(state: State, exc, action, player=None, match=None):
    before = copy.deepcopy(state)
    with pytest.raises(exc, match=match):
        state.apply(action, player)
    assert state == before


def guess(state, i, player=None):
    return state.apply(Guess(WORDS[i]), player)


# --- guessing ----------------------------------------------------------------------------


def test_guess_is_judged_by_the_clue_givers_side():
    """"A guessed word's outcome (agent, bystander, assassin) is determined solely by the
    clue-giver's key card view.\""""
    s = new()
    s.apply(Clue("weather", 2), A)
    assert guess(s, G_X) is GuessResult.GREEN  # green for A, an assassin on B's own side
    assert guess(s, N_G[0]) is GuessResult.BYSTANDER  # green for B, but A's side judges


def test_green_is_covered_and_guessing_may_continue():
    """"If the first guess is correct (a green agent word), your partner can make another guess
    ... There is no limit to the number of correct guesses\""""
    s = new()
    s.apply(Clue("weather", 1))
    for i in A_GREENS[:6]:
        assert guess(s, i) is GuessResult.GREEN
    assert s.phase is Phase.GUESS and s.covered_green == set(A_GREENS[:6])


def test_bystander_is_marked_for_that_guesser_and_ends_the_turn():
    """"If your partner touches a word that is tan ... mark it with a timer token ... Do not
    cover the word; it might still be a target word for your partner later.\""""
    s = new()
    s.apply(Clue("weather", 2), A)
    assert guess(s, N_N[0]) is GuessResult.BYSTANDER
    assert s.marks[B] == {N_N[0]} and N_N[0] not in s.covered()
    assert s.phase is Phase.CLUE and s.tokens == 8
    assert WORDS[N_N[0]] in s.visible_words()


def test_word_is_covered_once_both_players_marked_it():
    """"Your partner might see it as another innocent bystander, in which case they will mark it
    with a second timer token ... neither player can guess it again.\""""
    s = new()
    s.apply(Clue("weather", 1), A)
    guess(s, N_N[0], B)
    s.apply(Clue("music", 1), B)
    assert guess(s, N_N[0], A) is GuessResult.BYSTANDER
    assert N_N[0] in s.covered() and WORDS[N_N[0]] not in s.visible_words()
    s.apply(Clue("sport", 1), A)
    unchanged(s, IllegalActionError, Guess(WORDS[N_N[0]]), B, match="covered")


def test_word_marked_by_one_guesser_can_be_green_for_the_other():
    """"Your partner might see it as a green agent, in which case they will cover it with a green
    agent card.\""""
    s = new()
    s.apply(Clue("weather", 1), A)
    guess(s, N_G[0], B)  # bystander on A's side
    s.apply(Clue("music", 1), B)
    assert guess(s, N_G[0], A) is GuessResult.GREEN
    assert N_G[0] in s.covered()


def test_guesser_cannot_touch_own_bystander_again():
    """"A word marked incorrectly by one player can still be guessed by the other.\" (but the
    same guesser would only find the same bystander again; the engine refuses it)"""
    s = new()
    s.apply(Clue("weather", 1), A)
    guess(s, N_N[0], B)
    s.apply(Clue("music", 1), B)
    guess(s, N_N[1], A)
    s.apply(Clue("sport", 1), A)
    unchanged(s, IllegalActionError, Guess(WORDS[N_N[0]]), B, match="already a bystander")


def test_assassin_loses_at_once():
    """"If either player guesses a word that the other player sees as black (an assassin), the
    team is compromised, and both players immediately lose.\""""
    s = new()
    s.apply(Clue("weather", 1), A)
    assert guess(s, X_N, B) is GuessResult.ASSASSIN
    assert s.outcome is Termination.ASSASSIN and s.is_over() and s.score() is None
    unchanged(s, GameOverError, Clue("music", 1), None, match="game is over")


def test_my_own_assassin_is_not_judged_against_me():
    """"When you are the guesser, only your partner's side of the key card is relevant.\""""
    s = new()
    s.apply(Clue("weather", 1), A)
    assert guess(s, N_X, B) is GuessResult.BYSTANDER  # assassin only on B's own side


# --- turns and tokens --------------------------------------------------------------------


def test_each_turn_consumes_one_token():
    """"A turn always consumes one timer token from the time bank.\""""
    s = new()
    s.apply(Clue("weather", 1), A)
    guess(s, GG[0])
    s.apply(EndTurn())
    assert s.tokens == 8 and s.voluntary_ends == 1
    s.apply(Clue("music", 1), B)
    guess(s, N_N[0], A)
    assert s.tokens == 7 and s.voluntary_ends == 1


def test_voluntary_end_only_after_a_correct_guess():
    """"After one or more correct guesses, your partner may choose to end the turn\""""
    s = new()
    s.apply(Clue("weather", 2))
    unchanged(s, IllegalActionError, EndTurn(), match="at least one correct guess")


def test_zero_clue_still_requires_a_guess():
    """"Even when a “zero clue” is given, the guessing operative must still attempt to identify at
    least one word.\""""
    s = new()
    s.apply(Clue("lazy", 0))
    assert s.phase is Phase.GUESS
    unchanged(s, IllegalActionError, EndTurn(), match="at least one correct guess")


def test_players_alternate_giving_clues():
    """"You and your partner will alternate giving clues.\""""
    s = new()
    s.apply(Clue("weather", 1), A)
    guess(s, N_N[0])
    assert s.to_move() == (B,)
    unchanged(s, IllegalActionError, Clue("music", 1), A, match="not player A's move")


def test_either_player_may_give_the_first_clue():
    """"Either player can offer the first clue.\""""
    assert new().to_move() == (A, B)
    s = new()
    s.apply(Clue("music", 1), B)
    assert s.guesser is A


def test_out_of_turn_actions_are_refused():
    s = new()
    unchanged(s, IllegalActionError, Guess(WORDS[0]), match="a clue must come first")
    s.apply(Clue("weather", 1), A)
    unchanged(s, IllegalActionError, Clue("music", 1), B, match="no clue now")
    unchanged(s, IllegalActionError, Guess(WORDS[0]), A, match="not player A's move")


def test_guess_must_name_an_uncovered_board_word():
    s = new()
    s.apply(Clue("weather", 1), A)
    unchanged(s, UnknownBoardWordError, Guess("SPACESHIP"), match="not a word on this board")
    guess(s, GG[0])
    unchanged(s, IllegalActionError, Guess(WORDS[GG[0]].lower()), match="covered")


def test_finished_player_stops_giving_clues():
    """"Once all nine words that are green on your side of the key card have been covered ...
    Your partner will then be the sole clue-giver for all remaining turns.\""""
    s = new()
    s.apply(Clue("everything", 9), A)
    for i in A_GREENS:
        guess(s, i, B)
    assert s.is_done(A) and s.phase is Phase.CLUE and s.tokens == 8
    for _ in range(3):
        assert s.to_move() == (B,)
        s.apply(Clue("music", 1), B)
        guess(s, next(i for i in N_N if i not in s.marks[A]), A)


def test_win_when_all_15_agents_are_covered_and_score():
    """"Victory is achieved when the final agent card is placed.\" / "Award 3 commendation points
    for each unused time token ... Award 1 commendation point for each time token voluntarily
    withdrawn\""""
    s = new()
    s.apply(Clue("everything", 9), A)
    for i in A_GREENS:
        guess(s, i, B)
    s.apply(Clue("rest", 6), B)
    for i in [i for i in B_GREENS if i not in GG]:
        guess(s, i, A)
    assert s.outcome is Termination.WIN and len(s.covered_green) == 15
    assert s.tokens == 8 and s.voluntary_ends == 1 and s.score() == 3 * 8 + 1


# --- sudden death ------------------------------------------------------------------------


def run_out_of_time(s: State) -> None:
    """Spend every token on bystanders, alternating givers."""
    bystanders = {A: iter(N_N + [N_X]), B: iter([X_N] + N_N)}
    while s.phase is Phase.CLUE:
        giver = s.to_move()[0]
        s.apply(Clue("nothing", 1), giver)
        # a word that is a bystander on the giver's side and not yet marked by the guesser
        for i in bystanders[giver]:
            if i not in s.marks[giver.other] and i not in s.covered():
                break
        guess(s, i)


def test_sudden_death_when_tokens_run_out():
    """"If the team runs out of timer tokens and there are still unguessed agent words, a final
    “sudden death” turn occurs. ... no new clues are given.\""""
    s = new()
    run_out_of_time(s)
    assert s.tokens == 0 and s.phase is Phase.SUDDEN_DEATH and s.sudden_death
    assert set(s.sudden_death_guessers()) == {A, B}
    unchanged(s, IllegalActionError, Clue("last", 1), A)
    unchanged(s, IllegalActionError, EndTurn(), A, match="sudden death")


def test_sudden_death_any_miss_loses():
    """"An incorrect guess during sudden death results in an immediate loss for both players, even
    if the guessed word was just an innocent bystander.\""""
    s = new()
    run_out_of_time(s)
    assert guess(s, GG[0], A) is GuessResult.GREEN
    assert guess(s, 18 if 18 not in s.marks[B] else 24, B) is GuessResult.BYSTANDER
    assert s.outcome is Termination.SUDDEN_DEATH_MISS


def test_sudden_death_guessers_are_asked_in_turn_player_b_first():
    """The rule book lets sudden-death guesses come in any order (either guesser may guess);
    the game loop asks them in turn, one word each, player B first, and a replayed record
    knows whose turn it is."""
    s = new()
    run_out_of_time(s)
    assert s.mover() is B
    assert guess(s, next(i for i in A_GREENS if i not in s.covered()), B) is GuessResult.GREEN
    assert s.mover() is A and s.sudden_death_guesses == 1
    replayed = State.replay(s.deal, s.variant, s.events)
    assert replayed.mover() is A and replayed == s
    assert guess(s, next(i for i in A_GREENS if i not in s.covered()), B) is GuessResult.GREEN  # out of turn: allowed
    assert s.mover() is B


def test_sudden_death_only_the_player_with_words_left_guesses_and_win_costs_a_point():
    """"If only one player has remaining agent words to guess, that player is the guesser.\" /
    "Deduct 1 commendation point if the sudden death phase was required\""""
    s = new("standard")
    s.apply(Clue("everything", 9), A)
    for i in A_GREENS:
        guess(s, i, B)
    while s.phase is Phase.CLUE:  # B gives clues, A misses every time
        s.apply(Clue("nothing", 1), B)
        guess(s, next(i for i in N_N + [X_N] if i not in s.marks[A]), A)
    assert s.phase is Phase.SUDDEN_DEATH and s.sudden_death_guessers() == (A,)
    unchanged(s, IllegalActionError, Guess(WORDS[N_G[0]]), B, match="not player B's move")
    for i in [i for i in B_GREENS if i not in GG]:
        guess(s, i, A)
    assert s.outcome is Termination.WIN and s.tokens == 0 and s.score() == 0 + 1 - 1


# --- clue legality on the board -----------------------------------------------------------


def test_clue_may_not_be_a_visible_word_until_it_is_covered():
    """"A word is considered “visible” until it is either covered by a green agent card or marked
    by two timer tokens\""""
    s = new()
    unchanged(s, IllegalClueError, Clue("apple", 1), A, match="apple")
    s.apply(Clue("fruit", 1), A)
    guess(s, 0)  # APPLE green/green: covered
    s.apply(EndTurn())
    s.apply(Clue("apple", 1), B)
    assert s.turns[-1].clue.word == "apple"


def test_malformed_clue_is_rejected_before_it_reaches_the_board():
    """"“Leonardo da Vinci,” ... “moth-eaten,” and “guinea pig” ... violate the single-word
    constraint.\""""
    for text in ["guinea pig", "moth-eaten", ""]:
        with pytest.raises(InvalidClueError):
            Clue(text, 1)
    with pytest.raises(InvalidClueError, match="whole number"):
        Clue("ocean", -1)
    assert Clue.parse("Weather: 2") == Clue("weather", 2) and str(Clue("weather", 2)) == "WEATHER: 2"


def test_invalid_clue_penalty_costs_a_token_and_play_goes_on():
    """"Should an operative inadvertently provide invalid intelligence, a one-turn penalty will be
    incurred. ... Subsequently, the guessing operative should proceed with their attempt as if
    the intelligence were valid.\""""
    s = new("standard+penalty")
    s.apply(Clue("apples", 2), A)
    assert s.tokens == 8 and s.phase is Phase.GUESS and s.events[-1].result == "penalty"
    guess(s, GG[1])
    s.apply(EndTurn())
    assert s.tokens == 7


# --- variants ----------------------------------------------------------------------------


def test_mission_map_mistake_costs_two_tokens_once_bystander_tokens_are_gone():
    """"once the supply of bystander-side-up tokens is depleted, incorrect guesses incur a
    greater penalty ... This mistake now costs the team two turns instead of one.\""""
    s = new("mission:6:1")
    assert (s.bystander_tokens, s.check_tokens) == (1, 5)
    s.apply(Clue("weather", 1), A)
    guess(s, GG[0])
    s.apply(EndTurn())  # a voluntary end takes a checkmark-side token first
    assert (s.bystander_tokens, s.check_tokens) == (1, 4)
    s.apply(Clue("music", 1), B)
    guess(s, N_N[0], A)
    assert (s.bystander_tokens, s.check_tokens) == (0, 4)
    s.apply(Clue("sport", 1), A)
    guess(s, N_N[1], B)
    assert (s.bystander_tokens, s.check_tokens) == (0, 2)


def test_mission_map_lost_when_two_are_owed_and_one_is_left():
    """"If only one token remains when two are required, sudden death is skipped, and the game
    is lost.\""""
    s = new("mission:2:0")
    s.apply(Clue("weather", 1), A)
    guess(s, GG[0])
    s.apply(EndTurn())
    s.apply(Clue("music", 1), B)
    guess(s, N_N[0], A)
    assert s.outcome is Termination.MISSION_FAILED


def test_guess_cap_number_plus_one():
    """Seed 003: "玩家猜对后可继续猜，最多可猜测数字加1次" (after a correct guess the guesser may go
    on, at most number+1 guesses)."""
    s = new("standard+cap")
    s.apply(Clue("weather", 1), A)
    assert s.guesses_left() == 2
    guess(s, GG[0])
    guess(s, GG[1])
    assert s.phase is Phase.CLUE and s.tokens == 8 and s.voluntary_ends == 1


def test_no_zero_clues_variant():
    """Seed 003: "数字必须至少为1" (the number must be at least 1)."""
    unchanged(new("seed003"), IllegalActionError, Clue("lazy", 0), A, match="zero clues")


def test_looser_turn_order_two_in_a_row_never_three():
    """"Your team may choose to allow a single operative to provide two consecutive pieces of
    intelligence ... However, this should be followed by the other operative\""""
    s = new("standard+loose")
    s.apply(Clue("weather", 1), A)
    guess(s, N_N[0])
    assert s.to_move() == (B, A)
    s.apply(Clue("music", 1), A)
    guess(s, N_N[1])
    assert s.to_move() == (B,)
    unchanged(s, IllegalActionError, Clue("sport", 1), A)


def test_history_tells_each_clue_the_passes_and_sudden_death():
    """``State.history()``: the clue log both faces show (the terminal and the web page)."""
    s = new()
    s.apply(Clue("first", 2), A)
    assert guess(s, GG[0]) is GuessResult.GREEN
    s.apply(EndTurn(), B)
    s.apply(Clue("second", 1), B)
    guess(s, N_N[0])
    h = s.history()
    assert [t.clue.word for t in h.turns] == ["first", "second"]
    assert h.turns[0].guesses == ((WORDS[GG[0]], GuessResult.GREEN),) and h.passed == frozenset({0})
    assert h.sudden_death == ()
    run_out_of_time(s)
    guess(s, next(i for i in A_GREENS if i not in s.covered()), B)
    h = s.history()
    assert len(h.turns) == len(s.turns) and [ev.player for ev in h.sudden_death] == [B]
    assert h.sudden_death[0].result == GuessResult.GREEN.value
