"""The table helper: ``POST /api/suggest`` through the app, and ``/table`` in a phone's browser.

The API tests go through Starlette's TestClient (the app's own JSON rules: 400 with one line,
415, 413). The browser tests drive ``static/table.js`` by the ids and data attributes its
header documents, on a phone-sized touch viewport, against a real server.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from duetbot.web import MAX_BODY, GameStore, create_app
from duetbot.wordpool import default_pool

from .web_support import axe_problems


# Every 23rd word of the pool: 25 words from across the alphabet, all known to the models.
WORDS = list(default_pool())[::23][:25]
assert len(WORDS) == 25 and len(set(WORDS)) == 25
GREENS = [0, 3, 6, 9, 12, 15, 18, 21]
ASSASSIN = 24
COVERED = 2


# --- the API ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    # One app for the module: the models load once.
    with TestClient(create_app(GameStore(tmp_path_factory.mktemp("table-api")))) as c:
        yield c


def suggest(client, body):
    return client.post("/api/suggest", json=body)


def test_duet_spymaster_clues_are_for_my_greens(client):
    greens = [WORDS[i] for i in GREENS]
    r = suggest(client, {"id": "a", "role": "spymaster", "board": WORDS, "green": greens,
                         "assassin": [WORDS[ASSASSIN]], "covered": [WORDS[GREENS[0]]], "tokens": 7, "top": 3})
    assert r.status_code == 200
    body = r.json()
    assert body["id"] == "a" and 1 <= len(body["clues"]) <= 3
    for clue in body["clues"]:
        assert clue["targets"] and set(clue["targets"]) <= set(greens[1:])  # never a covered green
        assert 0 <= clue["p_assassin"] <= 1 and 0 <= clue["p_bystander"] <= 1
        assert all(d["label"] in ("assassin", "bystander") for d in clue["dangers"])


def test_duet_guesser_ranks_every_guessable_word(client):
    covered, wrong = [WORDS[1], WORDS[2]], [WORDS[4]]
    r = suggest(client, {"id": 2, "role": "guesser", "board": WORDS, "clues": [{"clue": "ocean", "number": 2}],
                         "covered": covered, "wrong": wrong})
    assert r.status_code == 200
    body = r.json()
    ranked = [g["word"] for g in body["guesses"]]
    assert sorted(ranked) == sorted(set(WORDS) - set(covered) - set(wrong))
    assert 1 <= body["stop_after"] <= len(ranked)
    assert all(0 <= g["p_green"] <= 1 and 0 <= g["p_assassin"] <= 1 for g in body["guesses"])


def test_classic_requests(client):
    team = [WORDS[i] for i in (0, 1, 5, 7)]
    r = suggest(client, {"game": "classic", "role": "spymaster", "board": WORDS, "team_agents": team,
                         "opponent_agents": [WORDS[10], WORDS[11]], "assassin": [WORDS[20]], "covered": [WORDS[3]]})
    assert r.status_code == 200
    assert all(set(c["targets"]) <= set(team) for c in r.json()["clues"])
    r = suggest(client, {"game": "classic", "role": "guesser", "board": WORDS, "clues": [{"clue": "music", "number": 1}],
                         "covered": [WORDS[3]]})
    assert r.status_code == 200
    body = r.json()
    assert len(body["guesses"]) == 24 and {"p_agent", "p_assassin", "p_opponent"} <= set(body["guesses"][0])
    assert body["stop_after"] >= 1


def test_the_helper_reads_with_the_partner_the_server_plays_with(tmp_path):
    """Issue 37: ``serve --partner`` changed the games' bot but not the table helper's."""
    from duetbot.bots.factory import PartnerSpec

    store = GameStore(tmp_path, PartnerSpec.parse("model=glove50"))
    assert store.suggester().guesser.ensemble.names == ("glove50",)
    assert GameStore(tmp_path).suggester().guesser.ensemble.names != ("glove50",)
    with TestClient(create_app(store)) as c:
        r = suggest(c, {"id": 1, "role": "guesser", "board": WORDS, "clues": [{"clue": "ocean", "number": 1}]})
    assert r.status_code == 200 and r.json()["stop_after"] >= 1


@pytest.mark.parametrize(("body", "named"), [
    ({"role": "spymaster", "board": WORDS[:24], "green": WORDS[:2]}, ["board", "24"]),
    ({"role": "spymaster", "board": WORDS, "green": ["ZYZZYVA"]}, ["green", "ZYZZYVA", "not on the board"]),
    ({"role": "guesser", "board": WORDS, "clues": []}, ["clues"]),
])
def test_a_bad_request_answers_one_line(client, body, named):
    r = suggest(client, {"id": 9, **body})
    assert r.status_code == 400
    error = r.json()["error"]
    assert "\n" not in error and all(n in error for n in named), error


def test_only_json_bodies_of_limited_size(client):
    r = client.post("/api/suggest", content=b'{"role": "guesser"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    big = b'{"pad": "' + b"x" * MAX_BODY + b'"}'
    r = client.post("/api/suggest", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    # Streamed without a Content-Length: cut off while reading, all the same.
    r = client.post("/api/suggest", content=iter([big[:40_000], big[40_000:]]),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_a_long_running_server_keeps_its_caches_bounded(tmp_path):
    """Issue 35: `duetbot serve` answers table requests for ever; every board it meets must not
    stay with it. Over many boards (spymaster and guesser requests) the ensemble's board
    caches, the spymaster's per-word legality cache (its bound lowered here so the test reaches
    it) and the guesser's reading caches never pass their bounds, and memory stays flat."""
    import random
    import tracemalloc

    from duetbot.bots.guesser import READ_CACHE_SIZE
    from duetbot.wordpool import default_pool

    store = GameStore(tmp_path)
    pool = default_pool()
    rng = random.Random(35)
    with TestClient(create_app(store)) as c:
        suggester = store.suggester()
        legality = suggester.spymaster.words._illegal
        legality.size = 60
        tracemalloc.start()
        peaks = []
        for n in range(40):
            board = rng.sample(pool, 25)
            r = suggest(c, {"id": n, "role": "spymaster", "board": board, "green": board[:9], "assassin": board[9:12]})
            assert r.status_code == 200
            r = suggest(c, {"id": n, "role": "guesser", "board": board, "clues": [{"clue": "ocean", "number": 2}]})
            assert r.status_code == 200
            if n in (19, 39):
                peaks.append(tracemalloc.get_traced_memory()[0])
        tracemalloc.stop()
    for ens in {id(e): e for e in (suggester.spymaster.ensemble, suggester.guesser.ensemble)}.values():
        assert len(ens.board_cache) <= ens.board_cache.size and len(ens.rows_cache) <= ens.rows_cache.size
    assert len(legality) <= 60
    assert len(suggester.guesser._reads) <= READ_CACHE_SIZE and len(suggester.guesser._zs) <= READ_CACHE_SIZE
    assert peaks[1] - peaks[0] < 8 * 2**20, peaks       # the second 20 boards add no lasting memory


