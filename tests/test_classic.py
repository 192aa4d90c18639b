"""Classic Codenames (two teams) on the shared engine: rules from seeds/001, views, bots,
harness, CLI (``--game classic``) and the ``suggest`` classic requests."""

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duetbot.cli.classic as classic_cli
from duetbot.bots import Partner
from duetbot.bots.classic import (
    ClassicGuesser, ClassicSpymaster, classic_random_team, race_table, solo_table,
)
from duetbot.classic_harness import (
    ClassicRecord, play_classic_game, simulate_classic, summarize_classic,
)
from duetbot.classic_views import (
    classic_guesser_view, classic_spymaster_view,
)
from duetbot.cli import app
from duetbot.rules import (
    Clue, EndTurn, GameOverError, Guess, IllegalActionError, IllegalClueError, Phase,
    UnknownBoardWordError, is_legal_clue,
)
from duetbot.rules.classic import (
    Card, ClassicKey, ClassicResult, ClassicRules, ClassicState, ClassicTermination, Team,
    deal_classic, make_classic_deal,
)
from duetbot.rules.keycard import KeyCardError
from duetbot.wordpool import default_pool

from .conftest import WORDS

R, B = Team.RED, Team.BLUE
# Fixed key: 0-8 red (9, red starts), 9-16 blue (8), 17-23 bystanders, 24 the assassin.
LABELS = ["red"] * 9 + ["blue"] * 8 + ["bystander"] * 7 + ["assassin"]
RED, BLUE, BYS, ASSASSIN = list(range(9)), list(range(9, 17)), list(range(17, 24)), 24


def fixed(rules=None):
    return ClassicState(make_classic_deal(WORDS, LABELS, "red"), rules or ClassicRules())


def w(i):
    return WORDS[i]


def clue(n=2):
    return Clue("zephyr", n)


# --- the rule book (seeds/001), one rule per test --------------------------------------------


def test_key_has_9_8_7_1_and_the_team_with_9_starts():
    """"9 words for the team that goes first, 8 for the other team, 7 innocent bystanders, and
    1 assassin. The coloured lights around the edge of the key card tell you which team starts
    (and therefore which team has the 9 words).\""""
    starts = set()
    for seed in range(40):
        d = deal_classic(seed, default_pool())
        c = d.key.counts()
        assert sorted(c.values()) == [1, 7, 8, 9]
        assert len(d.key.agents(d.key.starting)) == 9 and len(d.key.agents(d.key.starting.other)) == 8
        assert ClassicState(d).to_move() == (d.key.starting,)
        starts.add(d.key.starting)
    assert starts == {R, B}
    with pytest.raises(KeyCardError):
        ClassicKey.from_labels(["red"] * 10 + ["blue"] * 7 + ["bystander"] * 7 + ["assassin"], "red")


def test_deal_is_deterministic_from_the_seed():
    """"Draw a key card at random": random, but reproducible from a seed."""
    pool = default_pool()
    assert deal_classic(5, pool) == deal_classic(5, pool)
    assert deal_classic(5, pool) != deal_classic(6, pool)


def test_clue_is_one_word_and_one_number_and_no_form_of_a_visible_word():
    """"a clue made of exactly one word and one number ... The clue may never contain any form
    of a word still showing on the grid.\""""
    s = fixed()
    with pytest.raises(IllegalClueError):
        s.apply(Clue("apples", 2))
    with pytest.raises(ValueError):
        s.apply(Clue.parse("two words 2"))
    assert s.phase is Phase.CLUE and not s.events
    s.apply(Clue("fruit", 1))
    assert s.phase is Phase.GUESS


def test_covered_word_frees_its_forms():
    """"any form of a word still showing on the grid": a covered word no longer forbids its forms."""
    s = fixed()
    assert not is_legal_clue("apples", s.visible_words())
    s.apply(clue(2))
    s.apply(Guess(w(0)))
    s.apply(EndTurn())
    s.apply(Clue("apples", 1), B)
    assert s.turns[-1].clue.word == "apples"


