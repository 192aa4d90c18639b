"""The web app's pages: server-rendered HTML; the scripts in ``static/`` bring them to life.

Every value that reaches a page is escaped here (:func:`html.escape`), and a page's initial
game state travels as JSON inside a ``<script type="application/json">`` element, with ``<``
escaped so no text of the game can end that element.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any, Sequence

from .. import __version__

VARIANTS = (
    ("standard", "Standard: 9 timer tokens"),
    ("easy", "Easy: 10 tokens"),
    ("easier", "Easier: 11 tokens"),
    ("standard+cap", "Standard, at most number+1 guesses a turn"),
    ("standard+nozero", "Standard, no zero clues"),
    ("mission:9:4", "A mission: 9 tokens, 4 bystander side up"),
)


def _shell(title: str, body: str, scripts: Sequence[str] = (), data: Any = None, styles: Sequence[str] = ()) -> str:
    blob = ("" if data is None else '<script type="application/json" id="initial">'
            + json.dumps(data).replace("<", "\\u003c") + "</script>")
    tags = "".join(f'<link rel="stylesheet" href="/static/{escape(s)}">' for s in styles)
    tags += "".join(f'<script src="/static/{escape(s)}" defer></script>' for s in scripts)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} - duetbot</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">{tags}</head>
<body><header class="top"><a class="brand" href="/">duetbot</a>
<nav><a href="/">Games</a> <a href="/table">Table helper</a></nav></header>
<main>{body}</main>{blob}
<footer>duetbot {escape(__version__)}: Codenames: Duet with a bot partner, on this computer only.</footer>
</body></html>"""


def home(rows: list[dict[str, Any]], data: Path) -> str:
    """New game (variant, seed) and the saved Duet games of the data directory."""
    options = "".join(f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in VARIANTS)
    if rows:
        items = "".join(
            f'<li><a href="/games/{escape(r["id"])}">{escape(r["id"])}</a> '
            f'<span class="muted">{escape(str(r["variant"]))}, seed {escape(str(r["seed"]))}, '
            f'{r["clues"]} clue(s), {r["agents_found"]}/15 agents'
            f'{", " + escape(str(r["outcome"])) if r["over"] else ", in progress"}</span></li>'
            for r in rows)
        saved = f'<ul class="games">{items}</ul>'
    else:
        saved = '<p class="muted">No saved games here yet.</p>'
    body = f"""
<section class="panel"><h1>Play Duet with the bot</h1>
<p>You are player A; the bot is player B. You see your side of the key card; the bot sees its own.</p>
<form id="new-game" class="row">
<label>Variant <select name="variant">{options}</select></label>
<label>or type one <input name="custom" placeholder="mission:11:2+cap" size="14" maxlength="60"></label>
<label>Seed <input name="seed" inputmode="numeric" placeholder="random" size="8" maxlength="10"></label>
<button type="submit">New game</button></form>
<p id="message" class="message" role="alert"></p></section>
<section class="panel"><h2>Saved games</h2>
<p class="muted">In {escape(str(data.resolve()))}: the same files as <code>duetbot play</code>
(continue one in the terminal with <code>duetbot play --resume FILE</code>).</p>{saved}</section>"""
    return _shell("Games", body, ["home.js"])


def game(state: dict[str, Any]) -> str:
    """A game's page: the board (words in place), the controls; ``game.js`` renders the rest."""
    cards = "".join(
        f'<button class="card" data-index="{i}" type="button"><span class="word">{escape(c["word"])}</span>'
        f'<span class="tag"></span></button>' for i, c in enumerate(state["cards"]))
    numbers = "".join(f'<option value="{n}"{" selected" if n == 2 else ""}>{n}</option>' for n in range(10))
    body = f"""
<div class="game">
<section class="status" id="status" aria-live="polite"></section>
<p id="said" class="said" aria-live="polite"></p>
<div class="board" id="board">{cards}</div>
<section class="controls">
<form id="clue-form" class="row" hidden>
<label>Your clue <input id="clue-word" name="clue" autocomplete="off" maxlength="60" required></label>
<label>for <select id="clue-number" name="number">{numbers}</select></label>
<button type="submit" id="clue-send">Give clue</button>
<span id="clue-check" class="check" aria-live="polite"></span></form>
<div id="guess-bar" class="row" hidden><span id="guess-text"></span>
<button type="button" id="pass">End turn</button></div>
<div class="row"><button type="button" id="hint">Hint</button>
<span id="wait" class="muted" hidden>The bot is thinking...</span></div>
<p id="message" class="message" role="alert"></p>
<div id="hint-box" class="hint" hidden></div>
</section>
<section id="end" class="panel end" hidden></section>
<section class="panel"><h2>Clues so far</h2><ol id="history" class="history"></ol></section>
<p class="muted">Game <code>{escape(state["id"])}</code>, variant {escape(state["variant"])},
seed {escape(str(state["seed"]))}. Saved after every move; the terminal continues it with
<code>duetbot play --resume {escape(state["id"])}.json</code>.</p>
</div>"""
    return _shell(f"Game {state['id']}", body, ["game.js"], data=state)


def table() -> str:
    """The table helper: the board of a real game, marks, clue suggestions and guess rankings."""
    body = """<div id="table-app" class="table-app"><noscript>The table helper needs JavaScript.</noscript></div>"""
    return _shell("Table helper", body, ["table.js"], styles=["table.css"])


def missing(message: str) -> str:
    body = (f'<section class="panel"><h1>Not found</h1><p class="message">{escape(message)}</p>'
            '<p><a href="/">All games</a></p></section>')
    return _shell("Not found", body)
