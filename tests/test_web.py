"""The web app (``duetbot serve``): its JSON API through Starlette's test client, whole games
in a real browser (Chromium driven by Playwright), and the command itself.

The browser tests know the bot's side of the key card by reading the game from the live
server's store, so they can play a whole game by clicks to its end.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from duetbot.cli import app as cli_app
from duetbot.records import GameRecord
from duetbot.rules import Guess, Label, Player, check_clue
from duetbot.saves import load_saved
from duetbot.web import MAX_BODY, GameStore, create_app

from .conftest import one_line_error
from .web_support import PHONE, axe_problems, free_port

A, B = Player.A, Player.B
SEED = 5
CLUES = ("animal", "music", "water", "metal", "nature", "power", "travel", "house", "food", "sport", "light",
         "money", "space", "war", "body", "king", "time", "earth", "fire", "city")
SCREENSHOTS = os.environ.get("DUETBOT_SCREENSHOTS")
"""A directory to keep the board's screenshot in (the README's picture: docs/)."""


@pytest.fixture
def client(tmp_path):
    store = GameStore(tmp_path)
    with TestClient(create_app(store)) as c:
        c.store = store  # type: ignore[attr-defined]
        yield c


def legal_clue(state) -> str:
    visible = state.visible_words()
    for word in CLUES:
        try:
            check_clue(word, visible)
            return word
        except ValueError:
            continue
    raise AssertionError("no legal clue among CLUES")


def new_game(client, **body):
    r = client.post("/api/games", json={"seed": SEED, **body})
    assert r.status_code == 201, r.text
    return r.json()


def act(client, game_id, version, **body):
    return client.post(f"/api/games/{game_id}/actions", json={"version": version, **body})


def bot_greens(store, game_id) -> list[str]:
    """The bot's greens not yet covered (what the person must find)."""
    state = store.get(game_id).state
    return [state.words[i] for i in sorted(state.greens_left(B))]


# --- the API -------------------------------------------------------------------------------


def test_new_game_shows_only_the_persons_side(client, tmp_path):
    body = new_game(client)
    st = body["state"]
    assert body["url"] == f"/games/{body['id']}" and st["seed"] == SEED and st["version"] == 0
    assert st["you"] == "clue" and st["tokens"] == 9 and not st["over"]
    state = client.store.get(body["id"]).state
    assert [c["side"] for c in st["cards"]] == [state.deal.key.label(A, i).value for i in range(25)]
    assert all("bot_side" not in c for c in st["cards"])  # nothing of the bot's side while it plays
    assert (tmp_path / f"{body['id']}.json").is_file()  # saved from the start


def test_a_clue_plays_the_bots_turn_and_saves_every_move(client, tmp_path):
    gid = new_game(client)["id"]
    state = client.store.get(gid).state
    r = act(client, gid, 0, clue=legal_clue(state), number=2)
    assert r.status_code == 200, r.text
    data = r.json()
    frames, st = data["frames"], data["state"]
    assert frames[0]["event"] == {"by": "you", "kind": "clue", "index": None}
    assert [f["version"] for f in frames] == list(range(1, len(frames) + 1))
    assert all(f["event"]["by"] == "bot" for f in frames[1:])
    assert frames[-1]["event"]["kind"] == "clue" and st["you"] == "guess" and st["clue"]["by"] == "bot"
    assert st["version"] == len(state.events)
    guesses = [f for f in frames if f["event"]["kind"] == "guess"]
    assert guesses and all(f["said"].startswith("The bot guesses") for f in guesses)
    saved, players, _ = load_saved(tmp_path / f"{gid}.json")  # the same record duetbot play writes
    assert saved.events == state.events and players == {"A": "human", "B": "duetbot"}


def test_refused_moves_change_nothing(client, tmp_path):
    gid = new_game(client)["id"]
    path = tmp_path / f"{gid}.json"
    before = path.read_bytes()
    word = client.store.get(gid).state.words[0]
    cases = [
        (dict(clue=word.lower(), number=1), 400, "visible"),  # a board word
        (dict(clue="two words", number=1), 400, "one word"),
        (dict(clue="ocean", number=12), 400, "at most 9"),
        (dict(clue="ocean"), 400, "number"),
        (dict(guess=word), 400, "clue"),  # no guessing in the clue phase
        (dict(**{"pass": True}), 400, ""),
        (dict(jump=1), 400, "unknown action"),
    ]
    for body, status, needle in cases:
        r = act(client, gid, 0, **body)
        assert r.status_code == status, (body, r.text)
        error = r.json()["error"]
        assert "\n" not in error and needle in error, (body, error)
    assert act(client, gid, 3, clue="ocean", number=1).status_code == 409  # a stale page
    assert client.post(f"/api/games/{gid}/actions", json={"clue": "ocean", "number": 1}).status_code == 400
    assert path.read_bytes() == before and client.get(f"/api/games/{gid}").json()["version"] == 0


