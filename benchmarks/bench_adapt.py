"""Learning the partner during a game: people's games replayed turn by turn, and full games
with adaptation on and off on the same seeds. Prints markdown tables.

    PYTHONPATH=src python benchmarks/bench_adapt.py --part people            # ~1 min
    PYTHONPATH=src python benchmarks/bench_adapt.py --part games --games 500 # ~10 min
    PYTHONPATH=src python benchmarks/bench_adapt.py --quick                  # a small slice (tests)

people. The human Duet dev set (``../shared/data/human-duet-dev/``, never copied into the
   repository; ``--data`` elsewhere), each game's turns in order.
   *Spymaster side*: for every turn after a game's first, the partner model adapted to the
   same game's earlier turns (:func:`duetbot.bots.reader.adapted`, the prior worth
   ``prior_clues`` clues and its stop rates worth twice as many stop decisions) judged by
   the held-out log-likelihood of the human guesser's guesses, beside the unadapted model
   (``prior_clues`` = inf), by turn index. Two priors: the model fitted to people on the
   other folds (5 folds grouped by game) and the spymaster's shipped partner model.
   *Guesser side*: the shipped guesser's P@1 on the human's clue (the game's earlier clues
   and their guesses passed as history, judged by the giver's side), family weights adapted
   or not, by turn index.
games. Leave-one-family-out rotations (the spymaster models the other families, the partner
   guesser is the held-out family with noise), the shipped pair and in-family play, each
   with ``adapt=off`` and adaptation as it ships (the spymaster's; for the shipped pair also
   both roles' and the guesser's alone) on the same seeds; the paired difference in
   win rate with a 95% interval; and how fast the spymaster's posterior settles on one family
   (mean weight of the family it ends up trusting most, by the number of its clues seen).
   ``--extra wordnet`` adds built families as held-out partners (``DUETBOT_MODELS`` naming
   the folder they were built into).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_guesser import DATA, eval_human, human_turns  # noqa: E402
from bench_people import FAMILIES, fit, folds, read_turns, stop_counts  # noqa: E402

from duetbot.bots import factory  # noqa: E402
from duetbot.bots.guesser import GuesserConfig  # noqa: E402
from duetbot.bots.reader import ReaderModel, StopCounts, adapted, log_likelihood, posterior  # noqa: E402
from duetbot.bots.spymaster import spymaster_partner  # noqa: E402
from duetbot.records import GameRecord, Tally  # noqa: E402
from duetbot.rules import Player, Variant  # noqa: E402
from duetbot.simulation import RunSpec, run_local  # noqa: E402
from duetbot.views import spymaster_view  # noqa: E402
from duetbot.wordpool import default_pool  # noqa: E402

PRIOR_CLUES = (math.inf, 16.0, 8.0, 4.0, 2.0, 1.0)
POSITIONS = ("1", "2", "3", "4+")


def _position(k: int) -> str:
    return POSITIONS[min(k, len(POSITIONS)) - 1]


def game_positions(turns: list[dict]) -> list[int]:
    """Each turn's 1-based place among the listed turns of its game, in turn order."""
    order = sorted(range(len(turns)), key=lambda i: (turns[i]["game"], turns[i]["turn"]))
    out, seen = [0] * len(turns), defaultdict(int)
    for i in order:
        seen[turns[i]["game"]] += 1
        out[i] = seen[turns[i]["game"]]
    return out


def _table(title: str, rows: dict[str, dict[str, list[float]]], fmt: str) -> None:
    print(f"| {title} | " + " | ".join(f"turn {p}" for p in POSITIONS) + " | every turn after the first |")
    print("|---|" + "---|" * (len(POSITIONS) + 1))
    for name, by in rows.items():
        later = [x for p in POSITIONS[1:] for x in by.get(p, [])]
        cells = [fmt.format(np.mean(by[p])) + f" ({len(by[p])})" if by.get(p) else "-" for p in POSITIONS]
        print(f"| {name} | " + " | ".join(cells) + f" | {fmt.format(np.mean(later)) if later else '-'} |")


