"""Guesser benchmark: reading people's clues, recovering the spymaster's targets, and
key-card inference in full games. Prints markdown tables.

    PYTHONPATH=src python benchmarks/bench_guesser.py                  # parts a, b, c (~6 min)
    PYTHONPATH=src python benchmarks/bench_guesser.py --parts a --tune  # a + the tuning grid
    PYTHONPATH=src python benchmarks/bench_guesser.py --quick           # a small slice (tests)
    PYTHONPATH=src python benchmarks/bench_guesser.py --parts c --games 300 \
        --compare ";assassin_shyness=1.0"                             # configs in full games

a. **Human clues** (``../shared/data/human-duet-dev/turns.jsonl`` beside the repository,
   ``--data`` to point elsewhere; the data is never copied into the repository; part a is
   skipped with a message when it is absent). For each turn the guesser gets the words still
   in play and the human clue with its number, no key side (the set's key labels are the
   clue giver's side, not the guesser's), and is scored against the giver's intended
   targets: P@1 (first guess is a target), P@number (share of the top-``number`` guesses that
   are targets), MRR (1 / rank of the first target) and the log loss of P(green) over the
   words in play (is the guesser's confidence calibrated? the stop policy relies on it).
   "stop after / found / assassin" replay the turn the bot would play (``plan()``) against
   the giver's side. Single-family rows skip turns whose clue or board words that family
   does not know and say how many; "common" is P@1 on the turns every embedding family can
   answer, like for like. "+history" rows also pass the game's earlier clues with the human
   guesses' results (what the real guesser had seen). ``--tune`` adds a small grid.
b. **Target recovery**: on dealt boards a spymaster (all three families, or one) gives player
   A's first clue; guessers of each family, the embedding combination and the default
   guesser (with human associations), key inference on and off, are scored against the
   clue's intended targets (``ClueOption.targets``) and the giver's side.
c. **Full games**: the same seeds played with the partner guesser's ``infer_key`` on and off
   (or the ``--compare`` configs), side by side, for several spymaster -> guesser pairings.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import fields, replace
from functools import partial
from pathlib import Path

import numpy as np

from duetbot.bots.base import Partner
from duetbot.bots.ensemble import Ensemble
from duetbot.bots.factory import (
    DEFAULT_GUESSER_MODELS,
    DEFAULT_MODELS,
    ensemble,
    model,
    spymaster,
)
from duetbot.bots.guesser import EmbeddingGuesser, GuesserConfig
from duetbot.embeddings.model import translate_vectors
from duetbot.harness import game_seed
from duetbot.records import Tally
from duetbot.rules import CROSS_COUNTS, Clue, GuessResult, Label, Player, State, Turn, Variant, deal
from duetbot.simulation import PartnersRun, run_local
from duetbot.suggest import guesser_request_view
from duetbot.views import GuesserView, guesser_view, spymaster_view
from duetbot.wordpool import default_pool
from duetbot.words import word_key

#: The family that lent spaCy stand-in vectors before the subword fallback (a row kept for comparison).
DONOR_MODEL = "glove50"

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "human-duet-dev" / "turns.jsonl"
FAMILIES: tuple[str, ...] = tuple(DEFAULT_MODELS)
ALL = "+".join(FAMILIES)
"""The embedding families: the spymaster's default models."""
GUESSER = "+".join(DEFAULT_GUESSER_MODELS)
"""The default guesser's models: the embedding families plus human associations (eat) and WordLlama."""
PREVIOUS = "glove50+spacy300+minilm+eat"
"""The default guesser's models before issue 29 (a row for comparison)."""


def names(spec: str) -> tuple[str, ...]:
    return tuple(spec.split("+"))


def parse_config(text: str, base: GuesserConfig | None = None) -> GuesserConfig:
    """``sharpness=3,history_decay=0.5`` -> GuesserConfig (unknown keys are an error)."""
    cfg = base or GuesserConfig()
    if not text:
        return cfg
    types = {f.name: f.type for f in fields(GuesserConfig)}
    kw: dict = {}
    for part in text.split(","):
        k, _, v = (p.strip() for p in part.partition("="))
        if k not in types:
            raise SystemExit(f"unknown GuesserConfig field {k!r}")
        kw[k] = (v.lower() in ("1", "true", "on", "yes")) if types[k] in (bool, "bool") else (
            int(v) if k == "seed" else float(v))
    return replace(cfg, **kw)


