"""Clues from the full games read cold: the players' clues and the bot's, by person-like
readers and by the bot's guesser, on the same positions.

The full games (``games/``) measure the bot's clues as the person guessed them and the
person's clues as the bot guessed them, so each direction has its own reader. This study puts
both kinds of clue before the same readers, cold (the open words, the clue, its number; no
history, no key), to separate the two questions the games mix:

- are the bot's clues weaker than a person's? (readers on bot clues against readers on the
  players' clues, on the same boards);
- does the bot read a person's clue as well as a person does? (the bot's guesser against the
  readers on the same players' clues).

    PYTHONPATH=src python benchmarks/person_like/game_readings.py batches --readers 7 --out DIR
    # give each reader DIR/batch-K.json with the reader brief; collect answers-K.json
    PYTHONPATH=src python benchmarks/person_like/game_readings.py score game_readings/answers/*.json

Every game of one deal shares its board, so a reader gets at most one item of each deal (20
deals: 20 items a reader). The key (``game_readings/key.json``) says which save, which clue
and whose clue each item is; the positions are replayed from the saves, which are in the
repository. The readers answer ``number`` words (the reader brief), so a figure here is read
within the number: greens before a miss among the first ``number`` guesses.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from duetbot.rules import Clue, Label, Player, State
from duetbot.saves import load_saved

sys.path.insert(0, str(Path(__file__).resolve().parent))
from readings import cells, figures, judge  # noqa: E402

HERE = Path(__file__).resolve().parent
GAMES = HERE / "games"
OUT = HERE / "game_readings"
VERSIONS = ("old", "new", "new2")
PERSON, BOT = Player.A, Player.B


@dataclass(frozen=True)
class Item:
    """One clue of a saved game at the moment it was given."""

    save: str
    """The save, relative to ``games/``."""
    event: int
    """The clue's index among the game's events."""
    giver: str
    """``person`` or ``bot``."""
    seed: int
    clue: str
    number: int
    open_words: tuple[str, ...]
    """The words its guesser could still guess."""
    green: frozenset[str]
    assassin: frozenset[str]
    """The giver's greens still to find, and assassins."""
    covered: tuple[str, ...]
    wrong: tuple[str, ...]
    """Words covered, and words the guesser had marked (a bystander for the giver)."""
    guesser_side: tuple[frozenset[str], frozenset[str]]
    """The guesser's own greens and assassins (what the bot knows when it guesses)."""


def game_items(save: Path) -> list[Item]:
    """Every clue of number >= 1 in one saved game."""
    state = load_saved(save).state
    replay = State(state.deal, state.variant)
    words = state.deal.words
    out = []
    for i, ev in enumerate(state.events):
        replay.apply(ev.action, ev.player)
        if not isinstance(ev.action, Clue) or ev.action.number < 1:
            continue
        giver, guesser = ev.player, ev.player.other
        side, mine = state.deal.key.side(giver), state.deal.key.side(guesser)
        covered = replay.covered()
        open_idx = replay.guessable(guesser)
        out.append(Item(
            save=str(save.relative_to(GAMES)), event=i, giver="bot" if giver is BOT else "person",
            seed=state.deal.seed, clue=ev.action.word.lower(), number=ev.action.number,
            open_words=tuple(words[j] for j in open_idx),
            green=frozenset(words[j] for j in open_idx if side[j] is Label.GREEN),
            assassin=frozenset(words[j] for j in open_idx if side[j] is Label.ASSASSIN),
            covered=tuple(words[j] for j in sorted(covered)),
            wrong=tuple(words[j] for j in sorted(replay.marks[guesser]) if j not in covered),
            guesser_side=(frozenset(words[j] for j in range(len(words)) if mine[j] is Label.GREEN and j not in covered),
                          frozenset(words[j] for j in range(len(words)) if mine[j] is Label.ASSASSIN))))
    return out


def all_items() -> list[Item]:
    return [it for v in VERSIONS for save in sorted((GAMES / v).glob("*.json")) for it in game_items(save)]