def spymaster_side(turns: list[dict]) -> None:
    rt, kept = read_turns(turns, FAMILIES)
    fold, pos = folds(kept), game_positions(kept)
    stops = [stop_counts([t]) for t in kept]
    earlier = [[j for j in range(len(kept)) if kept[j]["game"] == t["game"] and pos[j] < pos[i]]
               for i, t in enumerate(kept)]
    fitted: dict[int, ReaderModel] = {}
    for k in range(5):
        train = np.flatnonzero(fold != k)
        se, bonus = stop_counts([kept[j] for j in train]).rates()
        fitted[k] = replace(fit(rt.subset(train), FAMILIES), stop_early=se, bonus=bonus)
    priors = {"fitted to people (other folds)": lambda i: fitted[int(fold[i])],
              "spymaster's partner model (shipped)": lambda i: spymaster_partner(FAMILIES)}
    print(f"\n## Spymaster side: people's guesses on the turn, the partner model adapted to the "
          f"game's earlier turns ({len(kept)} turns, {len({t['game'] for t in kept})} games)\n")
    print("Held-out log-likelihood per guess of the human guesser's guesses (ranking and stops), "
          "higher is better; turns counted in brackets.\n")
    rows: dict[str, dict[str, list[float]]] = {}
    settings = [(a, False) for a in PRIOR_CLUES] + [(2.0, True)]
    for name, prior_of in priors.items():
        for a, learn_lapse in settings:
            by: dict[str, list[float]] = defaultdict(list)
            for i in range(len(kept)):
                m = prior_of(i)
                if earlier[i] and math.isfinite(a):
                    seen = earlier[i]
                    counts = StopCounts(*(tuple(map(sum, zip(*(getattr(stops[j], f) for j in seen))))
                                          for f in ("below", "at", "above")))
                    m = adapted(m, posterior(rt.subset(np.array(seen)), m), a, counts, 2 * a, learn_lapse)
                n = int((rt.guesses[i] >= 0).sum())
                ll = float(log_likelihood(rt.subset(np.array([i])), m)[0]) + stops[i].log_likelihood(m)
                by[_position(pos[i])].extend([ll / n] * n)
            label = "not adapted" if not math.isfinite(a) else f"adapted, prior = {a:g} clues" + \
                (", lapse learnt too" if learn_lapse else "")
            rows[f"{name}: {label}"] = by
    _table("model", rows, "{:.3f}")


def guesser_side(turns: list[dict], prior_clues: tuple[float, ...]) -> None:
    pos = dict(zip((t["id"] for t in turns), game_positions(turns)))
    print("\n## Guesser side: the shipped guesser's P@1 on people's clues, with the game's earlier "
          "clues as history, family weights adapted to how they turned out or not\n")
    rows: dict[str, dict[str, list[float]]] = {}
    for a in (math.inf, *prior_clues):
        cfg = GuesserConfig(adapt=math.isfinite(a), adapt_prior_clues=a if math.isfinite(a) else 4.0)
        r = eval_human(turns, factory.DEFAULT_GUESSER_MODELS, cfg, history=True)
        by: dict[str, list[float]] = defaultdict(list)
        for i, p1 in zip(r["ids"], r["p1"]):
            by[_position(pos[i])].append(100 * p1)
        rows["not adapted" if not math.isfinite(a) else f"adapted, prior = {a:g} clues"] = by
    _table("guesser (P@1 %)", rows, "{:.1f}")


def _paired(on: list[bool], off: list[bool]) -> str:
    d = np.array(on, float) - np.array(off, float)
    half = 1.96 * d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else math.nan
    return f"{100 * d.mean():+.1f} ± {100 * half:.1f}"


def _play(spec: str, pool: tuple[str, ...], games: int, workers: int, seed: int) -> tuple[Tally, list]:
    p = factory.PartnerSpec.parse(spec)
    results = list(run_local(RunSpec(seed, p, p, pool, Variant()), games, workers=workers))
    return Tally(results), results


