"""Summarise full games played with person-like partners: a folder of `duetbot play` saves.

    PYTHONPATH=src python benchmarks/person_like/summarize_games.py GAMES_DIR
    PYTHONPATH=src python benchmarks/person_like/summarize_games.py GAMES_DIR --json summary.json

Every ``*.json`` file in the folder that is a saved Duet game (the record `duetbot play`
writes, `--move` mode included) is read and replayed; other files are listed as skipped.
The person is player A, the bot player B (what `duetbot play` saves; the ``players`` field
names them). Every figure is given with its count (games, clues or guesses it is taken over).

Figures, each way (the bot's clues guessed by the person; the person's clues guessed by the bot):

- greens per clue: greens guessed before the first non-green on that clue (the clue's turn
  over; a turn still in progress in an unfinished game is left out);
- first guess green, and clues ending on a bystander / on an assassin;
- guesses past the number (the k+1-th guess and later on a clue of number k >= 1; zero
  clues are left out, their number says nothing of how far to go), and how many of those
  were a miss (a bystander or the assassin);
- the mean clue number.

Games: finished and unfinished, wins, losses by cause (assassin, sudden death miss, mission
failed), the score and tokens left on a win, sudden-death guesses each way.

"Padded targets" (a number filled with targets the bot's own links rate below 0.5) needs the
bot's intended targets and link strengths, which a save does not hold (its events are the
clue words and numbers, the guesses and their results). ``--links`` works them out by replaying
each game and asking the default spymaster of the code on ``PYTHONPATH`` (run it with the
version that played: the spymaster is deterministic) for its options at each of its clues; a
clue it does not give again is counted as not reproduced. Without ``--links`` the figure is
reported as unavailable.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from duetbot.rules import Clue, GuessResult, Player, State, Termination
from duetbot.saves import load_saved

PERSON, BOT = Player.A, Player.B

PADDED_UNAVAILABLE = ("unavailable: a save records each clue's word and number, not the bot's intended targets "
                      "or their link strengths")


@dataclass(frozen=True)
class ClueTurn:
    """One clue whose turn is over, as the table saw it."""

    giver: Player
    number: int
    results: tuple[GuessResult, ...]
    """The guesses' results on the giver's side, in order."""

    @property
    def greens_before_miss(self) -> int:
        n = 0
        for r in self.results:
            if r is not GuessResult.GREEN:
                break
            n += 1
        return n

    @property
    def ended_on(self) -> GuessResult | None:
        """The result that ended the turn, if a miss did."""
        return next((r for r in self.results if r is not GuessResult.GREEN), None)

    @property
    def past_number(self) -> tuple[GuessResult, ...]:
        """Results of the guesses beyond the clue's number (none for a zero clue)."""
        return self.results[self.number:] if self.number >= 1 else ()


def clue_turns(state: State) -> list[ClueTurn]:
    """Every clue of the game whose turn is over (a turn still being guessed is left out)."""
    turns = state.history().turns
    done = turns if state.is_over() or state.current_turn is None else turns[:-1]
    return [ClueTurn(t.giver, t.clue.number, tuple(GuessResult(r) for _, r in t.guesses)) for t in done]


def figure(value: float | None, count: int, **extra: object) -> dict[str, object]:
    """A figure with the count it is taken over (``value`` None when the count is 0)."""
    return {"value": None if value is None or count == 0 else round(value, 3), "count": count, **extra}


def share(k: int, n: int) -> dict[str, object]:
    return {"k": k, "n": n, "rate": round(k / n, 3) if n else None}


@dataclass
class Direction:
    """Clues given by one seat and guessed by the other."""

    turns: list[ClueTurn] = field(default_factory=list)
    sudden_death: list[GuessResult] = field(default_factory=list)
    """The guessing seat's sudden-death guesses (no clue: counted apart)."""

    def summary(self) -> dict[str, object]:
        t = self.turns
        n = len(t)
        guessed = [x for x in t if x.results]
        past = [r for x in t for r in x.past_number]
        numbered = [x for x in t if x.number >= 1]
        return {
            "clues": n,
            "greens_per_clue": figure(sum(x.greens_before_miss for x in t) / n if n else None, n),
            "mean_number": figure(sum(x.number for x in t) / n if n else None, n),
            "first_guess_green": share(sum(x.results[0] is GuessResult.GREEN for x in guessed), len(guessed)),
            "ended_on_bystander": share(sum(x.ended_on is GuessResult.BYSTANDER for x in t), n),
            "ended_on_assassin": share(sum(x.ended_on is GuessResult.ASSASSIN for x in t), n),
            "guesses_past_number": {
                "guesses": len(past),
                "clues_with_any": share(sum(bool(x.past_number) for x in numbered), len(numbered)),
                "misses": share(sum(r is not GuessResult.GREEN for r in past), len(past)),
                "assassins": share(sum(r is GuessResult.ASSASSIN for r in past), len(past)),
            },
            "sudden_death_guesses": {
                "guesses": len(self.sudden_death),
                "misses": share(sum(r is not GuessResult.GREEN for r in self.sudden_death), len(self.sudden_death)),
            },
        }