def test_guessing_rules_through_the_api(client):
    gid = new_game(client)["id"]
    state = client.store.get(gid).state
    st = act(client, gid, 0, clue=legal_clue(state), number=1).json()["state"]
    v = st["version"]
    r = act(client, gid, v, **{"pass": True})
    assert r.status_code == 400 and "correct guess" in r.json()["error"]
    r = act(client, gid, v, guess="NOT-ON-BOARD")
    assert r.status_code == 400 and "not a word on this board" in r.json()["error"]
    covered = [c["word"] for c in st["cards"] if c["agent"]]
    if covered:
        r = act(client, gid, v, guess=covered[0])
        assert r.status_code == 400 and "covered" in r.json()["error"]
    green = bot_greens(client.store, gid)[0]
    r = act(client, gid, v, guess=green.lower())  # any case
    assert r.status_code == 200
    st = r.json()["state"]
    assert st["cards"][state.deal.index(green)]["agent"] and st["can_pass"] and st["you"] == "guess"
    assert act(client, gid, v, guess=green).status_code == 409  # the double submit


def test_a_whole_game_to_its_end_and_the_reveal(client):
    gid = new_game(client, variant="standard")["id"]
    st = play_out(client, gid)
    assert st["over"] and st["outcome"]["text"]
    assert all(c["bot_side"] in ("green", "assassin", "bystander") for c in st["cards"])
    state = client.store.get(gid).state
    assert [c["bot_side"] for c in st["cards"]] == [state.deal.key.label(B, i).value for i in range(25)]
    r = act(client, gid, st["version"], clue="ocean", number=1)
    assert r.status_code == 400 and "over" in r.json()["error"]
    if st["outcome"]["result"] == "win":
        assert st["outcome"]["score"] == state.score() and "Score" in st["outcome"]["text"]


def play_out(client, gid, limit=120):
    """Play a game to its end through the API: the person finds every bot green it can."""
    st = client.get(f"/api/games/{gid}").json()
    for _ in range(limit):
        if st["over"]:
            return st
        state = client.store.get(gid).state
        if st["you"] == "clue":
            r = act(client, gid, st["version"], clue=legal_clue(state), number=1)
        else:
            greens = bot_greens(client.store, gid)
            r = act(client, gid, st["version"], guess=greens[0]) if greens else None
            if r is not None and r.json().get("error", "").startswith("'"):
                r = None
            if r is None:
                r = act(client, gid, st["version"], **{"pass": True})
        assert r.status_code == 200, r.text
        st = r.json()["state"]
    raise AssertionError("the game did not end")


def test_hint_and_clue_check(client):
    gid = new_game(client)["id"]
    state = client.store.get(gid).state
    board_word = state.words[3]
    bad = client.get(f"/api/games/{gid}/check", params={"clue": board_word.lower(), "number": "1"}).json()
    assert bad["ok"] is False and board_word in bad["message"]
    ok = client.get(f"/api/games/{gid}/check", params={"clue": "ocean", "number": "2"}).json()
    assert ok == {"ok": True, "message": "OCEAN is a legal clue", "unknown": False, "suggestion": None}
    hint = client.get(f"/api/games/{gid}/hint").json()
    mine = {state.words[i] for i in state.greens_left(A)}
    assert hint["role"] == "clue" and hint["clues"]
    assert all(set(c["targets"]) <= mine for c in hint["clues"])
    st = act(client, gid, 0, clue=legal_clue(state), number=1).json()["state"]
    hint = client.get(f"/api/games/{gid}/hint").json()
    guessable = {c["word"] for c in st["cards"] if not c["out"] and not c["agent"] and "you" not in c["marked"]}
    assert hint["role"] == "guess" and {g["word"] for g in hint["guesses"]} <= guessable
    assert hint["stop_after"] >= 1
    mine_assassins = {c["word"] for c in st["cards"] if c["side"] == "assassin"}
    assert hint["your_assassins"] == [g["word"] for g in hint["guesses"] if g["word"] in mine_assassins]


def test_a_clue_word_the_bot_does_not_know_is_asked_about_first(client, tmp_path):
    gid = new_game(client)["id"]
    path = tmp_path / f"{gid}.json"
    before = path.read_bytes()
    check = client.get(f"/api/games/{gid}/check", params={"clue": "oceon", "number": "2"}).json()
    assert check["ok"] and check["unknown"] and check["suggestion"] == "ocean"
    assert check["message"].startswith("OCEON: not a word I know. Did you mean OCEAN?")
    nonsense = client.get(f"/api/games/{gid}/check", params={"clue": "xkcdqq", "number": "2"}).json()
    assert nonsense["unknown"] and nonsense["suggestion"] is None
    r = act(client, gid, 0, clue="oceon", number=2)  # refused: the turn is not spent
    assert r.status_code == 400 and r.json()["unknown"] and r.json()["suggestion"] == "ocean"
    assert "OCEON: not a word I know. Did you mean OCEAN?" in r.json()["error"] and path.read_bytes() == before
    r = act(client, gid, 0, clue="oceon", number=2, insist=True)  # the person means it
    assert r.status_code == 200 and r.json()["frames"][0]["said"] == "You give the clue OCEON 2."


