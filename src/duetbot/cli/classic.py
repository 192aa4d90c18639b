"""``--game classic`` for ``duetbot simulate`` and ``duetbot play``: classic Codenames.

The Duet commands delegate here entirely when given ``--game classic``; nothing of the Duet
path changes. Red is ``--player-a``, blue ``--player-b`` (the same partner specs: a spec's
spymaster families clue its own guesser families). ``--variant`` is ``standard`` or ``solo``
(one team alone, as in the published vector-bot studies), optionally ``+zero``.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..bots.base import Partner
from ..bots.classic import classic_team
from ..bots.factory import PartnerSpec, SpecError
from ..classic_harness import ClassicRecord, simulate_classic, step_classic, summarize_classic
from ..harness import BotError
from ..rules import Clue, EndTurn, Guess, Phase, UnknownBoardWordError
from ..rules.classic import Card, ClassicResult, ClassicRules, ClassicState, Team, deal_classic
from .common import fail, read_pool

Ask = Callable[[str], str]
HUMAN_TEAM = Team.RED
CLUE_PROMPT = "Your clue for the red operatives (word number): "
GUESS_PROMPT = "Your guess (word, or 'pass' after at least one guess): "


def parse_rules(text: str | None) -> ClassicRules:
    try:
        return ClassicRules.parse(text)
    except ValueError as exc:
        fail(str(exc))


def _spec(option: str, text: str | None) -> PartnerSpec:
    try:
        return PartnerSpec.parse(text or "default")
    except SpecError as exc:
        fail(f"{option} {text!r}: {exc}")


# --- simulate -----------------------------------------------------------------------------


def run_simulate(*, games: int, seed: int, variant: str | None, player_a: str | None, player_b: str | None,
                 random_bots: bool, words: Path | None, out: Path | None, quiet: bool,
                 console: Console | None = None) -> list[ClassicRecord]:
    """Play ``games`` classic games in this process and print the summary table."""
    console = console or Console(highlight=False)
    rules = parse_rules(variant if variant not in (None, "") else "standard")
    pool = read_pool(words)
    if random_bots:
        player_a = player_b = "bot=random"
    red, blue = _spec("--player-a", player_a), _spec("--player-b", player_b)
    for option, spec in (("--player-a", red), ("--player-b", blue)):
        try:
            spec.check(pool)
        except (ValueError, LookupError, OSError) as exc:
            fail(f"{option} {spec.text!r}: {exc}")
    sink = None
    if out is not None:
        try:
            sink = out.open("w", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write --out {out}: {exc.strerror}; choose a writable path")
    records: list[ClassicRecord] = []
    progress = Progress(TextColumn("[bold]simulating classic"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=Console(stderr=True), disable=quiet, transient=True)
    t0 = time.perf_counter()
    try:
        with progress:
            task = progress.add_task("games", total=games)
            for rec in simulate_classic(games, seed, pool,
                                        lambda s: (classic_team(red, s), classic_team(blue, s + 1)), rules):
                records.append(rec)
                if sink is not None:
                    sink.write(rec.dumps() + "\n")
                    sink.flush()
                progress.update(task, advance=1)
    except BotError as exc:
        fail(str(exc), code=1)
    finally:
        if sink is not None:
            sink.close()
    summary = summarize_classic(records)
    who = f"red {red.text}" + ("" if rules.solo else f" vs blue {blue.text}")
    console.print(escape(f"{len(records)} classic games ({rules}), {who}, seed {seed}"))
    table = Table()
    table.add_column("measure")
    table.add_column("value (95% interval)", justify="right")
    for name, value in summary.rows():
        table.add_row(name, value)
    console.print(table)
    console.print(f"{len(records)} games played in {time.perf_counter() - t0:.1f} s")
    if out is not None:
        console.print(f"records written to {out}")
    return records


# --- play ---------------------------------------------------------------------------------


def make_classic_bots(seed: int) -> tuple[Partner, Partner]:
    """Red's bots (the human takes one of the two roles) and the blue team."""
    spec = PartnerSpec()
    return classic_team(spec, seed), classic_team(spec, seed + 1)


_CARD_STYLE = {Card.RED: "bold red", Card.BLUE: "bold blue", Card.BYSTANDER: "yellow", Card.ASSASSIN: "bold white on black"}


def render_board(state: ClassicState, show_key: bool) -> Table:
    table = Table(show_header=False, show_lines=True)
    for _ in range(5):
        table.add_column(justify="center", min_width=12)
    cells = []
    for i, w in enumerate(state.words):
        if i in state.covered:
            card = state.covered[i]
            t = Text(w, style="strike dim")
            t.append(f"\n[{card.value}]", style=_CARD_STYLE[card])
        elif show_key:
            card = state.deal.key.label(i)
            t = Text(w, style=_CARD_STYLE[card])
            t.append(f"\n{card.value}" if card is not Card.BYSTANDER else "\n", style="dim")
        else:
            t = Text(w)
        cells.append(t)
    for r in range(5):
        table.add_row(*cells[5 * r:5 * r + 5])
    return table