@dataclass
class Summary:
    """Games and the clues each way; :meth:`add` one replayed game at a time."""

    games: int = 0
    unfinished: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    scores: list[int] = field(default_factory=list)
    tokens_on_win: list[int] = field(default_factory=list)
    sudden_death_games: int = 0
    assassin_in_sudden_death: int = 0
    """Games lost on an assassin touched in sudden death (where a bystander loses as surely)."""
    players: Counter[str] = field(default_factory=Counter)
    ways: dict[Player, Direction] = field(default_factory=lambda: {BOT: Direction(), PERSON: Direction()})
    """Keyed by the clue giver."""

    def add(self, state: State, players: dict[str, str] | None = None) -> None:
        self.games += 1
        for seat, name in sorted((players or {}).items()):
            self.players[f"{seat}: {name}"] += 1
        if state.outcome is None:
            self.unfinished += 1
        else:
            self.outcomes[state.outcome.value] += 1
            if state.outcome is Termination.WIN:
                self.scores.append(state.score() or 0)
                self.tokens_on_win.append(state.tokens)
        self.sudden_death_games += bool(state.sudden_death)
        self.assassin_in_sudden_death += state.outcome is Termination.ASSASSIN and bool(state.sudden_death)
        for turn in clue_turns(state):
            self.ways[turn.giver].turns.append(turn)
        for ev in state.history().sudden_death:  # a guess by X is judged on the other side: X's partner's clues
            self.ways[ev.player.other].sudden_death.append(GuessResult(ev.result))

    def to_json(self) -> dict[str, object]:
        finished = self.games - self.unfinished
        wins = self.outcomes.get(Termination.WIN.value, 0)
        return {
            "games": self.games,
            "finished": finished,
            "unfinished": self.unfinished,
            "players": dict(self.players),
            "wins": share(wins, finished),
            "losses_by_cause": {t.value: share(self.outcomes.get(t.value, 0), finished)
                                for t in Termination if t is not Termination.WIN},
            "score_on_win": figure(sum(self.scores) / len(self.scores) if self.scores else None, len(self.scores)),
            "tokens_left_on_win": figure(sum(self.tokens_on_win) / len(self.tokens_on_win) if self.tokens_on_win
                                         else None, len(self.tokens_on_win)),
            "reached_sudden_death": share(self.sudden_death_games, self.games),
            "lost_on_an_assassin_in_sudden_death": share(self.assassin_in_sudden_death, finished),
            "bot_clues_guessed_by_person": self.ways[BOT].summary(),
            "person_clues_guessed_by_bot": self.ways[PERSON].summary(),
            "padded_targets": {"available": False, "reason": PADDED_UNAVAILABLE},
        }


def bot_clue_links(state: State, spymaster) -> list[tuple[str, tuple[float, ...] | None]]:
    """Each clue the bot gave, with its targets' links as the bot rated them then (``None``: the
    spymaster, asked again, does not give that clue)."""
    from duetbot.views import spymaster_view

    replay = State(state.deal, state.variant)
    out = []
    for ev in state.events:
        if ev.player is BOT and isinstance(ev.action, Clue):
            options = spymaster.suggest(spymaster_view(replay, BOT), top=8)
            match = next((o for o in options if o.clue == ev.action), None)
            out.append((str(ev.action), None if match is None else tuple(match.links)))
        replay.apply(ev.action, ev.player)
    return out


def padded_targets(games: Sequence[State]) -> dict[str, object]:
    """Bot clues with a target linked below 0.5, over the clues the spymaster gives again."""
    from duetbot.bots.factory import default_bots

    spymaster = default_bots()[0]
    clues = [c for g in games for c in bot_clue_links(g, spymaster)]
    known = [(c, links) for c, links in clues if links is not None]
    padded = [c for c, links in known if links and min(links) < 0.5]
    return {"available": True, "clues": len(clues), "reproduced": len(known),
            "padded": share(len(padded), len(known)), "examples": padded[:10]}


