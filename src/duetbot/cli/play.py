"""``duetbot play``: a solo human plays Codenames: Duet with a bot partner in the terminal.

The human is player A, the bot player B. The bot is built by :func:`make_bot` and sees the
game only through views (its own side of the key card, never the human's); the terminal
never shows anything of the bot's side until the game is over.

The game is played by the one game loop (:func:`duetbot.harness.play`): the person is a
player whose answers are read by :class:`Session` (from the state, the bot, a rich ``Console``
and an input function ``ask(prompt) -> str`` raising ``EOFError`` at end of input, so tests
can drive it without a terminal), which also shows every action. :func:`run_game` adds saving on ``quit`` / end of input and
the end-of-game screen; the typer command :func:`play` only parses options and wires a real
terminal to it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..bots import Partner
from .. import harness
from ..harness import BotError
from ..jsonio import JSONInputError, read_json_file
from ..rules import (
    Clue, EndTurn, Event, Guess, GuessResult, IllegalClueError, InvalidCluePolicy,
    Label, Phase, Player, State, Termination, UnknownBoardWordError, deal,
)
from ..views import GuesserView, SpymasterView
from ..saves import (
    BOT, DEFAULT_SAVE, HUMAN, SaveError, load_saved, make_bot, outcome_line, save_game, write_json_file,
)
from ..saves.moves import GameOver, MoveError, UnknownClueWord, expected_move, parse_clue, play_moves, split_moves
from .consoles import GameConsole
from .common import (
    VECTOR, VECTOR_HELP, Ask, GameKind, PartnerOption, QuitGame, Reader, check_pool, check_save_path, fail,
    parse_variant, partner_spec, quiet_stdout, read_pool, terminal_ask,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..bots.factory import PartnerSpec
    from ..bots.profile import Profile


CLUE_PROMPT = "Your clue (word number): "
GUESS_PROMPT = "Your guess on "
"""How the guess prompt starts; :func:`guess_prompt` repeats the clue, which has scrolled away by now."""
SUDDEN_DEATH_PROMPT = "Your guess (sudden death: one word, any miss loses): "


def guess_prompt(clue: Clue) -> str:
    """``Your guess on OCEAN: 2 (a word, or 'pass' to end the turn): ``"""
    return f"{GUESS_PROMPT}{clue} (a word, or 'pass' to end the turn): "


CLUE_RULE = ("rule book: a clue may not be a word visible on the grid, a form of one, "
             "or a component of a visible compound")


# --- rendering (pure: state in, rich renderables out) --------------------------------------

_OWN_STYLE = {Label.GREEN: "bold green", Label.ASSASSIN: "bold red", Label.BYSTANDER: ""}
_OWN_TAG = {Label.GREEN: "your agent", Label.ASSASSIN: "ASSASSIN", Label.BYSTANDER: ""}
FOUND = "found \u2713"
"""A covered agent's tag: in words apart from "your agent", so no colour is needed to tell them apart."""
_RESULT = {GuessResult.GREEN: "agent", GuessResult.BYSTANDER: "bystander", GuessResult.ASSASSIN: "ASSASSIN"}
_RESULT_STYLE = {GuessResult.GREEN: "green", GuessResult.BYSTANDER: "yellow", GuessResult.ASSASSIN: "bold red"}


def _name(player: Player) -> str:
    return "you" if player is HUMAN else "bot"


def _cell(state: State, i: int) -> Text:
    word = state.words[i]
    label = state.deal.key.label(HUMAN, i)
    marked = [p for p in Player if i in state.marks[p]]
    if i in state.covered_green:
        text = Text(word, style="strike dim")
        text.append("\n" + FOUND, style="bold green")
        return text
    if len(marked) == 2:
        text = Text(word, style="strike dim")
        text.append("\n[both missed]", style="dim")
        return text
    text = Text(word, style=_OWN_STYLE[label])
    if _OWN_TAG[label]:
        text.append("\n" + _OWN_TAG[label], style=_OWN_STYLE[label])
    for p in marked:
        text.append(f"\nmissed by {_name(p)}", style="yellow")
    return text


def render_board(state: State) -> Table:
    """The 5x5 grid with the human's side of the key card, covered words and bystander marks."""
    table = Table(show_header=False, show_lines=True, expand=False, padding=(0, 1),
                  title="The board (colours and tags: YOUR side of the key card)",
                  caption=f"untagged: a bystander on your side; your agent: still to find; {FOUND}: covered by an agent card; "
                          "missed by X: X guessed it and it was a bystander for the partner")
    for _ in range(5):
        table.add_column(min_width=12)
    for r in range(5):
        table.add_row(*(_cell(state, 5 * r + c) for c in range(5)))
    return table


