"""A person's games on disk, both games, shared by ``duetbot play`` and the web app (``duetbot serve``).

A game in progress is saved as its record (:class:`~duetbot.records.GameRecord`, a classic
game's :class:`~duetbot.records.classic.ClassicRecord`; one JSON object), written atomically
after every action, so the terminal and the browser open each other's saves. This module
holds the file handling (atomic writes, a rescue copy when the path cannot be written, the
checks on a file read back), the bot a saved game is played with (the record's ``partner``
field holds its partner spec; a save older than the field names it in the bot's name), and
how a finished game is told to the person.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .. import __version__
from ..jsonio import JSONInputError, read_json_file, short
from ..records import RECORD_VERSION, GameRecord, RecordError
from ..records.classic import CLASSIC_RECORD_VERSION, ClassicRecord
from ..rules import Guess, Player, State, Termination
from ..rules.classic import ClassicState, Team

if TYPE_CHECKING:  # pragma: no cover
    from ..bots import Partner
    from ..bots.factory import PartnerSpec

__all__ = ["BOT_NAME", "CLASSIC_SAVE", "DEFAULT_SAVE", "HUMAN", "HUMAN_TEAM", "BOT", "ROLES", "SaveError",
           "SavedClassic", "SavedGame", "load_classic_saved", "load_saved", "make_bot", "outcome_line",
           "read_saved_game", "rescue_game_file", "save_classic_game", "save_game", "save_game_file",
           "write_json_file"]

HUMAN, BOT = Player.A, Player.B
"""A person plays Duet as player A, the bot as player B."""
DEFAULT_SAVE = "duetbot-game.json"
CLASSIC_SAVE = "duetbot-classic.json"
"""Where ``quit`` saves a classic game (not the Duet default, so neither overwrites the other)."""
HUMAN_TEAM = Team.RED
"""A person plays classic Codenames for the red team, in one of its two roles."""
ROLES = ("spymaster", "operative")
BOT_NAME = "duetbot"
"""The bot's name in saves; with a partner spec, ``duetbot (SPEC)``."""


class SaveError(RuntimeError):
    """A game could not be saved (the message says where and what to do)."""


def save_game_file(path: Path, record, resume_hint: str = "duetbot play --resume") -> None:
    """Write a game record (``.dumps()``) to ``path`` atomically: a crash leaves the old file
    or the new one, never half of one. If ``path`` cannot be written (a full disk, a vanished
    directory), the game is written to a new file in the temporary directory instead, so it
    is not lost. Raises :class:`SaveError` (one line: why, and where the game is) either way."""
    try:
        _write_atomic(path, record.dumps() + "\n")
        return
    except OSError as exc:
        reason = exc.strerror or str(exc)
    rescued = rescue_game_file(record)
    where = (f"it was saved to {rescued} instead: continue it with {resume_hint} {rescued}" if rescued
             else "and it could not be saved anywhere else either")
    raise SaveError(f"cannot save the game to {path}: {reason}; {where}")