# --- the page, on a phone -----------------------------------------------------------------


@pytest.fixture(autouse=True)
def no_script_errors(request):
    """A browser test fails on any uncaught error of the page's script."""
    if "phone_page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("phone_page")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield
    assert errors == []


def open_table(page):
    page.goto(page.server.url + "/table")
    page.wait_for_selector("#tt-words")


def fill_board(page, words):
    page.fill("#tt-words", "\n".join(words))
    page.tap("#tt-fill")
    page.wait_for_selector("#tt-grid .tt-card[data-index='24']")


def mark(page, kind, indices):
    page.tap(f"[data-mark='{kind}']")
    for i in indices:
        page.tap(f"#tt-grid .tt-card[data-index='{i}']")


def cards(page):
    """Each card's word and marks, as the page shows them."""
    return page.eval_on_selector_all("#tt-grid .tt-card", """cards => cards.map(c => ({
        word: c.querySelector('.tt-word').textContent, key: c.dataset.key, table: c.dataset.table,
        tag: c.querySelector('.tt-tag').textContent, rank: c.dataset.rank ? Number(c.dataset.rank) : null,
        target: c.classList.contains('tt-target')}))""")


def suggest_requests(page):
    sent = []
    page.on("request", lambda r: sent.append(r) if r.url.endswith("/api/suggest") else None)
    return sent


