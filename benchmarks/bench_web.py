"""The web app as a player feels it: page load to an interactive board, and a clue's round trip.

A real server (uvicorn on a free local port, the shipped bots, a temporary data directory) and
a real browser (Debian's Chromium through Playwright, as the tests use). Every figure is the
median of ``--repeat`` games, each on a new board, measured in the same run as its floors:

- **page load**: from the start of a game's navigation to the board rendered by the script
  and ready for a click (the page's own navigation timing); floor: fetching one static asset
  (``/static/style.css``) from the same page.
- **clue round trip** (on a new board, so the bot's first-turn work is in it): the person's
  clue typed and sent, the bot's guesses and its own clue
  computed, saved, and the page ready for the person's guess (the replay animation off, as
  with ``prefers-reduced-motion``); beside it the same move through the HTTP API alone and
  through the game store in-process (no HTTP, no browser), which is the bot's own time.

    PYTHONPATH=src python benchmarks/bench_web.py --repeat 15
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from web_support import CHROMIUM, CHROMIUM_ARGS, LiveServer  # noqa: E402

CLUES = ("water", "music", "animal", "metal", "nature")


def clue_for(store, game_id: str) -> str:
    """A clue the rule book allows on this board."""
    from duetbot.rules import is_legal_clue

    visible = store.get(game_id).state.visible_words()
    return next(c for c in CLUES if is_legal_clue(c, visible))


# Timed inside the page (performance.now()), so the browser driver's own latency is not in them.
LOADED = """() => performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd"""
"""The game script runs deferred and renders the board before DOMContentLoaded ends."""
ASSET = """async () => { const t0 = performance.now();
  await (await fetch("/static/style.css", {cache: "no-store"})).text(); return performance.now() - t0; }"""
ROUND_TRIP = """() => new Promise((resolve) => { const t0 = performance.now();
  document.getElementById("clue-send").click();
  const poll = () => (document.body.dataset.busy === "false" && document.body.dataset.version !== "0")
    ? resolve(performance.now() - t0) : setTimeout(poll, 1);
  setTimeout(poll, 1); })"""


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):7.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rows: dict[str, list[float]] = {k: [] for k in ("load", "asset", "browser", "api", "store")}
    with tempfile.TemporaryDirectory() as tmp, LiveServer(Path(tmp)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900}, reduced_motion="reduce")
        post(server.url + "/api/games", {"seed": 0})  # warm: models, first board caches
        for i in range(a.repeat):
            seed = 1000 + i
            # page load to an interactive board
            gid = post(server.url + "/api/games", {"seed": seed})["id"]
            page.goto(f"{server.url}/games/{gid}")
            page.wait_for_function("document.body.dataset.busy === 'false'")
            rows["load"].append(page.evaluate(LOADED) / 1000)
            rows["asset"].append(page.evaluate(ASSET) / 1000)
            # the clue's round trip in the browser
            page.fill("#clue-word", clue_for(server.store, gid))
            rows["browser"].append(page.evaluate(ROUND_TRIP) / 1000)
            # the same move through the API alone, and in-process, each on a board of its own
            gid = post(server.url + "/api/games", {"seed": seed + 10_000})["id"]
            clue = clue_for(server.store, gid)
            t0 = time.perf_counter()
            post(f"{server.url}/api/games/{gid}/actions", {"version": 0, "clue": clue, "number": 2})
            rows["api"].append(time.perf_counter() - t0)
            game = server.store.new(None, seed + 20_000)
            clue = clue_for(server.store, game.id)
            t0 = time.perf_counter()
            server.store.act(game.id, 0, {"clue": clue, "number": 2})
            rows["store"].append(time.perf_counter() - t0)
        browser.close()
    print(f"duetbot serve, {a.repeat} games (new boards), medians")
    print(f"  page load to an interactive board  {ms(rows['load'])}   floor, one static asset: {ms(rows['asset'])}")
    print(f"  clue round trip in the browser     {ms(rows['browser'])}   (to the page ready for your guess)")
    print(f"  the same move, HTTP API only       {ms(rows['api'])}")
    print(f"  the same move, in-process store    {ms(rows['store'])}   (the bots' own work and the saves)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
