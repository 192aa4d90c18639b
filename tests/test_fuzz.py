"""Fuzzing the public ``suggest jsonl`` contract: no input line breaks the reader.

A seeded generator mutates valid spymaster, guesser and classic requests (deep nesting,
huge and non-finite numbers, wrong types, odd unicode, byte order marks, invalid UTF-8,
very long, truncated and blank lines) and sends them all through ONE real
``duetbot suggest jsonl`` process. Every non-blank line must get exactly one strict JSON
object, in order, echoing the id where the line was readable JSON with a usable id, and the
process must exit 0.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import bare_env

SRC = str(Path(__file__).resolve().parents[1] / "src")

BOARD = ["Storm", "RAINBOW", "piano", "DOCTOR", "pencil", "castle", "banana", "ice cream", "robot",
         "ship", "nurse", "tiger", "bank", "glass", "moon", "engine", "bread", "king", "shoe",
         "river", "clock", "camera", "horse", "chair", "rocket"]

BASES = {
    "spymaster": {"role": "spymaster", "board": BOARD, "green": ["storm", "rainbow", "piano", "tiger"],
                  "assassin": ["moon", "engine", "glass"], "covered": ["bank"], "tokens": 5, "top": 2,
                  "history": [{"clue": "weather", "number": 2, "guesses": ["storm"]}],
                  "partner_bystanders": ["shoe"]},
    "guesser": {"role": "guesser", "board": BOARD, "clues": [{"clue": "hospital", "number": 2}],
                "covered": ["robot"], "wrong": ["ship"], "green": ["nurse"], "assassin": ["moon"], "tokens": 4},
    "classic_spymaster": {"game": "classic", "role": "spymaster", "board": BOARD,
                          "team_agents": ["storm", "rainbow", "piano"], "opponent_agents": ["nurse", "doctor"],
                          "assassin": ["moon"], "covered": ["bank"], "top": 2},
    "classic_guesser": {"game": "classic", "role": "guesser", "board": BOARD,
                        "clues": [{"clue": "hospital", "number": 2}], "covered": ["robot"], "guesses": 1,
                        "team_left": 5, "opponent_left": 4},
}
# Mostly guesser requests (fast); spymaster requests take ~100 ms when valid.
KIND_WEIGHTS = {"guesser": 6, "spymaster": 1, "classic_spymaster": 1, "classic_guesser": 3}
WEIRD_TEXT = ["\u0000", "\u202etiger", "\u200f\u05e9\u05dc\u05d5\u05dd", "e\u0301", "\U0001f600", "\ufeffstorm",
              "STORM", " storm ", "ice\tcream", "\u0130stanbul", "\u00df", "x" * 5000, "", "   ", "\n",
              "storm\u0000", "\ufffd", "null", "[]", "{}", "\\", '"', "\u2028"]
WEIGHTS_TEXT = ['NaN', '-NaN', 'Infinity', '-Infinity', '1e999', '-1e999', '1e-999', '9' * 4301, '-' + '9' * 4301,
                '9' * 4300, '1' + '0' * 30, '-1', '0', '1.5', '2.0', '1e2', 'true', 'false', 'null', '""',
                '"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"\\u202e"', '[]', '{}', '[[[]]]',
                '{"a": {"b": {"c": []}}}', '[' * 200 + ']' * 200, '[' * 990 + ']' * 990,
                '{"x":' * 100 + '1' + '}' * 100, '"' + 'a' * 100_000 + '"', '[1, "a", null]',
                '[' + ', '.join(['"storm"'] * 3000) + ']', '12345678901234567890', '-0', '0.0']


@dataclass
class Case:
    data: bytes
    kind: str


def _dumps_with_raw(rng: random.Random, obj: dict, path: list, raw: str) -> str:
    """``obj`` as JSON with the value at ``path`` replaced by the raw JSON text ``raw``."""
    marker = "\u0007MARK\u0007"
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = marker
    return json.dumps(obj, ensure_ascii=rng.random() < 0.5).replace(json.dumps(marker), raw)


def _pick_path(rng: random.Random, req: dict) -> list:
    """A field of ``req`` (each equally likely), or half the time a place inside it."""
    key = rng.choice(list(req))
    inner = _paths(req[key], (key,))
    return rng.choice(inner) if inner and rng.random() < 0.5 else [key]


def _paths(value, prefix=()):
    """Every path into ``value`` (dict keys and list indices)."""
    out = []
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return out
    for k, v in items:
        out.append([*prefix, k])
        if len(out) < 200:
            out.extend(_paths(v, (*prefix, k)))
    return out


def generate(seed: int, n: int) -> list[Case]:
    rng = random.Random(seed)
    kinds = list(KIND_WEIGHTS)
    weights = list(KIND_WEIGHTS.values())
    cases: list[Case] = []
    for i in range(n):
        kind = rng.choices(kinds, weights)[0]
        req = json.loads(json.dumps(BASES[kind]))
        req["id"] = i if rng.random() < 0.5 else f"r{i}"
        roll = rng.random()
        if roll < 0.04:
            cases.append(Case(rng.choice([b"", b"   ", b"\t", b"\r", b"\xef\xbb\xbf"]), "blank"))
            continue
        if roll < 0.45:  # a value replaced by raw JSON text (may not be JSON at all)
            path = _pick_path(rng, req)
            text = _dumps_with_raw(rng, req, path, rng.choice(WEIGHTS_TEXT))
        elif roll < 0.60:  # a value replaced by an odd string or a value of the wrong type
            path = _pick_path(rng, req)
            target = req
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = rng.choice([rng.choice(WEIRD_TEXT), rng.randint(-5, 40), 3.5, None, True,
                                           [rng.choice(WEIRD_TEXT)], {"clue": "x"}, BOARD[::-1]])
            text = json.dumps(req, ensure_ascii=rng.random() < 0.5)
        elif roll < 0.68:  # a field dropped or an unknown one added
            if rng.random() < 0.5:
                req.pop(rng.choice(list(req)))
            else:
                req[rng.choice(["extra", "\u202e", "", "id2"])] = rng.choice(WEIRD_TEXT)
            text = json.dumps(req)
        elif roll < 0.78:  # truncated
            text = json.dumps(req)
            text = text[:rng.randrange(len(text))]
        elif roll < 0.84:  # a byte order mark, or whitespace around
            text = rng.choice(["\ufeff", " ", "\t", "\ufeff "]) + json.dumps(req) + rng.choice(["", " ", "\r"])
        elif roll < 0.92:  # a character inserted, deleted or swapped
            text = json.dumps(req)
            pos = rng.randrange(len(text))
            op = rng.randrange(3)
            ch = rng.choice(['"', "[", "]", "{", "}", ",", ":", "\\", "\u0000", "\ud800", "\u202e", "9", " "])
            text = (text[:pos] + ch + text[pos:] if op == 0 else text[:pos] + text[pos + 1:] if op == 1
                    else text[:pos] + ch + text[pos + 1:])
        elif roll < 0.96:  # not an object at all
            text = rng.choice(["[]", "1", '"x"', "null", "true", "[" * 5000, "{" * 5000, "}", "'x'", "{'id': 1}",
                               json.dumps([req]), "NaN", str(10 ** 50)])
        else:  # bytes that are not UTF-8, or a line over the bound
            raw = json.dumps(req).encode()
            if rng.random() < 0.85:
                pos = rng.randrange(len(raw))
                cases.append(Case(raw[:pos] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"])
                                  + raw[pos:], kind))
            else:
                pad = b" " * (rng.choice([1 << 20, (1 << 20) + 5, 3 << 20]))
                cases.append(Case(raw[:-1] + b', "pad": "' + pad + b'"}', kind))
            continue
        data = text.encode("utf-8", "surrogatepass")
        cases.append(Case(data, kind))
    return cases


def _finite(value) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return False
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return True


def _depth(value) -> int:
    best, stack = 0, [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            best = max(best, d + 1)
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return best


def expected_id(data: bytes):
    """The id a response must echo: the request's, if the line is readable strict JSON
    (UTF-8, at most 1 MiB, no NaN or Infinity, nested at most 64 deep); else None."""
    if len(data) > (1 << 20):
        return None
    try:
        text = data.decode("utf-8")
        obj = json.loads(text[1:] if text.startswith("\ufeff") else text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict) or not _finite(obj) or _depth(obj) > 64:
        return None
    return obj.get("id")


def run_jsonl(data: bytes, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "duetbot", "suggest", "jsonl"], input=data,
                          capture_output=True, timeout=timeout, env=bare_env(PYTHONPATH=SRC))


def test_generator_is_seeded_and_large():
    a, b = generate(13, 10_000), generate(13, 10_000)
    assert [c.data for c in a] == [c.data for c in b]
    assert len(a) >= 10_000
    kinds = {c.kind for c in a}
    assert {"spymaster", "guesser", "classic_spymaster", "classic_guesser", "blank"} <= kinds


@pytest.mark.parametrize("seed", [13])
def test_fuzz_one_process_answers_every_line(seed):
    cases = generate(seed, 10_000)
    assert not any(b"\n" in c.data for c in cases)
    data = b"".join(c.data + b"\n" for c in cases)
    t0 = time.perf_counter()
    proc = run_jsonl(data)
    elapsed = time.perf_counter() - t0
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    assert b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")[-2000:]
    out = proc.stdout.decode("utf-8").split("\n")
    assert out[-1] == ""
    out = out[:-1]
    answered = [c for c in cases if c.data.strip() not in (b"", b"\xef\xbb\xbf")]
    assert len(out) == len(answered)
    problems = []
    results = 0
    for case, line in zip(answered, out):
        resp = json.loads(line, parse_constant=lambda name: pytest.fail(f"{name} in {line[:200]}"))
        assert isinstance(resp, dict) and "id" in resp, line[:200]
        assert ("error" in resp) != ({"clues"} <= set(resp) or {"guesses", "stop_after"} <= set(resp)), line[:200]
        if "error" in resp:
            assert isinstance(resp["error"], str) and "\n" not in resp["error"] and resp["error"]
            if resp["error"].startswith("internal error"):  # a bug, whatever the line held
                problems.append((case.data[:300], resp["error"]))
        else:
            results += 1
        want = expected_id(case.data)
        if resp["id"] != want:
            problems.append((case.data[:300], f"id {resp['id']!r}, expected {want!r}"))
    assert not problems, problems[:10]
    assert results >= 200  # the mutations still leave plenty of real answers
    assert elapsed < 60, elapsed
    print(f"{len(cases)} lines, {len(out)} answers ({results} results) in {elapsed:.1f} s")