def summarize(games: Iterable[State | tuple[State, dict[str, str]]]) -> dict[str, object]:
    """The summary (a JSON value) of replayed games (states, or (state, players) pairs)."""
    s = Summary()
    for g in games:
        state, players = g if isinstance(g, tuple) else (g, None)
        s.add(state, players)
    return s.to_json()


def read_folder(folder: Path) -> tuple[list[tuple[State, dict[str, str]]], list[str]]:
    """The saved Duet games in ``folder`` (``*.json``, by name) and one line per file skipped."""
    games, skipped = [], []
    for path in sorted(folder.glob("*.json")):
        try:
            saved = load_saved(path)
        except ValueError as exc:
            skipped.append(str(exc))
            continue
        games.append((saved.state, dict(saved.players)))
    return games, skipped


def _rate(s: dict) -> str:
    return f"{s['k']} of {s['n']}" + (f" ({100 * s['rate']:.1f}%)" if s["rate"] is not None else "")


def _value(f: dict) -> str:
    return f"{f['value']:.2f} over {f['count']}" if f["value"] is not None else f"- (count {f['count']})"


def render(summary: dict) -> str:
    """The summary as plain text."""
    out = [f"Games: {summary['games']} ({summary['finished']} finished, {summary['unfinished']} unfinished)",
           f"Wins: {_rate(summary['wins'])} finished games"]
    for cause, s in summary["losses_by_cause"].items():
        out.append(f"Lost, {cause}: {_rate(s)}")
        if cause == Termination.ASSASSIN.value and "lost_on_an_assassin_in_sudden_death" in summary:
            out.append(f"  of which in sudden death: {_rate(summary['lost_on_an_assassin_in_sudden_death'])}")
    out += [f"Score on a win: {_value(summary['score_on_win'])} wins",
            f"Tokens left on a win: {_value(summary['tokens_left_on_win'])} wins",
            f"Reached sudden death: {_rate(summary['reached_sudden_death'])} games"]
    for key, title in (("bot_clues_guessed_by_person", "The bot's clues, guessed by the person"),
                       ("person_clues_guessed_by_bot", "The person's clues, guessed by the bot")):
        w = summary[key]
        p = w["guesses_past_number"]
        out += ["", f"{title}: {w['clues']} clues",
                f"  greens per clue (before the first non-green): {_value(w['greens_per_clue'])} clues",
                f"  mean number: {_value(w['mean_number'])} clues",
                f"  first guess green: {_rate(w['first_guess_green'])} clues guessed on",
                f"  ended on a bystander: {_rate(w['ended_on_bystander'])} clues",
                f"  ended on an assassin: {_rate(w['ended_on_assassin'])} clues",
                f"  guesses past the number: {p['guesses']}, on {_rate(p['clues_with_any'])} clues of number >= 1;"
                f" misses {_rate(p['misses'])}, assassins {_rate(p['assassins'])}",
                f"  sudden-death guesses: {w['sudden_death_guesses']['guesses']}, "
                f"misses {_rate(w['sudden_death_guesses']['misses'])}"]
    pad = summary["padded_targets"]
    if pad["available"]:
        out += ["", f"Padded targets (a target linked below 0.5): {_rate(pad['padded'])} bot clues reproduced "
                    f"({pad['reproduced']} of {pad['clues']}); e.g. {', '.join(pad['examples']) or '-'}"]
    else:
        out += ["", f"Padded targets: {pad['reason']}"]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="a folder of duetbot play saves (*.json)")
    ap.add_argument("--json", type=Path, metavar="OUT", help="also write the summary as JSON to OUT")
    ap.add_argument("--links", action="store_true",
                    help="replay the bot's clues for their targets' links (padded targets); slower")
    args = ap.parse_args(argv)
    if not args.folder.is_dir():
        print(f"error: {args.folder}: not a folder; give the folder holding the saved games", file=sys.stderr)
        return 2
    games, skipped = read_folder(args.folder)
    for line in skipped:
        print(f"skipped: {line}", file=sys.stderr)
    if not games:
        print(f"error: {args.folder}: no saved Duet games in it (*.json)", file=sys.stderr)
        return 2
    summary = summarize(games)
    summary["skipped_files"] = len(skipped)
    if args.links:
        summary["padded_targets"] = padded_targets([g for g, _ in games])
    print(render(summary))
    if args.json is not None:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        print(f"\nWritten to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