def make_batches(readers: int, out: Path, seed: int) -> None:
    """One item of each deal for each reader, givers alternating (half the readers start with
    the person's clues, half with the bot's), drawn at random from the games of that deal."""
    rng = random.Random(seed)
    by_deal: dict[tuple[int, str], list[Item]] = defaultdict(list)
    for it in all_items():
        by_deal[(it.seed, it.giver)].append(it)
    seeds = sorted({s for s, _ in by_deal})
    batches: list[list[Item]] = [[] for _ in range(readers)]
    for k, s in enumerate(seeds):
        for r in range(readers):
            giver = ("person", "bot")[(r + k) % 2]
            pool = by_deal[(s, giver)]
            if pool:
                batches[r].append(pool.pop(rng.randrange(len(pool))))
    out.mkdir(parents=True, exist_ok=True)
    key = {}
    for r, batch in enumerate(batches):
        rng.shuffle(batch)
        puzzles = []
        for n, it in enumerate(batch):
            words = [w.upper() for w in it.open_words]
            rng.shuffle(words)
            pid = f"g{r}-{n:03d}"
            key[pid] = {"save": it.save, "event": it.event, "giver": it.giver, "number": it.number}
            puzzles.append({"id": pid, "words": words, "clue": it.clue.upper(), "number": it.number})
        (out / f"batch-{r}.json").write_text(json.dumps(puzzles, indent=1))
    OUT.mkdir(exist_ok=True)
    (OUT / "key.json").write_text(json.dumps(key, indent=1, sort_keys=True))
    print(f"{sum(map(len, batches))} items in {readers} batches ({', '.join(str(len(b)) for b in batches)}) in {out}")


def read_within(it: Item, guesses: list) -> dict:
    """A reading of ``it`` judged on the giver's side, within the number."""
    return judge(it.open_words, it.green, it.assassin, guesses, it.number)


def bot_guesses(it: Item, guesser, with_key: bool) -> list[str]:
    """The bot guesser's first ``number`` words on the clue read cold (no history), with its
    own key side as in a game or without."""
    from duetbot.suggest.duet import guesser_request_view

    req: dict = {"board": list(it.open_words) + list(it.covered) + list(it.wrong), "covered": list(it.covered),
                 "wrong": list(it.wrong), "clues": [{"clue": it.clue, "number": it.number}]}
    if with_key:
        req["green"] = sorted(w for w in it.guesser_side[0])
        req["assassin"] = sorted(it.guesser_side[1])
    view, _ = guesser_request_view(req)
    return list(guesser.belief(view).words[: it.number])


def score(answer_files: list[Path], as_json: Path | None) -> dict:
    from duetbot.bots.factory import default_bots

    key = json.loads((OUT / "key.json").read_text())
    items = {(it.save, it.event): it for it in all_items()}
    guesser = default_bots()[1]
    rows: dict[str, list[dict]] = defaultdict(list)
    seen: set[str] = set()
    bad = 0
    for path in answer_files:
        for pid, guesses in json.loads(path.read_text()).items():
            k = key.get(pid)
            if k is None or not isinstance(guesses, list):
                bad += 1
                continue
            it = items[(k["save"], k["event"])]
            rows[f"{it.giver}'s clues, person-like readers"].append(read_within(it, guesses))
            if it.giver == "person" and pid not in seen:
                rows["person's clues, the bot's guesser with its key"].append(read_within(it, bot_guesses(it, guesser, True)))
                rows["person's clues, the bot's guesser without a key"].append(read_within(it, bot_guesses(it, guesser, False)))
            seen.add(pid)
    table = {}
    print("| clues, reader | clues | guesses | greens in first n | greens before a miss | first guess a miss | assassin hit | mean number |")
    print("|---|---|---|---|---|---|---|---|")
    numbers = {pid: key[pid]["number"] for pid in seen}
    for name, rs in sorted(rows.items()):
        t = table[name] = figures(rs)
        print(f"| {name} | {t['clues']} | {t['guesses']} | {cells(t)} | {t['mean_number']:.2f} |")
    if bad:
        print(f"\n{bad} answers named no item of the key or were not a list (left out)")
    print(f"\n{len(numbers)} items answered")
    if as_json:
        as_json.write_text(json.dumps(table, indent=1, sort_keys=True))
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("batches")
    b.add_argument("--readers", type=int, default=7)
    b.add_argument("--out", type=Path, required=True, help="a folder for the readers' batch files")
    b.add_argument("--seed", type=int, default=36)
    s = sub.add_parser("score")
    s.add_argument("answers", type=Path, nargs="+")
    s.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "batches":
        make_batches(args.readers, args.out, args.seed)
    else:
        score(args.answers, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