def render_status(state: State) -> Text:
    """Tokens, agents found, announcements: public information plus the human's own count."""
    v = state.variant
    text = Text()
    text.append(f"Timer tokens left: {state.tokens}", style="bold")
    if v.bystander_tokens is not None:
        text.append(f" ({state.bystander_tokens} bystander side up; once those are gone a miss costs two)")
    text.append(f"   Agents found: {len(state.covered_green)} of 15")
    text.append(f"   Your agents left for the bot: {len(state.greens_left(HUMAN))}")
    rules = []
    if v.guess_cap:
        rules.append("at most number+1 guesses per turn")
    if not v.zero_clues:
        rules.append("no zero clues")
    if v.max_clues_in_a_row > 1:
        rules.append("looser turn order")
    if v.invalid_clue is InvalidCluePolicy.PENALTY:
        rules.append("invalid clue costs a token")
    if rules:
        text.append(f"\nVariant {v}: " + ", ".join(rules), style="dim")
    if state.is_done(BOT) and not state.is_over():
        text.append("\nThe bot has announced that all its agents are found: you give every clue.")
    if state.is_done(HUMAN) and not state.is_over():
        text.append("\nAll your agents are found: the bot gives every clue.")
    return text


def _history_rows(state: State) -> list[tuple[str, str, Text]]:
    """(giver, clue, guesses) per clue, plus a row for sudden-death guesses."""
    history = state.history()
    rows = []
    for k, turn in enumerate(history.turns):
        g = Text()
        for j, (word, result) in enumerate(turn.guesses):
            if j:
                g.append(", ")
            g.append(f"{word} ({_RESULT[result]})", style=_RESULT_STYLE[result])
        if k in history.passed:
            g.append(", pass" if turn.guesses else "pass", style="dim")
        clue = str(turn.clue) + (" (penalty: invalid)" if turn.penalised else "")
        rows.append((_name(turn.giver), clue, g))
    sd = history.sudden_death
    if sd:
        g = Text()
        for j, ev in enumerate(sd):
            res = GuessResult(ev.result)
            word = ev.action.word if isinstance(ev.action, Guess) else ""
            g.append((", " if j else "") + f"{_name(ev.player)}: {word} ({_RESULT[res]})",
                     style=_RESULT_STYLE[res])
        rows.append(("-", "sudden death", g))
    return rows


def render_history(state: State) -> Table | None:
    rows = _history_rows(state)
    if not rows:
        return None
    table = Table(title="Clues so far", title_justify="left", expand=False)
    table.add_column("#", justify="right")
    table.add_column("by")
    table.add_column("clue")
    table.add_column("guesses (result on the clue giver's side)")
    for k, (who, clue, guesses) in enumerate(rows, 1):
        table.add_row(str(k), who, clue, guesses)
    return table


def render_screen(state: State, history: bool = True) -> Group:
    parts: list = [render_board(state), render_status(state)]
    table = render_history(state) if history else None
    if table is not None:
        parts.append(table)
    return Group(*parts)


def render_key_card(state: State) -> Table:
    """Both sides of the key card, revealed at the end of the game."""
    table = Table(show_header=False, show_lines=True, title="The key card (both sides)", padding=(0, 1),
                  caption="agent = green agent, assassin = black, - = bystander")
    for _ in range(5):
        table.add_column(min_width=12)
    names = {Label.GREEN: "agent", Label.ASSASSIN: "assassin", Label.BYSTANDER: "-"}
    key = state.deal.key
    cells = []
    for i, word in enumerate(state.words):
        t = Text(word, style="bold")
        for p in Player:
            lab = key.label(p, i)
            t.append(f"\n{_name(p)} {names[lab]}", style=_OWN_STYLE[lab])
        cells.append(t)
    for r in range(5):
        table.add_row(*cells[5 * r:5 * r + 5])
    return table


def outcome_text(state: State) -> Text:
    """How the game ended, and the rule book's score on a win."""
    style = ("bold green" if state.outcome is Termination.WIN else "bold red" if state.outcome is not None else "")
    return Text(outcome_line(state), style=style)


