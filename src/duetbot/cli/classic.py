"""``--game classic`` for ``duetbot simulate`` and ``duetbot play``: classic Codenames.

``simulate --game classic`` runs on the Duet engine (:mod:`duetbot.simulation.classic`
plugs a classic run into :mod:`duetbot.simulation`); this module gives it the rules parser.
``play --game classic`` is all here: the human plays one role of the red team, the bots the
rest; ``quit`` (or end of input) saves the game as a :class:`~duetbot.records.classic.ClassicRecord`
that ``--resume`` replays. Red is ``--player-a``, blue ``--player-b`` (the same partner specs:
a spec's spymaster families clue its own guesser families). ``--variant`` is ``standard`` or
``solo`` (one team alone, as in the published vector-bot studies), optionally ``+zero``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..bots.base import Partner
from ..bots.classic import classic_team
from ..bots.factory import PartnerSpec
from ..harness import BotError
from ..harness.base import play as play_game_loop
from ..harness.classic import CLASSIC
from ..rules import Clue, EndTurn, Event, Guess, Phase, UnknownBoardWordError
from ..rules.classic import Card, ClassicResult, ClassicRules, ClassicState, ClassicTermination, Team, deal_classic
from ..views.classic import ClassicGuesserView, ClassicSpymasterView
from ..saves import CLASSIC_SAVE, HUMAN_TEAM, ROLES, SaveError, load_classic_saved, save_classic_game
from .consoles import GameConsole
from .common import (
    Ask, Reader, check_pool, check_save_path, fail, partner_spec, quiet_stdout, read_pool, terminal_ask,
)

DEFAULT_SAVE = CLASSIC_SAVE
CLUE_PROMPT = "Your clue for the red operatives (word number): "
GUESS_PROMPT = "Your guess (word, or 'pass' after at least one guess): "


def parse_rules(text: str | None) -> ClassicRules:
    try:
        return ClassicRules.parse(text)
    except ValueError as exc:
        fail(str(exc))


# --- play ---------------------------------------------------------------------------------


def make_classic_bots(seed: int, spec: PartnerSpec | None = None) -> tuple[Partner, Partner]:
    """Red's bots (the human takes one of the two roles) and the blue team, from ``spec``
    (``--partner``; default: the shipped bots)."""
    spec = spec or PartnerSpec()
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
    """``play --game classic``: the person plays one role of the red team through the one game
    loop (:func:`duetbot.harness.base.play`); bots play the rest. ``ask`` reads a line
    (EOFError at the end).

    ``run`` raises ``EOFError`` when the human types ``quit`` and :class:`~duetbot.harness.BotError`
    when a bot plays an illegal action; the state is consistent between actions either way."""

    def __init__(self, state: ClassicState, role: str, bots: tuple[Partner, Partner], console: Console,
                 ask: Ask, *, hints: bool = False, spec: PartnerSpec | None = None) -> None:
        self.state, self.role, self.bots, self.console, self.ask = state, role, bots, console, ask
        self.hints = hints
        self.spec = spec
        self.reader = Reader(ask, self.say, lambda text: self.say(f"error: {text}", style="red"), hints=hints,
                             spec=spec, passing="after a guess")
        self._shown = -1
        red = bots[HUMAN_TEAM]
        # the session plays the person's role (give_clue or guess, read from the prompt)
        self.players = {HUMAN_TEAM: Partner(self, red.guesser, "you") if role == "spymaster"
                        else Partner(red.spymaster, self, "you"),
                        HUMAN_TEAM.other: bots[HUMAN_TEAM.other]}

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, soft_wrap=True, markup=False, highlight=False)

    def run(self) -> None:
        st = self.state
        play_game_loop(st, CLASSIC, self.players, observe=self.observe)
        self.console.print(render_board(st, True))
        how = "by the assassin" if st.outcome is ClassicTermination.ASSASSIN else "with all agents found"
        winner = st.winner.name.lower() if st.winner is not None else "nobody"
        self.say(f"Game over: {winner} wins {how}. " + ("You win!" if st.winner is HUMAN_TEAM else "You lose."))

    def is_mine(self, ev: Event[Team]) -> bool:
        """Did the person play ``ev`` (not a bot of their team)?"""
        return ev.player is HUMAN_TEAM and isinstance(ev.action, Clue) == (self.role == "spymaster")

    def observe(self, st: ClassicState, ev: Event[Team]) -> None:
        self.say(self.describe(ev, st) if self.is_mine(ev) else self.describe(ev))

    def describe(self, ev: Event[Team], st: ClassicState | None = None) -> str:
        """What ``ev`` did; with ``st``, as the person's own action (``You say ...``)."""
        if st is not None:
            if isinstance(ev.action, Clue):
                return f"You say: {ev.action}"
            if isinstance(ev.action, EndTurn):
                return "You stop."
            msg = {ClassicResult.AGENT: "your agent!", ClassicResult.BYSTANDER: "a bystander; the turn ends.",
                   ClassicResult.OPPONENT: "a blue agent; covered for them, the turn ends.",
                   ClassicResult.ASSASSIN: "the ASSASSIN!"}[ClassicResult(ev.result)]
            return f"{ev.action.word}: {msg}"
        who = "Your" if ev.player is HUMAN_TEAM else f"The {ev.player.name.lower()}"
        if isinstance(ev.action, Clue):
            return f"{who} spymaster says: {ev.action}"
        if isinstance(ev.action, Guess):
            return f"{who} operatives guess {ev.action.word}: {ev.result}"
        return f"{who} operatives stop."

    def read(self, prompt: str, view: ClassicSpymasterView | ClassicGuesserView) -> str:
        """One answer (:class:`~duetbot.cli.common.Reader`: ``quit``, ``hint`` and ``help`` are
        handled there)."""
        return self.reader.read(prompt, view)

    def show(self) -> bool:
        """Show the board and status if something happened since the last time (not after a
        refused answer); True if it was shown."""
        if self._shown == len(self.state.events):
            return False
        self._shown = len(self.state.events)
        self.console.print(render_board(self.state, self.role == "spymaster"))
        self.say(_status(self.state))
        return True

    def give_clue(self, view: ClassicSpymasterView) -> Clue:
        self.show()
        text = ""
        while True:
            text = text or self.read(CLUE_PROMPT, view)
            try:
                clue = Clue.parse(text)
            except ValueError as exc:
                self.say(f"error: {exc}", style="red")
                text = ""
                continue
            # a word your operatives do not know would spend the turn on noise: ask first
            instead = self.reader.confirm(self.bots[HUMAN_TEAM], clue, [view.words[i] for i in view.visible], view)
            if instead is None:
                return clue
            text = instead

    def guess(self, view: ClassicGuesserView) -> Guess | EndTurn:
        if self.show():
            left = view.guesses_left
            self.say(f"Your spymaster's clue: {view.turns[-1].clue}"
                     + (f" ({left} guesses left)" if left is not None else ""))
        text = self.read(GUESS_PROMPT, view)
        return EndTurn() if text.casefold() == "pass" else Guess(text)

    def refused(self, action: Clue | Guess | EndTurn, exc: ValueError) -> None:
        if isinstance(exc, UnknownBoardWordError) and isinstance(action, Guess):
            self.say(f"error: '{action.word}' is not a word on this board", style="red")
        else:
            self.say(f"error: {exc}", style="red")