def _status(state: ClassicState) -> str:
    return (f"red agents left {len(state.agents_left(Team.RED))}, blue agents left "
            f"{len(state.agents_left(Team.BLUE))}; {state.team.name.lower()} to "
            + ("give a clue" if state.phase is Phase.CLUE else "guess"))


class ClassicSession:
    """The game loop of ``play --game classic``; ``ask`` reads a line (EOFError at the end)."""

    def __init__(self, state: ClassicState, role: str, bots: tuple[Partner, Partner], console: Console,
                 ask: Ask) -> None:
        self.state, self.role, self.bots, self.console, self.ask = state, role, bots, console, ask

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, soft_wrap=True, markup=False, highlight=False)

    def human_turn(self) -> bool:
        st = self.state
        return st.team is HUMAN_TEAM and ((st.phase is Phase.CLUE) == (self.role == "spymaster"))

    def run(self) -> None:
        st = self.state
        while not st.is_over():
            if self.human_turn():
                self.console.print(render_board(st, self.role == "spymaster"))
                self.say(_status(st))
                if st.phase is Phase.CLUE:
                    self.human_clue()
                else:
                    self.human_guess()
            else:
                n = len(st.events)
                try:
                    step_classic(st, self.bots)
                except BotError as exc:
                    fail(str(exc), code=1)
                for ev in st.events[n:]:
                    self.say(self.describe(ev))
        self.console.print(render_board(st, True))
        how = "by the assassin" if st.outcome.value == "assassin" else "with all agents found"  # type: ignore[union-attr]
        self.say(f"Game over: {st.winner.name.lower()} wins {how}. "  # type: ignore[union-attr]
                 + ("You win!" if st.winner is HUMAN_TEAM else "You lose."))

    def describe(self, ev) -> str:
        who = "Your" if ev.player is HUMAN_TEAM else f"The {ev.player.name.lower()}"
        if isinstance(ev.action, Clue):
            return f"{who} spymaster says: {ev.action}"
        if isinstance(ev.action, Guess):
            return f"{who} operatives guess {ev.action.word}: {ev.result}"
        return f"{who} operatives stop."

    def read(self, prompt: str) -> str:
        text = self.ask(prompt).strip()
        if text.casefold() == "quit":
            raise EOFError
        return text

    def human_clue(self) -> None:
        while True:
            text = self.read(CLUE_PROMPT)
            try:
                clue = Clue.parse(text)
                self.state.apply(clue, HUMAN_TEAM)
            except ValueError as exc:
                self.say(f"error: {exc}", style="red")
                continue
            self.say(f"You say: {clue}")
            return

    def human_guess(self) -> None:
        st = self.state
        turn = st.current_turn
        left = st.guesses_left()
        self.say(f"Your spymaster's clue: {turn.clue}" + (f" ({left} guesses left)" if left is not None else ""))  # type: ignore[union-attr]
        while True:
            text = self.read(GUESS_PROMPT)
            if text.casefold() == "pass":
                try:
                    st.apply(EndTurn(), HUMAN_TEAM)
                except ValueError as exc:
                    self.say(f"error: {exc}", style="red")
                    continue
                self.say("You stop.")
                return
            try:
                result = st.apply(Guess(text), HUMAN_TEAM)
            except UnknownBoardWordError:
                self.say(f"error: '{text}' is not a word on this board", style="red")
                continue
            except ValueError as exc:
                self.say(f"error: {exc}", style="red")
                continue
            msg = {ClassicResult.AGENT: "your agent!", ClassicResult.BYSTANDER: "a bystander; the turn ends.",
                   ClassicResult.OPPONENT: "a blue agent; covered for them, the turn ends.",
                   ClassicResult.ASSASSIN: "the ASSASSIN!"}[result]  # type: ignore[index]
            self.say(f"{st.deal.words[st.deal.index(text)]}: {msg}")
            return


def run_play(*, seed: int | None, role: str, variant: str | None, words: Path | None, ask: Ask | None = None,
             console: Console | None = None) -> ClassicState:
    console = console or Console(highlight=False)
    if role not in ("spymaster", "operative"):
        fail(f"--role {role!r}: use spymaster or operative")
    rules = parse_rules(variant or "standard")
    pool = read_pool(words)
    game_seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
    state = ClassicState(deal_classic(game_seed, pool), rules)
    console.print(f"Codenames (classic): you are the red {role}; bots play the rest. {state.starting.name.lower()} "
                  f"starts. Seed {game_seed}. Type 'quit' to stop.", soft_wrap=True, markup=False, highlight=False)
    if ask is None:
        def ask(prompt: str) -> str:
            return console.input(Text(prompt, style="bold"))
    session = ClassicSession(state, role, make_classic_bots(game_seed), console, ask)
    try:
        session.run()
    except (EOFError, KeyboardInterrupt):
        console.print("Game stopped (classic games are not saved).", markup=False)
    return state


__all__ = ["ClassicSession", "make_classic_bots", "render_board", "run_play", "run_simulate"]