# --- quitting and loading ------------------------------------------------------------------


class OutputError(RuntimeError):
    """The game could not be shown (stdout failed); it was saved (the message says where)."""


def load_game(path: Path) -> State:
    """A saved game's state (replayed from its record, sudden-death alternation included)."""
    return load_saved(path)[0]

# --- the game loop -------------------------------------------------------------------------


class Session:
    """The person at the terminal (player A) as a player of the one game loop
    (:func:`duetbot.harness.play`), and what the terminal shows of the game.

    The session plays both of the person's roles (:meth:`give_clue`, :meth:`guess`): it reads
    answers through ``ask`` (``quit``, ``hint`` and ``help`` are handled here) and, when the
    rules refuse an answer, says why and asks again (:meth:`refused`). :meth:`observe` shows
    every applied action, the bot's and the person's, and the announcements (a player done,
    turn over, sudden death).
    """

    def __init__(self, state: State, bot: Partner, console: Console, ask: Ask, *,
                 hints: bool = False, spec: PartnerSpec | None = None) -> None:
        self.state = state
        self.spec = spec
        self.bot = bot
        self.console = console
        self.ask = ask
        self.hints = hints
        self.reader = Reader(ask, self.say, self.error, hints=hints, spec=spec)
        self.player: Partner[SpymasterView, GuesserView] = Partner(self, self, "you")  # both of A's roles
        self._shown = -1
        self._announced = {p: state.is_done(p) for p in Player}
        self._sd_announced = state.phase is Phase.SUDDEN_DEATH and state.sudden_death_guesses > 0
        self._clue_shown = False
        self._told = -1  # the clue (number of turns) whose guessing was last introduced
        self._phase = state.phase

    # --- output helpers -----------------------------------------------------------------------
    def say(self, message: str | Text, style: str | None = None) -> None:
        self.console.print(message, style=style, soft_wrap=True, markup=False, highlight=False)

    def error(self, message: str) -> None:
        """One line, then the caller asks again."""
        self.say(f"  x {message}", style="yellow")

    def show(self, history: bool = True) -> None:
        """Show the board and status (and the clue history) if something happened since the last time."""
        if self._shown != len(self.state.events):
            self.console.print()
            self.console.print(render_screen(self.state, history))
            self._shown = len(self.state.events)

    def read(self, prompt: str, view: SpymasterView | GuesserView) -> str:
        """One answer (:class:`~duetbot.cli.common.Reader`: ``quit``, ``hint`` and ``help`` are
        handled there)."""
        return self.reader.read(prompt, view)

    # --- the loop -------------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game is over; raises :class:`QuitGame` when the person stops and
        :class:`~duetbot.harness.BotError` when the bot plays what the rules refuse."""
        if self.state.phase is Phase.SUDDEN_DEATH and not self._sd_announced:
            self.announce_sudden_death()
        harness.play(self.state, (self.player, self.bot), observe=self.observe)

    def observe(self, st: State, event: Event[Player]) -> None:
        """Show what ``event`` did, then what it led to."""
        action, human = event.action, event.player is HUMAN
        if isinstance(action, Clue):
            if human:
                if event.result == "penalty":
                    self.say(f"Penalty: '{action.word}' breaks the clue rules ({CLUE_RULE}); one timer token "
                             f"is discarded ({st.tokens} left) and the bot guesses as if it were valid.",
                             style="bold yellow")
                self.say(f"You give the clue {action}. The bot guesses.")
            else:
                penalty = " (an invalid clue: one timer token discarded)" if event.result == "penalty" else ""
                self.say(f"The bot's clue: {action}{penalty}", style="bold")
        elif isinstance(action, EndTurn):
            self.say("You end the turn." if human else "The bot ends its turn.")
        else:
            result = GuessResult(event.result)
            word = st.deal.words[st.deal.index(action.word)]
            mine = {GuessResult.GREEN: "an agent! The bot covers it.",
                    GuessResult.BYSTANDER: "a bystander. The bot marks it.",
                    GuessResult.ASSASSIN: "an ASSASSIN!"}
            bots = {GuessResult.GREEN: "an agent on your side: covered.",
                    GuessResult.BYSTANDER: "a bystander on your side: you mark it.",
                    GuessResult.ASSASSIN: "an ASSASSIN on your side!"}
            self.say(f"You guess {word}: {mine[result]}" if human else f"The bot guesses {word}: {bots[result]}",
                     style=_RESULT_STYLE[result])
        for p in Player:
            if st.is_done(p) and not self._announced[p] and not st.is_over():
                self._announced[p] = True
                if p is BOT:
                    self.say("The bot announces: all its agents are found. You give every remaining clue.",
                             style="bold")
                else:
                    self.say("All your agents are found. The bot gives every remaining clue.", style="bold")
        if self._phase is Phase.GUESS and st.phase in (Phase.CLUE, Phase.SUDDEN_DEATH):
            self.say(f"Turn over. Timer tokens left: {st.tokens}.")
        if st.phase is Phase.SUDDEN_DEATH and not self._sd_announced:
            self.announce_sudden_death()
        self._phase = st.phase

    def announce_sudden_death(self) -> None:
        self._sd_announced = True
        st = self.state
        movers = st.to_move()
        first = st.mover()
        who = ("the bot guesses first, then you, one word each in turn" if len(movers) == 2 and first is BOT
               else "you guess first, then the bot, one word each in turn" if len(movers) == 2
               else "only you still have agents to find: you guess" if movers[0] is HUMAN
               else "only the bot still has agents to find: it guesses")
        self.say("")
        self.say("SUDDEN DEATH: the timer tokens are gone. No more clues; guess one word at a time "
                 f"from the clues already given. Any word that is not an agent loses the game. Now {who}.",
                 style="bold red")

    def give_clue(self, view: SpymasterView) -> Clue:
        self.show()
        text = ""
        while True:
            text = text or self.read(CLUE_PROMPT, view)
            if not text:
                self.error("type a clue: one word and a number, e.g. 'ocean 2' ('quit' saves and stops)")
                continue
            try:
                clue = parse_clue(text)
            except ValueError as exc:
                self.error(str(exc))
                text = ""
                continue
            instead = self.reader.confirm(self.bot, clue, self.state.visible_words(), view)
            if instead is None:
                return clue
            text = instead

    def guess(self, view: GuesserView) -> Guess | EndTurn:
        st = self.state
        sudden = view.sudden_death
        turn = st.current_turn
        # mid-turn: the board is enough (but a resumed game shows its history once)
        self.show(history=turn is None or not turn.guesses or not self._clue_shown)
        if turn is not None and self._told != len(st.turns):  # once per clue
            self._told = len(st.turns)
            left = view.guesses_left
            if not turn.guesses:
                cap = f" (at most {left} guesses)" if left is not None else ""
                self.say(f"Guess on the bot's clue {turn.clue}{cap}, one word at a time.")
            elif not self._clue_shown:  # resumed mid-turn
                cap = f" (at most {left} more guesses)" if left is not None else ""
                self.say(f"You are guessing on the bot's clue {turn.clue}{cap}; so far: "
                         f"{', '.join(word for word, _ in turn.guesses)}.")
        self._clue_shown = True
        while True:
            text = self.read(SUDDEN_DEATH_PROMPT if sudden or turn is None else guess_prompt(turn.clue), view)
            if not text:
                self.error("type a word from the board" + ("" if sudden else ", or 'pass' to end the turn"))
                continue
            if text.casefold() != "pass":
                return Guess(text)
            if sudden:
                self.error("no passing in sudden death: guess a word, or 'quit' to save and stop")
            elif not view.correct_this_turn:
                self.error("you can pass only after a correct guess this turn; guess a word first")
            else:
                return EndTurn()

    def refused(self, action: Clue | Guess | EndTurn, exc: ValueError) -> None:
        """The rules refused the person's answer: say why (the loop then asks again)."""
        if isinstance(exc, IllegalClueError):
            self.error(f"{exc} ({CLUE_RULE}); give another clue")
        elif isinstance(exc, UnknownBoardWordError) and isinstance(action, Guess):
            self.error(f"'{action.word}' is not a word on this board; type one of the words shown")
        else:
            self.error(str(exc))