def test_own_agent_is_covered_and_the_team_may_continue():
    """"Your team's agent: correct. Keep guessing, if guesses remain.\""""
    s = fixed()
    s.apply(clue(2))
    assert s.apply(Guess(w(0))) is ClassicResult.AGENT
    assert s.covered[0] is Card.RED and s.phase is Phase.GUESS and s.team is R


def test_bystander_is_covered_and_ends_the_turn():
    """"An innocent bystander: your turn ends immediately.\""""
    s = fixed()
    s.apply(clue(2))
    assert s.apply(Guess(w(BYS[0]))) is ClassicResult.BYSTANDER
    assert s.covered[BYS[0]] is Card.BYSTANDER and s.phase is Phase.CLUE and s.team is B


def test_other_teams_agent_is_covered_for_them_and_ends_the_turn():
    """"The other team's agent: it gets covered for them — you've done their work — and your
    turn ends immediately.\""""
    s = fixed()
    s.apply(clue(2))
    assert s.apply(Guess(w(BLUE[0]))) is ClassicResult.OPPONENT
    assert s.covered[BLUE[0]] is Card.BLUE and len(s.agents_left(B)) == 7
    assert s.phase is Phase.CLUE and s.team is B


def test_assassin_loses_for_the_guessing_team():
    """"The assassin: the game ends on the spot and your team loses.\""""
    s = fixed()
    s.apply(clue(2))
    s.apply(Guess(w(0)))
    assert s.apply(Guess(w(ASSASSIN))) is ClassicResult.ASSASSIN
    assert s.outcome is ClassicTermination.ASSASSIN and s.winner is B and s.phase is Phase.OVER
    with pytest.raises(GameOverError):
        s.apply(clue(1), B)


def test_at_most_number_plus_one_guesses():
    """"Your team may make up to the clue's number plus one guesses.\""""
    s = fixed()
    s.apply(clue(2))
    for i in range(3):
        assert s.guesses_left() == 3 - i
        s.apply(Guess(w(i)))
    assert s.phase is Phase.CLUE and s.team is B


def test_zero_clue_allows_one_guess_by_seed_001_or_unlimited_as_an_option():
    """seeds/001 states number plus one for every number, so a zero clue gives one guess; the
    published full rule book's unlimited zero is ``ClassicRules(zero_unlimited=True)``."""
    s = fixed()
    s.apply(clue(0))
    assert s.guesses_left() == 1
    s.apply(Guess(w(0)))
    assert s.team is B and s.phase is Phase.CLUE
    u = fixed(ClassicRules(zero_unlimited=True))
    u.apply(clue(0))
    assert u.guesses_left() is None
    for i in range(4):
        u.apply(Guess(w(i)))
    assert u.phase is Phase.GUESS and u.team is R


def test_may_stop_only_after_at_least_one_guess():
    """"After making at least one guess, operatives may stop and pass voluntarily.\""""
    s = fixed()
    s.apply(clue(2))
    with pytest.raises(IllegalActionError):
        s.apply(EndTurn())
    s.apply(Guess(w(0)))
    s.apply(EndTurn())
    assert s.team is B and s.phase is Phase.CLUE


def test_teams_take_turns_and_act_only_on_their_turn():
    """"Teams take turns ... When the turn ends, the other team's spymaster gives their clue.\""""
    s = fixed()
    with pytest.raises(IllegalActionError):
        s.apply(clue(1), B)
    s.apply(clue(1), R)
    with pytest.raises(IllegalActionError):
        s.apply(Guess(w(0)), B)
    with pytest.raises(IllegalActionError):
        s.apply(clue(1), R)   # no clue while guessing
    s.apply(Guess(w(BYS[0])), R)
    assert s.to_move() == (B,)


def test_team_wins_when_all_its_agents_are_covered():
    """"Your team wins the moment all of its agents on the grid are covered.\""""
    s = fixed()
    s.apply(clue(9))
    for i in RED:
        s.apply(Guess(w(i)))
    assert s.outcome is ClassicTermination.AGENTS and s.winner is R