def test_unknown_ids_never_reach_a_path(client, tmp_path):
    (tmp_path.parent / "secret.json").write_text("{}")
    for bad in ("nope", "..", "..%2Fsecret", "a.b", "x" * 65):
        r = client.get(f"/api/games/{bad}")
        assert r.status_code == 404, bad
        assert "error" in r.json()
    assert client.get("/games/nope").status_code == 404
    assert client.get("/api/nothing").status_code == 404


def test_bodies_must_be_small_json(client):
    r = client.post("/api/games", content=b'{"seed": 1}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 415  # a cross-site form cannot post JSON without asking first
    r = client.post("/api/games", content=b"x" * (MAX_BODY + 1), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    for body, needle in (({"variant": "nonsense"}, "nonsense"), ({"seed": -3}, "seed"), ({"seed": "x"}, "seed"),
                         ([1, 2], "JSON object")):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and needle in r.json()["error"], (body, r.text)
    assert client.put("/api/games").status_code == 405


def test_a_local_app_answers_only_its_local_names(tmp_path):
    with TestClient(create_app(GameStore(tmp_path), ["127.0.0.1", "localhost"]), base_url="http://127.0.0.1:8000") as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"Host": "localhost:8000"}).status_code == 200
        r = c.post("/api/games", json={"seed": 1}, headers={"Host": "rebound.example.com"})
        assert r.status_code == 400 and not list(tmp_path.iterdir())  # nothing dealt, nothing saved


def test_busy_game_refuses_a_second_request(client):
    gid = new_game(client)["id"]
    game = client.store.get(gid)
    with game.lock:
        r = act(client, gid, 0, clue="ocean", number=1)
    assert r.status_code == 409 and "busy" in r.json()["error"]


def test_a_restarted_server_and_the_terminal_open_the_same_saves(client, tmp_path, monkeypatch):
    gid = new_game(client)["id"]
    state = client.store.get(gid).state
    st = act(client, gid, 0, clue=legal_clue(state), number=1).json()["state"]
    with TestClient(create_app(GameStore(tmp_path))) as fresh:  # a restarted server
        again = fresh.get(f"/api/games/{gid}").json()
    assert again == st
    # the terminal continues the browser's game ...
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli_app, ["play", "--resume", f"{gid}.json"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"{len(state.turns)} clue(s) so far" in result.output
    # ... and the browser opens the terminal's
    result = CliRunner().invoke(cli_app, ["play", "--seed", "9"], input="quit\n")
    assert result.exit_code == 0, result.output
    with TestClient(create_app(GameStore(tmp_path))) as fresh:
        listing = fresh.get("/api/games").json()["games"]
        assert {"duetbot-game", gid} <= {g["id"] for g in listing}
        played = fresh.get("/api/games/duetbot-game").json()
        assert played["seed"] == 9 and played["you"] == "clue"
        assert "duetbot-game" in fresh.get("/").text and fresh.get("/games/duetbot-game").status_code == 200


def test_a_save_written_by_the_terminal_meanwhile_is_read_again(client, tmp_path, monkeypatch):
    gid = new_game(client)["id"]
    state = client.store.get(gid).state
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli_app, ["play", "--resume", f"{gid}.json"], input=f"{legal_clue(state)} 1\nquit\n")
    assert result.exit_code == 0, result.output
    on_disk = load_saved(tmp_path / f"{gid}.json")[0]
    assert on_disk.events and client.get(f"/api/games/{gid}").json()["version"] == len(on_disk.events)
    assert act(client, gid, 0, clue="ocean", number=1).status_code == 409  # the page from before is stale


def test_listing_skips_files_that_are_not_saves(client, tmp_path):
    gid = new_game(client)["id"]
    (tmp_path / "notes.json").write_text('{"hello": 1}')
    (tmp_path / "broken.json").write_text("{")
    (tmp_path / "bad name!.json").write_text("{}")
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [gid]
    r = client.get("/api/games/broken")
    assert r.status_code == 400 and "not a saved duetbot game" in r.json()["error"]


