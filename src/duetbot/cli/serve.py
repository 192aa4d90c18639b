"""``duetbot serve``: the web app (:mod:`duetbot.web`) on this computer, served by uvicorn.

A thin shell: it checks the options (the data directory, the partner's models, the address),
loads the bots once, says where to point a browser, and runs the server until Ctrl+C.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from .common import VECTOR, VECTOR_HELP, ServePartnerOption, check_pool, fail, partner_spec

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
"""The Host names a local-only app answers (another name is a page elsewhere, rebinding DNS)."""


def _check_address(host: str, port: int) -> None:
    """Fail (one line) before the models load if the address cannot be listened on."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        fail(f"--host {host!r}: not an address of this computer ({exc.strerror}); use 127.0.0.1 or 0.0.0.0")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port")


def serve(
    host: Annotated[str, typer.Option(metavar="ADDRESS", help="Address to listen on. The default serves this computer only; 0.0.0.0 lets phones on your network in (and anyone else on it).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the app in your web browser once it is up.")] = False,
    data: Annotated[Path, typer.Option("--data", metavar="DIR", help="Directory of saved games (created if missing); duetbot play's saves there open in the browser too.")] = Path("."),
    vector: Annotated[Optional[list[str]], typer.Option("--vector", metavar=VECTOR, help=VECTOR_HELP + " (repeatable).")] = None,
    partner: ServePartnerOption = None,
) -> None:
    """Play Duet in your browser, or use the table helper: a local web app."""
    try:
        import uvicorn

        from ..web import GameStore, create_app
    except ImportError as exc:
        fail(f"the web app cannot start: {exc}; reinstall duetbot (pip install duetbot)")
    vectors = tuple(vector or ())
    spec = partner_spec(partner, vectors)
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--data {data}: cannot create the directory ({exc.strerror or exc}); choose another")
    if not data.is_dir():
        fail(f"--data {data}: not a directory; choose a directory for the saved games")
    probe = data / ".duetbot-write-test"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        fail(f"--data {data}: cannot write there ({exc.strerror or exc}); choose a writable directory")
    _check_address(host, port)
    from ..wordpool import default_pool

    check_pool(default_pool(), spec)  # loads the models once, before the first page
    store = GameStore(data, spec, vectors)
    app = create_app(store, LOCAL_NAMES if host in LOCAL_HOSTS else None)
    console = Console(highlight=False)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    console.print(f"duetbot serve: open {url} in your browser (games saved in {data.resolve()}); Ctrl+C stops.",
                  soft_wrap=True, markup=False)
    if host not in LOCAL_HOSTS:
        console.print(f"Listening on {host}: anyone who can reach this computer can play and see the games.",
                      soft_wrap=True, markup=False, style="bold yellow")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off",
                            limit_concurrency=64, timeout_keep_alive=5)
    server = uvicorn.Server(config)
    if open_browser:
        def launch() -> None:
            import time
            import webbrowser

            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=launch, daemon=True).start()
    server.run()