def test_covering_the_other_teams_last_agent_hands_them_the_win():
    """"a team accidentally covers the other team's final agent with a guess, handing them the win.\""""
    s = fixed()
    for k, b in enumerate(BLUE):           # red keeps guessing blue agents, blue passes back
        s.apply(clue(1), R)
        s.apply(Guess(w(b)), R)
        if s.is_over():
            break
        s.apply(clue(1), B)
        s.apply(Guess(w(BYS[k % 7])) if BYS[k % 7] not in s.covered else Guess(w(RED[k])), B)
    assert s.outcome is ClassicTermination.AGENTS and s.winner is B


def test_covered_and_unknown_words_cannot_be_guessed_and_the_state_is_unchanged():
    s = fixed()
    s.apply(clue(2))
    s.apply(Guess(w(0)))
    before = (dict(s.covered), list(s.events))
    with pytest.raises(IllegalActionError):
        s.apply(Guess(w(0)))
    with pytest.raises(UnknownBoardWordError):
        s.apply(Guess("NOTAWORD"))
    assert (dict(s.covered), list(s.events)) == before


def test_solo_one_team_alone_keeps_the_move():
    """One team alone (published bot studies): the other team never plays."""
    s = fixed(ClassicRules(solo=True))
    s.apply(clue(1))
    s.apply(Guess(w(BYS[0])))
    assert s.team is R and s.phase is Phase.CLUE


# --- views: no hidden information ------------------------------------------------------------


def test_spymaster_sees_the_key_operatives_see_none():
    s = fixed()
    s.apply(clue(2))
    s.apply(Guess(w(0)))
    sv = classic_spymaster_view(s, R)
    assert sv.key == s.deal.key.labels and 0 not in sv.my_agents and len(sv.my_agents) == 8
    assert sv.assassins == {ASSASSIN} and len(sv.opponent_agents) == 8
    gv = classic_guesser_view(s, R)
    names = {f.name for f in dataclasses.fields(gv)}
    assert not {"key", "deal", "labels"} & names
    assert gv.covered == {0: Card.RED} and gv.guesses_left == 2 and gv.guesses_this_turn == 1
    assert ASSASSIN in gv.guessable and 0 not in gv.guessable


# --- properties over random games ------------------------------------------------------------


@settings(max_examples=60)
@given(seed=st.integers(0, 10**9), solo=st.booleans(), zero=st.booleans())
def test_random_games_terminate_count_right_and_replay(seed, solo, zero):
    rules = ClassicRules(solo=solo, zero_unlimited=zero)
    d = deal_classic(seed, default_pool())
    rec = play_classic_game(d, (classic_random_team(seed), classic_random_team(seed + 3)), rules)
    assert rec.outcome is not None and rec.winner is not None
    state = rec.replay()
    assert state.winner == rec.winner and state.outcome == rec.outcome
    counts = {c: sum(1 for x in state.covered.values() if x is c) for c in Card}
    assert counts[Card.RED] <= len(d.key.agents(R)) and counts[Card.BLUE] <= len(d.key.agents(B))
    assert counts[Card.BYSTANDER] <= 7 and counts[Card.ASSASSIN] <= 1
    if rec.outcome is ClassicTermination.AGENTS:
        assert not state.agents_left(rec.winner)
    else:
        assert counts[Card.ASSASSIN] == 1
    for t in state.turns:
        cap = None if (t.clue.number == 0 and zero) else t.clue.number + 1
        assert 1 <= len(t.guesses) or t is state.turns[-1]
        assert cap is None or len(t.guesses) <= cap
    if solo:
        assert {e.player for e in rec.events} == {d.key.starting}
    again = ClassicRecord.loads(rec.dumps())
    assert again.to_json() == rec.to_json()


def test_a_tampered_record_does_not_replay():
    rec = play_classic_game(deal_classic(3, default_pool()), (classic_random_team(1), classic_random_team(2)))
    data = rec.to_json()
    data["events"][1]["result"] = "assassin" if data["events"][1]["result"] != "assassin" else "agent"
    with pytest.raises(ValueError):
        ClassicRecord.from_json(data)