def settling(results: list, names: tuple[str, ...], games: int = 60) -> str:
    """Mean weight of the family the spymaster trusts most at the end, by its clues seen."""
    spy = factory.spymaster(names)
    weights: dict[int, list[np.ndarray]] = defaultdict(list)
    for r in results[:games]:
        state = GameRecord.from_json(json.loads(r.line)).replay()
        for player in (Player.A, Player.B):
            view = spymaster_view(state, player)
            mine = [k for k, t in enumerate(view.turns) if t.giver == player and t.clue.number > 0 and t.guesses]
            for n, k in enumerate(mine, start=1):
                weights[n].append(np.array(spy.adapted_partner(replace(view, turns=view.turns[:k + 1])).weights))
    if not weights:
        return "-"
    last = max(weights)
    final = np.mean([w for n in weights for w in weights[n] if n == last] or weights[1], axis=0)
    top = int(np.argmax(final))
    prior = 100 * spy.partner.weights[top]
    trail = ", ".join(f"{n}: {100 * np.mean([w[top] for w in weights[n]]):.0f}%" for n in sorted(weights)[:6])
    return f"{names[top]} ({prior:.0f}% prior; after clues {trail})"


def part_games(games: int, workers: int, extra: tuple[str, ...], seed: int) -> None:
    print(f"\n## Full games, adaptation off and on, same seeds ({games} games per row, partner noise 0.3)\n")
    print("| pairing | win off | win on | paired difference (points) | assassin off | assassin on "
          "| spymaster's posterior settles on |")
    print("|---|---|---|---|---|---|---|")
    diffs: dict[str, list[tuple[list[bool], list[bool]]]] = defaultdict(list)
    # kind, the spymaster's families, the guesser's (None: the shipped pair), the adapt key
    # of the "on" games (None: the bots as they ship)
    rows: list[tuple[str, tuple[str, ...], str | None, str | None]] = []
    for g in (*FAMILIES, *extra):
        rows.append(("LOFO", tuple(f for f in FAMILIES if f != g), g, None))
    rows += [("in-family", FAMILIES, g, None) for g in FAMILIES]
    rows += [("shipped pair", factory.DEFAULT_MODELS, None, on) for on in (None, "on", "guesser")]
    played: dict[str, tuple[Tally, list]] = {}
    for kind, names, g, on_mode in rows:
        label = f"(adapt={on_mode or 'as shipped'})" if g is None else f"{'+'.join(names)} -> {g}"
        base = "" if g is None else f"spymaster={'+'.join(names)},guesser={g},noise=0.3"
        off_spec = ",".join(x for x in (base, "adapt=off") if x)
        on_spec = ",".join(x for x in (base, on_mode and f"adapt={on_mode}") if x) or "default"
        # a family without a fallback plays the pool words it knows
        pool = default_pool() if g is None or g not in factory.NO_FALLBACK_FAMILIES else \
            tuple(w for w in default_pool() if factory.model(g).knows(w))
        if off_spec not in played:
            played[off_spec] = _play(off_spec, pool, games, workers, seed)
        off, r_off = played[off_spec]
        on, r_on = _play(on_spec, pool, games, workers, seed)
        won_on, won_off = [r.won for r in r_on], [r.won for r in r_off]
        diffs[kind].append((won_on, won_off))
        so, sn = off.summary(), on.summary()
        where = settling(r_on, names) if kind == "LOFO" else ""
        print(f"| {kind} {label} | {100 * so.win.value:.1f} | {100 * sn.win.value:.1f} | {_paired(won_on, won_off)} | "
              f"{100 * so.assassin.value:.1f} | {100 * sn.assassin.value:.1f} | {where} |", flush=True)
    for kind, pairs in diffs.items():
        if kind == "shipped pair":
            continue
        on_all = [w for on, _ in pairs for w in on]
        off_all = [w for _, off in pairs for w in off]
        print(f"| **{kind} mean** ({len(pairs)} rows) | {100 * np.mean(off_all):.1f} | {100 * np.mean(on_all):.1f} | "
              f"{_paired(on_all, off_all)} | | | |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", default="people", choices=["all", "people", "games"])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--extra", default="", help="built families to add as held-out partners, e.g. wordnet")
    ap.add_argument("--quick", action="store_true", help="a small slice (tests)")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    if a.part in ("all", "people"):
        turns = human_turns(a.data, 40 if a.quick else None)
        if turns is not None:
            if not a.quick:
                spymaster_side(turns)
            guesser_side(turns, (4.0,) if a.quick else (8.0, 4.0, 2.0, 1.0))
    if a.part in ("all", "games"):
        part_games(8 if a.quick else a.games, 1 if a.quick else a.workers,
                   tuple(x for x in a.extra.split(",") if x), a.seed)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
