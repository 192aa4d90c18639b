"""Strength of the bots in full Duet games: self-play, cross-play, leave-one-family-out.

A bot whose partner shares its embedding wins almost always, so self-play alone says little.
Each row pairs a spymaster (the families it models its partner with) with a partner guesser
of some families plus perception noise. The figure that counts is leave-one-family-out: the
spymaster never saw the guesser's family (DESIGN.md).

Both players of a game use the same pairing (A and B each give clues to a partner guesser
of the listed kind), so every clue in the game is read by that kind of guesser. A row is one
partner spec for both players (``spymaster=...,guesser=...,noise=...``), played by the
simulation engine (:class:`~duetbot.simulation.RunSpec`, :func:`~duetbot.simulation.run_local`)
as ``duetbot simulate`` plays it.

The ``partner`` rows are closer to a game with a person: player A is the bot without one
family (its spymaster models the other two, its guesser reads with them and ``eat``, as the
shipped guesser does), player B a partner of that family in both roles, with noise. There
the bot's guesser is measured too: it reads clues made for another mind. The
``threshold`` rows give it the clues of a plain one-family clue bot of the published kind
(:mod:`duetbot.bots.threshold`, Kim et al. 2019), beside a reader of that same family; the
second table says how each player's guesser read the other's clues (issue 29: how our
guesser fares with clues made by a mind unlike its own, and what learning the partner buys).

    python benchmarks/bench_strength.py --games 500            # all rows
    python benchmarks/bench_strength.py --games 100 --rows lofo
    python benchmarks/bench_strength.py --games 100 --rows threshold
"""

from __future__ import annotations

import argparse
import sys
import time

from duetbot.bots.factory import PartnerSpec
from duetbot.records import GameRecord, GameResult, Tally
from duetbot.rules import GuessResult, Player, Turn, Variant
from duetbot.simulation import RunSpec, run_local
from duetbot.wordpool import default_pool

FAMILIES = ("glove50", "spacy300", "minilm")


def rows(kind: str, noise: float) -> list[tuple[str, str] | tuple[str, str, str]]:
    """(label, the partner spec both players use) for each row of ``kind``, or (label,
    player A's spec, player B's)."""
    out: list[tuple[str, str] | tuple[str, str, str]] = []
    every = "+".join(FAMILIES)
    if kind in ("all", "self"):
        out.append(("shipped pair: mixture(3 embeddings) -> combined(3 embeddings + eat)", "default"))
        out.append(("mixture(3 embeddings) -> combined(3 embeddings)", f"model={every}"))
        for f in FAMILIES:
            out.append((f"self-play {f}", f"model={f}"))
    if kind in ("all", "cross"):
        for s in FAMILIES:
            for g in FAMILIES:
                if s != g:
                    out.append((f"cross {s} -> {g}+noise", f"spymaster={s},guesser={g},noise={noise}"))
    if kind in ("all", "lofo"):
        for g in FAMILIES:
            rest = "+".join(f for f in FAMILIES if f != g)
            out.append((f"LOFO mixture({rest}) -> {g}+noise", f"spymaster={rest},guesser={g},noise={noise}"))
        for g in FAMILIES:
            out.append((f"in-family mixture(all) -> {g}+noise", f"spymaster={every},guesser={g},noise={noise}"))
    if kind in ("all", "partner"):
        for g in FAMILIES:
            rest = "+".join(f for f in FAMILIES if f != g)
            out.append((f"bot without {g} with a {g}+noise partner (both roles)",
                        f"spymaster={rest},guesser={rest}+eat", f"model={g},noise={noise}"))
    if kind in ("all", "threshold"):
        for g in FAMILIES:
            plain = f"bot=threshold,model={g},noise={noise}"
            out.append((f"shipped bot with a threshold {g} clue bot ({g}+noise reader)", "default", plain))
            out.append(("  same, its guesser not learning the partner (adapt=spymaster)", "adapt=spymaster", plain))
            out.append((f"  a {g}+noise reader instead", f"model={g},noise={noise}", plain))
    return out


def run_row(spec: str, games: int, variant: str, workers: int, seed: int = 2026, spec_b: str | None = None) -> Tally:
    """``games`` games of one row on the simulation engine (the same games whatever ``workers``);
    ``spec_b``: player B's spec when it is not ``spec``."""
    return Tally(run_records(spec, games, variant, workers, seed, spec_b))