def run_game(state: State, bot: Partner, console: Console, ask: Ask, *, save_path: Path,
             hints: bool = False, spec: PartnerSpec | None = None) -> bool:
    """Play on; True when the game ended, False when the human quit (the game is then saved).

    Raises :class:`SaveError` if saving fails and :class:`~duetbot.harness.BotError` (after
    saving) if the bot plays an illegal action.
    """
    session = Session(state, bot, console, ask, hints=hints, spec=spec)
    try:
        session.run()
    except (QuitGame, KeyboardInterrupt):  # the state is consistent between actions
        save_game(state, save_path, bot.name, spec.label if spec is not None else None)
        console.print(f"Game saved to {save_path}. Continue it with: duetbot play --resume {save_path}",
                      soft_wrap=True, markup=False, highlight=False)
        return False
    except BotError:
        save_game(state, save_path, bot.name, spec.label if spec is not None else None)
        raise
    except OSError as exc:  # the terminal cannot be written (a full disk, a closed pipe): keep the game
        save_game(state, save_path, bot.name, spec.label if spec is not None else None)
        raise OutputError(f"cannot write to the terminal: {exc.strerror or exc}; the game was saved to "
                          f"{save_path}: continue it with duetbot play --resume {save_path}") from None
    save_game(state, save_path, bot.name, spec.label if spec is not None else None)  # finished: seen as over
    show_end(state, console)
    console.print(f"The finished game is saved in {save_path}.", soft_wrap=True, markup=False, highlight=False)
    return True