def test_pages_escape_what_they_show(client):
    gid = new_game(client)["id"]
    html = client.get(f"/games/{gid}").text
    start = html.index('<script type="application/json" id="initial">') + len('<script type="application/json" id="initial">')
    state = json.loads(html[start:html.index("</script>", start)])
    assert state["id"] == gid and len(state["cards"]) == 25
    for path in ("/static/game.js", "/static/style.css", "/static/home.js", "/static/table.js", "/static/icon.svg"):
        assert client.get(path).status_code == 200, path
    assert "http" not in "".join(client.get(p).text for p in ("/", f"/games/{gid}", "/table", "/rules")).replace(
        "http-equiv", "")  # nothing loaded from elsewhere


def test_how_to_play_is_linked_from_every_page(client):
    rules = client.get("/rules")
    assert rules.status_code == 200
    for heading in ("The key card has two sides", "A turn", "What a clue may not be", "The timer", "Sudden death",
                    "Winning and the score"):
        assert f"<h2>{heading}</h2>" in rules.text
    gid = new_game(client)["id"]
    for path in ("/", f"/games/{gid}", "/table", "/nowhere"):
        assert 'href="/rules"' in client.get(path).text, path


# --- in a real browser ---------------------------------------------------------------------


def wait_idle(pg, version=None):
    """Wait until the page shows a version other than ``version`` and is not busy."""
    pg.wait_for_function(
        "v => document.body.dataset.busy === 'false' && document.body.dataset.version !== v",
        arg=str(version) if version is not None else "", timeout=30_000)


def click_card(pg, word):
    pg.locator("#board .card", has_text=word).first.click()


def start_game(pg, seed=SEED):
    pg.goto(pg.server.url + "/")
    pg.fill("input[name=seed]", str(seed))
    pg.click("#new-game button")
    pg.wait_for_selector("#clue-form:not([hidden])")
    wait_idle(pg)
    return pg.url.rsplit("/", 1)[1]


def give_clue(pg, word, number=1):
    version = pg.evaluate("document.body.dataset.version")
    pg.fill("#clue-word", word)
    pg.select_option("#clue-number", str(number))
    pg.click("#clue-send")
    wait_idle(pg, version)


def test_browser_whole_game_by_clicks(page, tmp_path):
    page.emulate_media(reduced_motion="reduce")
    gid = start_game(page, seed=6)  # a game that goes to sudden death
    store = page.server.store
    assert page.locator("#board .card").count() == 25
    assert page.locator("#board .card.side-green").count() == 9  # the person's side colours the board
    shot = False
    for _ in range(120):
        state = store.get(gid).state
        if state.is_over():
            break
        version = page.evaluate("document.body.dataset.version")
        if page.locator("#clue-form").is_visible():
            give_clue(page, legal_clue(state))
            if not shot and SCREENSHOTS:
                page.screenshot(path=str(Path(SCREENSHOTS) / "web-board.png"), full_page=True)
            shot = True
            continue
        greens = bot_greens(store, gid)
        if greens:
            click_card(page, greens[0])
        else:
            page.click("#pass")
        wait_idle(page, version)
    page.wait_for_selector("#end:not([hidden])")
    assert store.get(gid).state.is_over()
    assert page.locator("#outcome").inner_text().strip()
    assert page.locator("#board .bot-side").count() == 25  # the key card's other side is revealed
    state = store.get(gid).state
    label = page.locator("#board .card").first.inner_text().lower()
    assert "bot:" in label
    bot_sides = [state.deal.key.label(B, i).value for i in range(25)]
    assert page.eval_on_selector_all("#end .keyside:last-child .key", "ks => ks.map(k => k.className.slice(8))") == bot_sides
    page.click("#end button[data-reveal=bot]")  # colour the board by the bot's side
    assert page.eval_on_selector_all("#board .card", "cs => cs.map(c => c.className.match(/side-(\\w+)/)[1])") == bot_sides
    assert "you:" in page.locator("#board .card").first.inner_text().lower()
    assert axe_problems(page) == []
    assert page.locator("#clue-form").is_hidden() and page.locator("#guess-bar").is_hidden()
    assert store.get(gid).state.sudden_death and "sudden death" in page.inner_text("#history").lower()


def test_browser_reload_mid_game_loses_nothing(page):
    page.emulate_media(reduced_motion="reduce")
    gid = start_game(page)
    store = page.server.store
    give_clue(page, legal_clue(store.get(gid).state))
    history = page.locator("#history li").all_inner_texts()
    tokens = page.get_attribute("#tokens", "data-tokens")
    page.reload()
    wait_idle(page)
    assert page.locator("#history li").all_inner_texts() == history
    assert page.get_attribute("#tokens", "data-tokens") == tokens
    assert page.locator("#guess-bar").is_visible()
    version = page.evaluate("document.body.dataset.version")
    click_card(page, bot_greens(store, gid)[0])
    wait_idle(page, version)
    assert store.get(gid).state.covered_green  # the click after the reload counted


