"""The web app's pages: server-rendered HTML; the scripts in ``static/`` bring them to life.

Every value that reaches a page is escaped here (:func:`html.escape`), and a page's initial
game state travels as JSON inside a ``<script type="application/json">`` element, with ``<``
escaped so no text of the game can end that element.
"""

from __future__ import annotations

import json
import shlex
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
<nav aria-label="Site"><a href="/">Games</a> <a href="/rules">How to play</a> <a href="/table">Table helper</a></nav></header>
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
            f'{r["clues"]} clue(s), {r["agents_found"]}/15 agents</span> '
            + (f'<span class="tag-over">over: {escape(str(r["outcome"]))}</span>' if r["over"]
               else '<span class="tag-playing">in progress</span>') + '</li>'
            for r in rows)
        saved = f'<ul class="games">{items}</ul>'
    else:
        saved = '<p class="muted">No saved games here yet.</p>'
    body = f"""
<section class="panel"><h1>Play Duet with the bot</h1>
<p>You are player A; the bot is player B. You see your side of the key card; the bot sees its own.
New to Duet? Read <a href="/rules">how to play</a> (two minutes).</p>
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


def game(state: dict[str, Any], save: Path) -> str:
    """A game's page: the clue banner, the board (words in place), the controls; ``game.js``
    renders the rest. ``save`` is the game's file, named in full so that the command to
    continue in the terminal works from any directory. Each card is a button whose label says the word and what the person
    knows of it, so the board reads aloud as it looks."""
    cards = "".join(
        f'<button class="card" data-index="{i}" type="button" tabindex="{0 if i == 0 else -1}">'
        f'<span class="word">{escape(c["word"])}</span><span class="tag" aria-hidden="true"></span>'
        '<span class="sr visually-hidden"></span></button>'
        for i, c in enumerate(state["cards"]))
    numbers = "".join(f'<option value="{n}"{" selected" if n == 2 else ""}>{n}</option>' for n in range(10))
    body = f"""
<div class="game">
<h1 class="visually-hidden">Codenames: Duet with the bot</h1>
<section class="banner" id="banner" aria-labelledby="turn">
<p class="turn" id="turn" aria-live="polite"></p>
<p class="clue-card" id="clue-card" hidden><span class="clue-by" id="clue-by"></span>
<span class="clue-word" id="clue-word-shown"></span> <span class="clue-number" id="clue-number-shown"></span></p>
<p class="banner-note" id="banner-note"></p>
</section>
<section class="status" id="status" aria-label="Timer tokens and agents"></section>
<div class="board" id="board" role="group" aria-label="The board: 25 words, coloured by your side of the key card"
 aria-describedby="board-help">{cards}</div>
<section class="controls" aria-label="Your move">
<form id="clue-form" class="clue-form" hidden>
<label for="clue-word">Your clue</label>
<input id="clue-word" name="clue" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="60"
 required aria-describedby="clue-check">
<label for="clue-number">for</label>
<select id="clue-number" name="number">{numbers}</select>
<button type="submit" id="clue-send" class="primary">Give clue</button>
<p id="clue-check" class="check" aria-live="polite"></p>
<button type="button" id="clue-anyway" hidden>Give it anyway</button>
</form>
<div id="guess-bar" class="row" hidden><span id="guess-text"></span>
<button type="button" id="pass" class="primary">End turn</button></div>
<div class="row"><button type="button" id="hint">Hint</button>
<a class="rules-link" href="/rules" target="_blank" rel="noopener">How to play</a></div>
<p id="message" class="message" role="alert"></p>
<div id="hint-box" class="hint" hidden></div>
</section>
<section id="end" class="panel end" hidden aria-labelledby="outcome"></section>
<p id="board-help" class="muted small">Arrow keys move between the cards; Enter or Space guesses the card.
Green edge: your agent (the bot must find it). Black: an assassin on your side. A cross in a corner:
a word someone guessed that was a bystander for them.</p>
<section class="panel log" aria-labelledby="log-title"><h2 id="log-title">What just happened</h2>
<ol id="turn-log" class="turn-log" aria-live="polite"></ol></section>
<section class="panel" aria-labelledby="history-title"><h2 id="history-title">Clues so far</h2>
<ol id="history" class="history"></ol></section>
<p class="muted small">Game <code>{escape(state["id"])}</code>, variant {escape(state["variant"])},
seed {escape(str(state["seed"]))}. Saved after every move; the terminal continues it with
<code>duetbot play --resume {escape(shlex.quote(str(save.resolve())))}</code>.</p>
</div>"""
    return _shell(f"Game {state['id']}", body, ["game.js"], data=state)


RULES = """
<article class="panel rules">
<h1>How to play Codenames: Duet</h1>
<p>Duet is a word game for two partners who play <em>together</em>: here you are player A and the bot is
player B. There are 25 words on the board, and 15 of them are secret agents. You win together when all 15
are found before the timer runs out.</p>