def test_duet_table_on_a_phone(phone_page):
    page = phone_page
    open_table(page)
    # A word with a space on a line of its own stays one card.
    words = WORDS[:24] + ["ICE CREAM"]
    page.fill("#tt-words", ", ".join(words[:12]) + "\n" + "  ".join(words[12:24]) + "\nICE CREAM")
    page.tap("#tt-fill")
    assert [c["word"] for c in cards(page)] == words
    # Phone-sized: no sideways scrolling, cards big enough to tap, every word inside its card.
    fit = page.evaluate("""() => ({
        wide: document.documentElement.scrollWidth <= window.innerWidth,
        lowest: Math.min(...[...document.querySelectorAll('.tt-card')].map(c => c.getBoundingClientRect().height)),
        spill: [...document.querySelectorAll('.tt-word')].filter(w => w.scrollWidth > w.clientWidth + 1).length})""")
    assert fit["wide"] and fit["spill"] == 0 and fit["lowest"] >= 44, fit
    mark(page, "green", GREENS)
    mark(page, "assassin", [ASSASSIN])
    mark(page, "covered", [COVERED])
    mark(page, "green", [GREENS[-1]])  # the same mark again clears it
    greens = {words[i] for i in GREENS[:-1]}
    shown = cards(page)
    assert {c["word"] for c in shown if c["key"] == "green"} == greens
    assert shown[ASSASSIN]["tag"] == "ASSASSIN" and shown[COVERED]["tag"] == "COVERED"  # a tag, not colour alone

    page.fill("#tt-tokens", "6")
    with page.expect_request("**/api/suggest") as sent:
        page.tap("#tt-suggest")
    request = sent.value.post_data_json
    assert request["role"] == "spymaster" and request["tokens"] == 6 and request["top"] == 5
    assert set(request["green"]) == greens and request["assassin"] == [words[ASSASSIN]]
    assert request["covered"] == [words[COVERED]]
    page.wait_for_selector("#tt-results .tt-suggestion")
    first = page.locator(".tt-suggestion").first
    assert "assassin" in first.inner_text() and "%" in first.inner_text()
    page.locator(".tt-suggestion").last.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the person read down the list
    first.tap()
    # the starred board comes into view (the suggestions sit below it on a phone)
    page.wait_for_function("""() => { const r = document.getElementById('tt-grid').getBoundingClientRect();
        return r.top >= -1 && r.bottom <= window.innerHeight + 1; }""")
    targets = {c["word"] for c in cards(page) if c["target"]}
    assert targets and targets <= greens
    assert first.get_attribute("aria-pressed") == "true"
    if os.environ.get("DUETBOT_SCREENSHOTS"):  # the README's picture of the helper (docs/)
        page.screenshot(path=str(Path(os.environ["DUETBOT_SCREENSHOTS"]) / "web-table.png"))

    page.tap("[data-mode='guess']")
    page.fill(".tt-clue-word", "ocean")
    page.fill(".tt-clue-number", "2")
    page.tap("#tt-add-clue")
    page.locator(".tt-clue-word").nth(1).fill("music")
    page.locator(".tt-clue-number").nth(1).fill("1")
    with page.expect_request("**/api/suggest") as sent:
        page.tap("#tt-guess")
    request = sent.value.post_data_json
    assert request["clues"] == [{"clue": "ocean", "number": 2}, {"clue": "music", "number": 1}]
    assert request["covered"] == [words[COVERED]] and request["wrong"] == []
    assert set(request["green"]) == greens  # my side was marked, so it is sent
    stop = page.wait_for_selector(".tt-ranking .tt-stop")
    ranked = page.eval_on_selector_all(".tt-ranking li[data-word]", "items => items.map(i => i.dataset.word)")
    assert sorted(ranked) == sorted(set(words) - {words[COVERED]})
    k = int(stop.inner_text().split("Stop after ")[1].split(":")[0])
    before = page.eval_on_selector(".tt-stop", "s => [...s.parentNode.children].indexOf(s)")
    assert 1 <= k <= len(ranked) and before == k
    by_rank = {c["rank"]: c["word"] for c in cards(page) if c["rank"]}
    assert [by_rank[r] for r in range(1, len(ranked) + 1)] == ranked

    # A reload keeps the table: words, marks, mode and clues.
    page.reload()
    page.wait_for_selector("#tt-grid .tt-card[data-index='24']")
    again = cards(page)
    assert [(c["word"], c["key"], c["table"]) for c in again] == [(c["word"], c["key"], c["table"]) for c in shown]
    assert page.locator(".tt-clue-word").nth(1).input_value() == "music"
    assert page.get_attribute("[data-mode='guess']", "aria-pressed") == "true"
    assert page.input_value("#tt-tokens") == "6"

    # Editing one card in place keeps its marks; New board (two taps) clears it all.
    page.tap("#tt-edit")
    page.locator(".tt-cell-input[data-index='0']").fill("Storm")
    page.tap("#tt-edit")
    assert cards(page)[0]["word"] == "Storm" and cards(page)[0]["key"] == "green"
    page.tap("#tt-new")
    page.tap("#tt-new")
    assert page.locator("#tt-grid .tt-card").count() == 0
    page.reload()
    page.wait_for_selector("#tt-words")
    assert page.locator("#tt-grid .tt-card").count() == 0 and page.input_value("#tt-words") == ""


