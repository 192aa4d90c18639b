"""End-to-end CLI tests: typer's CliRunner and a real subprocess."""

import json
import subprocess
import sys

from typer.testing import CliRunner

from duetbot.cli import app
from duetbot.records import GameRecord
from duetbot.wordpool import default_pool

from .conftest import one_line_error

runner = CliRunner()


def test_simulate_random_prints_summary_and_writes_records(tmp_path):
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["simulate", "--bots", "random", "--games", "30", "--seed", "3", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "30 games" in result.output and "assassin" in result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 30
    recs = [GameRecord.loads(line) for line in lines]
    assert [r.game for r in recs] == list(range(30))


def test_simulate_is_reproducible(tmp_path):
    outs = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        runner.invoke(app, ["simulate", "--bots", "random", "-n", "10", "--seed", "9", "-q", "--variant", "mission:9:5+cap", "--out", str(path)])
        outs.append(path.read_text())
    assert outs[0] == outs[1] and json.loads(outs[0].splitlines()[0])["variant"]["bystander_tokens"] == 5


def test_simulate_with_user_word_pool(tmp_path):
    pool = tmp_path / "pool.txt"
    pool.write_text("# my words\n" + "\n".join(f"word{chr(97 + i)}{chr(97 + j)}" for i in range(6) for j in range(6)) + "\nICE CREAM\n")
    out = tmp_path / "g.jsonl"
    result = runner.invoke(app, ["simulate", "--bots", "random", "-n", "5", "-q", "--words", str(pool), "--out", str(out)])
    assert result.exit_code == 0, result.output
    words = {w for line in out.read_text().splitlines() for w in json.loads(line)["deal"]["words"]}
    assert words <= {line for line in pool.read_text().splitlines() if not line.startswith("#")}


def test_bad_variant_is_one_line_error():
    one_line_error(runner.invoke(app, ["simulate", "--variant", "mission:9"]), "mission:N:M")


def test_bad_word_pool_is_one_line_error(tmp_path):
    one_line_error(runner.invoke(app, ["simulate", "--words", str(tmp_path / "none.txt")]), "none.txt")
    short = tmp_path / "short.txt"
    short.write_text("a\nb\nc\n")
    one_line_error(runner.invoke(app, ["simulate", "--words", str(short)]), "25")


def test_unwritable_output_is_one_line_error(tmp_path):
    one_line_error(runner.invoke(app, ["simulate", "--bots", "random", "-n", "2", "--out", str(tmp_path / "no" / "dir" / "x.jsonl")]), "--out")


def test_real_subprocess_runs_simulation():
    proc = subprocess.run([sys.executable, "-m", "duetbot", "simulate", "--bots", "random", "--games", "5", "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "5 games" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "duetbot", "simulate", "--variant", "nope"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.strip().startswith("error:") and "Traceback" not in proc.stderr


def test_word_pool_with_a_word_no_model_knows_is_played(tmp_path):
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join(["XQZWORD", *default_pool()[:30]]))
    result = runner.invoke(app, ["simulate", "-n", "2", "-q", "--words", str(pool)])
    assert result.exit_code == 0, result.output
