"""People as the yardstick: a partner model fitted to people's guesses, and the bot's clues
beside people's own on people's boards. Prints markdown tables.

    PYTHONPATH=src python benchmarks/bench_people.py --part fit      # partner model (~20 s)
    PYTHONPATH=src python benchmarks/bench_people.py --part clues    # the yardstick (~1 min)
    PYTHONPATH=src python benchmarks/bench_people.py --quick         # a small slice (tests)

Data: ``../shared/data/human-duet-dev/turns.jsonl`` beside the repository (``--data``
elsewhere; never copied into the repository; skipped with a message when absent).

fit. **The partner model learnt from people** (:mod:`duetbot.bots.reader`): family weights,
   temperature and lapse by maximum likelihood of the human guessers' guesses in order, and
   the stop rates by counting, cross-validated in 5 folds grouped by game. Held-out log
   likelihood per guess against today's fixed model (equal mixture of the three embedding
   families, Gaussian noise 0.35, likelihood by simulation), and calibration: the predicted
   against the observed chance that a person's k-th guess is a target, a giver's green, the
   assassin.
clues. **People's boards**: for each turn, the bot gets the same board, the giver's greens and
   assassins still in play (the rest bystanders) and the covered words, and gives a clue
   with a spymaster that leaves one family out; a guesser of that family (the *reader*, with
   noise) reads the bot's clue and the person's clue. Columns: share of the reader's
   top-number guesses that are the giver's greens, greens found before the first non-green
   (the reader going number deep), how often the assassin is in the top-number, the mean
   number. One row pair per held-out reader. Then the bot's clue words beside people's:
   inflected forms, proper nouns, words outside people's clue/association vocabulary, and
   the number distribution.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_guesser import DATA, human_turns  # noqa: E402

from duetbot.bots import factory  # noqa: E402
from duetbot.bots.spymaster import EmbeddingSpymaster  # noqa: E402
from duetbot.words.lexicon import english_words  # noqa: E402
from duetbot.bots.reader import (ReaderModel, ReadTurns, StopCounts, log_likelihood,  # noqa: E402
                                 next_guess_chances)

FAMILIES = ("glove50", "spacy300", "minilm", "eat")
BOT_ONE = "bot, its best clue for 1"
BOT_SAFE = "bot, its safest clue for 1-2"
MAX_GUESSES = 3


def read_turns(turns: list[dict], families: tuple[str, ...]) -> tuple[ReadTurns, list[dict]]:
    """The turns as arrays for :mod:`duetbot.bots.reader` (turns with no guess or a clue no
    family reads are left out), with the turns kept."""
    ens = factory.ensemble(families)
    zs, alive, guesses, kept = [], [], [], []
    for t in turns:
        board = [w.lower() for w in t["board"]]
        live = {w.lower() for w in t["remaining"]}
        g = [board.index(w.lower()) for w in t["human_guesses"][:MAX_GUESSES] if w.lower() in board]
        if not g:
            continue
        try:
            z = ens.clue_z(t["clue"], ens.board(board))
        except ValueError:
            continue
        zs.append(z)
        alive.append([w in live for w in board])
        guesses.append(g + [-1] * (MAX_GUESSES - len(g)))
        kept.append(t)
    return ReadTurns(np.array(zs, np.float64), np.array(alive), np.array(guesses)), kept


def stop_counts(turns: list[dict]) -> StopCounts:
    return StopCounts.count([(t["number"], [w in t.get("green", ()) for w in t["human_guesses"]])
                             for t in turns if t["human_guesses"]])


def fit(rt: ReadTurns, families: tuple[str, ...], weights: bool = True) -> ReaderModel:
    """Maximum-likelihood family weights, temperature and lapse (scipy's Nelder-Mead over
    log temperature, logit lapse and the weights' softmax logits); ``weights=False``: every
    family equally likely, only the temperature and the lapse fitted."""
    from scipy.optimize import minimize

    F = len(families)

    def unpack(x: np.ndarray) -> ReaderModel:
        logits = np.concatenate([[0.0], x[2:]]) if weights else np.zeros(F)
        w = np.exp(logits - logits.max())
        return ReaderModel(families, tuple(float(v) for v in w / w.sum()), float(np.exp(np.clip(x[0], -5, 5))),
                           float(1 / (1 + np.exp(-np.clip(x[1], -12, 6)))))

    x0 = np.zeros(F + 1 if weights else 2)
    x0[1] = -3.0
    res = minimize(lambda x: -log_likelihood(rt, unpack(x)).sum(), x0, method="Nelder-Mead",
                   options={"maxiter": 4000, "xatol": 1e-4, "fatol": 1e-4})
    return unpack(res.x)


def gaussian_ll(rt: ReadTurns, noise: float, samples: int = 20000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Today's model: an equal mixture of the families, each reader perceiving z plus
    Gaussian noise, ranking by it. Per turn, the log chance of the guess order and (turns,
    guesses, words) next-guess chances, both by simulation (add-half smoothing)."""
    rng = np.random.default_rng(seed)
    T, F, W = rt.z.shape
    K = rt.guesses.shape[1]
    ll = np.zeros(T)
    chances = np.zeros((T, K, W))
    z = np.where(np.isnan(rt.z), np.nanmean(rt.z, axis=1, keepdims=True), rt.z)
    for t in range(T):
        per = samples // F
        u = np.concatenate([z[t, f][None, :] + noise * rng.standard_normal((per, W)) for f in range(F)])
        u[:, ~rt.alive[t]] = -np.inf
        order = np.argsort(-u, axis=1)
        match = np.ones(len(u), bool)
        for k in range(K):
            g = rt.guesses[t, k]
            if g < 0:
                break
            nxt = order[match, k]
            counts = np.bincount(nxt, minlength=W).astype(float)
            counts[rt.alive[t]] += 0.5
            counts[~rt.alive[t]] = 0
            p = counts / counts.sum()
            chances[t, k] = p
            ll[t] += np.log(p[g])
            match &= order[:, k] == g
            if not match.any():
                match[:] = True  # nothing matched the prefix: fall back to unconditional order
    return ll, chances


def calibration(kept: list[dict], rt: ReadTurns, chances: np.ndarray) -> list[tuple[int, str, float, float, int]]:
    """(k, what, predicted %, observed %, turns) for the k-th guess being a target, a
    giver's green, the assassin."""
    out = []
    for k in range(rt.guesses.shape[1]):
        on = np.flatnonzero(rt.guesses[:, k] >= 0)
        if len(on) < 10:
            continue
        for what, field in (("target", "targets"), ("green", "green"), ("assassin", "black")):
            pred, obs = [], []
            for i in on:
                t = kept[i]
                board = [w.lower() for w in t["board"]]
                mask = np.array([w in {x.lower() for x in t.get(field, ())} for w in board])
                pred.append(chances[i, k][mask].sum())
                obs.append(bool(mask[rt.guesses[i, k]]))
            out.append((k + 1, what, 100 * float(np.mean(pred)), 100 * float(np.mean(obs)), len(on)))
    return out


def folds(kept: list[dict], n: int = 5) -> np.ndarray:
    """Fold index of each turn, grouped by game."""
    games = sorted({t["game"] for t in kept})
    rng = np.random.default_rng(7)
    order = rng.permutation(len(games))
    fold_of = {games[g]: i % n for i, g in enumerate(order)}
    return np.array([fold_of[t["game"]] for t in kept])


def part_fit(turns: list[dict], families: tuple[str, ...], baseline_noise: float = 0.35) -> ReaderModel:
    rt, kept = read_turns(turns, families)
    guesses = int((rt.guesses >= 0).sum())
    print(f"\n## Partner model fitted to people ({len(kept)} turns, {guesses} guesses, "
          f"{len({t['game'] for t in kept})} games; 5 folds grouped by game)\n")
    fold = folds(kept)
    emb = tuple(f for f in families if f != "eat")
    emb_idx = [families.index(f) for f in emb]
    held = {name: np.zeros(len(kept)) for name in ("fitted", "fitted (embeddings only)", "today")}
    chances = {name: np.zeros((len(kept), MAX_GUESSES, rt.z.shape[2])) for name in held}
    rt_emb = ReadTurns(rt.z[:, emb_idx], rt.alive, rt.guesses)
    held["today"], chances["today"] = gaussian_ll(rt_emb, baseline_noise)
    for k in range(5):
        train, test = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        for name, data, fams in (("fitted", rt, families), ("fitted (embeddings only)", rt_emb, emb)):
            m = fit(data.subset(train), fams)
            held[name][test] = log_likelihood(data.subset(test), m)
            chances[name][test] = next_guess_chances(data.subset(test), m)
    print("| model | held-out log-likelihood per guess | per turn | P(first guess) geometric mean |")
    print("|---|---|---|---|")
    for name, ll in held.items():
        print(f"| {name} | {ll.sum() / guesses:.3f} | {ll.mean():.3f} | {100 * np.exp(ll.sum() / guesses):.1f}% |")
    print("\nCalibration on held-out folds: predicted vs observed chance that the k-th guess is ...\n")
    print("| k | is a | fitted pred % | today pred % | observed % | turns |")
    print("|---|---|---|---|---|---|")
    cal_fit = calibration(kept, rt, chances["fitted"])
    cal_today = calibration(kept, rt, chances["today"])
    for (k, what, p, o, n), (_, _, p0, _, _) in zip(cal_fit, cal_today):
        print(f"| {k} | {what} | {p:.1f} | {p0:.1f} | {o:.1f} | {n} |")
    full = fit(rt, families)
    stop_early, bonus = stop_counts(kept).rates()
    full = replace(full, stop_early=round(stop_early, 3), bonus=round(bonus, 3))
    print(f"\nFitted on every turn: {full}")
    print(f"Stop counts (stopped, went on) after a correct guess: {stop_counts(kept)}")
    for f in families:
        rest = tuple(x for x in families if x != f)
        idx = [families.index(x) for x in rest]
        m = fit(ReadTurns(rt.z[:, idx], rt.alive, rt.guesses), rest)
        print(f"Leaving {f} out: weights {dict(zip(rest, np.round(m.weights, 3)))}, "
              f"temperature {m.temperature:.3f}, lapse {m.lapse:.3f}")
    return full


def reader_ranks(z: np.ndarray, alive: np.ndarray, noise: float, draws: int, rng: np.random.Generator) -> np.ndarray:
    """(draws, words) the reader's order of the words in play for one clue: z plus Gaussian
    perception noise, words out of play last."""
    u = z[None, :] + noise * rng.standard_normal((draws, len(z)))
    u[:, ~alive] = -np.inf
    return np.argsort(-u, axis=1)


def read_clue(order: np.ndarray, number: int, green: np.ndarray, assassin: np.ndarray) -> tuple[float, float, float]:
    """(share of top-number guesses that are greens, greens before the first non-green
    within number, assassin in the top-number), averaged over the reader's draws."""
    n = max(number, 1)
    top = order[:, :n]
    g = green[top]
    first_bad = np.where(~g.all(axis=1), np.argmin(g, axis=1), n)
    return float(g.mean()), float(first_bad.mean()), float(assassin[top].any(axis=1).mean())


def inflected(word: str, vocab: set[str]) -> bool:
    """An -ed / -ing form of a word in ``vocab`` (accounted, consulted, posted)."""
    for suffix, bases in (("ing", ("", "e")), ("ed", ("", "e"))):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            if any(stem + b in vocab for b in bases) or (len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in vocab):
                return True
    return False


def part_clues(turns: list[dict], readers: tuple[str, ...], noise: float, limit: int | None) -> None:
    """The yardstick: the bot's clue and the person's, read by a family the bot leaves out."""
    from duetbot.suggest.duet import spymaster_request_view

    rng = np.random.default_rng(3)
    usable = [t for t in turns if set(t.get("green", ())) & set(t["remaining"])][:limit]
    print(f"\n## People's boards: the bot's clue beside the person's ({len(usable)} turns, "
          f"reader noise {noise}, 16 draws)\n")
    print("| reader (left out of the bot's model) | whose clue | greens in top-n % | greens before a miss | "
          "assassin in top-n % | mean number |")
    print("|---|---|---|---|---|---|")
    vocab = set(factory.model("eat").clue_words) | {t["clue"].lower() for t in turns}
    english = english_words()
    shares: dict[str, Counter] = {}
    for reader in readers:
        bot_fams = tuple(f for f in FAMILIES if f != reader)
        spy = EmbeddingSpymaster(factory.ensemble(bot_fams))
        read = factory.ensemble((reader, *[f for f in FAMILIES if f != reader]))
        rows: dict[str, list] = {"person": [], "bot": [], BOT_ONE: [], BOT_SAFE: []}
        kinds = shares.setdefault("bot", Counter()), shares.setdefault("person", Counter())
        for t in usable:
            board = [w.lower() for w in t["board"]]
            live = np.array([w in {x.lower() for x in t["remaining"]} for w in board])
            green = np.array([w in {x.lower() for x in t["green"]} for w in board]) & live
            assassin = np.array([w in {x.lower() for x in t.get("black", ())} for w in board]) & live
            view = spymaster_request_view({
                "role": "spymaster", "board": board, "green": [w for w, g in zip(board, green) if g],
                "assassin": [w for w, a in zip(board, assassin) if a],
                "covered": [w for w, a in zip(board, live) if not a], "tokens": max(1, 10 - t["turn"])})
            options = spy.suggest(view, top=12)
            option = options[0]
            given = [("person", t["clue"], t["number"]), ("bot", option.clue.word, option.clue.number)]
            # the choices suggest and hint offer beside the bot's own: its best clue for one
            # word, and the clue for one or two words it thinks least likely to reach an assassin
            one = next((o for o in options if o.clue.number == 1), None)
            small = [o for o in options if 1 <= o.clue.number <= 2]
            if one is not None:
                given.append((BOT_ONE, one.clue.word, 1))
            if small:
                safest = min(small, key=lambda o: o.p_assassin)
                given.append((BOT_SAFE, safest.clue.word, safest.clue.number))
            sims = read.board(board)
            for who, clue, number in given:
                try:
                    zs = read.clue_z(clue, sims)
                except ValueError:
                    continue
                if np.isnan(zs[0]).all():
                    continue
                z = np.where(np.isnan(zs[0]), np.nanmean(zs, axis=0), zs[0])
                rows[who].append((*read_clue(reader_ranks(z, live, noise, 16, rng), number, green, assassin), number))
                if reader == readers[0] and who in ("person", "bot"):
                    c = kinds[0] if who == "bot" else kinds[1]
                    c["clues"] += 1
                    c["inflected"] += inflected(clue.lower(), vocab)
                    c["proper"] += bool(spy.ensemble.index.get(clue.lower()) is not None
                                        and spy.ensemble.is_proper[spy.ensemble.index[clue.lower()]])
                    c["outside people's words"] += clue.lower() not in vocab
                    c["outside the English lexicon"] += clue.lower() not in english
                    c[f"number {number}"] += 1
        for who in rows:
            a = np.array(rows[who])
            if len(a) == 0:
                continue
            print(f"| {reader} | {who} ({len(a)}) | {100 * a[:, 0].mean():.1f} | {a[:, 1].mean():.2f} | "
                  f"{100 * a[:, 2].mean():.1f} | {a[:, 3].mean():.2f} |", flush=True)
    print(f"\nClue words (spymaster without {readers[0]}), share of clues %:\n")
    keys = ["inflected", "proper", "outside people's words", "outside the English lexicon", *sorted(k for k in shares["bot"] | shares["person"] if k.startswith("number"))]
    print("| whose | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    for who in ("person", "bot"):
        c = shares[who]
        print(f"| {who} | " + " | ".join(f"{100 * c[k] / max(c['clues'], 1):.1f}" for k in keys) + " |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", default="all", choices=["all", "fit", "clues"])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--quick", action="store_true", help="a small slice of the turns (tests)")
    ap.add_argument("--readers", default=",".join(FAMILIES),
                    help="held-out reader families, comma-separated (also built ones: wordnet, wordnet_gloss)")
    ap.add_argument("--noise", type=float, default=0.3, help="the reader's perception noise (z units)")
    a = ap.parse_args(argv)
    turns = human_turns(a.data, 60 if a.quick else None)
    if turns is None:
        return 0
    t0 = time.perf_counter()
    if a.part in ("all", "fit"):
        part_fit(turns, FAMILIES)
    if a.part in ("all", "clues"):
        part_clues(turns, tuple(a.readers.split(",")), a.noise, 40 if a.quick else None)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