def test_browser_bad_input_changes_nothing(page, browser):
    page.emulate_media(reduced_motion="reduce")
    gid = start_game(page)
    store = page.server.store
    state = store.get(gid).state
    word = state.words[0]
    page.fill("#clue-word", word.lower())
    page.wait_for_selector("#clue-check.bad")
    assert word in page.inner_text("#clue-check")
    assert page.is_disabled("#clue-send")  # an illegal clue cannot be sent ...
    page.press("#clue-word", "Enter")
    page.wait_for_timeout(200)
    assert not state.events and page.inner_text("#message") == ""  # ... and its error is shown once
    # the server's refusal (the check not back yet) is shown in the same one place
    page.evaluate("(w) => { document.getElementById('clue-word').value = w; "
                  "document.getElementById('clue-form').requestSubmit(); }", word.lower())
    page.wait_for_selector("#clue-check.bad")
    assert "visible" in page.inner_text("#clue-check") and page.inner_text("#message") == "" and not state.events
    # a second tab moves the game on; the first, now stale, is told to reload and changes nothing
    other = page.context.new_page()
    other.emulate_media(reduced_motion="reduce")
    other.goto(page.url)
    wait_idle(other)
    give_clue(other, legal_clue(state))
    moves = len(state.events)
    page.fill("#clue-word", "ocean")
    page.click("#clue-send")
    page.wait_for_selector("#message a")
    message = page.inner_text("#message")
    assert "out of date" in message and message.endswith("as it is. Reload the page") and len(state.events) == moves
    other.close()
    # a double click on a card is one guess
    page.reload()
    wait_idle(page)
    green = bot_greens(store, gid)[0]
    before = len(state.events)
    page.locator("#board .card", has_text=green).first.dblclick()
    wait_idle(page, str(before))
    page.wait_for_timeout(300)
    assert len([e for e in state.events[before:] if e.player is A]) == 1
    # an unknown game is a page saying so
    response = page.goto(page.server.url + "/games/no-such-game")
    assert response.status == 404 and "no game" in page.inner_text("main")


def test_browser_hint(page):
    page.emulate_media(reduced_motion="reduce")
    start_game(page)
    page.click("#hint")
    page.wait_for_selector("#hint-box:not([hidden]) li")
    first = page.locator("#hint-box button[data-clue]").first
    clue = first.get_attribute("data-clue")
    first.click()
    assert page.input_value("#clue-word") == clue
    page.wait_for_selector("#clue-check.ok")


def test_browser_guess_hint_names_your_assassins(page):
    """The guess hint names the person's own assassins, as the terminal's does: the server's
    answer is routed to put one of them in the list, whatever the bot would rank."""
    page.emulate_media(reduced_motion="reduce")
    gid = start_game(page)
    give_clue(page, legal_clue(page.server.store.get(gid).state))
    state = page.server.store.get(gid).state
    own = [state.words[i] for i, lab in enumerate(state.deal.key.side(A)) if lab is Label.ASSASSIN and i in state.guessable(A)]
    other = next(state.words[i] for i in state.guessable(A) if state.words[i] not in own)
    guesses = [{"word": w, "score": 0.5, "p_green": 0.4, "p_assassin": 0.1} for w in (own[0], other)]
    page.route("**/hint", lambda route: route.fulfill(json={"role": "guess", "guesses": guesses, "stop_after": 1,
                                                            "sudden_death": False, "your_assassins": [own[0]]}))
    page.click("#hint")
    page.wait_for_selector("#hint-box:not([hidden]) li")
    items = page.locator("#hint-box li").all_inner_texts()
    assert items[0].startswith(own[0]) and items[0].endswith(", your assassin")
    assert items[1].startswith(other) and "your assassin" not in items[1]


def test_browser_a_typo_is_caught_before_the_turn_is_spent(page):
    page.emulate_media(reduced_motion="reduce")
    gid = start_game(page)
    state = page.server.store.get(gid).state
    page.fill("#clue-word", "oceon")
    page.wait_for_selector("#clue-check.warn")
    assert "OCEON: not a word I know. Did you mean OCEAN?" in page.inner_text("#clue-check")
    page.click("#clue-check button[data-suggestion]")  # take the suggestion
    page.wait_for_selector("#clue-check.ok")
    assert page.input_value("#clue-word") == "ocean" and page.is_hidden("#clue-anyway")
    # sent before the check is back: the server asks too, and nothing is spent
    page.evaluate("() => { document.getElementById('clue-word').value = 'xkcdqq'; "
                  "document.getElementById('clue-form').requestSubmit(); }")
    page.wait_for_selector("#clue-check.warn")
    assert "XKCDQQ: not a word I know" in page.inner_text("#clue-check") and not state.events
    version = page.evaluate("document.body.dataset.version")
    page.click("#clue-anyway")  # the person insists
    wait_idle(page, version)
    assert state.turns[0].clue.word == "xkcdqq"


