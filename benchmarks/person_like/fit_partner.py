"""Fit the spymaster's partner model to how person-like players read the bot's own clues.

    PYTHONPATH=src python benchmarks/person_like/fit_partner.py
    PYTHONPATH=src python benchmarks/person_like/fit_partner.py --fit new5 --report heldout

Every guess the players of ``games/`` made on the bot's clues, in order (the words in play at
the time, the clue read by the spymaster's families with the association table's lift), is one
observation of the partner model (:mod:`duetbot.bots.reader`): every family equally likely (the
spymaster's prior), a temperature and a lapse fitted by maximum likelihood on the games of the
``--fit`` folders (by default deals 101-120, every round) and judged on those of ``--report``
(deals 201-220). The same log-likelihood is given on people's own guesses on the development
split (``../shared/data/human-duet-dev``, read from there, never copied), and the stop rates
are counted both ways. Then calibration: at each bot clue of the report games, the chance of
greens, a bystander and the assassin the spymaster's simulation gives that clue under each
partner model (the shipped one, the fitted one), against what the players did.

The fitted model was tried as the spymaster's partner model and not shipped: it sees the risk
the players take, but the bot it makes clues too cautiously for Duet's clock (benchmarks/
RESULTS.md, "A partner model fitted to the players, tried").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_people import fit, read_turns, stop_counts  # noqa: E402
from summarize_games import BOT, read_folder  # noqa: E402

from duetbot.bots import factory  # noqa: E402
from duetbot.bots.reader import ReaderModel, ReadTurns, StopCounts, history_reads, log_likelihood  # noqa: E402
from duetbot.bots.spymaster import EmbeddingSpymaster, SpymasterConfig  # noqa: E402
from duetbot.bots.spymaster.config import PEOPLE, spymaster_partner  # noqa: E402
from duetbot.rules import Clue, GuessResult, State  # noqa: E402
from duetbot.views import spymaster_view  # noqa: E402

GAMES = HERE / "games"
PEOPLE_TURNS = HERE.parents[2] / "shared" / "data" / "human-duet-dev" / "turns.jsonl"
FIT = ("old", "new", "new2", "new3", "new4", "new5")
GRID = (0.2, 0.3, 0.4, 0.5, 0.6, 0.8)


def bot_clue_reads(folders, ens) -> tuple[ReadTurns, StopCounts]:
    """The players' guesses on the bot's clues in the games of ``folders``, and their stops."""
    parts, stops = [], []
    for folder in folders:
        games, _ = read_folder(GAMES / folder)
        for state, _ in games:
            sims = ens.board(state.words)
            rt, _ = history_reads(state.turns, state.words, BOT, lambda w: ens.clue_z(w, sims))
            if len(rt):
                parts.append(rt)
            stops += [(t.clue.number, [r is GuessResult.GREEN for _, r in t.guesses])
                      for t in state.turns if t.giver is BOT and t.clue.number > 0 and t.guesses]
    return (ReadTurns(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("z", "alive", "guesses"))),
            StopCounts.count(stops))


def per_guess(rt: ReadTurns, model: ReaderModel) -> float:
    return float(log_likelihood(rt, model).sum() / (rt.guesses >= 0).sum())


def calibration(folders, ens, partners: dict[str, ReaderModel]) -> dict[str, dict[str, float]]:
    """Per partner model: summed chances of (greens found, bystander, assassin) at each bot clue
    of the games, and what the players did (``players``)."""
    spies = {name: EmbeddingSpymaster(ens, SpymasterConfig(partner=p)) for name, p in partners.items()}
    out = {name: np.zeros(3) for name in [*partners, "players"]}
    clues = 0
    for folder in folders:
        games, _ = read_folder(GAMES / folder)
        for state, _ in games:
            replay = State(state.deal, state.variant)
            turns = iter(state.turns)
            for ev in state.events:
                if isinstance(ev.action, Clue):
                    t = next(turns)
                    c = ens.index.get(t.clue.word.lower())
                    if t.giver is BOT and t.clue.number > 0 and t.guesses and c is not None:
                        view = spymaster_view(replay, BOT)
                        k = min(t.clue.number, 4) - 1
                        for name, sp in spies.items():
                            v = sp.valuation(sp.position(view), np.array([c]))
                            out[name] += [v.found[0, k], v.p_bystander[0, k], v.p_assassin[0, k]]
                        results = [r for _, r in t.guesses]
                        greens = next((i for i, r in enumerate(results) if r is not GuessResult.GREEN), len(results))
                        out["players"] += [greens, GuessResult.BYSTANDER in results, GuessResult.ASSASSIN in results]
                        clues += 1
                replay.apply(ev.action, ev.player)
    return {name: {"clues": clues, "greens": round(float(x[0]), 1), "bystander": round(float(x[1]), 1),
                   "assassin": round(float(x[2]), 1)} for name, x in out.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fit", default=",".join(FIT), help="games/ folders to fit on (default: deals 101-120)")
    ap.add_argument("--report", default="heldout", help="games/ folders to report on (default: deals 201-220)")
    ap.add_argument("--json", type=Path, metavar="OUT", help="also write the figures as JSON to OUT")
    args = ap.parse_args(argv)
    families = factory.DEFAULT_MODELS
    ens = factory.ensemble(families)
    fit_rt, fit_stops = bot_clue_reads(args.fit.split(","), ens)
    rep_rt, rep_stops = bot_clue_reads(args.report.split(","), ens)
    fitted = fit(fit_rt, families, weights=False)
    temperature, lapse = fitted.temperature, fitted.lapse
    out: dict[str, object] = {
        "fit": {"clues": len(fit_rt), "guesses": int((fit_rt.guesses >= 0).sum()), "stops": fit_stops.rates()},
        "report": {"clues": len(rep_rt), "guesses": int((rep_rt.guesses >= 0).sum()), "stops": rep_stops.rates()},
        "fitted": {"temperature": round(temperature, 3), "lapse": round(lapse, 4)},
    }
    print(f"fit: {out['fit']}\nreport: {out['report']}\nfitted temperature {temperature:.3f}, lapse {lapse:.4f}")
    people = None
    if PEOPLE_TURNS.exists():
        turns = [json.loads(line) for line in PEOPLE_TURNS.read_text(encoding="utf-8").splitlines() if line.strip()]
        people, kept = read_turns(turns, families)
        out["people"] = {"clues": len(people), "guesses": int((people.guesses >= 0).sum()),
                         "stops": stop_counts(kept).rates()}
        print(f"people (development split): {out['people']}")
    else:
        print(f"people's turns not found at {PEOPLE_TURNS}: their figures are left out")
    w = tuple(1 / len(families) for _ in families)
    print("\nlog-likelihood a guess, every family equally likely, lapse", PEOPLE.lapse)
    print(f"{'temperature':>11} {'fit':>7} {'report':>7} {'people':>7}")
    grid = {}
    for t in sorted({*GRID, round(temperature, 2)}):
        m = ReaderModel(families, w, t, PEOPLE.lapse)
        row = [per_guess(fit_rt, m), per_guess(rep_rt, m)] + ([per_guess(people, m)] if people is not None else [])
        grid[str(t)] = [round(x, 3) for x in row]
        print(f"{t:>11} " + " ".join(f"{x:7.3f}" for x in row))
    out["log_likelihood"] = grid
    shipped = spymaster_partner(families)
    stop_early, bonus = fit_stops.rates()
    partners = {f"temperature {shipped.temperature:g} (shipped)": shipped,
                f"temperature {temperature:.2f} (fitted)": ReaderModel(families, w, temperature, lapse, stop_early, bonus)}
    cal = calibration(args.report.split(","), ens, partners)
    out["calibration"] = cal
    print("\nthe bot's clues in the report games: expected by the simulation against what the players did")
    for name, row in cal.items():
        print(f"  {name:28s} greens before a miss {row['greens']:6.1f}  bystander {row['bystander']:5.1f}  "
              f"assassin {row['assassin']:4.1f}  ({row['clues']} clues)")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
