"""Clue latency of the default spymaster, side by side with a naive baseline.

- first turn: a new board (the clue-vocabulary x board similarity matrices are computed);
- later turns: the same board with some words covered (only masks change);
- naive: what published bots do: a Python loop over every candidate clue and every board
  word computing each cosine (numpy on single vectors), then the best margin clue.
  It is run on the same candidates and boards, in the same process.

    python benchmarks/bench_spymaster.py --boards 30
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from duetbot.bots.factory import default_bots
from duetbot.rules import Player, State, deal
from duetbot.views import spymaster_view
from duetbot.wordpool import default_pool


def naive_clue(ensemble, view) -> tuple[str, int]:
    """A loop over candidates and board words, one cosine at a time."""
    models = ensemble.models
    board = [m.vectors(view.words) if all(m.knows(w) for w in view.words) else None for m in models]
    greens = list(view.greens_left)
    bad = [i for i in view.visible if i not in view.greens_left]
    best, best_score = ("", 1), -1e9
    for c, word in enumerate(ensemble.clue_words):
        sims = []
        for f, m in enumerate(models):
            if board[f] is None:
                continue
            v = ensemble.clue_vectors[f][c]
            sims.append([float(np.dot(v, board[f][i]) / (np.linalg.norm(v) * np.linalg.norm(board[f][i])))
                         for i in range(len(view.words))])
        s = np.mean(sims, axis=0)
        g = sorted((s[i] for i in greens), reverse=True)
        worst = max(s[i] for i in bad)
        for k in range(1, min(4, len(g)) + 1):
            score = k * (g[k - 1] - worst)
            if score > best_score:
                best_score, best = score, (word, k)
    return best


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(xs, q))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--naive-boards", type=int, default=3)
    a = ap.parse_args()
    spy, _ = default_bots()
    pool = default_pool()
    # Warm the per-word legality cache on the whole pool once, as a long session would.
    spy.give_clue(spymaster_view(State(deal(10**6, pool)), Player.A))
    first, later, views = [], [], []
    spy.ensemble._cache_size = a.boards + 1   # a game keeps its board's matrices: so do we
    for b in range(a.boards):
        state = State(deal(b, pool))
        t = time.perf_counter()
        spy.give_clue(spymaster_view(state, Player.A))
        first.append(time.perf_counter() - t)
        for i in list(state.deal.key.all_greens())[:6]:
            state.covered_green.add(i)
        views.append(spymaster_view(state, Player.A))
    for view in views:   # later turns: same boards, some words covered, only masks change
        for _ in range(3):
            t = time.perf_counter()
            spy.give_clue(view)
            later.append(time.perf_counter() - t)
    naive = []
    for b in range(a.naive_boards):
        view = spymaster_view(State(deal(b, pool)), Player.A)
        t = time.perf_counter()
        naive_clue(spy.ensemble, view)
        naive.append(time.perf_counter() - t)
    ms = 1000
    print(f"clue candidates: {len(spy.ensemble.clue_words)}, families: {', '.join(spy.ensemble.names)}")
    print("| measure | median ms | p95 ms |")
    print("|---|---|---|")
    print(f"| first turn (matrices included), {len(first)} boards | {ms * statistics.median(first):.1f} | {ms * pct(first, 95):.1f} |")
    print(f"| later turn, {len(later)} clues | {ms * statistics.median(later):.1f} | {ms * pct(later, 95):.1f} |")
    print(f"| naive loop, {len(naive)} boards | {ms * statistics.median(naive):.0f} | {ms * pct(naive, 95):.0f} |")
    print(f"\nlater turn vs naive: {statistics.median(naive) / statistics.median(later):.0f}x faster; "
          f"first turn vs naive: {statistics.median(naive) / statistics.median(first):.0f}x faster")


if __name__ == "__main__":
    main()