def test_browser_every_page_passes_axe(page, phone_page):
    """axe-core finds no serious or critical problem on any page, on a desktop and a phone,
    in each phase of a game (the end is checked by the whole game above)."""
    for pg in (page, phone_page):
        pg.emulate_media(reduced_motion="reduce")
        for path in ("/", "/rules", "/table", "/games/no-such-game"):
            pg.goto(pg.server.url + path)
            assert axe_problems(pg) == [], path
        gid = start_game(pg)
        assert axe_problems(pg) == [], "clue turn"
        pg.fill("#clue-word", "xkcdqq")
        pg.wait_for_selector("#clue-check.warn")
        assert axe_problems(pg) == [], "unknown clue word"
        give_clue(pg, legal_clue(pg.server.store.get(gid).state))
        assert pg.locator("#guess-bar").is_visible()
        pg.click("#hint")
        pg.wait_for_selector("#hint-box:not([hidden]) li")
        assert axe_problems(pg) == [], "guess turn with a hint"
    page.locator("#board .card").first.click()  # a guess: marks and covered cards
    wait_idle(page)
    assert axe_problems(page) == [], "after a guess"


def test_browser_phone_layout_keeps_words_whole(phone_page):
    pg = phone_page
    pg.emulate_media(reduced_motion="reduce")
    pg.goto(pg.server.url + "/")
    pg.fill("input[name=seed]", "5")
    pg.click("#new-game button")
    pg.wait_for_selector("#clue-form:not([hidden])")
    if SCREENSHOTS:
        pg.screenshot(path=str(Path(SCREENSHOTS) / "web-phone.png"))
    pg.evaluate("""() => {  // the longest words of the pool on the board
        const long = ["MILLIONAIRE", "SKYSCRAPER", "HELICOPTER", "HURRICANE", "SUBMARINE"];
        document.querySelectorAll('#board .word').forEach((w, i) => { if (i < long.length) w.textContent = long[i]; });
        fittedWidth = 0; refit(); }""")
    words = pg.eval_on_selector_all("#board .word", """ws => ws.map(w => ({
        text: w.textContent, overflow: w.scrollWidth - w.clientWidth,
        lines: Math.round(w.getBoundingClientRect().height / parseFloat(getComputedStyle(w).lineHeight)),
        size: parseFloat(getComputedStyle(w).fontSize)}))""")
    for w in words:
        assert w["overflow"] <= 0 and w["lines"] == 1 and w["size"] >= 8, w  # whole, on one line, readable
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    banner = pg.locator("#banner").bounding_box()
    assert banner and banner["y"] < 200 and "give a clue" in pg.inner_text("#turn")


