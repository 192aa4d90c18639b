"""``duetbot simulate`` at scale: parallel runs, ordering, resume, reports, errors, dask."""

from __future__ import annotations

import csv
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from duetbot import simulation
from duetbot.bots.factory import PartnerSpec
from duetbot.cli import app
from duetbot.records import GameRecord, GameResult, Tally, summarize
from duetbot.rules import Clue, Variant
from duetbot.simulation import runner as sim_runner
from duetbot.simulation import (
    ResumeError, RunSpec, chunk_ranges, load_finished, run_local,
)
from duetbot.wordpool import default_pool

from .conftest import benchmark, one_line_error


runner = CliRunner()
RANDOM = PartnerSpec.parse("bot=random")


def sim(*args: str):
    return runner.invoke(app, ["simulate", "--bots", "random", "-q", *args])


def random_run(seed: int = 5, variant: str = "standard") -> RunSpec:
    return RunSpec(seed, RANDOM, RANDOM, default_pool(), Variant.parse(variant))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted 30-game run, in process."""
    path = tmp_path_factory.mktemp("ref") / "games.jsonl"
    result = sim("-n", "30", "--seed", "4", "--variant", "mission:9:5+cap", "-w", "1", "--out", str(path))
    assert result.exit_code == 0, result.output
    return path.read_text()


# --- parallel runs give the same games, in game order ------------------------------------------


def test_workers_1_and_2_give_identical_records(tmp_path, reference):
    two = tmp_path / "two.jsonl"
    result = sim("-n", "30", "--seed", "4", "--variant", "mission:9:5+cap", "-w", "2", "--chunk-size", "3",
                 "--out", str(two))
    assert result.exit_code == 0, result.output
    assert two.read_text() == reference
    recs = [GameRecord.loads(line) for line in reference.splitlines()]
    assert [r.game for r in recs] == list(range(30))
    assert all(r.players == {"A": "bot=random", "B": "bot=random"} for r in recs)
    assert "30 games" in result.output and "win" in result.output


def test_each_player_clues_the_other_players_guesser():
    run = random_run()
    a, b = run.partners(123)
    assert a.name == b.name == "bot=random" and a is not b
    for i in range(5):
        events = GameRecord.loads(run.play(i).line).events
        assert isinstance(events[0].action, Clue)
        for e, nxt in zip(events, events[1:]):
            if isinstance(e.action, Clue) and not isinstance(nxt.action, Clue):
                assert nxt.player is not e.player


def test_bench_strength_plays_its_partner_rows(capsys):
    """The rows where player B is a partner of one family in both roles play two specs."""
    assert benchmark("bench_strength").main(["--games", "2", "--rows", "partner", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    games, reads = out.split("How each player's guesser read")
    assert games.count("| bot without ") == 3 and "with a glove50+noise partner" in games
    assert reads.count("| bot without ") == 3   # and how each side read the other's clues


def test_bench_strength_threshold_rows_pair_our_bot_with_a_plain_clue_bot():
    from duetbot.bots.factory import PartnerSpec

    rows = benchmark("bench_strength").rows("threshold", 0.3)
    assert len(rows) == 9 and all(len(r) == 3 for r in rows)
    for _, a, b in rows:
        assert PartnerSpec.parse(b).threshold and not PartnerSpec.parse(a).threshold


def test_in_order_buffers_out_of_order_chunks():
    chunks = [(a, [GameResult(i, str(i), "assassin", None, 0, False, 1, (1,), 0) for i in range(a, b)])
              for a, b in chunk_ranges(10, 47, 4)]
    random.Random(1).shuffle(chunks)
    assert [r.game for r in simulation.engine._in_order(iter(chunks), 10)] == list(range(10, 47))


@given(st.integers(0, 500), st.integers(0, 3000), st.integers(1, 16), st.integers(1, 8))
def test_guided_ranges_cover_the_run_in_shrinking_chunks(start, games, workers, least):
    ranges = simulation.engine.guided_ranges(start, start + games, workers, least)
    ends = [start] + [b for _, b in ranges]
    assert [a for a, _ in ranges] == ends[:-1] and ends[-1] == start + games
    sizes = [b - a for a, b in ranges]
    assert all(n <= simulation.engine.MAX_CHUNK for n in sizes) and all(n >= least for n in sizes[:-1])
    assert sizes == sorted(sizes, reverse=True)


def test_run_local_is_independent_of_workers_and_chunks():
    run = random_run(seed=11, variant="easy+loose")
    one = list(run_local(run, 17, workers=1))
    assert list(run_local(run, 17, workers=2, chunk_size=2)) == one
    assert list(run_local(run, 17, start=9, workers=2, chunk_size=5)) == one[9:]


def test_tally_matches_summarize():
    results = list(run_local(random_run(seed=2, variant="mission:8:4"), 40, workers=1))
    want = summarize([GameRecord.loads(r.line) for r in results]).to_json()
    mine = Tally(results).summary().to_json()
    assert mine.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(mine[key]), key
        else:
            assert mine[key] == value, key
    # Random bots never win: made-up wins check the means over won games.
    wins = [GameResult(40 + i, "", "win", 3 + i, 1 + i, i == 1, 6, (3, 2, 4), 15) for i in range(3)]
    got = Tally(results + wins).summary()
    assert got.win.count == 3 and got.mean_score_on_win == 4.0 and got.mean_tokens_left_on_win == 2.0


def test_spec_labels_are_canonical():
    assert PartnerSpec.parse("noise=0.5,model=glove50").label == "model=glove50,noise=0.5"
    assert PartnerSpec.parse("guesser=minilm,spymaster=glove50,infer=off").label == \
        "spymaster=glove50,guesser=minilm,infer=off"
    assert PartnerSpec.parse("default").label == PartnerSpec.parse("").label == "default"


# --- reports -----------------------------------------------------------------------------------


def test_csv_and_plot_are_written(tmp_path):
    out, table, png = tmp_path / "g.jsonl", tmp_path / "s.csv", tmp_path / "r.png"
    result = sim("-n", "25", "-w", "2", "--seed", "1", "--out", str(out), "--csv", str(table), "--plot", str(png))
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert len(rows) == 1
    row = rows[0]
    assert row["games"] == "25" and row["seed"] == "1" and row["player_a"] == "bot=random"
    assert {"win", "win_low95", "win_high95", "assassin_count", "mean_turns", "greens_per_turn"} <= set(row)
    assert float(row["assassin"]) + float(row["sudden_death_loss"]) + float(row["win"]) <= 1.0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert f"summary written to {table}" in result.output.replace("\n", "")


# --- resume ------------------------------------------------------------------------------------


RUN_ARGS = ("-n", "30", "--seed", "4", "--variant", "mission:9:5+cap")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_resume_after_a_truncated_file_gives_the_uninterrupted_records(tmp_path, reference, workers):
    lines = reference.splitlines(keepends=True)
    out = tmp_path / "games.jsonl"
    out.write_text("".join(lines[:12]) + lines[12][: len(lines[12]) // 2])  # crash mid-write
    result = sim(*RUN_ARGS, "-w", workers, "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert out.read_text() == reference
    assert "12 resumed" in result.output


def watch_play(monkeypatch, interrupt_at: int | None = None) -> list[int]:
    """The games ``RunSpec.play`` is asked for in this process (Ctrl-C at ``interrupt_at``);
    ``monkeypatch.undo()`` ends the watch."""
    played: list[int] = []
    real_play = RunSpec.play

    def play(self, index):
        if index == interrupt_at:
            raise KeyboardInterrupt
        played.append(index)
        return real_play(self, index)

    monkeypatch.setattr(RunSpec, "play", play)
    return played


def test_interrupted_run_keeps_finished_games_and_resumes(tmp_path, reference, monkeypatch):
    out = tmp_path / "games.jsonl"
    watch_play(monkeypatch, interrupt_at=7)
    result = sim(*RUN_ARGS, "-w", "1", "--out", str(out))
    assert result.exit_code == 130
    assert "interrupted after 7 of 30 games" in result.output and "--resume" in result.output
    assert out.read_text() == "".join(reference.splitlines(keepends=True)[:7])
    monkeypatch.undo()
    result = sim(*RUN_ARGS, "-w", "2", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert out.read_text() == reference


def test_resume_of_a_finished_or_missing_file(tmp_path, reference):
    out = tmp_path / "games.jsonl"
    out.write_text(reference)
    result = sim(*RUN_ARGS, "--out", str(out), "--resume")
    assert result.exit_code == 0 and "30 games" in result.output and out.read_text() == reference
    fresh = tmp_path / "new.jsonl"
    assert sim(*RUN_ARGS, "--out", str(fresh), "--resume").exit_code == 0
    assert fresh.read_text() == reference


def test_resume_extends_a_run(tmp_path, reference):
    out = tmp_path / "games.jsonl"
    assert sim("-n", "10", *RUN_ARGS[2:], "--out", str(out)).exit_code == 0
    assert sim(*RUN_ARGS, "--out", str(out), "--resume", "-w", "2").exit_code == 0
    assert out.read_text() == reference


def test_load_finished_drops_a_torn_line_and_repairs_the_file(tmp_path, reference):
    run = RunSpec(4, RANDOM, RANDOM, default_pool(), Variant.parse("mission:9:5+cap"))
    lines = reference.splitlines(keepends=True)
    out = tmp_path / "g.jsonl"
    out.write_text("".join(lines[:5]) + '{"version":1,"game":5,"pla\n')  # torn, newline survived
    got = load_finished(out, run, 30)
    assert [g.game for g in got] == list(range(5)) and out.read_text() == "".join(lines[:5])
    out.write_text(lines[0] + "garbage\n" + lines[1])
    with pytest.raises(ResumeError, match="line 2"):
        load_finished(out, run, 30)


# --- the run as a library function (what the command does, callable from Python) -----------------


def test_simulate_resume_appends_only_the_missing_games(tmp_path, reference, monkeypatch):
    run = random_run(seed=4, variant="mission:9:5+cap")
    lines = reference.splitlines(keepends=True)
    out = tmp_path / "games.jsonl"
    out.write_text("".join(lines[:12]) + lines[12][:40])  # a torn last line
    played = watch_play(monkeypatch)
    status = simulation.simulate(run, 30, out=out, resume=True, workers=1)
    assert played == list(range(12, 30))
    assert out.read_text() == reference
    assert (status.games, status.resumed, status.played, status.tally.games) == (30, 12, 18, 30)
    assert status.tally.summary().rows() == Tally(run_local(run, 30, workers=1)).summary().rows()
    played.clear()
    again = simulation.simulate(run, 30, out=out, resume=True, workers=1)  # nothing left to play
    assert played == [] and (again.resumed, again.played) == (30, 0) and out.read_text() == reference


def test_simulate_replaces_a_file_unless_resumed_and_runs_without_one(tmp_path, reference):
    run = random_run(seed=4, variant="mission:9:5+cap")
    out = tmp_path / "games.jsonl"
    out.write_text("an old file\n")
    assert simulation.simulate(run, 30, out=out, workers=2, chunk_size=4).played == 30
    assert out.read_text() == reference
    status = simulation.simulate(run, 5, workers=1)
    assert (status.resumed, status.played) == (0, 5) and status.elapsed > 0 and status.rate > 0
    with pytest.raises(simulation.SimulationError, match="resume"):
        simulation.simulate(run, 5, resume=True)
    with pytest.raises(simulation.SimulationError, match="engine"):
        simulation.simulate(run, 5, engine="spark")


def test_simulate_reports_progress_before_the_first_game_and_after_each(tmp_path, reference):
    run = random_run(seed=4, variant="mission:9:5+cap")
    out = tmp_path / "games.jsonl"
    out.write_text("".join(reference.splitlines(keepends=True)[:3]))
    seen: list[tuple[int, int, int]] = []
    simulation.simulate(run, 8, out=out, resume=True, workers=1,
                        progress=lambda s: seen.append((s.resumed, s.played, s.tally.games)))
    assert seen == [(3, i, 3 + i) for i in range(6)]


def test_simulate_interrupted_keeps_the_finished_games_and_closes_the_file(tmp_path, reference, monkeypatch):
    run = random_run(seed=4, variant="mission:9:5+cap")
    out = tmp_path / "games.jsonl"
    watch_play(monkeypatch, interrupt_at=7)
    with pytest.raises(KeyboardInterrupt):
        simulation.simulate(run, 30, out=out, workers=1)
    assert out.read_text() == "".join(reference.splitlines(keepends=True)[:7])
    monkeypatch.undo()
    assert simulation.simulate(run, 30, out=out, resume=True, workers=1).resumed == 7
    assert out.read_text() == reference


def test_simulate_record_file_errors_say_how_many_games_it_holds(tmp_path):
    run = random_run()
    with pytest.raises(simulation.RecordFileError) as full:
        simulation.simulate(run, 3, out=Path("/dev/full"), workers=1)
    assert full.value.written == 0 and "No space left" in full.value.reason
    with pytest.raises(simulation.RecordFileError) as missing:
        simulation.simulate(run, 3, out=tmp_path / "no" / "dir.jsonl", workers=1)
    assert missing.value.written is None


def test_simulate_plays_classic_runs_into_their_own_tally():
    from duetbot.records.classic import ClassicTally
    from duetbot.simulation.classic import ClassicRunSpec

    status = simulation.simulate(ClassicRunSpec(3, RANDOM, RANDOM, default_pool()), 4, workers=1)
    assert isinstance(status.tally, ClassicTally) and status.tally.summary().games == 4


# --- errors: one line, exit 2, no game played, no file touched -----------------------------------


@pytest.fixture
def no_games(monkeypatch):
    played: list = []

    def engine(*args, **kwargs):
        played.append(args)
        return iter(())

    monkeypatch.setattr(RunSpec, "play", lambda self, i: played.append(i))
    # worker processes would not see the patch above; a run reads the engines from
    # duetbot.simulation.runner
    monkeypatch.setattr(sim_runner, "run_local", engine)
    monkeypatch.setattr(sim_runner, "run_dask", engine)
    yield played
    assert played == []


@pytest.mark.parametrize("args, needles", [
    (["--player-a", "model=nosuchmodel"], ["--player-a", "nosuchmodel"]),
    (["--player-b", "spymaster=glove50+nosuchmodel"], ["--player-b", "nosuchmodel"]),
    (["--player-a", "noise=lots"], ["--player-a", "noise"]),
    (["--player-b", "colour=blue"], ["--player-b", "colour"]),
    (["--player-a", "bot=random", "--player-b", "model"], ["--player-b", "key=value"]),
    (["--variant", "mission:9"], ["mission:N:M"]),
    (["--variant", "standard+turbo"], ["turbo"]),
    (["--bots", "random", "--player-a", "bot=random"], ["--bots"]),
    (["--bots", "random", "--resume"], ["--resume", "--out"]),
    (["--bots", "random", "--scheduler", "tcp://127.0.0.1:1"], ["--engine dask"]),
])
def test_bad_options_are_one_line_errors(args, needles, no_games):
    one_line_error(runner.invoke(app, ["simulate", "-n", "3", "-q", *args]), *needles)


@pytest.mark.parametrize("option, name", [
    ("--out", "no/dir/g.jsonl"), ("--csv", "no/dir/s.csv"), ("--plot", "no/dir/r.png"),
    ("--plot", "report.txt"), ("--csv", "."),
])
def test_unwritable_outputs_are_one_line_errors(tmp_path, option, name, no_games):
    target = tmp_path / name if name != "." else tmp_path
    out = tmp_path / "kept.jsonl"
    out.write_text("precious\n")
    args = ["--out", str(out)] if option != "--out" else []
    one_line_error(sim("-n", "3", option, str(target), *args), option)
    assert out.read_text() == "precious\n"
    assert not (tmp_path / "report.txt").exists()


def test_same_path_for_two_outputs_is_an_error(tmp_path, no_games):
    p = tmp_path / "x"
    one_line_error(sim("--out", str(p), "--csv", str(p)), "--out", "--csv")


def test_unknown_model_fails_before_the_out_file_is_touched(tmp_path, no_games):
    out = tmp_path / "kept.jsonl"
    out.write_text("precious\n")
    one_line_error(runner.invoke(app, ["simulate", "-q", "-a", "model=nosuchmodel", "--out", str(out)]),
                   "nosuchmodel")
    assert out.read_text() == "precious\n"


@pytest.mark.parametrize("change, needle", [
    (["--seed", "5"], "another --seed"),
    (["--variant", "standard"], "variant"),
    (["-n", "20"], "more than --games 20"),
])
def test_resume_refuses_another_run(tmp_path, reference, change, needle, no_games):
    out = tmp_path / "games.jsonl"
    out.write_text(reference)
    args = dict(zip(RUN_ARGS[::2], RUN_ARGS[1::2])) | dict(zip(change[::2], change[1::2]))
    one_line_error(sim(*[x for kv in args.items() for x in kv], "--out", str(out), "--resume"), needle)
    assert out.read_text() == reference


def test_resume_refuses_another_word_pool_or_a_foreign_file(tmp_path, reference, no_games):
    out = tmp_path / "games.jsonl"
    out.write_text(reference)
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join(f"word{chr(97 + i)}{chr(97 + j)}" for i in range(6) for j in range(6)) + "\n")
    one_line_error(sim(*RUN_ARGS, "--words", str(pool), "--out", str(out), "--resume"), "word pool")
    assert out.read_text() == reference
    out.write_text(json.dumps({"game": 0}) + "\n")
    one_line_error(sim(*RUN_ARGS, "--out", str(out), "--resume"), "deal")
    assert out.read_text() == json.dumps({"game": 0}) + "\n"


def test_resume_checks_players_by_canonical_spec(tmp_path, reference):
    out = tmp_path / "games.jsonl"
    out.write_text(reference)
    other = RunSpec(4, RANDOM, PartnerSpec.parse("model=glove50"), default_pool(), Variant.parse("mission:9:5+cap"))
    with pytest.raises(ResumeError, match="B='model=glove50'"):
        load_finished(out, other, 30)
    # The same players spelled another way are the same run.
    result = runner.invoke(app, ["simulate", "-q", *RUN_ARGS, "-a", "bot=random", "-b", " bot = random ",
                                 "--out", str(out), "--resume"])
    assert result.exit_code == 0, result.output
    assert out.read_text() == reference


def test_real_subprocess_with_worker_processes(tmp_path):
    out = tmp_path / "g.jsonl"
    proc = subprocess.run([sys.executable, "-m", "duetbot", "simulate", "--bots", "random", "-n", "12", "-w", "2",
                           "-q", "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "12 games" in proc.stdout and len(out.read_text().splitlines()) == 12


# --- dask ----------------------------------------------------------------------------------------


def test_dask_local_cluster_gives_the_same_games():
    distributed = pytest.importorskip("distributed")
    run = random_run(seed=8, variant="mission:9:5+cap")
    local = list(run_local(run, 23, workers=1))
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        got = list(simulation.run_dask(run, 23, client, chunk_size=2))
        rest = list(simulation.run_dask(run, 23, client, start=20, chunk_size=1))
    assert got == local and rest == local[20:]


# --- robustness: odd record files and full disks (issue 13) -------------------------------------


@pytest.mark.parametrize("odd", ["[" * 990 + "]" * 990, '{"game": ' + "9" * 4301 + "}", '{"game": NaN}',
                                 '{"game": 1e999}', '{"game": 0, "deal": [], "players": [1]}', '{"game": 0, "deal": 5}',
                                 '"a string"', '{"game": [0]}', '{"version": 99, "game": 0}'])
@pytest.mark.parametrize("classic", [False, True])
def test_resume_of_an_odd_record_file_is_a_one_line_error(tmp_path, reference, no_games, odd, classic):
    out = tmp_path / "games.jsonl"
    text = (reference.splitlines(keepends=True)[0] if not classic else "") + odd + "\n" + "{}\n"
    out.write_text(text)
    args = [*RUN_ARGS, *(["--game", "classic", "--variant", "standard"] if classic else [])]
    one_line_error(sim(*args, "--out", str(out), "--resume"), "games.jsonl")
    assert out.read_text() == text  # never cut or rewritten


def test_resume_keeps_an_odd_last_line(tmp_path, reference, no_games):
    """Only a torn write (not JSON) is cut from the end; JSON beyond the bounds is refused."""
    out = tmp_path / "games.jsonl"
    text = reference.splitlines(keepends=True)[0] + "[" * 990 + "]" * 990 + "\n"
    out.write_text(text)
    one_line_error(sim(*RUN_ARGS, "--out", str(out), "--resume"), "nested")
    assert out.read_text() == text


def test_out_on_a_full_disk_is_a_one_line_error():
    result = sim("-n", "3", "-w", "1", "--out", "/dev/full")
    assert result.exit_code == 1, result.output
    text = result.output.strip()
    assert text.startswith("error: cannot write --out /dev/full") and "\n" not in text and "Traceback" not in text


def test_stdout_on_a_full_disk_is_a_one_line_error():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "duetbot", "simulate", "--bots", "random", "-q", "-n", "3",
                               "-w", "1"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 1 and proc.stderr.strip() == "error: cannot write the output: No space left on device"


def test_the_plot_draws_a_mission_map_bar_only_for_a_mission_map(tmp_path, monkeypatch):
    """Issue 37: the standard game can never end on the mission map, so its bar was always empty."""
    from duetbot.records import Tally
    from duetbot.rules import Variant
    from duetbot.simulation import duet

    drawn = []
    monkeypatch.setattr(duet, "plot_rates", lambda ax, bars, title: drawn.append([label for label, _, _ in bars]))
    for variant in ("standard", "mission:8:5"):
        duet.write_plot(tmp_path / "p.png", Tally(), variant=Variant.parse(variant))
    assert [any("mission" in label for label in bars) for bars in drawn] == [False, True]