def run_records(spec: str, games: int, variant: str, workers: int, seed: int = 2026,
                spec_b: str | None = None) -> list[GameResult]:
    partner = PartnerSpec.parse(spec)
    run = RunSpec(seed, partner, PartnerSpec.parse(spec_b) if spec_b else partner, default_pool(), Variant.parse(variant))
    return list(run_local(run, games, workers=workers))


def replayed(records: list[GameResult]) -> list[tuple[Turn, ...]]:
    """Each game's turns, replayed once for the figures below."""
    return [tuple(GameRecord.loads(r.line).replay().turns) for r in records]


def after_misses(games: list[tuple[Turn, ...]]) -> tuple[float, float, float]:
    """(mean clue number, share of clues that are 4s, share of a giver's clues after the
    partner misread their previous one (a miss within its number) that are bigger than it),
    over all games."""
    numbers, bolder, after = [], 0, 0
    for turns in games:
        last: dict = {}
        for t in turns:
            numbers.append(t.clue.number)
            prev = last.get(t.giver)
            if prev is not None and any(res is not GuessResult.GREEN for _, res in prev.guesses[:prev.clue.number]):
                after += 1
                bolder += t.clue.number > prev.clue.number
            last[t.giver] = t
    n = max(len(numbers), 1)
    return sum(numbers) / n, sum(x == 4 for x in numbers) / n, bolder / max(after, 1)


def reading(games: list[tuple[Turn, ...]], giver: Player) -> dict[str, float]:
    """How ``giver``'s clues were read by the other player's guesser, per clue with a number:
    the first guess green, greens found, a miss within the number (misread), the assassin
    touched, and guesses past the clue's number."""
    n = first = greens = misread = assassin = past = 0
    for turns in games:
        for t in turns:
            if t.giver is not giver or t.clue.number == 0 or not t.guesses:
                continue
            res = [x for _, x in t.guesses]
            n += 1
            first += res[0] is GuessResult.GREEN
            greens += sum(x is GuessResult.GREEN for x in res)
            misread += any(x is not GuessResult.GREEN for x in res[:t.clue.number])
            assassin += GuessResult.ASSASSIN in res
            past += len(res) > t.clue.number
    d = max(n, 1)
    return {"clues": n, "first": first / d, "greens": greens / d, "misread": misread / d,
            "assassin": assassin / d, "past": past / d}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rows", default="all", choices=["all", "self", "cross", "lofo", "partner", "threshold"])
    ap.add_argument("--noise", type=float, default=0.3)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    print(f"{a.games} games per row, variant {a.variant}, partner noise {a.noise}")
    reads: list[tuple[str, dict[str, float], dict[str, float]]] = []
    print("| pairing | win % | assassin % | sudden-death loss % | tokens left (wins) | score (wins) | turns | "
          "mean number | 4s % | bigger after a misread % | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, spec, *spec_b in rows(a.rows, a.noise):
        t = time.perf_counter()
        records = run_records(spec, a.games, a.variant, a.workers, spec_b=spec_b[0] if spec_b else None)
        s = Tally(records).summary()
        games = replayed(records)
        mean, fours, bolder = after_misses(games)
        print(f"| {name} | {100 * s.win.value:.1f} | {100 * s.assassin.value:.1f} | "
              f"{100 * s.sudden_death_loss.value:.1f} | {s.mean_tokens_left_on_win:.2f} | "
              f"{s.mean_score_on_win:.2f} | {s.mean_turns:.2f} | {mean:.2f} | {100 * fours:.1f} | "
              f"{100 * bolder:.1f} | {time.perf_counter() - t:.0f} |", flush=True)
        if spec_b:
            reads.append((name, reading(games, Player.B), reading(games, Player.A)))
    if reads:
        print("\nHow each player's guesser read the other's clues (per clue with a number): A reads B's "
              "clues | B reads A's")
        print("| pairing | clues | first green % | greens | misread % | assassin % | past the number % | "
              "clues | first green % | greens | misread % | assassin % | past the number % |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for name, ab, ba in reads:
            cells = [f"{d['clues']} | {100 * d['first']:.1f} | {d['greens']:.2f} | {100 * d['misread']:.1f} | "
                     f"{100 * d['assassin']:.1f} | {100 * d['past']:.1f}" for d in (ab, ba)]
            print(f"| {name} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