def show_end(state: State, console: Console) -> None:
    console.print()
    console.print(render_board(state))
    console.print(outcome_text(state), soft_wrap=True)
    console.print(render_key_card(state))


# --- a person's profile across games --------------------------------------------------------


@dataclass
class PlayerProfile:
    """``--profile NAME``: the bot starts from what it learnt of this person and keeps what it
    learns when a game ends (:mod:`duetbot.bots.profile`), in a JSON file beside the save."""

    path: Path
    profile: Profile

    @classmethod
    def open(cls, name: str, directory: Path) -> PlayerProfile:
        from ..bots.profile import Profile, check_name

        path = directory / f"duetbot-profile-{check_name(name)}.json"
        if not path.exists():
            return cls(path, Profile(name))
        try:
            return cls(path, Profile.from_json(read_json_file(path), str(path)))
        except JSONInputError as exc:
            raise ValueError(f"{exc}; delete it to start afresh") from None

    def greeting(self) -> str:
        if not self.profile.games:
            return f"Profile {self.profile.name}: new; the bot keeps what it learns of you in {self.path}."
        return f"Profile {self.profile.name}: the bot starts from what it learnt of you in {self.profile.games} game(s)."

    def start(self, bot: Partner) -> Partner:
        from ..bots.profile import with_profile

        return with_profile(bot, self.profile)

    def finish(self, bot: Partner, state: State) -> str:
        """Learn from the finished game and save; one line for the person."""
        from ..bots.profile import learnt
        from ..views import guesser_view, spymaster_view

        self.profile = learnt(self.profile, bot, spymaster_view(state, BOT), guesser_view(state, BOT))
        try:
            write_json_file(self.path, self.profile.to_json())
        except OSError as exc:
            return f"Could not save profile {self.profile.name} to {self.path}: {exc.strerror or exc}"
        return f"Profile {self.profile.name} saved to {self.path} ({self.profile.games} game(s))."


# --- one move per call: duetbot play --move ------------------------------------------------
# The face of duetbot.saves.moves.play_moves: what happened (told as Session tells it), what
# the person sees and the move expected next; a refused move is one line, exit 2, nothing saved.


def _no_prompt(prompt: str) -> str:
    raise RuntimeError("--move reads no input")  # pragma: no cover - the session only observes


def next_move_lines(state: State, path: Path) -> list[str]:
    """What the person must do next, and the command that does it (lines of at most 80
    columns, save for a long path)."""
    move = expected_move(state)
    play = f"  Play it: duetbot play --resume {path} --move"
    if move.kind == "clue":
        return ["Your move: Give a clue (WORD NUMBER)", f'{play} "OCEAN 2"']
    several = '  Several guesses in one call: --move "WORD, WORD" (stops at the first miss).'
    if move.kind == "sudden death":
        return ["Your move: Guess one word (sudden death: no clues, no passing, any word",
                "  that is not an agent loses)", f"{play} WORD"]
    assert move.clue is not None
    lines = [f"Your move: Guess on {move.clue.word.upper()} {move.clue.number}: a word, or pass"
             + ("" if move.can_pass else " (after a correct guess)")]
    if move.guessed:
        lines.append(f"  Guessed on it so far: {', '.join(move.guessed)}.")
    if move.guesses_left is not None:
        lines.append(f"  At most {move.guesses_left} more guess(es) on it.")
    return [*lines, f"{play} WORD", several]


