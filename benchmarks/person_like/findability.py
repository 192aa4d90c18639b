"""Does anything the spymaster knows predict whether a person finds a target?

Issue 36 asked for "a model of *a person finds this target*, fitted on some boards and checked
on others". The data: every target of every clue, with whether its reader guessed it:

- ``dev``: people's clues in the human development split (``../shared/data/human-duet-dev/``,
  read from there, never copied), targets as the giver meant them, read by a person;
- ``games``: the bot's clues in the person-like full games (``games/``), targets as the
  spymaster of the code on ``PYTHONPATH`` names them (clues it does not give again are left
  out), read by the person-like player.

Each target's features are what the linked-target rule reads: in each of the spymaster's
families, how far the target's z stands above the most tempting word not the giver's to find
(``gap``), and whether it is the clue's first target or a later one. A logistic model is fitted
on one source and scored on the other (AUC, log loss, calibration of the later targets), for
the link as the rule reads it (the worst family), the families' mean, and each family.

    PYTHONPATH=src python benchmarks/person_like/findability.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from duetbot.bots.factory import default_bots
from duetbot.rules import Clue, Guess, Player, State
from duetbot.saves import load_saved
from duetbot.views import spymaster_view
from duetbot.words import word_key

HERE = Path(__file__).resolve().parent
DEV = HERE.parents[2] / "shared" / "data" / "human-duet-dev" / "turns.jsonl"
VERSIONS = ("old", "new", "new2")


def target_rows(spymaster, clue: str, board: list[str], targets: list[str], others: list[str],
                found: list[bool]) -> list[dict]:
    """One row per target: each family's gap over the most tempting of ``others``, its rank
    among the clue's targets (by the families' mean z), whether it was found."""
    ens = spymaster.ensemble
    try:
        z = ens.clue_z(clue, ens.board(board))
    except ValueError:
        return []
    at = {word_key(w): i for i, w in enumerate(board)}
    ti, oi = [at[word_key(t)] for t in targets], [at[word_key(w)] for w in others]
    if not oi or np.isnan(z[:, ti]).any():
        return []
    worst = np.nanmax(z[:, oi], axis=1)
    order = sorted(range(len(ti)), key=lambda j: -float(np.nanmean(z[:, ti[j]])))
    return [{"rank": r, "found": bool(found[j]), "gaps": (z[:, ti[j]] - worst).tolist()} for r, j in enumerate(order)]


def dev_rows(spymaster) -> list[dict]:
    rows = []
    for t in map(json.loads, DEV.read_text().splitlines()):
        targets = [w for w in t.get("targets", ()) if w in t["remaining"]]
        if t["number"] < 1 or not targets:
            continue
        others = [w for w in t["remaining"] if w in t.get("black", ()) or w in t.get("tan", ())]
        guessed = {word_key(g) for g in t["human_guesses"]}
        rows += target_rows(spymaster, t["clue"], t["board"], targets, others, [word_key(w) in guessed for w in targets])
    return rows


def game_rows(spymaster) -> list[dict]:
    rows = []
    for v in VERSIONS:
        for save in sorted((HERE / "games" / v).glob("*.json")):
            state = load_saved(save).state
            replay = State(state.deal, state.variant)
            for i, ev in enumerate(state.events):
                if ev.player is Player.B and isinstance(ev.action, Clue) and ev.action.number >= 1:
                    view = spymaster_view(replay, Player.B)
                    option = next((o for o in spymaster.suggest(view, top=8) if o.clue == ev.action), None)
                    if option is not None:
                        guessed = set()
                        for later in state.events[i + 1:]:
                            if later.player is not Player.A or not isinstance(later.action, Guess):
                                break
                            guessed.add(later.action.word)
                        pos = spymaster.position(view)
                        others = [view.words[j] for j, lab in zip(pos.eligible, pos.labels) if lab != 0]
                        rows += target_rows(spymaster, option.clue.word, list(view.words), list(option.targets),
                                            others, [t in guessed for t in option.targets])
                replay.apply(ev.action, ev.player)
    return rows


def features(rows: list[dict], kind: str, families: int) -> np.ndarray:
    g = np.array([r["gaps"] for r in rows])
    later = np.array([r["rank"] > 0 for r in rows], float)
    cols = {"worst family (the rule)": [g.min(1)], "families' mean": [g.mean(1)]}
    cols.update({f"family {f}": [g[:, f]] for f in range(families)})
    return np.column_stack([*cols[kind], later])


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 3000) -> np.ndarray:
    """Logistic regression by gradient descent (a few features; no library needed)."""
    xb = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(xb.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        w -= 0.5 * (xb.T @ (p - y) + l2 * np.r_[0, w[1:]]) / len(y)
    return w


def predict(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.column_stack([np.ones(len(x)), x]) @ w))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    pos, neg = p[y == 1], p[y == 0]
    return float((pos[:, None] > neg[None]).mean() + 0.5 * (pos[:, None] == neg[None]).mean())


def main() -> int:
    if not DEV.exists():
        print(f"SKIPPED: no human Duet data at {DEV}")
        return 0
    spymaster = default_bots()[0]
    names = spymaster.ensemble.names
    sources = {"dev": dev_rows(spymaster), "games": game_rows(spymaster)}
    for name, rows in sources.items():
        later = [r["found"] for r in rows if r["rank"] > 0]
        first = [r["found"] for r in rows if r["rank"] == 0]
        print(f"{name}: {len(rows)} targets; first targets found {np.mean(first):.2f} ({len(first)}), "
              f"later targets {np.mean(later):.2f} ({len(later)})")
    kinds = ["worst family (the rule)", "families' mean", *(f"family {f}" for f in range(len(names)))]
    print("\n| features (+ first or later target) | fitted on | scored on | AUC, all targets | AUC, later targets "
          "| log loss | later targets: predicted, found |")
    print("|---|---|---|---|---|---|---|")
    for kind in kinds:
        label = kind if not kind.startswith("family ") else f"gap in {names[int(kind.split()[1])]}"
        for a, b in (("dev", "games"), ("games", "dev")):
            tr, te = sources[a], sources[b]
            y, yt = np.array([r["found"] for r in tr], float), np.array([r["found"] for r in te], float)
            p = predict(fit(features(tr, kind, len(names)), y), features(te, kind, len(names)))
            later = np.array([r["rank"] > 0 for r in te])
            ll = -np.mean(yt * np.log(np.clip(p, 1e-6, 1)) + (1 - yt) * np.log(np.clip(1 - p, 1e-6, 1)))
            print(f"| {label} | {a} | {b} | {auc(p, yt):.3f} | {auc(p[later], yt[later]):.3f} | {ll:.3f} | "
                  f"{p[later].mean():.2f}, {yt[later].mean():.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
