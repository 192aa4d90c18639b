"""The bot's own clues beyond dispute: how many clues the strict check flags, and what it costs.

The rule book judges people's clues (``rules.clues.check_clue``); the bots hold their own
clues to the strict check (``bots.strict_clues.strict_conflict``: no clue containing a visible
word or contained in one, 3+ letters, no derived form, no shared compound part). This plays
the same seeds twice per pairing, once with the spymaster's old rule-book filter
(``SpymasterConfig(words=WordsConfig(strict_clues=False))``) and once with the strict one (the default), on the
simulation engine (``RunSpec`` / ``run_local``), and reports per run:

- the share of the bot's clues (zero clues included) that the strict check flags, computed
  from the game records (each record is replayed and every clue is checked against the
  words visible when it was given), and the rule-book-illegal ones (must be 0 in both);
- win, assassin and turn figures, with 95% Wilson intervals, and the paired win/loss
  disagreements between the two filters on the same seeds.

Pairings: the shipped pair (default vs default), and leave-one-family-out (spymaster models
glove50+spacy300, partner guesser minilm with perception noise, as bench_strength does).

    python benchmarks/bench_strict.py                  # 1,000 games per run, 2 workers
    python benchmarks/bench_strict.py --games 200 --rows default
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache

from duetbot.bots.factory import PartnerSpec, ensemble
from duetbot.bots.spymaster import EmbeddingSpymaster, SpymasterConfig, WordsConfig
from duetbot.records import GameRecord, wilson
from duetbot.rules import Clue, State, Variant, is_legal_clue
from duetbot.bots.strict_clues import strict_conflict
from duetbot.simulation import RunSpec, run_local
from duetbot.wordpool import default_pool


@lru_cache(maxsize=8)
def _spymaster(models: tuple[str, ...], strict: bool) -> EmbeddingSpymaster:
    return EmbeddingSpymaster(ensemble(models), SpymasterConfig(words=WordsConfig(strict_clues=strict)))


@dataclass(frozen=True)
class StrictRun(RunSpec):
    """A :class:`RunSpec` whose spymasters use the given clue filter."""

    strict: bool = True

    def partners(self, seed: int):  # type: ignore[override]
        a, b = super().partners(seed)
        return (replace(a, spymaster=_spymaster(self.player_a.spymaster_models, self.strict)),
                replace(b, spymaster=_spymaster(self.player_b.spymaster_models, self.strict)))


def rows(kind: str, noise: float) -> list[tuple[str, str]]:
    out = []
    if kind in ("all", "default"):
        out.append(("shipped pair (default vs default)", "default"))
    if kind in ("all", "lofo"):
        out.append((f"LOFO glove50+spacy300 -> minilm + noise {noise:g}",
                     f"spymaster=glove50+spacy300,guesser=minilm,noise={noise:g}"))
    return out


def audit(line: str) -> tuple[int, int, int, list[str]]:
    """(clues, strict-flagged, rule-book-illegal, flagged examples) of one game record."""
    rec = GameRecord.loads(line, check=False)
    state = State(rec.deal, rec.variant)
    clues = flagged = book = 0
    examples = []
    for ev in rec.events:
        if isinstance(ev.action, Clue):
            visible = state.visible_words()
            clues += 1
            reason = strict_conflict(ev.action.word, visible)
            if reason is not None:
                flagged += 1
                examples.append(f"{ev.action.word}: {reason}")
            if not is_legal_clue(ev.action.word, visible):
                book += 1
        state.apply(ev.action, ev.player)
    return clues, flagged, book, examples


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k} ({100 * k / max(n, 1):.2f}%, CI {100 * lo:.2f}-{100 * hi:.2f}%)"


def pct(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / max(n, 1):.1f} [{100 * lo:.1f}-{100 * hi:.1f}]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--rows", default="all", choices=["all", "default", "lofo"])
    ap.add_argument("--noise", type=float, default=0.3)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--examples", type=int, default=8, help="flagged clues to list per run")
    a = ap.parse_args(argv)
    pool = tuple(default_pool())
    variant = Variant.parse(a.variant)
    print(f"{a.games} games per run, seed {a.seed}, variant {a.variant}, {a.workers} workers")
    print("| pairing | clue filter | clues | strict-flagged clues | rule-book-illegal | win % [95% CI] "
          "| assassin % | turns | s |")
    print("|---|---|---|---|---|---|---|---|---|")
    notes = []
    for name, spec_text in rows(a.rows, a.noise):
        spec = PartnerSpec.parse(spec_text)
        won: dict[bool, list[bool]] = {}
        for strict in (False, True):
            t = time.perf_counter()
            run = StrictRun(a.seed, spec, spec, pool, variant, strict=strict)
            results = list(run_local(run, a.games, workers=a.workers))
            clues = flagged = book = 0
            examples: Counter[str] = Counter()
            for r in results:
                c, f, b, ex = audit(r.line)
                clues, flagged, book = clues + c, flagged + f, book + b
                examples.update(ex)
            won[strict] = [r.won for r in results]
            n = len(results)
            assassin = sum(r.outcome == "assassin" for r in results)
            turns = sum(r.turns for r in results) / max(n, 1)
            label = "strict (new default)" if strict else "rule book (old)"
            print(f"| {name} | {label} | {clues} | {share(flagged, clues)} | {book} | "
                  f"{pct(sum(won[strict]), n)} | {pct(assassin, n)} | {turns:.2f} | "
                  f"{time.perf_counter() - t:.0f} |", flush=True)
            if examples:
                notes.append(f"{name}, {label}: most frequent flagged clues: "
                             + "; ".join(f"{e} (x{k})" for e, k in examples.most_common(a.examples)))
        only_old = sum(o and not s for o, s in zip(won[False], won[True]))
        only_new = sum(s and not o for o, s in zip(won[False], won[True]))
        notes.append(f"{name}: same seeds, won only with the rule-book filter {only_old}, "
                     f"only with the strict filter {only_new}")
    print()
    for line in notes:
        print("-", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