def run_moves(state: State, bot: Partner, moves: list[str], *, save_path: Path, spec: PartnerSpec,
              console: Console, insist: bool = False) -> bool:
    """Play the person's ``moves`` and the bot's reply, show the situation, save; True when
    the game ended in this call. Fails (exit 2, nothing saved) on a refused move."""
    moves = split_moves(moves) or ["show"]
    was_over = state.is_over()
    session = Session(state, bot, console, _no_prompt, spec=spec)
    label = spec.label if spec is not None else None
    try:
        report = play_moves(state, bot, moves, insist=insist, observe=session.observe)
    except GameOver:
        fail(f"the game in {save_path} is over ({outcome_line(state)}); start a new one with "
             f"duetbot play --save NEW-FILE --move show")
    except UnknownClueWord as exc:
        fail(f"{exc} Give it anyway with --insist, or give another clue; nothing was played")
    except MoveError as exc:
        fail(f"{exc}; nothing was played, the game in {save_path} is unchanged")
    except BotError as exc:
        _save_moved(state, save_path, bot, label)
        fail(f"{exc}; the game was saved to {save_path}", code=1)
    except OSError as exc:  # stdout cannot be written (a closed pipe): keep what was played
        _save_moved(state, save_path, bot, label)
        quiet_stdout()
        fail(f"cannot write to the terminal: {exc.strerror or exc}; the game was saved to {save_path}", code=1)
    if report.events or not save_path.exists():
        _save_moved(state, save_path, bot, label)
    if report.skipped:
        console.print(f"Not played (your turn ended before them): {', '.join(report.skipped)}.",
                      soft_wrap=True, markup=False, highlight=False)
    console.print()
    if state.is_over():
        console.print(render_screen(state))
        console.print(f"Game over: {outcome_line(state)}", soft_wrap=True, markup=False, highlight=False)
        console.print(render_key_card(state))
        console.print(f"The finished game is saved in {save_path}.", soft_wrap=True, markup=False, highlight=False)
        return not was_over
    console.print(render_screen(state))
    for line in next_move_lines(state, save_path):
        console.print(line, soft_wrap=True, markup=False, highlight=False)
    return False


def _save_moved(state: State, path: Path, bot: Partner, label: str | None) -> None:
    try:
        save_game(state, path, bot.name, label)
    except SaveError as exc:
        fail(str(exc), code=1)


# --- the command ---------------------------------------------------------------------------