def test_simulation_is_deterministic_and_summarised():
    pool = default_pool()
    make = lambda s: (classic_random_team(s), classic_random_team(s + 1))  # noqa: E731
    a = [r.dumps() for r in simulate_classic(20, 4, pool, make)]
    b = [r.dumps() for r in simulate_classic(20, 4, pool, make)]
    assert a == b
    summary = summarize_classic(ClassicRecord.loads(x) for x in a)
    assert summary.games == 20 and 0 <= summary.starting_win.value <= 1
    assert dict(summary.rows())["games"] == "20"


# --- the cost model and the embedding bots ---------------------------------------------------


def test_race_table_is_a_sane_race():
    R_ = race_table((0.2, 0.3, 0.3, 0.15, 0.05), 0.02)
    assert R_[1, 9] > R_[5, 5] > R_[9, 1]
    assert R_[5, 5] > 0.5     # moving first is an advantage
    S = solo_table((0.2, 0.3, 0.3, 0.15, 0.05), 0.02, 0.8)
    assert S[0] == 1 and all(S[i] > S[i + 1] for i in range(9))


@pytest.fixture(scope="module")
def bots():
    from duetbot.bots.factory import ensemble

    ens = ensemble(("glove50",))
    return ClassicSpymaster(ens), ClassicGuesser(ens)


def test_spymaster_prefers_bystanders_to_opponent_agents_in_its_risk(bots):
    spy, _ = bots
    s = ClassicState(deal_classic(11, default_pool()))
    view = classic_spymaster_view(s, s.team)
    opts = spy.suggest(view, top=3)
    assert opts and all(is_legal_clue(o.clue.word, s.visible_words()) for o in opts)
    mine = {s.words[i] for i in view.my_agents}
    assert all(t in mine for o in opts for t in o.targets)
    assert {lab for o in opts for _, lab in o.dangers} <= {"assassin", "opponent", "bystander"}


def test_embedding_bots_play_full_games_within_the_rules(bots):
    spy, guesser = bots
    team = Partner(spy, guesser, "glove50")
    for seed in range(3):
        rec = play_classic_game(deal_classic(seed, default_pool()), (team, team))
        assert rec.winner is not None
        rec.replay()
    solo = play_classic_game(deal_classic(7, default_pool()), (team, team), ClassicRules(solo=True))
    assert solo.winner is not None


def test_guesser_respects_the_cap_and_never_stops_before_a_guess(bots):
    _, guesser = bots
    s = fixed()
    s.apply(Clue("fruit", 1))
    v = classic_guesser_view(s, R)
    assert isinstance(guesser.guess(v), Guess)
    _, _, n = guesser.plan(v)
    assert 1 <= n <= 2


# --- CLI ---------------------------------------------------------------------------------------

runner = CliRunner()


class _KeySpy:
    """A scripted spymaster that gives a legal clue for all its agents."""

    def give_clue(self, view):
        word = next(x for x in ("zephyr", "quasar", "nebula", "velvet") if is_legal_clue(x, [view.words[i] for i in view.visible]))
        return Clue(word, len(view.my_agents))


class _KeyOperative:
    """A scripted operative that knows the deal (as the Duet play tests' fakes do)."""

    def __init__(self, d, team, per_turn=1):
        self.d, self.team, self.per_turn = d, team, per_turn

    def guess(self, view):
        if view.guesses_this_turn >= self.per_turn:
            return EndTurn()
        todo = [i for i in sorted(self.d.key.agents(self.team)) if i not in view.covered]
        return Guess(self.d.words[todo[0]])


def _red_start_seed():
    return next(s for s in range(100) if deal_classic(s, default_pool()).key.starting is R)