def test_browser_keyboard_play(page):
    """A whole turn without a mouse: type the clue, Enter; Tab to the board, arrows, Enter."""
    page.emulate_media(reduced_motion="reduce")
    gid = start_game(page)
    store = page.server.store
    state = store.get(gid).state
    page.focus("#clue-word")
    page.keyboard.type(legal_clue(state))
    page.wait_for_selector("#clue-check.ok")
    version = page.evaluate("document.body.dataset.version")
    page.keyboard.press("Enter")
    wait_idle(page, version)
    assert page.locator("#guess-bar").is_visible()
    # focus lands on the board (the clue form is gone); a screen reader hears the word and its tags
    page.wait_for_function("document.activeElement.classList.contains('card')")
    name = page.evaluate("document.activeElement.textContent")
    assert name.startswith(state.words[0]) and any(k in name for k in ("bystander", "agent", "assassin"))
    target = state.deal.index(bot_greens(store, gid)[0])
    page.keyboard.press("Control+Home")
    for _ in range(target // 5):
        page.keyboard.press("ArrowDown")
    for _ in range(target % 5):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.index") == str(target)
    assert page.eval_on_selector_all("#board .card[tabindex='0']", "cs => cs.length") == 1  # one tab stop
    version = page.evaluate("document.body.dataset.version")
    page.keyboard.press("Enter")
    wait_idle(page, version)
    assert target in state.covered_green


def test_browser_the_bots_turn_is_played_out(page):
    """With motion: the banner says the bot is thinking, then shows its clue; its guesses
    light up card by card and each is listed in the turn log."""
    gid = start_game(page)
    state = page.server.store.get(gid).state
    page.evaluate("""() => { window.seen = {thinking: false, flashes: 0, pop: false};
        new MutationObserver(() => {
            if (document.getElementById('banner-note').classList.contains('thinking')) seen.thinking = true;
            if (document.getElementById('clue-card').classList.contains('pop')) seen.pop = true;
            seen.flashes = Math.max(seen.flashes, document.querySelectorAll('#board .card.flash').length);
        }).observe(document.body, {subtree: true, attributes: true, childList: true, characterData: true}); }""")
    version = page.evaluate("document.body.dataset.version")
    page.fill("#clue-word", legal_clue(state))
    page.click("#clue-send")
    page.wait_for_function("document.body.dataset.busy === 'true'")
    assert page.inner_text("#turn") == "The bot's turn"
    wait_idle(page, version)
    seen = page.evaluate("window.seen")
    bot_guesses = [e for e in state.events if e.player is B and isinstance(e.action, Guess)]
    assert seen["thinking"] and seen["pop"] and seen["flashes"] == 1, seen
    log = page.locator("#turn-log li").all_inner_texts()
    assert log[0].startswith("You give the clue") and log[-1].startswith("The bot's clue")
    assert len(log) == len(state.events) and sum(t.startswith("The bot guesses") for t in log) >= 1
    assert bot_guesses
    clue = state.turns[-1].clue
    assert page.inner_text("#clue-word-shown") == clue.word.upper() and page.inner_text("#turn") == "Your turn: guess"
    # with reduced motion nothing moves
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate("getComputedStyle(document.getElementById('clue-card')).animationName") == "none"


# --- the command ---------------------------------------------------------------------------


def test_serve_refuses_bad_options(tmp_path):
    runner = CliRunner()
    (tmp_path / "file").write_text("x")
    one_line_error(runner.invoke(cli_app, ["serve", "--data", str(tmp_path / "file")]), "--data")
    one_line_error(runner.invoke(cli_app, ["serve", "--host", "no.such.host.invalid"]), "--host")
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        one_line_error(runner.invoke(cli_app, ["serve", "--port", str(port), "--data", str(tmp_path)]),
                       str(port), "--port")


def test_serve_in_a_real_process(tmp_path):
    port = free_port()
    exe = shutil.which("duetbot", path=str(Path(sys.executable).parent)) or "duetbot"
    proc = subprocess.Popen([exe, "serve", "--port", str(port), "--data", str(tmp_path / "games")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as r:
                    assert r.status == 200 and "Play Duet with the bot" in r.read().decode()
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        req = urllib.request.Request(url + "/api/games", data=b'{"seed": 4}', method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            gid = json.loads(r.read())["id"]
        assert (tmp_path / "games" / f"{gid}.json").is_file()
        state = GameRecord.from_json(json.loads((tmp_path / "games" / f"{gid}.json").read_text())).replay()
        assert state.deal.seed == 4
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    assert f"http://127.0.0.1:{port}/" in out and "Traceback" not in err


def test_sigkill_in_the_middle_of_a_move_loses_no_confirmed_move(tmp_path):
    """A server killed with SIGKILL while the bot answers a move (the person's clue saved, the
    bot's turn under way) comes back with every confirmed move, a save that reads, and the
    bot's turn finished; the load script (benchmarks/load_web.py) does the same under load."""
    import signal
    import threading

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from load_web import call, start_server

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(tmp_path, port)
    try:
        status, body, _ = call(f"{base}/api/games", {"seed": 11})
        assert status == 201
        gid, st = body["id"], body["state"]
        path = tmp_path / f"{gid}.json"
        clue = legal_clue(load_saved(path)[0])
        status, body, _ = call(f"{base}/api/games/{gid}/actions", {"version": 0, "clue": clue, "number": 2})
        assert status == 200
        st = body["state"]
        while st["you"] != "clue":  # guess on the bot's clue until it is the person's clue again
            state = load_saved(path)[0]  # the test knows the bot's side: guess its agents
            move = {"pass": True} if st["can_pass"] else {"guess": state.words[min(state.greens_left(B))]}
            status, body, _ = call(f"{base}/api/games/{gid}/actions", {"version": st["version"], **move})
            assert status == 200 and not body["state"]["over"], body
            st = body["state"]
        confirmed = st["version"]
        answers: list = []
        stamp = path.stat().st_mtime_ns
        clue = legal_clue(load_saved(path)[0])
        sender = threading.Thread(target=lambda: answers.append(_quiet_call(
            call, f"{base}/api/games/{gid}/actions", {"version": confirmed, "clue": clue, "number": 2})))
        sender.start()
        deadline = time.monotonic() + 30
        while path.stat().st_mtime_ns == stamp and time.monotonic() < deadline:
            time.sleep(0.0005)  # the clue is saved: the bot's turn is under way
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        sender.join(30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    saved = load_saved(path)[0]  # a whole save, never half of one
    assert len(saved.events) >= confirmed + 1  # the confirmed moves and the clue that was saved
    assert answers == [None] and not saved.is_over() and saved.mover() is B  # killed mid-move, the bot to play
    server = start_server(tmp_path, port)
    try:
        status, body, _ = call(f"{base}/api/games/{gid}")
        assert status == 200 and body["version"] >= confirmed + 1
        assert body["over"] or body["you"] != "wait"  # the bot's interrupted turn was played on
        assert [e.action for e in load_saved(path)[0].events[:len(saved.events)]] == [e.action for e in saved.events]
    finally:
        server.terminate()
        server.wait(30)


def _quiet_call(call, url, body):
    try:
        return call(url, body)
    except OSError:  # the server died under the request: no answer, nothing confirmed
        return None



# --- the newcomer's list (issue 37) ------------------------------------------------------------


def _scripted_game(store, name, end):
    """A game played by the rules into a chosen position, saved where the server finds it:
    ``"won"``; ``"sudden"`` (all of A's agents found by the bot, then A's misses on the bot's
    clues spend the clock: sudden death, several "you" marks); ``"lost"`` (then a miss)."""
    from duetbot.rules import Clue, Label, State, deal
    from duetbot.saves import save_game
    from duetbot.wordpool import default_pool

    state = State(deal(SEED, default_pool()))
    side = lambda p, label: [w for i, w in enumerate(state.words) if state.deal.key.label(p, i) is label]  # noqa: E731
    state.apply(Clue(legal_clue(state), 9), A)
    for word in side(A, Label.GREEN):  # the bot finds every agent of A's: A is done
        state.apply(Guess(word), B)
    if end == "won":
        state.apply(Clue(legal_clue(state), 9), B)
        for word in [w for w in side(B, Label.GREEN) if state.deal.index(w) not in state.covered_green]:
            state.apply(Guess(word), A)
    else:
        misses = iter(w for w in side(B, Label.BYSTANDER) if state.deal.index(w) not in state.covered())
        while state.tokens:
            state.apply(Clue(legal_clue(state), 1), B)
            state.apply(Guess(next(misses)), A)
        if end == "lost":
            state.apply(Guess(side(B, Label.ASSASSIN)[0]), A)
    assert (state.is_over(), state.sudden_death) == {"won": (True, False), "sudden": (False, True),
                                                     "lost": (True, True)}[end]
    save_game(state, store.data / f"{name}.json")
    return state


def test_browser_the_home_page_fits_a_phone(phone_page):
    phone_page.goto(phone_page.server.url + "/")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # was 416 (the variants)


def _covered_words(pg):
    """Cards whose word is covered by a badge or a label (rectangles that meet)."""
    return pg.eval_on_selector_all("#board .card", """cards => cards.flatMap(c => {
        const w = c.querySelector('.word').getBoundingClientRect();
        return [...c.querySelectorAll('.mark, .bot-side, .tag')].filter(x => {
            const r = x.getBoundingClientRect();
            return r.width && r.height && r.left < w.right - 1 && w.left < r.right - 1
                && r.top < w.bottom - 1 && w.top < r.bottom - 1;
        }).map(x => c.querySelector('.word').textContent + ': ' + x.textContent);
    })""")


@pytest.mark.parametrize("width", [PHONE["width"], 1280])
def test_browser_the_reveal_covers_no_word(phone_page, page, width):
    pg = phone_page if width == PHONE["width"] else page
    pg.set_viewport_size({"width": width, "height": 900})
    _scripted_game(pg.server.store, "game2", "lost")
    pg.goto(pg.server.url + "/games/game2")
    pg.wait_for_selector("#end:not([hidden])")
    assert pg.locator("#board .mark").count() >= 5 and pg.locator("#board .bot-side").count() == 25
    for reveal in ("you", "bot"):
        pg.click(f"#end button[data-reveal={reveal}]")
        assert _covered_words(pg) == [], reveal
    assert pg.inner_text("main").count(pg.inner_text("#outcome")) == 1   # the outcome said once


def test_browser_the_win_is_said_once_and_the_terminal_command_works_anywhere(page):
    _scripted_game(page.server.store, "game1", "won")
    page.goto(page.server.url + "/games/game1")
    page.wait_for_selector("#end:not([hidden])")
    text = page.inner_text("main")
    assert text.lower().count("won") == 1, text
    save = (page.server.store.data / "game1.json").resolve()
    assert f"duetbot play --resume {save}" in text   # not a path relative to the data folder


def test_browser_sudden_death_says_no_clue_is_given(page):
    _scripted_game(page.server.store, "game3", "sudden")
    page.goto(page.server.url + "/games/game3")
    page.wait_for_selector("#board .card")
    text = page.inner_text("main")
    assert "Sudden death" in text and "gives every clue" not in text and "give every clue" not in text


def test_browser_after_a_reload_what_just_happened_shows_the_bots_last_move(page):
    page.emulate_media(reduced_motion="reduce")
    gid = start_game(page)
    give_clue(page, legal_clue(page.server.store.get(gid).state))
    shown = page.locator("#turn-log li").all_inner_texts()
    assert shown and any(line.startswith("The bot") for line in shown)
    page.reload()
    page.wait_for_selector("#board .card")
    assert page.locator("#turn-log li").all_inner_texts() == shown
    assert page.locator("#turn-log").is_visible()