def test_a_bad_board_shows_an_error_and_sends_nothing(phone_page):
    page = phone_page
    sent = suggest_requests(page)
    open_table(page)
    message = page.locator("#tt-message")
    assert message.get_attribute("role") == "alert"
    page.fill("#tt-words", "\n".join(WORDS[:24]))
    page.tap("#tt-fill")
    assert "Found 24 words" in message.inner_text() and message.is_visible()
    assert page.locator("#tt-grid .tt-card").count() == 0
    page.fill("#tt-words", "\n".join(WORDS[:24] + [WORDS[3].lower()]))
    page.tap("#tt-fill")
    assert "twice" in message.inner_text()
    page.tap("#tt-suggest")
    assert "25 words" in message.inner_text()
    fill_board(page, WORDS)
    assert message.is_hidden()
    page.tap("#tt-suggest")  # no greens marked yet
    assert "greens" in message.inner_text()
    page.tap("[data-mode='guess']")
    page.tap("#tt-guess")  # no clue yet
    assert "clue" in message.inner_text()
    assert sent == []

    # What only the server knows comes back as its one line.
    page.tap("[data-mode='suggest']")
    mark(page, "green", [5])
    mark(page, "covered", [5])
    page.tap("#tt-suggest")
    page.wait_for_function("document.getElementById('tt-message').textContent.includes('no green word is left')")
    assert len(sent) == 1 and page.locator("#tt-results .tt-suggestion").count() == 0


def test_impossible_keys_and_unknown_clue_words_are_said_not_answered(phone_page):
    """Issue 37: 11 greens are refused in one line naming the rule, and a clue word no model
    knows is named (with the word meant) instead of a ranking read from its spelling."""
    page = phone_page
    sent = suggest_requests(page)
    open_table(page)
    fill_board(page, WORDS)
    message = page.locator("#tt-message")
    mark(page, "green", range(11))
    page.tap("#tt-suggest")
    assert "11 cards are marked Green; a Duet side has 9 greens and 3 assassins at most" in message.inner_text()
    page.tap("[data-mode='guess']")
    page.fill(".tt-clue-word", "ocean")
    page.fill(".tt-clue-number", "1")
    page.tap("#tt-guess")
    assert "a Duet side has 9 greens" in message.inner_text() and sent == []
    mark(page, "green", [9, 10])   # the same mark again clears it: 9 greens
    page.fill(".tt-clue-word", "ocaen")
    page.tap("#tt-guess")
    page.wait_for_function("document.getElementById('tt-message').textContent.includes('OCAEN')")
    assert message.inner_text() == "OCAEN: not a word I know. Did you mean OCEAN? Check the clue."
    assert len(sent) == 1 and page.locator(".tt-ranking").count() == 0