# --- a. human clues ------------------------------------------------------------------------


def load_turns(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def human_turns(path: Path, quick_slice: int | None = None) -> list[dict] | None:
    """The human turns at ``path`` (the first ``quick_slice`` of them for a quick run), or
    ``None`` after printing a SKIPPED line when the file is absent (the data never ships)."""
    if not path.is_file():
        print(f"SKIPPED: no human Duet data at {path} (pass --data PATH)")
        return None
    turns = load_turns(path)
    return turns[:quick_slice] if quick_slice else turns


def _result(turn: dict, word: str) -> GuessResult:
    """A human guess judged by the giver's side at that turn (unlabelled words: bystander)."""
    if word in turn.get("green", ()):
        return GuessResult.GREEN
    if word in turn.get("black", ()):
        return GuessResult.ASSASSIN
    return GuessResult.BYSTANDER


def own_side(turn: dict, sample: int) -> dict[str, Label] | None:
    """A key side for the guesser (player A) drawn from the official distribution given the
    giver's side (player B's, in the data): of the giver's 9 greens 3 are the guesser's
    greens, 1 an assassin, 5 bystanders, and so on. ``None`` if the turn's giver side is not
    complete (9/3/13). Seeded by the turn and ``sample``."""
    groups = {Label.GREEN: turn.get("green", ()), Label.ASSASSIN: turn.get("black", ()),
              Label.BYSTANDER: turn.get("tan", ())}
    if [len(groups[lab]) for lab in Label] != [9, 3, 13] or len({*turn["board"]}) != 25:
        return None
    rng = random.Random(f"{turn['id']}-{sample}")
    side: dict[str, Label] = {}
    for theirs, words in groups.items():
        words = list(words)
        rng.shuffle(words)
        mine = [a for (a, b), n in CROSS_COUNTS.items() if b is theirs for _ in range(n)]
        side.update(zip(words, mine))
    return side


def human_view(turn: dict, earlier: Sequence[dict] = (), side: dict[str, Label] | None = None) -> GuesserView:
    """The guesser's view of one human turn: words in play, the clue, and ``side`` (the
    guesser's own key side) if given. ``earlier``: the same game's previous turns, passed as
    history with their guesses."""
    board = turn["board"]
    remaining = set(turn["remaining"])
    req = {"board": board, "covered": [w for w in board if w not in remaining],
           "clues": [{"clue": turn["clue"], "number": turn["number"]}]}
    if side is not None:
        req["green"] = [w for w in board if w in remaining and side[w] is Label.GREEN]
        req["assassin"] = [w for w in board if w in remaining and side[w] is Label.ASSASSIN]
    view, _ = guesser_request_view(req)
    if earlier:
        history = [Turn(Player.B, Clue(t["clue"], t["number"]),
                        tuple((g, _result(t, g)) for g in t["human_guesses"])) for t in earlier]
        view = replace(view, turns=(*history, *view.turns))
    return view


def answerable(ens: Ensemble, turn: dict) -> bool:
    """Every board word known to some family of ``ens`` (one family: to it), and the clue
    known to at least one, and the clue a legal single word (one has a hyphen)."""
    try:
        Clue(turn["clue"], turn["number"])
    except ValueError:
        return False
    ms = ens.models
    if not all(any(m.knows(w) for m in ms) for w in turn["board"]):
        return False
    return any(m.knows(turn["clue"]) for m in ms)


def lent_ensemble(name: str, turns: list[dict]) -> Ensemble | None:
    """One family that borrows stand-in vectors (as the shipped bots do for pool words) for
    the dev boards' words it lacks; ``None`` if it lacks none."""
    m = model(name)
    missing = sorted({w for t in turns for w in t["board"] if not m.knows(w)})
    if not missing:
        return None
    return Ensemble([m.with_extra_vectors(translate_vectors(m, model(DONOR_MODEL), missing))])


def score_turn(bot: EmbeddingGuesser, view: GuesserView, turn: dict) -> dict[str, float]:
    """P@1, P@number, reciprocal rank of the first target, log loss of P(green) summed over
    the words in play; and the turn the bot would play: ``stop`` words (plan()), ``found``
    greens of the giver's side before the first miss, ``assassin`` 1 if that miss is one."""
    b, stop = bot.plan(view)
    targets = {word_key(w) for w in turn["targets"]}
    hit = np.array([word_key(w) in targets for w in b.words])
    k = turn["number"]
    first = np.flatnonzero(hit)
    pg = np.clip(b.p[:, 0], 1e-6, 1 - 1e-6)
    green = {word_key(w) for w in turn.get("green", ())}
    black = {word_key(w) for w in turn.get("black", ())}
    found = assassin = 0
    for w in b.words[:stop]:
        if word_key(w) in green:
            found += 1
            continue
        assassin = int(word_key(w) in black)
        break
    return {"p1": float(hit[0]), "pk": float(hit[:k].mean()) if k else 0.0,
            "rr": 1.0 / (first[0] + 1) if len(first) else 0.0,
            "ll": float(-(hit * np.log(pg) + (~hit) * np.log(1 - pg)).sum()),
            "stop": float(stop), "found": float(found), "assassin": float(assassin)}


def eval_human(turns: list[dict], ens: Ensemble | tuple[str, ...], cfg: GuesserConfig,
               history: bool = False, own_key: int = 0) -> dict:
    """Scores of one guesser over the human turns; ``ids`` lists the turns it answered.
    ``own_key``: score each turn with that many sampled own key sides (:func:`own_side`),
    skipping turns whose giver side is incomplete."""
    ens = ensemble(ens) if isinstance(ens, tuple) else ens
    bot = EmbeddingGuesser(ens, cfg)
    by_game: dict[str, list[dict]] = defaultdict(list)
    out: dict[str, list] = defaultdict(list)
    skipped = 0
    for t in turns:
        earlier = [e for e in by_game[t["game"]] if answerable(ens, e)] if history else []
        by_game[t["game"]].append(t)
        if not answerable(ens, t):
            skipped += 1
            continue
        sides = [own_side(t, k) for k in range(own_key)] if own_key else [None]
        if None in sides and own_key:
            skipped += 1
            continue
        for side in sides:
            for key, value in score_turn(bot, human_view(t, earlier, side), t).items():
                out[key].append(value)
            out["ids"].append(t["id"])
    keys = ("p1", "pk", "rr", "ll", "stop", "found", "assassin", "ids")
    return {"n": len(out["ids"]), "skipped": skipped, **{k: out.get(k, []) for k in keys}}


def _mean(xs: Iterable[float]) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}"