def write_json_file(path: Path, value) -> None:
    """Write a JSON value to ``path`` atomically (raises ``OSError``)."""
    from ..jsonio import dumps

    _write_atomic(path, dumps(value, indent=1) + "\n")


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` through a temporary file renamed over ``path``; a path that exists
    but is not a regular file (a device such as /dev/full, a pipe) is written in place,
    never replaced."""
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
        return
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise


def rescue_game_file(record) -> Path | None:
    """Write ``record`` to a new file in the temporary directory; its path, or None."""
    import tempfile

    try:
        fd, name = tempfile.mkstemp(prefix="duetbot-game-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(record.dumps() + "\n")
        return Path(name)
    except OSError:
        return None


def read_saved_game(path: Path, game: str, default_save: str) -> dict:
    """The JSON object of a saved ``game`` ("duet" or "classic"). ``ValueError`` (one line)
    for a missing, unreadable or corrupt file, a save of the other game, and a save written by
    a newer duetbot (a ``version`` above the one this one reads)."""
    if not path.exists():
        raise ValueError(f"{path}: no saved game there; check the path (quit saves to {default_save} by default)")
    try:
        data = read_json_file(path)
    except JSONInputError as exc:
        raise ValueError(f"{path}: not a saved duetbot game ({str(exc).removeprefix(f'{path}: ')})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a saved duetbot game (not a JSON object)")
    kind = data.get("game_type", "duet")
    names = {"duet": "Duet", "classic": "classic"}
    if kind != game and kind in names:
        how = "--game classic " if kind == "classic" else ""
        raise ValueError(f"{path} is a saved {names[kind]} game, not a {names[game]} one; "
                         f"continue it with: duetbot play {how}--resume {path}")
    if kind != game:
        raise ValueError(f"{path}: not a saved duetbot game (game_type {short(kind)})")
    supported = RECORD_VERSION if game == "duet" else CLASSIC_RECORD_VERSION
    version = data.get("version", supported)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"{path}: not a saved duetbot game (version {short(version)})")
    if version > supported:
        raise ValueError(f"{path} was saved by a newer duetbot (save format {version}; this duetbot "
                         f"{__version__} reads up to {supported}); upgrade duetbot to continue it")
    return data


# --- a Duet game with the bot ----------------------------------------------------------------


def make_bot(seed: int, spec: PartnerSpec | None = None) -> Partner:
    """The bot partner (player B) for a game with this seed: the bots of ``spec`` (``--partner``;
    default: the shipped embedding bots), named ``duetbot`` or after the spec in the save."""
    from ..bots.factory import PartnerSpec

    spec = spec or PartnerSpec()
    partner = spec.build(seed)
    partner.name = BOT_NAME if spec.label == "default" else f"{BOT_NAME} ({spec.label})"
    return partner


def _partner_in_name(name: str) -> str | None:
    """The partner spec a save older than the ``partner`` field names in its bot's name
    (``duetbot (model=glove50)``), or ``None`` for the shipped bots."""
    if name.startswith(f"{BOT_NAME} (") and name.endswith(")"):
        return name[len(BOT_NAME) + 2:-1]
    return None


def _partner_field(spec_label: str | None) -> str | None:
    return None if spec_label in (None, "default") else spec_label


class SavedGame(NamedTuple):
    """A saved Duet game: its state (replayed from the record, sudden-death alternation
    included), who played each side, and the partner spec of its bot (``None``: the shipped bots)."""

    state: State
    players: dict[str, str]
    partner: str | None


def save_game(state: State, path: Path, bot_name: str = "bot", partner: str | None = None) -> None:
    """Write the game in progress as a :class:`GameRecord` (JSON), atomically; ``partner``:
    the label of the partner spec its bot was built from."""
    record = GameRecord.from_state(state, {"A": "human", "B": bot_name})
    record.partner = partner
    save_game_file(path, record)


def load_saved(path: Path) -> SavedGame:
    """A saved Duet game. ``ValueError`` (one line) for a missing, unreadable or corrupt file."""
    data = read_saved_game(path, "duet", DEFAULT_SAVE)
    try:
        record = GameRecord.from_json(data)
        state = record.replay()
    except RecordError as exc:
        raise ValueError(f"{path}: not a saved duetbot game ({exc})") from None
    except (TypeError, AttributeError, KeyError, IndexError, RecursionError) as exc:  # odd field types
        raise ValueError(f"{path}: not a saved duetbot game ({type(exc).__name__}: {exc})") from None
    partner = record.partner if "partner" in data else _partner_in_name(str(record.players.get("B", "")))
    return SavedGame(state, record.players, _partner_field(partner))


# --- a classic game with the bots ------------------------------------------------------------


class SavedClassic(NamedTuple):
    """A saved classic game: its state, the person's role in the red team, and the partner
    spec of the bots (``None``: the shipped bots)."""

    state: ClassicState
    role: str
    partner: str | None


def save_classic_game(state: ClassicState, path: Path, role: str, partner: str | None = None) -> None:
    """Write the game in progress as a :class:`ClassicRecord` (JSON), atomically. The
    ``players`` field says which role the person plays (``"human": "red spymaster"``)."""
    other = "operatives" if role == "spymaster" else "spymaster"
    record = ClassicRecord.from_state(state, {"red": f"human {role} + duetbot {other}", "blue": "duetbot",
                                              "human": f"{HUMAN_TEAM.name.lower()} {role}"})
    record.partner = partner
    save_game_file(path, record, "duetbot play --game classic --resume")


def load_classic_saved(path: Path) -> SavedClassic:
    """A saved classic game. ``ValueError`` (one line) for a missing, unreadable or corrupt
    file, and for a saved Duet game."""
    data = read_saved_game(path, "classic", CLASSIC_SAVE)
    try:
        record = ClassicRecord.from_json(data)
        state = record.replay()
    except RecordError as exc:
        raise ValueError(f"{path}: not a saved classic game ({exc})") from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:  # odd field types
        raise ValueError(f"{path}: not a saved classic game ({type(exc).__name__}: {exc})") from None
    human = str(record.players.get("human", "")).split()
    role = human[-1] if human and human[-1] in ROLES else "spymaster"
    return SavedClassic(state, role, _partner_field(record.partner))


def outcome_line(state: State) -> str:
    """How the game ended, told to player A, with the rule book's score on a win."""
    last = state.events[-1] if state.events else None
    word = last.action.word if last is not None and isinstance(last.action, Guess) else "?"
    who = ("you" if last.player is HUMAN else "bot") if last is not None else "?"
    out = state.outcome
    if out is Termination.WIN:
        score = state.score() or 0
        parts = [f"3 x {state.tokens} unused token{'s' if state.tokens != 1 else ''}"]
        if state.voluntary_ends:
            parts.append(f"+{state.voluntary_ends} for turns ended voluntarily")
        if state.sudden_death:
            parts.append("-1 for sudden death")
        verdict = (" - exceptional!" if score >= 9 else " - a commendable mission" if score > 5 else "")
        return f"You won! All 15 agents found. Score: {score} ({', '.join(parts)}){verdict}"
    if out is Termination.ASSASSIN:
        giver = "the bot's" if last is not None and last.player is HUMAN else "your"
        return f"Lost: {who} touched {word}, an assassin on {giver} side."
    if out is Termination.SUDDEN_DEATH_MISS:
        return f"Lost in sudden death: {who} touched {word}, not an agent."
    if out is Termination.MISSION_FAILED:
        return "Mission failed: a miss cost two timer tokens with only one left."
    return "The game is not over."