def play(
    seed: Annotated[Optional[int], typer.Option(show_default="random, printed", help="Deal the board from this seed.")] = None,
    variant: Annotated[Optional[str], typer.Option(metavar="VARIANT", help="standard, easy, easier, mission:N:M, seed003; add modifiers with + (cap, nozero, loose, penalty).", show_default="standard")] = None,
    words: Annotated[Optional[Path], typer.Option("--words", show_default="the shipped pool", help="Word pool file, one entry per line.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="An invalid clue costs a timer token (rule book penalty) instead of being refused.")] = False,
    hint: Annotated[bool, typer.Option("--hint", help="Allow typing 'hint' at a prompt.")] = False,
    resume: Annotated[Optional[Path], typer.Option("--resume", help="Continue a saved game.")] = None,
    save: Annotated[Optional[Path], typer.Option("--save", show_default=f"{DEFAULT_SAVE}, classic: duetbot-classic.json; on --resume its file", help="Where 'quit' saves the game.")] = None,
    game: Annotated[GameKind, typer.Option("--game", help="duet, or classic (two teams: you play for red, bots play the rest).")] = GameKind.duet,
    role: Annotated[Optional[str], typer.Option("--role", metavar="spymaster|operative", help="With --game classic: spymaster or operative of the red team (on --resume: the saved game's role).", show_default="spymaster")] = None,
    vector: Annotated[Optional[list[str]], typer.Option("--vector", metavar=VECTOR, help=VECTOR_HELP + " (repeatable; needed again on --resume).")] = None,
    partner: PartnerOption = None,
    profile: Annotated[Optional[str], typer.Option("--profile", metavar="NAME", help="Remember what the bot learns of you across games, in duetbot-profile-NAME.json beside the save (delete it to start afresh).")] = None,
    move: Annotated[Optional[list[str]], typer.Option("--move", metavar="MOVE", help="Play one move without prompts, let the bot reply, show what you see and save: 'OCEAN 2' (a clue), a word or 'pass' (a guess; several: 'CASTLE, KNIGHT' or repeat --move), or 'show'. With --resume FILE, or --save FILE for a new game.")] = None,
    insist: Annotated[bool, typer.Option("--insist", help="With --move: give a clue word the bot does not know all the same.")] = False,
) -> None:
    """Play Duet in the terminal with a bot partner: you are A, the bot is B.

    At a prompt: give a clue as a word and a number (ocean 2), guess one word at a time; pass ends your turn after a correct guess, hint asks the bot for your move (with --hint), help lists these, quit (or Ctrl-D) saves the game and leaves.
    """
    if profile is not None and game is GameKind.classic:
        fail("--profile is for Duet games: drop it with --game classic")
    if move is not None and game is GameKind.classic:
        fail("--move is for Duet games: drop --game classic")
    if game is GameKind.classic:
        from .classic import run_play

        run_play(seed=seed, role=role, variant=variant, words=words, resume=resume, save=save, hints=hint,
                 vectors=tuple(vector or ()), partner=partner)
        return
    vectors = tuple(vector or ())
    spec = partner_spec(partner, vectors)
    learner = None
    if profile is not None:
        try:
            learner = PlayerProfile.open(profile, (save or resume or Path(DEFAULT_SAVE)).parent)
        except ValueError as exc:
            fail(str(exc))
    console = GameConsole(highlight=False)
    if resume is not None:
        clash = [name for name, given in (("--seed", seed is not None), ("--variant", variant is not None),
                                          ("--words", words is not None), ("--strict", strict)) if given]
        if clash:
            fail(f"--resume continues the saved game with its own board and rules; drop {', '.join(clash)}")
        try:
            state, _, saved_partner = load_saved(resume)
        except ValueError as exc:
            fail(str(exc))
        if partner is None:  # the bots the game was saved with
            spec = partner_spec(saved_partner, vectors)
        game_seed = state.deal.seed if state.deal.seed is not None else 0
        save_path = save or resume
        check_save_path(save_path)
        with_bots = "" if spec.label == "default" else f", partner {spec.label}"
        console.print(f"Resuming {resume}: variant {state.variant}, seed {game_seed}, "
                      f"{len(state.turns)} clue(s) so far{with_bots}.", soft_wrap=True, markup=False)
    else:
        rules = parse_variant(variant or "standard")
        if strict:
            rules = replace(rules, invalid_clue=InvalidCluePolicy.PENALTY)
        pool = read_pool(words)
        check_pool(pool, spec)
        game_seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
        state = State(deal(game_seed, pool), rules)
        save_path = save or Path(DEFAULT_SAVE)
        if move is not None and save_path.exists():  # a forgotten --resume must not wipe a game
            fail(f"{save_path} already exists; continue that game with --resume {save_path}, "
                 "or start a new one with --save NEW-FILE")
        check_save_path(save_path)
        console.print(f"Codenames Duet: you are player A, your partner the bot is B. Variant {rules}, "
                      f"seed {game_seed} (deal this board again with --seed {game_seed}).",
                      soft_wrap=True, markup=False)
    if resume is not None:
        check_pool(state.deal.words, spec)
    bot = make_bot(game_seed, spec)
    if learner is not None:
        bot = learner.start(bot)
        console.print(learner.greeting(), soft_wrap=True, markup=False, highlight=False)
    if move is not None:
        if run_moves(state, bot, move, save_path=save_path, spec=spec, console=console, insist=insist) \
                and learner is not None:
            console.print(learner.finish(bot, state), soft_wrap=True, markup=False, highlight=False)
        return
    console.print("Type 'quit' at any prompt to save and stop" + (", 'hint' for a hint" if hint else "")
                  + ", 'help' for the commands.", soft_wrap=True, markup=False)
    if state.is_over():
        console.print(f"This game is over ({outcome_line(state)}); start a new one with duetbot play.",
                      soft_wrap=True, markup=False, highlight=False)
        show_end(state, console)
        return
    try:
        ended = run_game(state, bot, console, terminal_ask(console), save_path=save_path, hints=hint, spec=spec)
        if ended and learner is not None:
            console.print(learner.finish(bot, state), soft_wrap=True, markup=False, highlight=False)
    except SaveError as exc:
        fail(str(exc), code=1)
    except BotError as exc:
        fail(f"{exc}; the game was saved to {save_path}", code=1)
    except OutputError as exc:
        quiet_stdout()
        fail(str(exc), code=1)
