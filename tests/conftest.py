import atexit
import importlib
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

from duetbot.embeddings.cache import CACHE_ENV, cache_dir

# The tests never write to the user's cache (duetbot.embeddings.cache): each run gets its own,
# used as a person's would be, removed at the end. A subprocess started with an environment of
# its own gets it through bare_env(); the session fails if the user's cache changed all the same.
USER_CACHE = cache_dir()
os.environ[CACHE_ENV] = _CACHE = tempfile.mkdtemp(prefix="duetbot-test-cache-")
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

from duetbot.rules import CROSS_COUNTS, Label, make_deal  # noqa: E402

from .web_support import browser, live_server, page, phone_page  # noqa: E402, F401  (the web tests' fixtures)

# default: random examples, as a developer wants (new cases every run). ci: the same examples on
# every run (a red CI run reproduces from the commit alone) and no example database on disk.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
                          database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def bare_env(**extra: str) -> dict[str, str]:
    """An environment of its own for a subprocess (a clean PATH, nothing inherited) that still
    keeps the tests' cache, so the subprocess never writes the user's."""
    return {"PATH": "/usr/bin:/bin", CACHE_ENV: os.environ[CACHE_ENV], **extra}


def _cache_files(root: Path | None) -> dict[str, tuple[int, int]]:
    """Every file under ``root``: its size and modification time."""
    found = {}
    for p in root.rglob("*") if root is not None and root.is_dir() else ():
        try:
            if p.is_file():
                s = p.stat()
                found[str(p.relative_to(root))] = (s.st_size, s.st_mtime_ns)
        except OSError:   # removed while we looked
            pass
    return found


@pytest.fixture(scope="session", autouse=True)
def users_cache_untouched():
    """Fails the session if the user's own cache directory changed while the tests ran."""
    before = _cache_files(USER_CACHE)
    yield
    after = _cache_files(USER_CACHE)
    changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    if changed:
        pytest.fail(f"the tests changed the user's cache {USER_CACHE} ({len(changed)} files, e.g. {changed[0]}): "
                    "a subprocess with an environment of its own must get it from bare_env()", pytrace=False)


def benchmark(name: str) -> ModuleType:
    """A benchmark script as a module (they import each other by name from benchmarks/)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))

# A fixed board laid out in the order of the official distribution, so tests can name
# positions: 0-2 green/green, 3-7 green/bystander, 8-12 bystander/green, 13 green/assassin,
# 14 assassin/green, 15 assassin/assassin, 16 assassin/bystander, 17 bystander/assassin,
# 18-24 bystander/bystander.
WORDS = [
    "APPLE", "BRIDGE", "CASTLE", "DRAGON", "EAGLE", "FOREST", "GUITAR", "HAMMER", "ISLAND",
    "JUNGLE", "KNIFE", "LEMON", "MOUNTAIN", "NURSE", "OCEAN", "PIANO", "QUEEN", "ROBOT",
    "SNAKE", "TIGER", "UMBRELLA", "VIOLIN", "WHALE", "YACHT", "ZEBRA",
]
PAIRS = [pair for pair, n in CROSS_COUNTS.items() for _ in range(n)]
GG = [0, 1, 2]
G_N = [3, 4, 5, 6, 7]
N_G = [8, 9, 10, 11, 12]
G_X, X_G, X_X, X_N, N_X = 13, 14, 15, 16, 17
N_N = list(range(18, 25))
A_GREENS = GG + G_N + [G_X]
B_GREENS = GG + N_G + [X_G]


def fixed_deal():
    assert PAIRS[13] == (Label.GREEN, Label.ASSASSIN) and PAIRS[17] == (Label.BYSTANDER, Label.ASSASSIN)
    return make_deal(WORDS, [a for a, _ in PAIRS], [b for _, b in PAIRS])


def one_line_error(result, *needles):
    """A CLI error: exit code 2 and a single ``error: ...`` line naming each needle."""
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert text.startswith("error:") and "\n" not in text and "Traceback" not in text, text
    for n in needles:
        assert n in text, text
