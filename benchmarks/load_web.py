"""``duetbot serve`` under load: several browsers' worth of games at once, for a bounded time.

A real server (``duetbot serve`` in its own process, the shipped bots, a temporary data
directory, on the loopback only) and ``--browsers`` clients, each a thread playing one game
after another through the same HTTP API the page uses (the page's load, then each move as the
page sends it: a legal clue, guesses on random cards, sometimes ending the turn). It stops
dealing after ``--seconds`` and lets each client finish its move in flight.

Then it checks that nothing was lost: every move the server confirmed (a 200 with the game's
new version) is in the save on disk, and again after the server is killed with SIGKILL and
started afresh on the same directory. It reports errors (any answer but a 200), lost moves,
and the time of a move (the request: the person's action, the bot's answer, every save) as
the median, p95 and p99.

    PYTHONPATH=src python benchmarks/load_web.py --browsers 8 --seconds 60
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

CLUES = ("animal", "music", "water", "metal", "nature", "power", "travel", "house", "food", "sport", "light",
         "money", "space", "war", "body", "king", "time", "earth", "fire", "city")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data: Path, port: int) -> subprocess.Popen:
    """``duetbot serve`` on 127.0.0.1:port, answering (raises if it does not within 120 s)."""
    proc = subprocess.Popen([sys.executable, "-m", "duetbot", "serve", "--port", str(port), "--data", str(data)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"the server did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
            time.sleep(0.1)


def call(url: str, body: dict | None = None) -> tuple[int, dict, float]:
    """(status, JSON answer, seconds) of one request."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json"} if body is not None else {})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            raw, status = r.read(), r.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    seconds = time.perf_counter() - t0
    try:
        answer = json.loads(raw) if raw[:1] in (b"{", b"[") else {}
    except ValueError:
        answer = {}
    return status, answer, seconds


@dataclass
class Client:
    """One browser: plays games one after another until ``stop`` is set."""

    base: str
    seed: int
    stop: threading.Event
    move_seconds: list[float] = field(default_factory=list)
    page_seconds: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    confirmed: dict[str, int] = field(default_factory=dict)
    """Game id -> the last version the server confirmed."""
    finished: int = 0

    def choose(self, rng: random.Random, st: dict) -> dict:
        from duetbot.rules import is_legal_clue

        if st["you"] == "clue":
            visible = [c["word"] for c in st["cards"] if not c["out"] and not c["agent"]]
            word = next(w for w in rng.sample(CLUES, len(CLUES)) if is_legal_clue(w, visible))
            return {"clue": word, "number": rng.randint(1, 3)}
        if st["you"] == "guess" and st["can_pass"] and rng.random() < 0.3:
            return {"pass": True}
        cards = [c["word"] for c in st["cards"] if not c["out"] and not c["agent"] and "you" not in c["marked"]]
        return {"guess": rng.choice(cards)}

    def run(self) -> None:
        rng = random.Random(self.seed)
        try:
            while not self.stop.is_set():
                status, body, _ = call(f"{self.base}/api/games", {"seed": rng.randrange(1_000_000)})
                if status != 201:
                    self.errors.append(f"new game: {status} {body.get('error')}")
                    continue
                gid, st = body["id"], body["state"]
                self.confirmed[gid] = st["version"]
                t0 = time.perf_counter()
                with urllib.request.urlopen(f"{self.base}/games/{gid}", timeout=60) as r:  # the page itself
                    r.read()
                self.page_seconds.append(time.perf_counter() - t0)
                while not st["over"] and not self.stop.is_set():
                    status, body, seconds = call(f"{self.base}/api/games/{gid}/actions",
                                                 {"version": st["version"], **self.choose(rng, st)})
                    if status != 200:
                        self.errors.append(f"{gid} move at version {st['version']}: {status} {body.get('error')}")
                        break
                    self.move_seconds.append(seconds)
                    st = body["state"]
                    self.confirmed[gid] = st["version"]
                self.finished += st["over"]
        except Exception as exc:  # a dropped connection is an error to report, not a crash
            self.errors.append(f"{type(exc).__name__}: {exc}")


def lost_moves(base: str, data: Path, confirmed: dict[str, int]) -> tuple[int, int]:
    """(moves confirmed but missing from the saves on disk, missing from what the server shows)."""
    from duetbot.saves import load_saved

    on_disk = shown = 0
    for gid, version in confirmed.items():
        on_disk += max(0, version - len(load_saved(data / f"{gid}.json")[0].events))
        status, body, _ = call(f"{base}/api/games/{gid}")
        shown += version if status != 200 else max(0, version - body["version"])
    return on_disk, shown


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--browsers", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data, port = Path(tmp), free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(data, port)
        stop = threading.Event()
        clients = [Client(base, args.seed * 1000 + i, stop) for i in range(args.browsers)]
        threads = [threading.Thread(target=c.run) for c in clients]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        time.sleep(args.seconds)
        stop.set()
        for t in threads:
            t.join(300)
        wall = time.perf_counter() - t0
        confirmed = {g: v for c in clients for g, v in c.confirmed.items()}
        lost_disk, lost_live = lost_moves(base, data, confirmed)
        os.kill(server.pid, signal.SIGKILL)  # a crash, then a fresh server on the same saves
        server.wait()
        server = start_server(data, port)
        try:
            _, lost_restart = lost_moves(base, data, confirmed)
        finally:
            server.terminate()
            server.wait(30)
    moves = [s for c in clients for s in c.move_seconds]
    errors = [e for c in clients for e in c.errors]
    figures = {
        "browsers": args.browsers, "seconds": round(wall, 1), "games": len(confirmed),
        "games_finished": sum(c.finished for c in clients), "moves": len(moves),
        "moves_per_second": round(len(moves) / wall, 1), "errors": len(errors),
        "lost_moves_on_disk": lost_disk, "lost_moves_shown": lost_live, "lost_moves_after_sigkill": lost_restart,
        "move_ms_median": round(statistics.median(moves) * 1000, 1) if moves else None,
        "move_ms_p95": round(pct(moves, 0.95), 1), "move_ms_p99": round(pct(moves, 0.99), 1),
        "move_ms_max": round(max(moves) * 1000, 1) if moves else None,
        "page_ms_median": round(statistics.median(p for c in clients for p in c.page_seconds) * 1000, 1),
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>26}: {v}")
        for e in errors[:10]:
            print("error:", e)
    sys.exit(1 if errors or lost_disk or lost_live or lost_restart else 0)


if __name__ == "__main__":
    main()