def run_play(*, seed: int | None, role: str | None, variant: str | None, words: Path | None,
             resume: Path | None = None, save: Path | None = None, hints: bool = False,
             ask: Ask | None = None, console: Console | None = None, vectors: Sequence[str] = (),
             partner: str | None = None) -> ClassicState:
    """``duetbot play --game classic``: a new game, or ``resume`` a saved one; ``quit`` or
    end of input saves to ``save`` (default: the resumed file, else :data:`DEFAULT_SAVE`)."""
    console = console or GameConsole(highlight=False)
    spec = partner_spec(partner, vectors)
    if role is not None and role not in ROLES:
        fail(f"--role {role!r}: use spymaster or operative")
    if resume is not None:
        clash = [name for name, given in (("--seed", seed is not None), ("--variant", variant is not None),
                                          ("--words", words is not None)) if given]
        if clash:
            fail(f"--resume continues the saved game with its own board and rules; drop {', '.join(clash)}")
        try:
            state, saved_role, saved_partner = load_classic_saved(resume)
        except ValueError as exc:
            fail(str(exc))
        if partner is None:  # the bots the game was saved with
            spec = partner_spec(saved_partner, vectors)
        if role is not None and role != saved_role:
            fail(f"{resume} is a game you play as the red {saved_role}; drop --role {role}")
        role = saved_role
        game_seed = state.deal.seed if state.deal.seed is not None else 0
        save_path = save or resume
        check_save_path(save_path)
        console.print(f"Resuming {resume}: classic {state.rules}, seed {game_seed}, {len(state.turns)} clue(s) "
                      f"so far; you are the red {role}.", soft_wrap=True, markup=False, highlight=False)
    else:
        role = role or "spymaster"
        rules = parse_rules(variant or "standard")
        pool = read_pool(words)
        check_pool(pool, spec)
        game_seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
        state = ClassicState(deal_classic(game_seed, pool), rules)
        save_path = save or Path(DEFAULT_SAVE)
        check_save_path(save_path)
        console.print(f"Codenames (classic): you are the red {role}; bots play the rest. "
                      f"{state.starting.name.lower()} starts. Seed {game_seed}.",
                      soft_wrap=True, markup=False, highlight=False)
    console.print("Type 'quit' at any prompt to save and stop" + (", 'hint' for a hint" if hints else "")
                  + ", 'help' for the commands.", soft_wrap=True, markup=False, highlight=False)
    if ask is None:
        ask = terminal_ask(console)
    if resume is not None:
        check_pool(state.deal.words, spec)
    session = ClassicSession(state, role, make_classic_bots(game_seed, spec), console, ask, hints=hints,
                             spec=spec)
    if state.is_over():
        console.print("This game is over; start a new one with duetbot play --game classic.", soft_wrap=True,
                      markup=False, highlight=False)
    try:
        try:
            session.run()
            save_classic_game(state, save_path, role, spec.label)  # finished: --resume sees it over
            console.print(f"The finished game is saved in {save_path}.", soft_wrap=True, markup=False,
                          highlight=False)
        except (EOFError, KeyboardInterrupt):  # the state is consistent between actions
            save_classic_game(state, save_path, role, spec.label)
            console.print(f"Game saved to {save_path}. Continue it with: duetbot play --game classic --resume "
                          f"{save_path}", soft_wrap=True, markup=False, highlight=False)
        except BotError as exc:
            save_classic_game(state, save_path, role, spec.label)
            fail(f"{exc}; the game was saved to {save_path}", code=1)
        except OSError as exc:  # the terminal cannot be written (a full disk, a closed pipe): keep the game
            save_classic_game(state, save_path, role, spec.label)
            quiet_stdout()
            fail(f"cannot write to the terminal: {exc.strerror or exc}; the game was saved to {save_path}: "
                 f"continue it with duetbot play --game classic --resume {save_path}", code=1)
    except SaveError as exc:
        fail(str(exc), code=1)
    return state


__all__ = ["ClassicSession", "make_classic_bots", "parse_rules", "render_board", "run_play"]
