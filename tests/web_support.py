"""Fixtures for the web app's tests: a real server on a free local port, and a real browser.

The browser is Debian's Chromium driven by Playwright (its own browser download is not
reachable here). Where Chromium or Playwright is missing the browser tests are skipped, unless
``DUETBOT_BROWSER_TESTS=required`` (set by ``.ci/run``, which installs them): then they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("DUETBOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
AXE = Path(os.environ.get("DUETBOT_AXE") or Path(__file__).resolve().parents[1] / "node_modules/axe-core/axe.min.js")
"""axe-core's script (``npm install --no-save axe-core@4`` at the repository's root; ``.ci/run`` does it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """uvicorn serving the app over ``data`` in a thread; ``url`` is its base address."""

    def __init__(self, data: Path) -> None:
        import uvicorn

        from duetbot.web import GameStore, create_app

        self.data = data
        self.store = GameStore(data)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(self.store), host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def axe_problems(pg, context: str = "main") -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page as it is
    now (its script injected into the page), one line each; skipped, or failed under CI,
    without axe-core."""
    if not AXE.is_file():
        if os.environ.get("DUETBOT_BROWSER_TESTS") == "required":
            pytest.fail(f"no axe-core at {AXE} (npm install --no-save axe-core@4)")
        pytest.skip("no axe-core (npm install --no-save axe-core@4)")
    if not pg.evaluate("typeof window.axe !== 'undefined'"):
        pg.add_script_tag(path=str(AXE))
    result = pg.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [f"{v['id']} ({v['impact']}): {v['help']}: " + "; ".join(n["target"][0] if isinstance(n["target"][0], str)
                                                                    else str(n["target"]) for n in v["nodes"][:5])
            for v in result if v["impact"] in ("serious", "critical")]


@pytest.fixture
def live_server(tmp_path):
    with LiveServer(tmp_path) as server:
        yield server


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for the module (skipped, or failed under CI, when it cannot start)."""
    required = os.environ.get("DUETBOT_BROWSER_TESTS") == "required"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            pytest.fail("playwright is not installed (pip install '.[test]')")
        pytest.skip("playwright is not installed")
    if not Path(CHROMIUM).exists():
        if required:
            pytest.fail(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
        pytest.skip("no Chromium (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, live_server):
    """A fresh browser page (desktop size); ``page.server`` is the live server."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    pg.server = live_server  # type: ignore[attr-defined]
    yield pg
    context.close()


@pytest.fixture
def phone_page(browser, live_server):
    """A fresh browser page of a phone's size, touch enabled."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    pg.server = live_server  # type: ignore[attr-defined]
    yield pg
    context.close()
