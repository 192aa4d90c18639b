"""Saved games, both games: the partner spec is a field of the record; old saves still load."""

from __future__ import annotations

import json

from duetbot.records import GameRecord
from duetbot.rules import State, deal
from duetbot.rules.classic import ClassicState, deal_classic
from duetbot.saves import load_classic_saved, load_saved, save_classic_game, save_game
from duetbot.wordpool import default_pool


def test_the_partner_is_a_field_of_the_save(tmp_path):
    state, path = State(deal(3, default_pool())), tmp_path / "g.json"
    save_game(state, path, "duetbot (model=glove50)", "model=glove50")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["partner"] == "model=glove50" and load_saved(path).partner == "model=glove50"
    data["players"]["B"] = "someone"  # the field is read, not the bot's name
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_saved(path).partner == "model=glove50"
    save_game(state, path, "duetbot", "default")
    assert json.loads(path.read_text(encoding="utf-8"))["partner"] == "default" and load_saved(path).partner is None


def test_a_save_older_than_the_field_names_its_partner_in_the_bots_name(tmp_path):
    state, path = State(deal(3, default_pool())), tmp_path / "old.json"
    save_game(state, path, "duetbot (model=spacy300,noise=0.2)")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "partner" not in data
    saved = load_saved(path)
    assert saved.partner == "model=spacy300,noise=0.2" and saved.state == state
    save_game(state, path, "duetbot")
    assert load_saved(path).partner is None


def test_simulation_records_carry_no_partner_field():
    """Records of simulations keep their format (the players field names the specs)."""
    assert "partner" not in GameRecord.from_state(State(deal(3, default_pool())), {"A": "x", "B": "y"}).to_json()


def test_classic_saves_record_their_partner_too(tmp_path):
    state, path = ClassicState(deal_classic(5, default_pool())), tmp_path / "c.json"
    save_classic_game(state, path, "operative", "model=glove50")
    saved = load_classic_saved(path)
    assert (saved.role, saved.partner) == ("operative", "model=glove50") and saved.state == state
    save_classic_game(state, path, "spymaster")
    assert load_classic_saved(path)[1:] == ("spymaster", None)
