"""The bot's guesser on the person-like players' clues, replayed offline with any guesser config.

Each clue a player gave in the full games (``games/``) is replayed at the moment it was given
(the game's history as it was played) and the guesser plays that turn on the true key: it
guesses until it stops or misses. A guesser change can so be tried on person-like clues
without new games (the players' later clues would have changed, so this measures one turn at a
time, not whole games). Configs are ``field=value`` pairs joined by ``;`` (``-``: the
default); ``family_weights`` as ``fw=eat:2,wordllama:1``.

    PYTHONPATH=src python benchmarks/person_like/guess_replay.py - "within_number_green=0.3" "sharpness=3.5"
"""

from __future__ import annotations

import copy
import sys
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path

from duetbot.bots.factory import default_bots
from duetbot.bots.guesser import EmbeddingGuesser, GuesserConfig
from duetbot.rules import Clue, EndTurn, GuessResult, Phase, Player, State
from duetbot.saves import load_saved
from duetbot.views import guesser_view

HERE = Path(__file__).resolve().parent
VERSIONS = ("old", "new", "new2", "new3", "new4")
PERSON, BOT = Player.A, Player.B


def parse(text: str) -> GuesserConfig:
    cfg = GuesserConfig()
    if text == "-":
        return cfg
    types = {f.name: type(getattr(cfg, f.name)) for f in fields(cfg)}
    for part in text.split(";"):
        name, _, value = part.partition("=")
        if name == "fw":
            pairs = (x.split(":") for x in value.split(","))
            cfg = replace(cfg, family_weights=tuple((f, float(w)) for f, w in pairs))
        elif types.get(name) in (int, float):
            cfg = replace(cfg, **{name: types[name](value)})
        elif types.get(name) is bool:
            cfg = replace(cfg, **{name: value.lower() in ("1", "true", "yes")})
        else:
            raise SystemExit(f"{name}: not a number or flag of GuesserConfig")
    return cfg


def positions() -> list[tuple[State, int]]:
    """Each player's clue (number >= 1) just given: the state, and the clue's number."""
    out = []
    for v in VERSIONS:
        for save in sorted((HERE / "games" / v).glob("*.json")):
            state = load_saved(save).state
            replay = State(state.deal, state.variant)
            for ev in state.events:
                replay.apply(ev.action, ev.player)
                if ev.player is PERSON and isinstance(ev.action, Clue) and ev.action.number > 0:
                    out.append((copy.deepcopy(replay), ev.action.number))
    return out


def play_turn(guesser: EmbeddingGuesser, start: State, number: int) -> dict[str, int]:
    state = copy.deepcopy(start)
    greens, end, guesses = 0, "stop", 0
    while state.outcome is None and state.phase is Phase.GUESS and state.to_move() == (BOT,):
        action = guesser.guess(guesser_view(state, BOT))
        if isinstance(action, EndTurn):
            state.apply(action, BOT)
            break
        result = state.apply(action, BOT)
        guesses += 1
        if result is GuessResult.GREEN:
            greens += 1
            continue
        end = "assassin" if result is GuessResult.ASSASSIN else "bystander"
        break
    return {"greens": greens, end: 1, "past": max(0, guesses - number),
            "stopped below": int(end == "stop" and greens < number)}


def main(argv: list[str]) -> int:
    configs = argv or ["-"]
    ensemble = default_bots()[1].ensemble
    turns = positions()
    print(f"{len(turns)} clues of the players in {len(VERSIONS)} rounds of full games\n")
    print("| guesser config | greens a clue | ended on the assassin | on a bystander | stopped below the number "
          "| guesses past the number |")
    print("|---|---|---|---|---|---|")
    for text in configs:
        guesser = EmbeddingGuesser(ensemble, parse(text))
        tot: Counter[str] = Counter()
        for state, number in turns:
            tot.update(play_turn(guesser, state, number))
        n = len(turns)
        print(f"| {text} | {tot['greens'] / n:.3f} | {tot['assassin']} ({100 * tot['assassin'] / n:.1f}%) | "
              f"{tot['bystander']} | {tot['stopped below']} | {tot['past']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
