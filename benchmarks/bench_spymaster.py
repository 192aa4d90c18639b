"""Clue latency of the default spymaster, side by side with a naive baseline.

- first turn: a new board (the clue-vocabulary x board similarity matrices are computed), of
  words the spymaster has seen before, and of words new to it (their clue legality checked);
- later turns: the same board with some words covered (only masks change);
- mid-game turns: the default pair played to player A's fourth clue, so the spymaster
  learns its partner from three clues of history (``SpymasterConfig.adapt``), beside the
  same views with adaptation off;
- floor: one BLAS product of the clue vocabulary with the board per family, the least a
  first turn can cost;
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

from dataclasses import replace

from duetbot.bots.factory import PartnerSpec, default_bots
from duetbot.bots.spymaster import EmbeddingSpymaster
from duetbot.harness.duet import step
from duetbot.rules import Phase, Player, State, deal
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


# bench_versions.py runs this file against older revisions too: the few internals it touches
# are reached through these, in each revision's own shape.

def keep_boards(spy: EmbeddingSpymaster, n: int) -> None:
    """Check every pool word's legality now (builds the strict index) and keep ``n`` boards."""
    pool = default_pool()
    if hasattr(spy, "words"):
        spy.words.forbid(pool)
    else:                       # before issue 35
        spy._illegal(pool)
    if hasattr(spy.ensemble, "board_cache"):
        spy.ensemble.board_cache.size = n
    else:
        spy.ensemble._cache_size = n


def without_adapt(cfg):
    """The config with the partner learning off (a bool field before issue 35)."""
    if isinstance(cfg.adapt, bool):
        return replace(cfg, adapt=False)
    return replace(cfg, adapt=replace(cfg.adapt, enabled=False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--naive-boards", type=int, default=3)
    a = ap.parse_args()
    spy, _ = default_bots()
    pool = default_pool()
    # A spymaster checks each board word's clue legality once per process: a new word costs
    # about 0.3 ms (6-8 ms for a board of new words), a word seen before nothing (its first
    # two boards are checked only for the candidates its search reaches). The first turns are
    # measured both ways: with every pool word seen before (a long session, a simulation),
    # and on boards of words new to the spymaster (its first boards).
    fresh = EmbeddingSpymaster(spy.ensemble, spy.config)
    keep_boards(spy, 2 * a.boards + 1)   # a game keeps its board's matrices: so do we
    first, first_new, later, views = [], [], [], []
    for b in range(a.boards):
        for bot, out, seed in ((spy, first, b), (fresh, first_new, 10**5 + b)):
            state = State(deal(seed, pool))
            t = time.perf_counter()
            bot.give_clue(spymaster_view(state, Player.A))
            out.append(time.perf_counter() - t)
        state = State(deal(b, pool))
        for i in list(state.deal.key.all_greens())[:6]:
            state.covered_green.add(i)
        views.append(spymaster_view(state, Player.A))
    for view in views:   # later turns: same boards, some words covered, only masks change
        for _ in range(3):
            t = time.perf_counter()
            spy.give_clue(view)
            later.append(time.perf_counter() - t)
    mid = []
    partners = [PartnerSpec().build(1), PartnerSpec().build(2)]
    for b in range(a.boards):   # mid-game: A about to give its fourth clue
        state = State(deal(b, pool))
        while not state.is_over() and not (state.phase is Phase.CLUE and state.mover() is Player.A
                                             and sum(t.giver is Player.A for t in state.turns) >= 3):
            step(state, partners)
        if not state.is_over():
            mid.append(spymaster_view(state, Player.A))
    fixed = EmbeddingSpymaster(spy.ensemble, without_adapt(spy.config))
    adapt_on, adapt_off, update = [], [], []
    for view in mid:
        fixed.give_clue(view)   # its own legality cache, warmed as the default's was
        for _ in range(3):
            for bot, out in ((spy, adapt_on), (fixed, adapt_off)):
                t = time.perf_counter()
                bot.give_clue(view)
                out.append(time.perf_counter() - t)
            t = time.perf_counter()
            spy.adapted_partner(view)
            update.append(time.perf_counter() - t)
    floor = []   # what no first turn can beat: one product of the clue vocabulary per family
    for b in range(a.boards):
        sims = spy.ensemble.board(deal(b, pool).words)
        t = time.perf_counter()
        for cv, bv in zip(spy.ensemble.clue_vectors, sims.board_vectors):
            cv @ bv.T
        floor.append(time.perf_counter() - t)
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
    print(f"| first turn, board words new to the spymaster (legality checked), {len(first_new)} boards | "
          f"{ms * statistics.median(first_new):.1f} | {ms * pct(first_new, 95):.1f} |")
    print(f"| floor: one (clues x dim) @ (dim x 25) product per family | {ms * statistics.median(floor):.1f} | {ms * pct(floor, 95):.1f} |")
    print(f"| later turn, {len(later)} clues | {ms * statistics.median(later):.1f} | {ms * pct(later, 95):.1f} |")
    print(f"| mid-game turn, partner learnt from 3 clues, {len(adapt_on)} clues | {ms * statistics.median(adapt_on):.1f} | {ms * pct(adapt_on, 95):.1f} |")
    print(f"| same, adaptation off | {ms * statistics.median(adapt_off):.1f} | {ms * pct(adapt_off, 95):.1f} |")
    print(f"| the update alone (``adapted_partner``) | {ms * statistics.median(update):.2f} | {ms * pct(update, 95):.2f} |")
    print(f"| naive loop, {len(naive)} boards | {ms * statistics.median(naive):.0f} | {ms * pct(naive, 95):.0f} |")
    print(f"\nlater turn vs naive: {statistics.median(naive) / statistics.median(later):.0f}x faster; "
          f"first turn vs naive: {statistics.median(naive) / statistics.median(first):.0f}x faster")


if __name__ == "__main__":
    main()
