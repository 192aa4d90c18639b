"""The web app's games: a person (player A) and the bot (player B) in the one game loop.

No game logic lives here. A page's action becomes the person's answer to the loop
(:class:`Person`); the loop (:func:`duetbot.harness.duet.step`) applies it through the rules and
then asks the bot until it is the person's move again. Every applied action is saved at once
as the same :class:`~duetbot.records.GameRecord` that ``duetbot play`` writes, so a reload, a
closed tab or a restarted server loses nothing, and the terminal and the browser open each
other's saves. What the page is shown is player A's: the bot's side of the key card only once
the game is over.

:class:`GameStore` keeps the games of one data directory. A game is named by an id that is
its file's stem (checked against :data:`GAME_ID`), so the client never names a path, and a
game changes only through its own id, one action at a time: an action must say which version
of the game (how many actions so far) the page showed, and a stale page or a double submit is
refused with nothing changed.
"""

from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..bots import Partner
from ..bots.spelling import UnknownClue, unknown_clue
from ..harness import BotError
from ..harness.duet import step
from ..rules import (
    Clue, EndTurn, Event, Guess, GuessResult, IllegalClueError, InvalidClueError, Phase, Player, State,
    Variant, check_clue, deal,
)
from ..saves import BOT, HUMAN, SaveError, load_saved, make_bot, outcome_line, save_game
from ..saves.moves import refusal
from ..views import guesser_view, spymaster_view

__all__ = ["GAME_ID", "BadInput", "Busy", "Game", "GameStore", "NotFound", "Stale", "WebError"]

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A game id: the stem of its save file in the data directory (``duetbot-game`` for the
default save of ``duetbot play``)."""
MAX_SEED = 2**31 - 1
HINT_CLUES = 5
"""Clues a hint offers for the person's own clue."""
HINT_GUESSES = 5
"""Words a hint ranks for the person's own guess."""


class WebError(Exception):
    """A request the app refuses with nothing changed; ``status`` is its HTTP status, ``fields``
    what the answer carries beside its ``error``."""

    status = 400
    fields: dict[str, Any] = {}


class BadInput(WebError):
    """An action or a request the rules or the API refuse (400)."""


class UnknownWord(WebError):
    """A clue word the bot does not know (a typo?): refused, so no turn is spent on noise,
    unless the action insists (``"insist": true``)."""

    def __init__(self, unknown: UnknownClue) -> None:
        super().__init__(f"{unknown} Check the spelling, or give it anyway")
        self.fields = {"unknown": True, "suggestion": unknown.suggestion}


class NotFound(WebError):
    status = 404


class Stale(WebError):
    """The page showed an older version of the game (another tab moved, or a double submit)."""

    status = 409


class Busy(WebError):
    """Another request is playing this game right now."""

    status = 409


class Person:
    """Player A's two roles in the game loop (:meth:`player`): both answer with the one action
    a page sent (the rules refuse it if it does not fit the phase)."""

    def __init__(self, action: Clue | Guess | EndTurn | None = None) -> None:
        self.action = action

    def player(self) -> Partner:
        return Partner(self, self, "human")

    def _take(self) -> Any:
        action, self.action = self.action, None
        if action is None:  # the store lets the bot move only while it is the bot's move
            raise RuntimeError("the game loop asked the person for a second answer")
        return action

    def give_clue(self, view: object) -> Any:
        return self._take()

    def guess(self, view: object) -> Any:
        return self._take()

    def refused(self, action: Clue | Guess | EndTurn, exc: ValueError) -> None:
        """The rules refused the page's action: the request fails with why (state unchanged)."""
        raise BadInput(refusal(action, exc))


_NAME = {HUMAN: "you", BOT: "bot"}