def test_classic_table_on_a_phone(phone_page):
    page = phone_page
    open_table(page)
    page.tap("[data-game='classic']")
    fill_board(page, WORDS)
    assert page.locator("[data-mark='green']").count() == 0
    team, opponent = [0, 4, 8, 12], [1, 5]
    mark(page, "team", team)
    mark(page, "opponent", opponent)
    mark(page, "assassin", [20])
    mark(page, "covered", [3])
    assert cards(page)[0]["tag"] == "TEAM" and cards(page)[1]["tag"] == "OTHER"

    # Hold the answer back: the button stays disabled and a second tap sends nothing.
    held = []
    page.route("**/api/suggest", lambda route: held.append(route))
    page.tap("#tt-suggest")
    page.wait_for_function("document.getElementById('tt-suggest').disabled")
    page.evaluate("document.getElementById('tt-suggest').click()")
    page.wait_for_timeout(100)
    assert len(held) == 1
    request = held[0].request.post_data_json
    assert request["game"] == "classic" and set(request["team_agents"]) == {WORDS[i] for i in team}
    assert set(request["opponent_agents"]) == {WORDS[i] for i in opponent}
    assert request["assassin"] == [WORDS[20]] and request["covered"] == [WORDS[3]]
    held[0].continue_()
    page.wait_for_selector("#tt-results .tt-suggestion")
    assert page.locator("#tt-suggest").is_enabled()
    assert "Expected agents" in page.locator(".tt-suggestion").first.inner_text()
    page.locator(".tt-suggestion").first.tap()
    targets = {c["word"] for c in cards(page) if c["target"]}
    assert targets and targets <= {WORDS[i] for i in team}
    page.unroute("**/api/suggest")

    # The Duet marks are kept apart: switching back shows an unmarked Duet board.
    page.tap("[data-game='duet']")
    assert all(not c["key"] and not c["table"] for c in cards(page))


@pytest.mark.skipif(importlib.util.find_spec("rapidocr_onnxruntime") is None,
                    reason="needs the photo extra (pip install 'duetbot[photo]')")
def test_the_table_from_photos_on_a_phone(phone_page, tmp_path):
    """Issue 38: the camera buttons read the board and the key card; the person checks both
    before the table changes, and a bad photo changes nothing."""
    from .photo_support import blank_photo, board_photo, key_photo

    page = phone_page
    board = board_photo(12, hard=True, hand=True)
    key = key_photo(5, hard=True)
    open_table(page)
    page.fill("#tt-words", "typed before the photo")
    page.set_input_files("#tt-photo-board", str(blank_photo(2, dark=True).save(tmp_path / "dark.jpg")))
    page.wait_for_function("document.getElementById('tt-message').textContent.includes('too dark')")
    assert page.input_value("#tt-words") == "typed before the photo"  # nothing lost
    assert page.locator("#tt-review").is_hidden()

    page.set_input_files("#tt-photo-board", str(board.save(tmp_path / "board.jpg")))
    page.wait_for_selector("#tt-review .tt-review-input[data-index='24']")
    inputs = page.locator(".tt-review-input")
    assert [inputs.nth(i).input_value() for i in range(25)] == list(board.truth)
    unread = page.locator(".tt-review-input.tt-unread")
    assert unread.count() == 1 and unread.get_attribute("data-index") == str(board.covered)
    assert page.locator("#tt-grid .tt-card").count() == 0  # nothing used before it is checked
    assert axe_problems(page) == []
    page.tap("#tt-review-use")  # the unreadable card is still empty
    assert "unreadable in the photo" in page.inner_text("#tt-message")
    unread.fill("zebra")
    page.tap("#tt-review-use")
    words = [w or "zebra" for w in board.truth]
    assert [c["word"] for c in cards(page)] == words

    page.set_input_files("#tt-photo-key", str(key.save(tmp_path / "key.jpg")))
    page.wait_for_selector("#tt-review .tt-review-key[data-index='24']")
    labels = page.eval_on_selector_all(".tt-review-key", "cells => cells.map(c => c.dataset.label)")
    assert labels == list(key.truth)
    first_bystander = labels.index("bystander")
    page.tap(f".tt-review-key[data-index='{first_bystander}']")  # a tap cycles: bystander -> green
    page.tap("#tt-review-use")
    want = ["green" if i == first_bystander else "" if lab == "bystander" else lab for i, lab in enumerate(key.truth)]
    assert [c["key"] for c in cards(page)] == want