<h2>The key card has two sides</h2>
<p>Each partner sees one side of a key card. On your side, 9 words are <strong>green</strong>: those are the
agents you must lead the bot to. 3 words are <strong>assassins</strong> (black): if the bot guesses one of
them, you both lose at once. The other 13 are bystanders. The bot's side is different (some words are green
on both sides, which is why there are 15 agents and not 18), and you never see it until the game ends. The
board on your screen is coloured by your side only.</p>

<h2>A turn</h2>
<ol>
<li><strong>Give a clue</strong>: one word and a number, such as <kbd>weather 2</kbd> for STORM and
RAINBOW. The number says how many of your green words the clue is meant for (0 is allowed in the standard
rules).</li>
<li><strong>The bot guesses</strong> one word at a time. A word green on your side is covered as an agent
and it may guess again. A bystander on your side ends its turn. An assassin on your side ends the game.</li>
<li>Then the bot gives you a clue and <strong>you guess</strong> by clicking or tapping cards. Your guesses
are judged by the bot's side. You may end your turn after at least one correct guess.</li>
</ol>
<p>Clue givers alternate, so you give a clue, then the bot does, and so on.</p>

<h2>What a clue may not be</h2>
<ul>
<li>More than one word, or a word that is on the board.</li>
<li>A form of a board word (FARM when FARMER is showing) or a part of a compound on the board (EARTH when
EARTHQUAKE is showing).</li>
</ul>
<p>The page checks your clue as you type, and warns you when it is a word the bot does not know (a typo,
most likely) before the turn is spent.</p>

<h2>The timer</h2>
<p>There are 9 timer tokens (10 or 11 in the easier games). Each turn uses one: when the guesser hits a
bystander, or ends the turn on purpose. A bystander you hit is marked for you but stays on the board for the
bot, since it may be an agent on the other side; a word both of you have missed is out.</p>
<p>When all of one partner's green words are found, the other partner gives every clue from then on.</p>

<h2>Sudden death</h2>
<p>If the tokens run out with agents still hidden, there are no more clues: you and the bot take turns to
point at one word each, and any word that is not an agent loses the game.</p>

<h2>Winning and the score</h2>
<p>Find all 15 agents and you win. Your score is 3 points for every token left, 1 more for every turn that
ended on purpose rather than on a bystander, and 1 less if you needed sudden death.</p>

<h2>What the cards look like here</h2>
<ul class="legend" aria-label="Card examples">
<li><span class="card side-green"><span class="word">Storm</span><span class="tag">your agent</span></span>
green on your side: give clues for it</li>
<li><span class="card side-assassin"><span class="word">Bottle</span><span class="tag">assassin</span></span>
an assassin on your side: keep the bot away from it</li>
<li><span class="card"><span class="word">Pillow</span><span class="tag"></span></span>
a bystander on your side</li>
<li><span class="card agent"><span class="word">Camel</span><span class="tag">✓ agent</span></span>
found: an agent card covers it</li>
<li><span class="card marked-bot"><span class="word">Dragon</span><span class="tag"></span>
<span class="mark mark-bot">✗ bot</span></span> the bot guessed it and it was a bystander on your side; you may
still guess it</li>
<li><span class="card out"><span class="word">Film</span><span class="tag">out</span></span>
a bystander for both of you: out of play</li>
</ul>

<h2>On this page</h2>
<ul>
<li>Tab to the board, then use the arrow keys to move between cards and Enter or Space to guess.</li>
<li><strong>Hint</strong> asks the bot what it would do in your place.</li>
<li>Every move is saved at once: close the tab and come back whenever you like.</li>
<li>At the end the board shows both sides of the key card, and a small map of each side.</li>
</ul>
<p><a href="/">Start a game</a></p>
</article>"""


def rules() -> str:
    """How to play: the Duet rule book in brief (in our own words), and this page's controls."""
    return _shell("How to play", RULES)


def table() -> str:
    """The table helper: the board of a real game, marks, clue suggestions and guess rankings."""
    body = """<div id="table-app" class="table-app"><noscript>The table helper needs JavaScript.</noscript></div>"""
    return _shell("Table helper", body, ["table.js"], styles=["table.css"])


def missing(message: str) -> str:
    body = (f'<section class="panel"><h1>Not found</h1><p class="message">{escape(message)}</p>'
            '<p><a href="/">All games</a></p></section>')
    return _shell("Not found", body)
