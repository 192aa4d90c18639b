import json

import pytest

from duetbot.bots import random_partner
from duetbot.harness import game_seed, play_game, simulate
from duetbot.records import GameRecord, RecordError, summarize, wilson
from duetbot.rules import Variant, deal

POOL = [f"WORD{i:03d}" for i in range(100)]


def test_record_round_trips_and_replays():
    rec = play_game(deal(11, POOL), (random_partner(1), random_partner(2)), Variant.parse("easy"))
    data = json.loads(rec.dumps())
    assert data["deal"]["seed"] == 11 and len(data["deal"]["key"]["A"]) == 25
    assert data["variant"]["tokens"] == 10 and data["events"]
    again = GameRecord.from_json(data)
    assert again.outcome == rec.outcome and again.score == rec.score and again.events == rec.events


def test_tampered_record_is_refused():
    rec = play_game(deal(12, POOL), (random_partner(1), random_partner(2)))
    data = json.loads(rec.dumps())
    first_guess = next(e for e in data["events"] if e["type"] == "guess")
    first_guess["result"] = "assassin" if first_guess["result"] != "assassin" else "green"
    with pytest.raises(RecordError, match="does not replay"):
        GameRecord.from_json(data)
    with pytest.raises(RecordError, match="not JSON"):
        GameRecord.loads("{nope")
    with pytest.raises(RecordError, match="lacks the field 'deal'"):
        GameRecord.from_json({"events": []})


def test_simulation_is_deterministic_and_split_invariant():
    def partners(s):
        return (random_partner(s), random_partner(s + 2))

    whole = [r.dumps() for r in simulate(20, 5, POOL, partners)]
    first = [r.dumps() for r in simulate(10, 5, POOL, partners)]
    rest = [r.dumps() for r in simulate(20, 5, POOL, partners, start=10)]
    assert whole == first + rest
    assert game_seed(5, 3) != game_seed(5, 4) != game_seed(6, 4)


def test_summary_rates_and_wilson_interval():
    recs = list(simulate(50, 1, POOL, lambda s: (random_partner(s), random_partner(s + 1))))
    summ = summarize(recs)
    total = summ.win.count + summ.assassin.count + summ.sudden_death_loss.count + summ.mission_failed.count
    assert summ.games == 50 and total == 50
    lo, hi = wilson(0, 50)
    assert lo == 0.0 and 0.05 < hi < 0.08
    assert wilson(50, 50)[1] == 1.0


def test_odd_record_text_is_a_record_error():
    import pytest as _pytest

    from duetbot.records import GameRecord, RecordError

    for text in ("[" * 990 + "]" * 990, '{"deal": ' + "9" * 4301 + "}", '{"deal": NaN}', '{"deal": 1e999}',
                 '{"version": 99, "deal": {}}', '{"version": "x", "deal": {}}', '{"deal": {}, "players": [1]}',
                 '{"deal": {}, "game": "zero"}', b"\xff"):
        with _pytest.raises(RecordError):
            GameRecord.loads(text)


def test_both_games_records_share_one_reader():
    """Duet and classic records are read by the same base (safe JSON, version, game index)."""
    import json

    from duetbot.bots.classic import classic_random_team
    from duetbot.harness.classic import play_classic_game
    from duetbot.records.base import Record
    from duetbot.records.classic import ClassicRecord
    from duetbot.rules.classic import deal_classic

    classic = play_classic_game(deal_classic(3, POOL), (classic_random_team(1), classic_random_team(2)))
    duet = play_game(deal(3, POOL), (random_partner(1), random_partner(2)))
    for rec in (classic, duet):
        assert isinstance(rec, Record) and type(rec).loads(rec.dumps()) == rec
        data = json.loads(rec.dumps())
        with pytest.raises(RecordError, match="newer than this duetbot reads"):
            type(rec).from_json({**data, "version": 99})
        with pytest.raises(RecordError, match="'game' must be a game number"):
            type(rec).from_json({**data, "game": "x"})
        with pytest.raises(RecordError, match="not strict JSON|NaN"):
            type(rec).loads(rec.dumps().replace('"game":null', '"game":NaN'))
    assert ClassicRecord.loads(classic.dumps()).turns == classic.turns == len(classic.clues)