def describe(state: State, event: Event[Player]) -> str:
    """One sentence for an applied action, as the person is told it."""
    action, human = event.action, event.player is HUMAN
    if isinstance(action, Clue):
        penalty = " (invalid by the rule book: one timer token discarded)" if event.result == "penalty" else ""
        said = f"{action.word.upper()} {action.number}{penalty}"
        return f"You give the clue {said}." if human else f"The bot's clue: {said}."
    if isinstance(action, EndTurn):
        return "You end the turn." if human else "The bot ends its turn."
    word = state.deal.words[state.deal.index(action.word)]
    result = GuessResult(event.result)
    if human:
        told = {GuessResult.GREEN: "an agent!", GuessResult.BYSTANDER: "a bystander on the bot's side.",
                GuessResult.ASSASSIN: "an ASSASSIN on the bot's side!"}
        return f"You guess {word}: {told[result]}"
    told = {GuessResult.GREEN: "an agent on your side.", GuessResult.BYSTANDER: "a bystander on your side.",
            GuessResult.ASSASSIN: "an ASSASSIN on your side!"}
    return f"The bot guesses {word}: {told[result]}"


def _history(state: State) -> list[dict[str, Any]]:
    """Each clue with its guesses (results on the giver's side), then sudden death's guesses."""
    history = state.history()
    rows: list[dict[str, Any]] = [
        {"by": _NAME[t.giver], "clue": t.clue.word, "number": t.clue.number, "penalised": t.penalised,
         "guesses": [{"word": w, "result": r.value} for w, r in t.guesses], "passed": k in history.passed}
        for k, t in enumerate(history.turns)]
    sudden = history.sudden_death
    if sudden:
        rows.append({"by": "both", "clue": "sudden death", "number": None, "penalised": False, "passed": False,
                     "guesses": [{"word": ev.action.word.upper(), "result": GuessResult(ev.result).value,
                                  "by": _NAME[ev.player]} for ev in sudden if isinstance(ev.action, Guess)]})
    return rows


def public(state: State, game_id: str, said: str = "") -> dict[str, Any]:
    """What player A may know of the game, as JSON values (both key sides once it is over)."""
    key, over = state.deal.key, state.is_over()
    covered = state.covered()
    cards = []
    for i, word in enumerate(state.words):
        card: dict[str, Any] = {
            "word": word, "side": key.label(HUMAN, i).value, "agent": i in state.covered_green,
            "out": i in covered, "marked": [_NAME[p] for p in Player if i in state.marks[p]]}
        if over:
            card["bot_side"] = key.label(BOT, i).value
        cards.append(card)
    movers = () if over else state.to_move()
    you = ("wait" if HUMAN not in movers else "clue" if state.phase is Phase.CLUE
           else "sudden" if state.phase is Phase.SUDDEN_DEATH else "guess")
    turn = state.current_turn
    v = state.variant
    out: dict[str, Any] = {
        "id": game_id, "version": len(state.events), "seed": state.deal.seed, "variant": str(v),
        "cards": cards, "tokens": state.tokens, "tokens_total": v.tokens,
        "bystander_tokens": state.bystander_tokens if v.bystander_tokens is not None else None,
        "agents_found": len(state.covered_green), "your_agents_left": len(state.greens_left(HUMAN)),
        "bot_done": state.is_done(BOT), "you_done": state.is_done(HUMAN), "phase": state.phase.value,
        "you": you, "zero_clues": v.zero_clues,
        "clue": ({"word": turn.clue.word, "number": turn.clue.number, "by": _NAME[turn.giver]}
                 if turn is not None else None),
        "guesses_left": state.guesses_left(), "can_pass": you == "guess" and state.can_end_turn(),
        "history": _history(state), "said": said, "over": over,
    }
    if over:
        out["outcome"] = {"text": outcome_line(state), "result": state.outcome.value if state.outcome else None,
                          "score": state.score()}
    return out


@dataclass
class Game:
    """One game in play: its state, its bot, and the lock one action at a time holds."""

    id: str
    path: Path
    state: State
    bot: Partner
    spec: Any = None
    """The partner spec the bot was built from (its hints read with the same families)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    stamp: int = -1
    """The save's modification time when this game last read or wrote it."""

    def save(self) -> None:
        save_game(self.state, self.path, self.bot.name, self.spec.label if self.spec is not None else None)
        self.stamp = self._mtime()

    def _mtime(self) -> int:
        try:
            return self.path.stat().st_mtime_ns
        except OSError:
            return -1

    def changed_on_disk(self) -> bool:
        """Someone else wrote the save (``duetbot play --resume`` on the same file)."""
        now = self._mtime()
        return now != -1 and now != self.stamp

    def view(self) -> dict[str, Any]:
        """The page's state, with what just happened (``recent``): the person's last move and
        the bot's moves after it, as they were told, so a reloaded page still shows them."""
        events = self.state.events
        last = max((k for k, ev in enumerate(events) if ev.player is HUMAN), default=0)
        return {**public(self.state, self.id), "recent": [describe(self.state, ev) for ev in events[last:]]}