def part_a(turns: list[dict], cfg: GuesserConfig, quick: bool) -> None:
    print("\n## a. Human clues (dev set): first guess vs the giver's intended targets\n")
    print(f"{len(turns)} turns; no key side (infer_key off); config: {_cfg_text(cfg)}\n")
    blind = replace(cfg, infer_key=False)
    rows: list[tuple[str, tuple[str, ...] | Ensemble, GuesserConfig, bool]] = [
        (f, (f,), blind, False) for f in FAMILIES]
    own: list[tuple[str, tuple[str, ...] | Ensemble, GuesserConfig, bool]] = []
    rows.append(("eat (associations) alone", ("eat",), blind, False))
    lent = None if quick else lent_ensemble("spacy300", turns)
    if lent is not None:
        rows.append((f"spacy300, board words lent by {DONOR_MODEL}", lent, blind, False))
    rows.append((f"{ALL} (embeddings)", FAMILIES, blind, False))
    rows.append((f"{PREVIOUS} (the guesser before issue 29)", names(PREVIOUS), blind, False))
    rows.append((f"{GUESSER} (default guesser)", DEFAULT_GUESSER_MODELS, blind, False))
    if not quick:
        rows += [("glove50+minilm", ("glove50", "minilm"), blind, False),
                 ("spacy300+minilm", ("spacy300", "minilm"), blind, False)]
    rows.append((f"{PREVIOUS} +history (before issue 29)", names(PREVIOUS), blind, True))
    rows.append((f"{GUESSER} +history", DEFAULT_GUESSER_MODELS, blind, True))
    if not quick:
        rows.append(("minilm +history", ("minilm",), blind, True))
    own.append((f"{GUESSER} +history, own key sampled x3", DEFAULT_GUESSER_MODELS, cfg, True))
    if not quick:
        own += [(f"  same, unaimed_greens={u:g}", DEFAULT_GUESSER_MODELS, replace(cfg, unaimed_greens=u), True)
                for u in (0.5, 1.0)]
    common = {t["id"] for t in turns if all(answerable(ensemble((f,)), t) for f in FAMILIES)}
    print(f"common turns (every embedding family knows the clue and all board words): {len(common)}\n")
    print("| guesser | turns | skipped | P@1 % | P@number % | MRR | log loss | P@1 common % | stop after | found | assassin % |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (name, fams, c, hist), k in [*((r, 0) for r in rows), *((r, 3) for r in own)]:
        r = eval_human(turns, fams, c, hist, own_key=k)
        pc = _mean(p for p, i in zip(r["p1"], r["ids"]) if i in common)
        print(f"| {name} | {r['n']} | {r['skipped']} | {_pct(_mean(r['p1']))} | {_pct(_mean(r['pk']))} | "
              f"{_mean(r['rr']):.3f} | {_mean(r['ll']):.3f} | {_pct(pc)} | {_mean(r['stop']):.2f} | "
              f"{_mean(r['found']):.2f} | {_pct(_mean(r['assassin']))} |", flush=True)
    print("\nlog loss: of P(green) against 'is a target', summed over the words in play. stop after:")
    print("words the bot would guess (plan(), 9 tokens assumed); found: the giver's greens among them")
    print("before the first miss; assassin: turns whose first miss is the giver's assassin.")
    print("own key sampled: turns whose giver side is complete, each with 3 key sides for the")
    print("guesser drawn from the official distribution (infer_key on; turns counts the samples).")
    print("\nPrototype (DESIGN.md), P@1: GloVe 39%, spaCy 46%, MiniLM 59%, all three 60%, people 87%.")


def tune(turns: list[dict], cfg: GuesserConfig) -> None:
    """A small grid on the human dev set (all three families, no key side)."""
    print(f"\n## a'. Tuning grid (default guesser {GUESSER}, no key side)\n")
    print("With one clue and no key side the ranking is the order of the clue's similarity, whatever")
    print("sharpness, shyness or aversion say: they move the log loss (calibration of P(green)), the")
    print("stop decision and, with the earlier clues passed (+history), the ranking.\n")
    print("| sharpness | history_decay | assassin_shyness | P@1 % | P@1 +history % | MRR +history | log loss | stop after | found | assassin % |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    blind = replace(cfg, infer_key=False)
    grid = [(s, d, 0.3) for s in (2.0, 2.5, 3.0) for d in (0.0, 0.5, 0.8)]
    grid += [(2.5, 0.8, a) for a in (0.0, 0.6, 0.8, 1.0, 1.5)]
    for s, d, a in grid:
        c = replace(blind, sharpness=s, history_decay=d, assassin_shyness=a)
        r = eval_human(turns, DEFAULT_GUESSER_MODELS, c, history=True)
        r0 = eval_human(turns, DEFAULT_GUESSER_MODELS, c, history=False)
        print(f"| {s} | {d} | {a} | {_pct(_mean(r0['p1']))} | {_pct(_mean(r['p1']))} | {_mean(r['rr']):.3f} | "
              f"{_mean(r0['ll']):.3f} | {_mean(r0['stop']):.2f} | {_mean(r0['found']):.2f} | "
              f"{_pct(_mean(r0['assassin']))} |", flush=True)


# --- b. target recovery from bot clues -------------------------------------------------------


def part_b(boards: int, spymasters: Sequence[str], guessers: Sequence[str], cfg: GuesserConfig) -> None:
    print(f"\n## b. Target recovery: player A's first clue on {boards} dealt boards\n")
    print("P@1: first guess is an intended target; P@k: share of the top-k (k = the clue's number)")
    print("that are targets; all-k: the top-k are exactly the targets; green@k: share of the top-k")
    print("green on the giver's side (targets or not); assassin@k: an assassin of the giver's side")
    print("is among the top-k. key: the guesser's infer_key.\n")
    pool = default_pool()
    clues: dict[str, list] = {}
    for s in spymasters:
        spy = spymaster(names(s))
        out = []
        for i in range(boards):
            d = deal(game_seed(7, i), pool)
            state = State(d)
            opt = spy.suggest(spymaster_view(state, Player.A), top=1)[0]
            out.append((d, opt))
        clues[s] = out
    print("| spymaster | guesser | key | clues | zero clues | mean number | P@1 % | P@k % | all-k % | green@k % | assassin@k % |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for s in spymasters:
        for g in guessers:
            for infer in (True, False):
                bot = EmbeddingGuesser(ensemble(names(g)), replace(cfg, infer_key=infer))
                p1, pk, allk, gk, ak, nums, zero = [], [], [], [], [], [], 0
                for d, opt in clues[s]:
                    if opt.clue.number == 0:
                        zero += 1
                        continue
                    state = State(d)
                    state.apply(opt.clue, Player.A)
                    view = guesser_view(state, Player.B)
                    b = bot.belief(view)
                    k = opt.clue.number
                    top = b.words[:k]
                    tg = set(opt.targets)
                    side = d.key.side(Player.A)
                    p1.append(float(top[0] in tg))
                    pk.append(sum(w in tg for w in top) / k)
                    allk.append(float(set(top) == tg))
                    labels = [side[view.index(w)] for w in top]
                    gk.append(sum(lab is Label.GREEN for lab in labels) / k)
                    ak.append(float(any(lab is Label.ASSASSIN for lab in labels)))
                    nums.append(k)
                print(f"| {s} | {g} | {'on' if infer else 'off'} | {len(p1)} | {zero} | {_mean(nums):.2f} | "
                      f"{_pct(_mean(p1))} | {_pct(_mean(pk))} | {_pct(_mean(allk))} | {_pct(_mean(gk))} | "
                      f"{_pct(_mean(ak))} |",
                      flush=True)


# --- c. key-card inference in full games -----------------------------------------------------


def _partners(spy_fams: tuple[str, ...], g_fams: tuple[str, ...], noise: float, cfg: GuesserConfig,
              s: int) -> tuple[Partner, Partner]:
    """Both players: the spymaster of ``spy_fams``, a guesser of ``g_fams`` with ``cfg`` and noise."""
    spy, ens = spymaster(spy_fams), ensemble(g_fams)
    return (Partner(spy, EmbeddingGuesser(ens, replace(cfg, noise=noise, seed=s))),
            Partner(spy, EmbeddingGuesser(ens, replace(cfg, noise=noise, seed=s + 1))))


def part_c(games: int, pairings: Sequence[tuple[str, str, float]], cfg: GuesserConfig,
           workers: int, variant: str, compare: Sequence[str] = ()) -> None:
    """Full games; each pairing is played with infer_key on and off, or with each of the
    ``compare`` config overrides (same seeds in every cell)."""
    what = "guesser configs compared" if compare else "key-card inference on vs off"
    print(f"\n## c. Full games: {what} ({games} games per cell, variant {variant}, same seeds)\n")
    print(f"Guesser config: {_cfg_text(cfg)}\n")
    configs = ([(text or "default", parse_config(text, cfg)) for text in compare] if compare
               else [("infer_key on", replace(cfg, infer_key=True)), ("infer_key off", replace(cfg, infer_key=False))])
    print("| spymaster | guesser | guesser config | win % | assassin % | sudden-death loss % | tokens left (wins) | score (wins) | turns | greens/turn | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for spy, g, noise in pairings:
        for label, c in configs:
            t0 = time.perf_counter()
            run = PartnersRun(2026, default_pool(), partial(_partners, names(spy), names(g), noise, c),
                              Variant.parse(variant))
            s = Tally(run_local(run, games, workers=workers)).summary()
            gname = g + (f" noise {noise}" if noise else "")
            print(f"| {spy} | {gname} | {label} | {100 * s.win.value:.1f} | "
                  f"{100 * s.assassin.value:.1f} | {100 * s.sudden_death_loss.value:.1f} | "
                  f"{s.mean_tokens_left_on_win:.2f} | {s.mean_score_on_win:.2f} | {s.mean_turns:.2f} | "
                  f"{s.greens_per_turn:.2f} | "
                  f"{time.perf_counter() - t0:.0f} |", flush=True)


def parse_pairings(text: str, noise: float) -> list[tuple[str, str, float]]:
    out = []
    for part in text.split(";"):
        spy, _, rest = part.strip().partition(">")
        g, at, n = rest.partition("@")
        if not spy or not g:
            raise SystemExit(f"bad pairing {part!r}: write SPYMASTER>GUESSER[@NOISE], e.g. glove50>minilm@0.3")
        out.append((spy, g, float(n) if at else noise))
    return out


# --- main ----------------------------------------------------------------------------------------


def _cfg_text(cfg: GuesserConfig) -> str:
    return ", ".join(f"{f.name}={getattr(cfg, f.name)}" for f in fields(GuesserConfig)
                     if f.name not in ("win", "seed"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA, help="human Duet turns (JSON lines)")
    ap.add_argument("--parts", default="abc", help="which parts to run, e.g. 'ab'")
    ap.add_argument("--quick", action="store_true", help="a small slice of every part (for tests)")
    ap.add_argument("--tune", action="store_true", help="also run the tuning grid on the human set")
    ap.add_argument("--config", default="", help="GuesserConfig overrides, e.g. sharpness=3,history_decay=0.5")
    ap.add_argument("--boards", type=int, default=200, help="part b: boards")
    ap.add_argument("--games", type=int, default=100, help="part c: games per cell")
    ap.add_argument("--noise", type=float, default=0.3, help="part c: noise of the cross-family partner")
    ap.add_argument("--pairings", default=f"{ALL}>{GUESSER}@0;{ALL}>minilm;{ALL}>glove50;glove50+spacy300>minilm",
                    help="part c: ';'-separated SPYMASTER>GUESSER[@NOISE] families (noise default --noise)")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--compare", default="", help="part c: ';'-separated config overrides to compare "
                    "instead of infer_key on/off, e.g. 'assassin_aversion=1;assassin_aversion=3' ('' = default)")
    a = ap.parse_args(argv)
    cfg = parse_config(a.config)
    ran, skipped = [], []
    t0 = time.perf_counter()
    if "a" in a.parts:
        if not a.data.is_file():
            print(f"\n## a. Human clues: SKIPPED, no data at {a.data} (pass --data PATH)")
            skipped.append("a (no data)")
        else:
            turns = load_turns(a.data)
            if a.quick:
                turns = turns[:20]
            part_a(turns, cfg, a.quick)
            if a.tune and not a.quick:
                tune(turns, cfg)
            ran.append("a")
    if "b" in a.parts:
        if a.quick:
            part_b(2, ["glove50"], ["minilm", GUESSER], cfg)
        else:
            part_b(a.boards, [ALL, "glove50", "spacy300", "minilm"], [*FAMILIES, ALL, GUESSER], cfg)
        ran.append("b")
    if "c" in a.parts:
        if a.quick:
            part_c(1, [(ALL, GUESSER, 0.0)], cfg, 1, a.variant)
        else:
            part_c(a.games, parse_pairings(a.pairings, a.noise), cfg, a.workers, a.variant, [t.strip() for t in a.compare.split(";")] if a.compare else ())
        ran.append("c")
    print(f"\nParts run: {', '.join(ran) or 'none'}" + (f"; skipped: {', '.join(skipped)}" if skipped else "")
          + f"{' (quick)' if a.quick else ''}; {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
