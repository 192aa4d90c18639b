"""Classic Codenames (two teams) on the shared engine: rules from seeds/001, views, bots,
harness, CLI (``--game classic``) and the ``suggest`` classic requests."""

import csv
import dataclasses
import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import duetbot.cli.classic as classic_cli
from duetbot import saves
from duetbot.bots import Partner
from duetbot.bots.classic import ClassicGuesser, ClassicSpymaster, classic_random_team
from duetbot.bots.winchance import race_table, solo_table
from duetbot.bots.factory import PartnerSpec
from duetbot.harness.classic import play_classic_game, simulate_classic
from duetbot.records.classic import ClassicGameResult, ClassicRecord, ClassicTally, summarize_classic
from duetbot.simulation.classic import ClassicRunSpec
from duetbot.views.classic import classic_guesser_view, classic_spymaster_view
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
from duetbot.simulation import ResumeError, load_finished, run_local
from duetbot.wordpool import default_pool

from .conftest import WORDS, one_line_error

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


def test_play_classic_full_scripted_game_as_spymaster(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the finished game is saved to the default file, here
    seed = _red_start_seed()
    d = deal_classic(seed, default_pool())
    monkeypatch.setattr(classic_cli, "make_classic_bots", lambda s, vectors=(): (
        Partner(_KeySpy(), _KeyOperative(d, R, per_turn=9), "fake"),
        Partner(_KeySpy(), _KeyOperative(d, B), "fake")))
    board_word = d.words[0].lower()
    script = "\n".join(["", f"{board_word} 2", "zephyr 9"]) + "\n"
    result = runner.invoke(app, ["play", "--game", "classic", "--role", "spymaster", "--seed", str(seed)], input=script)
    assert result.exit_code == 0, result.output
    assert "error:" in result.output            # the empty line and the board word were refused
    assert "red wins with all agents found" in result.output and "You win!" in result.output


def test_play_classic_as_operative(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the finished game is saved to the default file, here
    seed = _red_start_seed()
    d = deal_classic(seed, default_pool())
    monkeypatch.setattr(classic_cli, "make_classic_bots", lambda s, vectors=(): (
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
    one_line_error(runner.invoke(app, ["simulate", "--game", "classic", "--variant", "solo", "-n", "1", "-q",
                                       "-b", "model=glove50"]), "--player-b has no effect")
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


# --- simulate --game classic at scale: the Duet engine, workers, resume, reports ---------------

C_RUN = ("-n", "24", "--seed", "4")
RANDOM = PartnerSpec.parse("bot=random")


def csim(*args):
    return runner.invoke(app, ["simulate", "--game", "classic", "--bots", "random", "-q", *args])


@pytest.fixture(scope="module")
def classic_reference(tmp_path_factory):
    """An uninterrupted 24-game classic run, in process."""
    path = tmp_path_factory.mktemp("cref") / "games.jsonl"
    result = csim(*C_RUN, "-w", "1", "--out", str(path))
    assert result.exit_code == 0, result.output
    return path.read_text()


def test_classic_simulate_workers_2_gives_the_records_of_workers_1(tmp_path, classic_reference):
    two = tmp_path / "two.jsonl"
    result = csim(*C_RUN, "-w", "2", "--chunk-size", "3", "--out", str(two))
    assert result.exit_code == 0, result.output
    assert two.read_text() == classic_reference
    recs = [ClassicRecord.loads(x) for x in classic_reference.splitlines()]
    assert [r.game for r in recs] == list(range(24)) and all(r.winner is not None for r in recs)
    assert all(r.players == {"red": "bot=random", "blue": "bot=random"} for r in recs)
    assert "24 games, classic standard, red bot=random vs blue bot=random" in result.output
    assert "starting team wins" in result.output


def test_classic_run_is_independent_of_workers_and_its_tally_matches_summarize_classic():
    for rules in (ClassicRules(), ClassicRules(solo=True)):
        run = ClassicRunSpec(9, RANDOM, RANDOM, default_pool(), rules)
        one = list(run_local(run, 14, workers=1))
        assert list(run_local(run, 14, start=5, workers=2, chunk_size=3)) == one[5:]
        want = summarize_classic(ClassicRecord.loads(r.line) for r in one)
        got = ClassicTally(one).summary()
        assert got.solo == rules.solo and got.rows() == want.rows()
        assert got.to_json() == pytest.approx(want.to_json(), nan_ok=True)
        assert [ClassicGameResult.from_record(ClassicRecord.loads(r.line)) for r in one] == one


@pytest.mark.parametrize("workers", ["1", "2"])
def test_classic_resume_after_a_truncated_file_finishes_the_same_games(tmp_path, classic_reference, workers):
    lines = classic_reference.splitlines(keepends=True)
    out = tmp_path / "games.jsonl"
    out.write_text("".join(lines[:10]) + lines[10][: len(lines[10]) // 2])  # crash mid-write
    result = csim(*C_RUN, "-w", workers, "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert out.read_text() == classic_reference
    assert "10 resumed" in result.output


@pytest.mark.parametrize("change, needle", [
    (["--seed", "5"], "another --seed"),
    (["--variant", "standard+zero"], "classic variant standard, not standard+zero"),
    (["-n", "20"], "more than --games 20"),
])
def test_classic_resume_of_another_run_is_one_clear_line(tmp_path, classic_reference, change, needle):
    out = tmp_path / "games.jsonl"
    out.write_text(classic_reference)
    args = dict(zip(C_RUN[::2], C_RUN[1::2])) | dict(zip(change[::2], change[1::2]))
    one_line_error(csim(*[x for kv in args.items() for x in kv], "--out", str(out), "--resume"), needle)
    assert out.read_text() == classic_reference


def test_classic_resume_checks_the_teams(tmp_path, classic_reference):
    out = tmp_path / "games.jsonl"
    out.write_text(classic_reference)
    other = ClassicRunSpec(4, RANDOM, PartnerSpec.parse("model=glove50"), default_pool())
    with pytest.raises(ResumeError, match="blue='model=glove50'"):
        load_finished(out, other, 24)
    # One team alone: blue is no part of the run, so a solo run never matches a two-team file.
    solo = ClassicRunSpec(4, RANDOM, RANDOM, default_pool(), ClassicRules(solo=True))
    assert solo.players == {"red": "bot=random"}
    with pytest.raises(ResumeError, match="not red='bot=random'"):
        load_finished(out, solo, 24)


def test_duet_and_classic_record_files_do_not_resume_each_other(tmp_path, classic_reference):
    duet = tmp_path / "duet.jsonl"
    assert runner.invoke(app, ["simulate", "--bots", "random", "-q", "-n", "3", "--out", str(duet)]).exit_code == 0
    kept = duet.read_text()
    one_line_error(csim(*C_RUN, "--out", str(duet), "--resume"), "duet game record", "--game duet")
    assert duet.read_text() == kept
    classic = tmp_path / "classic.jsonl"
    classic.write_text(classic_reference)
    one_line_error(runner.invoke(app, ["simulate", "--bots", "random", "-q", "-n", "30", "--out", str(classic),
                                       "--resume"]), "classic game record", "--game classic")
    run = ClassicRunSpec(4, RANDOM, RANDOM, default_pool())
    with pytest.raises(ResumeError, match="duet game record"):
        load_finished(duet, run, 30)


def test_classic_csv_and_plot_are_written(tmp_path):
    table, png = tmp_path / "s.csv", tmp_path / "r.png"
    result = csim("-n", "16", "-w", "2", "--seed", "1", "--csv", str(table), "--plot", str(png))
    assert result.exit_code == 0, result.output
    [row] = list(csv.DictReader(table.open(encoding="utf-8")))
    assert row["game"] == "classic" and row["games"] == "16" and row["seed"] == "1" and row["variant"] == "standard"
    assert row["player_a"] == row["player_b"] == "bot=random"
    assert {"starting_win", "starting_win_low95", "starting_win_high95", "starting_win_count",
            "assassin", "assassin_low95", "turns_to_win"} <= set(row)
    assert float(row["starting_win_low95"]) <= float(row["starting_win"]) <= float(row["starting_win_high95"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    solo = tmp_path / "solo.svg"
    result = csim("-n", "6", "-w", "1", "--variant", "solo", "--plot", str(solo))
    assert result.exit_code == 0 and "<svg" in solo.read_text()


def test_classic_simulate_real_subprocess_with_worker_processes(tmp_path):
    out = tmp_path / "c.jsonl"
    proc = subprocess.run([sys.executable, "-m", "duetbot", "simulate", "--game", "classic", "--bots", "random",
                           "-n", "12", "-w", "2", "--seed", "4", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "12 games, classic standard" in proc.stdout and "starting team wins" in proc.stdout
    lines = out.read_text().splitlines()
    assert [ClassicRecord.loads(x).game for x in lines] == list(range(12))
    ref = ClassicRunSpec(4, RANDOM, RANDOM, default_pool())
    assert lines == [r.line for r in run_local(ref, 12, workers=1)]


# --- play --game classic: save, resume, hint ---------------------------------------------------


@pytest.fixture
def scripted_teams(monkeypatch):
    """Red's operative finds two own agents per turn, blue one: red wins on its fifth clue."""
    seed = _red_start_seed()
    d = deal_classic(seed, default_pool())
    monkeypatch.setattr(classic_cli, "make_classic_bots", lambda s, vectors=(): (
        Partner(_KeySpy(), _KeyOperative(d, R, per_turn=2), "fake"),
        Partner(_KeySpy(), _KeyOperative(d, B, per_turn=1), "fake")))
    return seed, d


def play_classic(*args, answers=()):
    return runner.invoke(app, ["play", "--game", "classic", *args], input="".join(a + "\n" for a in answers))


def test_play_classic_quit_saves_and_resume_continues_the_same_game(scripted_teams, tmp_path):
    seed, d = scripted_teams
    save = tmp_path / "c.json"
    first = play_classic("--seed", str(seed), "--save", str(save), answers=["zephyr 2"] * 2 + ["quit"])
    assert first.exit_code == 0, first.output
    assert f"Game saved to {save}" in first.output and f"--resume {save}" in first.output
    rec = ClassicRecord.loads(save.read_text())
    assert rec.outcome is None and rec.clues_by(R) == 2 and rec.deal == d and rec.players["human"] == "red spymaster"
    state, role, partner = saves.load_classic_saved(save)
    assert role == "spymaster" and state.events == rec.events and state.team is R and state.phase is Phase.CLUE
    assert partner is None  # the shipped bots

    # Resuming and quitting again gives the game an uninterrupted player would have.
    second = play_classic("--resume", str(save), answers=["zephyr 2"])  # then end of input: saved
    assert second.exit_code == 0, second.output
    assert "Resuming" in second.output and "you are the red spymaster" in second.output
    straight = tmp_path / "straight.json"
    assert play_classic("--seed", str(seed), "--save", str(straight), answers=["zephyr 2"] * 3).exit_code == 0
    assert save.read_text() == straight.read_text()

    last = play_classic("--resume", str(save), answers=["zephyr 2"] * 2)
    assert last.exit_code == 0, last.output
    assert "red wins with all agents found" in last.output and "You win!" in last.output
    assert f"The finished game is saved in {save}" in last.output
    assert ClassicRecord.loads(save.read_text()).outcome is not None  # saved as finished
    assert "This game is over" in play_classic("--resume", str(save)).output
    # A finished game that was saved (e.g. by a bot failure on its last action) shows its end.
    done, _, _ = saves.load_classic_saved(save)
    answers = iter(["zephyr 2"] * 2)
    classic_cli.ClassicSession(done, "spymaster", classic_cli.make_classic_bots(seed), classic_cli.Console(),
                               lambda prompt: next(answers)).run()
    saves.save_classic_game(done, save, "spymaster")
    over = play_classic("--resume", str(save))
    assert over.exit_code == 0 and "You win!" in over.output and "Game saved" not in over.output
    assert "This game is over" in over.output


def test_play_classic_operative_save_keeps_the_role(scripted_teams, tmp_path):
    seed, d = scripted_teams
    save = tmp_path / "op.json"
    red = [d.words[i] for i in sorted(d.key.agents(R))]
    result = play_classic("--seed", str(seed), "--role", "operative", "--save", str(save),
                          answers=[red[0], "pass", "quit"])
    assert result.exit_code == 0, result.output
    assert saves.load_classic_saved(save)[1] == "operative"
    again = play_classic("--resume", str(save), answers=["quit"])
    assert again.exit_code == 0 and "you are the red operative" in again.output
    one_line_error(play_classic("--resume", str(save), "--role", "spymaster"), "operative", "--role")


def test_play_classic_resume_of_a_duet_save_or_a_bad_file_is_one_clear_line(tmp_path):
    from duetbot.cli.play import save_game
    from duetbot.rules import State, deal

    duet = tmp_path / "duet.json"
    save_game(State(deal(3, default_pool())), duet)
    one_line_error(play_classic("--resume", str(duet)), "saved Duet game", "duetbot play --resume")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    one_line_error(play_classic("--resume", str(bad)), "not a saved duetbot game")
    rec = play_classic_game(deal_classic(3, default_pool()), (classic_random_team(1), classic_random_team(2)))
    data = rec.to_json()
    data["events"][1]["result"] = "assassin" if data["events"][1]["result"] != "assassin" else "agent"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    one_line_error(play_classic("--resume", str(tampered)), "not a saved classic game")
    one_line_error(play_classic("--resume", str(tmp_path / "missing.json")), "no saved game")
    one_line_error(play_classic("--resume", str(tampered), "--seed", "3"), "--seed")


def test_play_classic_hint_asks_the_real_bots(monkeypatch, tmp_path):
    seed = _red_start_seed()
    d = deal_classic(seed, default_pool())
    words = {w.casefold(): i for i, w in enumerate(d.words)}

    class _AnimalSpy:
        def give_clue(self, view):
            return Clue("animal", 2)

    monkeypatch.setattr(classic_cli, "make_classic_bots", lambda s, vectors=(): (
        Partner(_AnimalSpy(), _KeyOperative(d, R, per_turn=1), "fake"),
        Partner(_KeySpy(), _KeyOperative(d, B, per_turn=1), "fake")))
    spy = play_classic("--seed", str(seed), "--hint", "--save", str(tmp_path / "s.json"), answers=["hint", "quit"])
    assert spy.exit_code == 0, spy.output
    [hint] = [x for x in spy.output.splitlines() if x.startswith("  hint: try ")]
    options = [part.split(" (for ") for part in hint[len("  hint: try "):].split("; or ")]
    assert len(options) == 3
    for clue_text, targets in options:
        clue_ = Clue.parse(clue_text)
        assert is_legal_clue(clue_.word, d.words) and clue_.number >= 1
        assert all(words[t.casefold()] in d.key.agents(R) for t in targets.rstrip(")").split(", "))

    op = play_classic("--seed", str(seed), "--hint", "--role", "operative", "--save", str(tmp_path / "o.json"),
                      answers=["hint", "quit"])
    assert op.exit_code == 0, op.output
    [hint] = [x for x in op.output.splitlines() if x.startswith("  hint: best guesses: ")]
    guesses = re.findall(r"([A-Z][^,(;]*) \(agent ", hint[len("  hint: best guesses: "):])
    assert len(guesses) >= 3 and all(g.casefold() in words for g in guesses)

    off = play_classic("--seed", str(seed), "--save", str(tmp_path / "x.json"), answers=["hint", "help", "quit"])
    assert off.exit_code == 0 and "hints are off" in off.output and "'quit' saves the game" in off.output


def test_suggest_clue_and_guess_for_a_classic_board(tmp_path):
    d = deal_classic(3, default_pool())
    words = list(d.words)
    team = [words[i] for i in d.key.agents(R)]
    other = [words[i] for i in d.key.agents(B)]
    assassin = [words[i] for i in d.key.indices(Card.ASSASSIN)]
    base = ["suggest", "clue", "--board", ",".join(words), "--assassin", ",".join(assassin)]
    clues = runner.invoke(app, [*base, "--classic", "--team-agents", ",".join(team),
                                "--opponent-agents", ",".join(other), "--top", "3"])
    assert clues.exit_code == 0, clues.output
    assert "agents" in clues.output and "(opponent" in clues.output  # classic columns and dangers
    # the same request from a file, routed by its "game" field
    req = tmp_path / "table.json"
    req.write_text(json.dumps({"game": "classic", "board": words, "team_agents": team,
                               "opponent_agents": other, "assassin": assassin}))
    assert runner.invoke(app, ["suggest", "clue", "--request", str(req)]).exit_code == 0
    one_line_error(runner.invoke(app, [*base, "--classic", "--green", team[0]]), "--team-agents")
    one_line_error(runner.invoke(app, [*base, "--team-agents", team[0]]), "--classic")
    guess = runner.invoke(app, ["suggest", "guess", "--classic", "--board", ",".join(words), "--clue", "animal 2"])
    assert guess.exit_code == 0, guess.output
    assert "chance their agent" in guess.output and "guess the first" in guess.output
    one_line_error(runner.invoke(app, ["suggest", "guess", "--classic", "--board", ",".join(words),
                                       "--clue", "animal 2", "--tokens", "3"]), "--classic")


def test_classic_bot_clues_pass_the_strict_check(bots):
    """Issue 13: the classic spymasters (embedding and random) hold their own clues to the
    strict check, not only the rule book."""
    from duetbot.bots.strict_clues import strict_conflict

    spy, guesser = bots
    flagged, given = [], []

    class Checked:
        def __init__(self, inner):
            self.inner = inner

        def give_clue(self, view):
            clue = self.inner.give_clue(view)
            visible = [view.words[i] for i in view.visible]
            given.append(clue.word)
            if strict_conflict(clue.word, visible) is not None:
                flagged.append((clue.word, strict_conflict(clue.word, visible)))
            return clue

    team = Partner(Checked(spy), guesser, "glove50")
    for seed in range(4):
        play_classic_game(deal_classic(seed, default_pool()), (team, team))
    rand = classic_random_team(5)
    rand = Partner(Checked(rand.spymaster), rand.guesser, "random")
    for seed in range(10):
        play_classic_game(deal_classic(seed, default_pool()), (rand, rand))
    assert len(given) > 30 and not flagged