def parse_action(body: Any) -> Clue | Guess | EndTurn:
    """The person's action from a page's JSON: ``{"clue", "number"}``, ``{"guess"}`` or ``{"pass": true}``."""
    if not isinstance(body, dict):
        raise BadInput("send a JSON object: {\"clue\": WORD, \"number\": N}, {\"guess\": WORD} or {\"pass\": true}")
    if "clue" in body:
        word, number = body.get("clue"), body.get("number")
        if not isinstance(word, str) or not word.strip():
            raise BadInput("type a clue word")
        if isinstance(number, bool) or not isinstance(number, int):
            raise BadInput("choose how many words the clue is for (a number from 0 to 9)")
        try:
            return Clue(word, number)
        except (InvalidClueError, ValueError) as exc:
            raise BadInput(str(exc)) from None
    if "guess" in body:
        word = body.get("guess")
        if not isinstance(word, str) or not word.strip():
            raise BadInput("'guess' must be a word on the board")
        return Guess(word)
    if body.get("pass") is True:
        return EndTurn()
    raise BadInput("unknown action: send {\"clue\": WORD, \"number\": N}, {\"guess\": WORD} or {\"pass\": true}")


class GameStore:
    """The games of one data directory, each in ``DIR/ID.json``.

    ``spec`` and ``vectors`` are the bots new games are played with (a loaded save keeps the
    bots its record names). All bot work runs under one lock: the bots share per-board caches
    and buffers across games, and two cores gain nothing from running two at once.
    """

    def __init__(self, data: Path, spec: Any = None, vectors: Sequence[str] = ()) -> None:
        from ..bots.factory import PartnerSpec

        self.data = data
        self.vectors = tuple(vectors)
        self.spec = spec if spec is not None else PartnerSpec().describe(self.vectors)
        self._games: dict[str, Game] = {}
        self._lock = threading.Lock()  # the table of games
        self.bot_lock = threading.Lock()  # all bot work
        self._hinters: dict[Any, Any] = {}
        self._listed: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (save's mtime, its row)

    # --- finding games ---------------------------------------------------------------------

    def path(self, game_id: str) -> Path:
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise NotFound(f"no game {game_id!r}: a game id is letters, digits, - and _ (see the list of games)")
        return self.data / f"{game_id}.json"

    def get(self, game_id: str) -> Game:
        """The game with this id, read from its save the first time, and again if another
        program (the terminal) wrote the save since."""
        path = self.path(game_id)
        with self._lock:
            game = self._games.get(game_id)
            if game is not None and (game.lock.locked() or not game.changed_on_disk()):
                return game
            if not path.is_file():
                raise NotFound(f"no game {game_id!r} in {self.data.name or '.'}: start a new one")
            try:
                state, _, partner = load_saved(path)
            except ValueError as exc:
                raise BadInput(str(exc)) from None
            spec = self._saved_spec(partner)
            seed = state.deal.seed if state.deal.seed is not None else 0
            game = self._games[game_id] = Game(game_id, path, state, make_bot(seed, spec), spec)
            game.stamp = game._mtime()
        with game.lock, self.bot_lock:  # a save made while the bot was to move: let it move
            self._advance(game, [])
        return game

    def _saved_spec(self, text: str | None) -> Any:
        """The partner spec a save records (``None``: the shipped bots, played here with the
        server's own partner)."""
        from ..bots.factory import PartnerSpec, SpecError

        if text is None:
            return self.spec
        try:
            spec = PartnerSpec.parse(text).describe(self.vectors)
            spec.check()
        except (SpecError, ValueError) as exc:
            raise BadInput(f"this game was saved with the partner {text!r}, which cannot be built here: {exc}") from None
        return spec

    def listing(self) -> list[dict[str, Any]]:
        """The Duet saves in the data directory, newest first (files that are not saves are
        skipped). A file is read again only when it changed since it was last listed."""
        rows = []
        stamped = [(p.stat().st_mtime_ns, p) for p in self.data.glob("*.json") if GAME_ID.fullmatch(p.stem)]
        for mtime, path in sorted(stamped, reverse=True):
            hit = self._listed.get(path.stem)
            if hit is None or hit[0] != mtime:
                try:
                    state = load_saved(path)[0]
                except (ValueError, OSError):
                    continue
                hit = self._listed[path.stem] = (mtime, {
                    "id": path.stem, "variant": str(state.variant), "seed": state.deal.seed,
                    "clues": len(state.turns), "agents_found": len(state.covered_green), "over": state.is_over(),
                    "outcome": state.outcome.value if state.outcome else None})
            rows.append(hit[1])
        return rows

    # --- playing ---------------------------------------------------------------------------

    def new(self, variant: Any = None, seed: Any = None) -> Game:
        """Deal a new game (``variant``: as ``duetbot play --variant``; ``seed``: random if None)."""
        from ..wordpool import default_pool

        try:
            rules = Variant.parse(variant if isinstance(variant, str) and variant.strip() else "standard")
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        if seed in (None, ""):
            seed = secrets.randbelow(1_000_000)
        if isinstance(seed, str) and seed.strip().isdigit():
            seed = int(seed)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise BadInput(f"seed {seed!r}: give a whole number from 0 to {MAX_SEED}, or none for a random deal")
        state = State(deal(seed, default_pool()), rules)
        with self._lock:
            while True:
                game_id = f"game-{seed}-{secrets.token_hex(3)}"
                if game_id not in self._games and not self.path(game_id).exists():
                    break
            game = self._games[game_id] = Game(game_id, self.path(game_id), state, make_bot(seed, self.spec), self.spec)
        with game.lock, self.bot_lock:
            self._advance(game, [])  # the bot may be first to move in no variant today; saves the new game
        return game

    def act(self, game_id: str, version: Any, body: Any) -> tuple[Game, list[dict[str, Any]]]:
        """Apply the person's action, then let the bot play until it is the person's move again.

        Returns the game and one frame per applied action (what A's page shows after it, and a
        sentence saying what happened), for the page to play back card by card. Raises a
        :class:`WebError` with nothing changed when the action is refused.
        """
        action = parse_action(body)
        game = self.get(game_id)
        if not game.lock.acquire(blocking=False):
            raise Busy("this game is busy with another request (a double click?); wait for it, then reload")
        try:
            self._check_version(game, version)
            state = game.state
            if state.is_over():
                raise BadInput("the game is over; start a new one")
            if state.mover() is not HUMAN:  # the bot always moves before a request ends
                raise BadInput("it is the bot's move; reload the page")
            insist = isinstance(body, dict) and body.get("insist") is True
            if isinstance(action, Clue) and state.phase is Phase.CLUE and not insist:
                unknown = self._unknown(game, action.word)
                if unknown is not None:
                    raise UnknownWord(unknown)
            frames: list[dict[str, Any]] = []
            with self.bot_lock:
                person = Person(action)
                step(state, (person.player(), game.bot), self._recorder(game, frames))
                self._advance(game, frames, person)
            return game, frames
        finally:
            game.lock.release()

    def _recorder(self, game: Game, frames: list[dict[str, Any]]) -> Callable[[State, Event[Player]], None]:
        def observe(state: State, event: Event[Player]) -> None:
            self._save(game)
            frame = public(state, game.id, describe(state, event))
            action = event.action
            frame["event"] = {"by": _NAME[event.player],
                              "kind": "clue" if isinstance(action, Clue) else "pass" if isinstance(action, EndTurn)
                              else "guess",
                              "index": state.deal.index(action.word) if isinstance(action, Guess) else None}
            frames.append(frame)
        return observe

    def _advance(self, game: Game, frames: list[dict[str, Any]], person: Person | None = None) -> None:
        """Let the bot move until the person is to move or the game is over (saving each action)."""
        state = game.state
        observe = self._recorder(game, frames)
        person = person or Person()
        try:
            while not state.is_over() and state.mover() is BOT:
                step(state, (person.player(), game.bot), observe)
        except BotError as exc:
            self._save(game)
            raise WebError(f"the bot made an illegal move ({exc}); the game is saved") from None
        if not game.path.exists():
            self._save(game)

    def _save(self, game: Game) -> None:
        try:
            game.save()
        except SaveError as exc:
            raise WebError(str(exc)) from None

    @staticmethod
    def _check_version(game: Game, version: Any) -> None:
        now = len(game.state.events)
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadInput("the action must say which version of the game the page shows ('version')")
        if version != now:
            raise Stale(f"this page is out of date (it shows move {version}, the game is at move {now}): "
                        "reload to see the game as it is")

    # --- checking and hinting --------------------------------------------------------------

    def check_clue(self, game_id: str, word: str, number: Any) -> dict[str, Any]:
        """Would this clue be accepted now, and does the bot know the word? ``{"ok", "message",
        "unknown", "suggestion"}`` (for feedback as the person types)."""
        game = self.get(game_id)
        state = game.state
        try:
            if not word.strip():
                return {"ok": False, "message": "type one word, then choose a number"}
            normal = check_clue(word, state.visible_words())
        except IllegalClueError as exc:
            return {"ok": False, "message": f"{exc}: give another clue"}
        except (InvalidClueError, ValueError) as exc:
            return {"ok": False, "message": str(exc)}
        if number == 0 and not state.variant.zero_clues:
            return {"ok": False, "message": "zero clues are not allowed in this variant"}
        unknown = self._unknown(game, normal)
        if unknown is not None:
            return {"ok": True, "message": f"{unknown} (Give it anyway if you mean it.)", "unknown": True,
                    "suggestion": unknown.suggestion}
        return {"ok": True, "message": f"{normal.upper()} is a legal clue", "unknown": False, "suggestion": None}

    @staticmethod
    def _unknown(game: Game, word: str) -> UnknownClue | None:
        """What to tell the person if the game's bot does not know this clue word (``None``:
        it does, or the rules refuse the clue anyway and will say why)."""
        try:
            normal = check_clue(word, game.state.visible_words())
        except ValueError:
            return None
        return unknown_clue(game.bot, normal)

    def hint(self, game_id: str) -> dict[str, Any]:
        """The bot's suggestion for the person's own move, from the person's side only: the
        same answers as a ``suggest`` request of that position."""
        import msgspec

        from ..suggest.requests import clue_suggestions

        game = self.get(game_id)
        state = game.state
        if state.is_over() or HUMAN not in state.to_move():
            raise BadInput("no hint now: it is not your move")
        with self.bot_lock:
            helper = self.hinter(game.spec)
            if state.phase is Phase.CLUE:
                hint = helper.hint(spymaster_view(state, HUMAN), top=HINT_CLUES)
                return {"role": "clue", "clues": msgspec.to_builtins(clue_suggestions(list(hint.clues)))}
            hint = helper.hint(guesser_view(state, HUMAN))
            guesses = list(hint.guesses[:HINT_GUESSES])
            return {"role": "guess", "guesses": msgspec.to_builtins(guesses),
                    "stop_after": hint.stop_after, "sudden_death": hint.sudden_death,
                    "your_assassins": [g.word for g in guesses if g.word in hint.own_assassins]}

    def suggester(self) -> Any:
        """The ``suggest`` contract's dispatcher for the table helper: it reads with the
        families of the partner the server plays with (``serve --partner``), as a hint does."""
        return self.hinter(self.spec)

    def hinter(self, spec: Any) -> Any:
        """The suggester a game's hints come from: reading with the families of the partner
        the game is played with (:meth:`duetbot.suggest.Suggester.for_partner`; a save without
        a partner: the shipped bots), built once per partner."""
        from ..bots.factory import PartnerSpec
        from ..suggest import Suggester

        spec = spec if spec is not None else PartnerSpec().describe(self.vectors)
        if spec not in self._hinters:
            self._hinters[spec] = Suggester.for_partner(spec)
        return self._hinters[spec]
