"""Sudden death in saved games: whose greens were left, had a bot clue aimed at them, and how
the blind guesses went.

    PYTHONPATH=src python benchmarks/person_like/sudden_death.py GAMES_DIR [GAMES_DIR ...]

A green of the bot's counts as *aimed at* once one of the bot's clues of k put it among the k
uncovered words closest to the clue (the default ensemble's family-average z): what a person
reads back from that clue. For each folder: the games that reached sudden death, the bot's
greens then still hidden (aimed at or not), and the blind guesses: the person's, split by
whether every green of the bot's still hidden had been aimed at when the guess was made, and
the bot's. (Classing a guess by the word guessed would say nothing: a guess at an aimed word
is green by construction.)
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from summarize_games import BOT, PERSON, read_folder  # noqa: E402

from duetbot.bots import factory  # noqa: E402
from duetbot.rules import Clue, Guess, GuessResult, State  # noqa: E402


def count(folder: Path, ensemble) -> dict[str, int]:
    """The figures of one folder of saves."""
    out = dict.fromkeys(("games", "sudden_death", "bot_greens_left", "aimed_left", "person_guesses_all_aimed",
                         "green_all_aimed", "person_guesses_some_unaimed", "green_some_unaimed", "bot_guesses",
                         "bot_green", "missed", "missed_on_assassin"), 0)
    games, _ = read_folder(folder)
    for state, _ in games:
        out["games"] += 1
        replay = State(state.deal, state.variant)
        aimed: set[int] = set()
        for ev in state.events:
            if not replay.sudden_death:
                if ev.player is BOT and isinstance(ev.action, Clue) and ev.action.number > 0:
                    zbar = np.nanmean(ensemble.clue_z(ev.action.word, ensemble.board(replay.words)), axis=0)
                    covered = replay.covered()
                    open_ = [i for i in range(len(replay.words)) if i not in covered]
                    aimed |= set(sorted(open_, key=lambda i: -zbar[i])[:ev.action.number]) & replay.greens_left(BOT)
                replay.apply(ev.action, ev.player)
                if replay.sudden_death:
                    left = replay.greens_left(BOT)
                    out["sudden_death"] += 1
                    out["bot_greens_left"] += len(left)
                    out["aimed_left"] += len(left & aimed)
                continue
            if not isinstance(ev.action, Guess):
                replay.apply(ev.action, ev.player)
                continue
            left = replay.greens_left(BOT)
            result = replay.apply(ev.action, ev.player)
            green = result is GuessResult.GREEN
            if ev.player is PERSON:
                kind = "all_aimed" if left <= aimed else "some_unaimed"
                out[f"person_guesses_{kind}"] += 1
                out[f"green_{kind}"] += green
            else:
                out["bot_guesses"] += 1
                out["bot_green"] += green
            out["missed"] += not green
            out["missed_on_assassin"] += result is GuessResult.ASSASSIN
    return out


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    ensemble = factory.ensemble(factory.DEFAULT_MODELS)
    total: dict[str, int] = {}
    for folder in argv:
        c = count(Path(folder), ensemble)
        total = {k: total.get(k, 0) + v for k, v in c.items()}
        print(folder, render(c))
    if len(argv) > 1:
        print("all", render(total))
    return 0


def render(c: dict[str, int]) -> str:
    return (f"{c['sudden_death']} of {c['games']} games reached sudden death; the bot's greens then hidden "
            f"{c['bot_greens_left']} ({c['aimed_left']} aimed at); the person's blind guesses green "
            f"{c['green_all_aimed']} of {c['person_guesses_all_aimed']} while every hidden green of the bot's was aimed at, "
            f"{c['green_some_unaimed']} of {c['person_guesses_some_unaimed']} otherwise; the bot's "
            f"{c['bot_green']} of {c['bot_guesses']}; misses {c['missed']} ({c['missed_on_assassin']} on an assassin)")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