def test_play_classic_full_scripted_game_as_spymaster(monkeypatch):
    seed = _red_start_seed()
    d = deal_classic(seed, default_pool())
    monkeypatch.setattr(classic_cli, "make_classic_bots", lambda s: (
        Partner(_KeySpy(), _KeyOperative(d, R, per_turn=9), "fake"),
        Partner(_KeySpy(), _KeyOperative(d, B), "fake")))
    board_word = d.words[0].lower()
    script = "\n".join(["", f"{board_word} 2", "zephyr 9"]) + "\n"
    result = runner.invoke(app, ["play", "--game", "classic", "--role", "spymaster", "--seed", str(seed)], input=script)
    assert result.exit_code == 0, result.output
    assert "error:" in result.output            # the empty line and the board word were refused
    assert "red wins with all agents found" in result.output and "You win!" in result.output


def test_play_classic_as_operative(monkeypatch):
    seed = _red_start_seed()
    d = deal_classic(seed, default_pool())
    monkeypatch.setattr(classic_cli, "make_classic_bots", lambda s: (
        Partner(_KeySpy(), _KeyOperative(d, R), "fake"),
        Partner(_KeySpy(), _KeyOperative(d, B, per_turn=1), "fake")))
    red = [d.words[i] for i in sorted(d.key.agents(R))]
    # Each red turn: guess two own agents, then pass; blue finds one agent per turn.
    answers = ["pass", "NOTAWORD"]  # refused: no guess yet; not on the board
    for k in range(0, 9, 2):
        answers += red[k:k + 2] + ["pass"]
    result = runner.invoke(app, ["play", "--game", "classic", "--role", "operative", "--seed", str(seed)],
                           input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "You win!" in result.output


def test_simulate_classic_cli_random_bots_writes_replayable_records(tmp_path):
    out = tmp_path / "c.jsonl"
    result = runner.invoke(app, ["simulate", "--game", "classic", "--bots", "random", "--games", "12",
                                 "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "starting team wins" in result.output and "assassin" in result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 12 and all(ClassicRecord.loads(x).winner is not None for x in lines)
    solo = runner.invoke(app, ["simulate", "--game", "classic", "--bots", "random", "--games", "5", "--quiet",
                               "--variant", "solo"])
    assert solo.exit_code == 0 and "win (team alone)" in solo.output
    bad = runner.invoke(app, ["simulate", "--game", "classic", "--variant", "mission:9:5", "--games", "1"])
    assert bad.exit_code == 2 and "error:" in bad.output


# --- suggest jsonl ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def helper():
    from duetbot.bots.factory import ensemble
    from duetbot.suggest import Suggester
    from duetbot.bots.spymaster import EmbeddingSpymaster
    from duetbot.bots.guesser import EmbeddingGuesser

    ens = ensemble(("glove50",))
    return Suggester(EmbeddingSpymaster(ens), EmbeddingGuesser(ens))


def test_suggest_jsonl_classic_spymaster_and_guesser(helper):
    d = deal_classic(21, default_pool())
    board = [x.lower() for x in d.words]
    me = d.key.starting
    spy = {"id": 1, "game": "classic", "role": "spymaster", "board": board,
           "team_agents": [d.words[i] for i in d.key.agents(me)],
           "opponent_agents": [d.words[i] for i in d.key.agents(me.other)],
           "assassin": [d.words[i] for i in d.key.indices(Card.ASSASSIN)], "covered": [], "top": 3}
    g = {"id": 2, "game": "classic", "role": "guesser", "board": board, "covered": [board[0]],
         "clues": [{"clue": "animal", "number": 2}]}
    bad = {"id": 3, "game": "classic", "role": "spymaster", "board": board}
    out = [json.loads(x) for x in helper.handle_lines([json.dumps(spy), json.dumps(g), json.dumps(bad)])]
    assert out[0]["id"] == 1 and len(out[0]["clues"]) == 3
    c = out[0]["clues"][0]
    assert {"clue", "number", "targets", "score"} <= set(c) and set(c["targets"]) <= {x.lower() for x in spy["team_agents"]}
    assert out[1]["id"] == 2 and 1 <= out[1]["stop_after"] <= 3
    assert len(out[1]["guesses"]) == 24 and board[0] not in [x["word"] for x in out[1]["guesses"]]
    assert all(x["word"] in board for x in out[1]["guesses"])
    assert out[2]["id"] == 3 and "team_agents" in out[2]["error"]
