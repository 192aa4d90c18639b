"""Games lost on an assassin in saved games: who touched it, on whose clue, and where.

    PYTHONPATH=src python benchmarks/person_like/assassin_losses.py GAMES_DIR [GAMES_DIR ...]
    PYTHONPATH=src python benchmarks/person_like/assassin_losses.py --gaps GAMES_DIR [...]
    PYTHONPATH=src python benchmarks/person_like/assassin_losses.py --people GAMES_DIR [...]

For each folder, each game lost on an assassin is classed by the guess that lost it: the person
or the bot, on the other's clue within its number or past it, or blind in sudden death; the
losses on a bot clue are listed (the clue and the turn's guesses).

``--gaps`` replays this checkout's spymaster at every bot clue of the saves (outside sudden
death) and keeps the clues it gives again, word and number: for each, the z gap by which the
clue's weakest target stands above the most tempting assassin of the bot's, in the family
that reads it worst, and whether the person's guesses on it ended on an assassin. It prints how
often clues below each gap ended on one, against the rest.

Each run also prints how many clues each way ended on an assassin outside sudden death;
``--evokes`` reads the bot clues against the shipped free associations (``data/evokes.tsv``):
how many reach a live assassin of the bot's (the clues this main would not give), and which
of the clues that ended on an assassin reach the one touched. ``--people`` puts people's own rate beside it (the development split's turns, read from beside
the repository, never copied): the turns whose first miss was the assassin, and the share of
games that rate would lose at the saves' clues a game.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from summarize_games import BOT, PERSON, read_folder  # noqa: E402

from duetbot.rules import Clue, Guess, GuessResult, State  # noqa: E402

GAPS = (0.6, 0.8, 1.0, 1.2, 1.4)
PEOPLE = Path(__file__).resolve().parents[3] / "shared" / "data" / "human-duet-dev" / "turns.jsonl"


def causes(folder: Path) -> tuple[int, Counter, list[str], Counter]:
    """The games, the losses on an assassin by cause, the losses on a bot clue, and the
    clues given by each player ("bot", "person") and those of them that ended on an
    assassin ("bot on an assassin", ...)."""
    games, _ = read_folder(folder)
    out: Counter = Counter()
    clues: Counter = Counter()
    on_bot_clues = []
    for state, _ in games:
        replay = State(state.deal, state.variant)
        for ev in state.events:
            sudden = replay.sudden_death
            turn = None if sudden else replay.current_turn
            result = replay.apply(ev.action, ev.player)
            if isinstance(ev.action, Clue):
                clues["bot" if ev.player is BOT else "person"] += 1
            if not isinstance(ev.action, Guess) or result is not GuessResult.ASSASSIN:
                continue
            who = "person" if ev.player is PERSON else "bot"
            if not (sudden or turn is None):
                clues[f"{'bot' if who == 'person' else 'person'} on an assassin"] += 1
            if sudden or turn is None:
                out[f"{who} blind in sudden death"] += 1
                continue
            within = len(turn.guesses) < turn.clue.number
            out[f"{who} on the {'bot' if who == 'person' else 'person'}'s clue, "
                f"{'within' if within else 'past'} the number"] += 1
            if who == "person":
                guesses = [str(g[0]) for g in turn.guesses] + [ev.action.word]
                on_bot_clues.append(f"seed {state.deal.seed}: {turn.clue.word} {turn.clue.number}: "
                                    f"{', '.join(guesses)}")
    return len(games), out, on_bot_clues, clues


def people_turns(path: Path) -> tuple[int, int, int, int]:
    """People's own games (the development split's turns): clue turns, those whose first
    miss was the assassin, games, games with such a turn."""
    import json

    turns = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    games: dict = {}
    for t in turns:
        games[t["game"]] = games.get(t["game"], False) or _first_miss_assassin(t)
    return len(turns), sum(map(_first_miss_assassin, turns)), len(games), sum(games.values())


def _first_miss_assassin(turn: dict) -> bool:
    miss = next((w for w in turn["human_guesses"] if w not in turn["green"]), None)
    return miss is not None and miss in turn["black"]


def gaps(folders: list[Path]) -> list[tuple[float, bool]]:
    """(gap, ended on an assassin) for each bot clue this spymaster gives again."""
    from duetbot.bots import factory
    from duetbot.bots.spymaster.number import targets
    from duetbot.views import spymaster_view

    spy = factory.spymaster(factory.DEFAULT_MODELS)
    rows = []
    for folder in folders:
        games, _ = read_folder(folder)
        for state, _ in games:
            replay = State(state.deal, state.variant)
            events = list(state.events)
            for i, ev in enumerate(events):
                if ev.player is BOT and isinstance(ev.action, Clue) and ev.action.number > 0 and not replay.sudden_death:
                    view = spymaster_view(replay, BOT)
                    option = spy.suggest(view, 1)[0]
                    c = spy.ensemble.index.get(option.clue.word.lower())
                    if option.clue == ev.action and c is not None:
                        pos = spy.position(view)
                        _, zg, assassin, _ = targets(pos.sims.z[:, c:c + 1, pos.eligible], pos.labels)
                        weakest = np.minimum.accumulate(zg, axis=2)[:, 0, ev.action.number - 1]
                        gap = float(np.nanmin(weakest - assassin[:, 0]))
                        after = State(state.deal, state.variant)
                        for e in events[:i + 1]:
                            after.apply(e.action, e.player)
                        hit = False
                        for e in events[i + 1:]:
                            if e.player is not PERSON or not isinstance(e.action, Guess):
                                break
                            hit |= after.apply(e.action, e.player) is GuessResult.ASSASSIN
                        rows.append((gap, hit))
                replay.apply(ev.action, ev.player)
    return rows


def reaching(folders: list[Path]) -> list[tuple[str, tuple[str, ...], str | None]]:
    """For each bot clue of the saves (outside sudden death): the clue, the live assassins of
    the bot's that the shipped free associations reach from it, and the assassin the
    person's guesses on it touched (``None``: none)."""
    from duetbot.bots.factory import shipped_evokes
    from duetbot.rules import Label
    from duetbot.views import spymaster_view

    evokes = shipped_evokes()
    rows: list[list] = []
    for folder in folders:
        games, _ = read_folder(folder)
        for state, _ in games:
            replay = State(state.deal, state.variant)
            current: list | None = None   # the bot clue being guessed on: [word, reached, touched]
            for ev in state.events:
                sudden = replay.sudden_death
                if isinstance(ev.action, Clue):
                    current = None
                    if ev.player is BOT and not sudden:
                        view = spymaster_view(replay, BOT)
                        live = [view.words[i] for i, label in enumerate(view.my_side) if label is Label.ASSASSIN
                                and i not in view.covered and i not in view.partner_marks]
                        current = [ev.action.word, tuple(w for w in live if ev.action.word in evokes.clues(w)), None]
                        rows.append(current)
                result = replay.apply(ev.action, ev.player)
                if current is not None and not sudden and isinstance(ev.action, Guess) \
                        and result is GuessResult.ASSASSIN:
                    current[2] = ev.action.word
    return [(w, r, t) for w, r, t in rows]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--gaps", action="store_true", help="replay the bot clues and relate the assassin gap to losses")
    ap.add_argument("--evokes", action="store_true",
                    help="which bot clues the shipped free associations would have kept from the bot")
    ap.add_argument("--people", action="store_true", help="people's own rate beside the clues'")
    ap.add_argument("--data", type=Path, default=PEOPLE, help=f"people's turns (default {PEOPLE})")
    args = ap.parse_args(argv)
    total: Counter = Counter()
    clues: Counter = Counter()
    games = 0
    for folder in args.folders:
        n, by_cause, listed, given = causes(folder)
        games += n
        total.update(by_cause)
        clues.update(given)
        print(f"{folder}: {n} games, {sum(by_cause.values())} lost on an assassin")
        for cause, k in by_cause.most_common():
            print(f"  {k:3d}  {cause}")
        for line in listed:
            print(f"       {line}")
    if len(args.folders) > 1:
        print(f"all: {sum(total.values())} lost on an assassin")
        for cause, k in total.most_common():
            print(f"  {k:3d}  {cause}")
    print(f"\nclues ending on an assassin, outside sudden death ({games} games):")
    for who in ("bot", "person"):
        k, c = clues[f"{who} on an assassin"], clues[who]
        print(f"  the {who}'s: {k} of {c} ({k / max(c, 1):.1%}), {c / max(games, 1):.1f} a game")
    if args.people:
        if not args.data.is_file():
            print(f"people's turns: {args.data} not found (--data PATH)")
        else:
            t, k, g, gk = people_turns(args.data)
            p = k / t
            per_game = clues["bot"] + clues["person"]
            print(f"  people's own (one giver, one guesser): {k} of {t} ({p:.1%}); {gk} of {g} of their games"
                  f" ({t / g:.1f} clues a game)")
            if games:
                c = per_game / games
                print(f"  at people's rate, {c:.1f} clues a game end on an assassin in {1 - (1 - p) ** c:.0%} of games")
    if args.evokes:
        reach = reaching(args.folders)
        flagged = [r for r in reach if r[1]]
        hits = [r for r in reach if r[2]]
        print(f"\nbot clues whose free associations reach a live assassin of the bot's: {len(flagged)} of {len(reach)}"
              f" ({len(flagged) / max(len(reach), 1):.1%}); they ended on an assassin {sum(1 for r in flagged if r[2])} times")
        print(f"bot clues that ended on an assassin: {len(hits)}; the lists reach that assassin from the clue in"
              f" {sum(1 for r in hits if r[2] in r[1])}")
        for clue, reached_, touched in hits:
            print(f"  {clue} -> {touched}: {'reached' if touched in reached_ else 'not reached'}")
    if args.gaps:
        rows = gaps(args.folders)
        hits = sum(h for _, h in rows)
        print(f"\nbot clues given again: {len(rows)}, {hits} ended on an assassin")
        for g in GAPS:
            below = [h for gap, h in rows if gap < g]
            rest = len(rows) - len(below)
            print(f"  weakest target < {g} z above an assassin: {len(below)} clues, {sum(below)} on an assassin"
                  f" ({sum(below) / max(len(below), 1):.1%}); the rest {hits - sum(below)} of {rest}"
                  f" ({(hits - sum(below)) / max(rest, 1):.1%})")


if __name__ == "__main__":
    main()
