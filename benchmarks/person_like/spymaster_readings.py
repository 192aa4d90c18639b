"""Spymaster variants side by side: their clues at the same game positions, read by stand-ins.

At round 2's bot positions in ``games/new2`` (two a deal, 40), each variant's recommended clue
goes to person-like readers (one item of each deal a reader, the variants mixed in every
batch, never named) and is scored within the number, paired by position. A variant is
``base`` (this main's spymaster), ``assoc-off`` (the same without the association table's
lift), ``evokes-off`` (the same without the free associations that keep its clues clear of its
assassins), ``lift:X`` (the table's lift at X z a strength point), ``table:PATH`` (another
association table's lift), ``families:A+B+C`` (the spymaster thinking with those
families), ``retrofit`` (the three default families retrofitted in memory toward the Edinburgh
Associative Thesaurus graph, ``../shared/data/eat/``, read from there; Faruqui et al. 2015:
each word pulled toward the strength-weighted mean of its associates as hard as toward its own
vector, 10 passes) or ``retrofit-eat-words`` (the same, clue words limited to the EAT graph's).
Nothing of the EAT can ship (its rows may not be copied into the repository); the experiments
and their readings are in RESULTS.md, "Where the gap is".

    PYTHONPATH=src python benchmarks/person_like/spymaster_readings.py batches --name retrofit \
        --variants base,retrofit,retrofit-eat-words --out DIR
    PYTHONPATH=src python benchmarks/person_like/spymaster_readings.py score --name retrofit ANSWERS...
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from duetbot.bots.ensemble import Ensemble
from duetbot.bots.factory import PartnerSpec, default_bots, ensemble, model
from duetbot.bots.spymaster import EmbeddingSpymaster
from duetbot.embeddings.model import EmbeddingModel
from duetbot.rules import Player, State
from duetbot.saves import load_saved
from duetbot.views import spymaster_view
from duetbot.words.associations import Associations, default_associations

sys.path.insert(0, str(Path(__file__).resolve().parent))
import readings  # noqa: E402
from game_readings import GAMES, Item, game_items, read_within  # noqa: E402

HERE = Path(__file__).resolve().parent
EAT = HERE.parents[2] / "shared" / "data" / "eat" / "eat_stimulus_response.tsv.gz"


def eat_graph() -> dict[str, dict[str, float]]:
    """Symmetric association strengths: each stimulus's response shares, both directions."""
    forward: dict[str, dict[str, int]] = defaultdict(dict)
    with gzip.open(EAT, "rt") as f:
        for line in f:
            s, r, c = line.rstrip("\n").split("\t")
            if c.isdigit() and s.isalpha() and r.isalpha():
                forward[s.lower()][r.lower()] = int(c)
    graph: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for s, responses in forward.items():
        total = sum(responses.values())
        for r, c in responses.items():
            if r != s:
                graph[s][r] += c / total
                graph[r][s] += c / total
    return graph


def retrofit(name: str, graph: dict[str, dict[str, float]], weight: float = 1.0, passes: int = 10) -> EmbeddingModel:
    m = model(name)
    raw = m._raw.astype(np.float32)
    raw /= np.maximum(np.linalg.norm(raw, axis=1, keepdims=True), 1e-9)
    at = m._index
    links = []
    for w, nbrs in graph.items():
        if w in at:
            js = [(at[n], x) for n, x in nbrs.items() if n in at]
            if js:
                total = sum(x for _, x in js)
                links.append((at[w], np.array([j for j, _ in js]), np.array([weight * x / total for _, x in js], np.float32)))
    q = raw.copy()
    for _ in range(passes):
        for i, js, ws in links:
            q[i] = (raw[i] + ws @ q[js]) / (1 + ws.sum())
    return EmbeddingModel(f"{m.name}+eat", m.family, None, m.words, q.astype(np.float16), m._rows, m.meta,
                          m._projection, extra=m._extra, index=at, fallback=m._fallback, clue_roles=m._clue_roles)


def spymasters(variants: list[str]) -> dict[str, EmbeddingSpymaster]:
    base = default_bots()[0]
    out: dict[str, EmbeddingSpymaster] = {}
    graph = eat_graph() if any(v.startswith("retrofit") for v in variants) else {}
    retrofitted = None
    for v in variants:
        if v == "base":
            out[v] = base
        elif v == "assoc-off":
            out[v] = default_bots(spec=PartnerSpec(associations=False))[0]
        elif v == "evokes-off":
            plain = Ensemble(base.ensemble.models, associations=base.ensemble.associations)
            out[v] = EmbeddingSpymaster(plain, base.config)
        elif v.startswith("lift:"):
            lifted = Ensemble(base.ensemble.models, associations=default_associations(),
                              lift=[float(v.split(":", 1)[1]) * s for s in range(4)])
            out[v] = EmbeddingSpymaster(lifted, base.config)
        elif v.startswith("table:"):
            path = Path(v.split(":", 1)[1])
            table = Ensemble(base.ensemble.models, associations=Associations.from_text(path.read_text(), str(path)))
            out[v] = EmbeddingSpymaster(table, base.config)
        elif v.startswith("families:"):
            out[v] = EmbeddingSpymaster(ensemble(tuple(v.split(":", 1)[1].split("+"))), base.config)
        elif v in ("retrofit", "retrofit-eat-words"):
            retrofitted = retrofitted or Ensemble([retrofit(n, graph) for n in ("glove50", "spacy300", "minilm")])
            sp = out[v] = EmbeddingSpymaster(retrofitted, base.config)
            if v == "retrofit-eat-words":
                sp.words.never = sp.words.never | ~np.array([w in graph for w in retrofitted.clue_words])
        else:
            raise SystemExit(f"{v}: not a variant (base, assoc-off, evokes-off, lift:X, table:PATH, families:A+B, retrofit, "
                             "retrofit-eat-words)")
    return out


@dataclass(frozen=True)
class Position:
    """Where the variants give a clue: a game's bot position or a people's-board position."""

    ref: dict
    """What the key records: ``{"save", "event"}`` or ``{"pos"}`` (a `readings.py` position)."""
    board: str
    """Which board it is on: a reader sees each board once."""


def game_positions(folders: str, rng: random.Random, every: bool = False) -> list[Position]:
    """Two of the bot's positions a deal in ``games/FOLDER`` (comma-separated folders: all of
    theirs), drawn at random; ``every``: all of them."""
    by_seed = defaultdict(list)
    for folder in folders.split(","):
        for save in sorted((GAMES / folder).glob("*.json")):
            for it in game_items(save):
                if it.giver == "bot":
                    by_seed[it.seed].append(it)
    return [Position({"save": it.save, "event": it.event}, f"deal-{s}")
            for s in sorted(by_seed) for it in (by_seed[s] if every else rng.sample(by_seed[s], min(2, len(by_seed[s]))))]


def people_positions() -> list[Position]:
    """`readings.py`'s positions on people's boards (the development split's, by reference)."""
    return [Position({"pos": p["id"]}, p["id"]) for p in map(json.loads, readings.POSITIONS.read_text().splitlines())
            if p["kind"] != "dealt"]


class Truth:
    """A position's view for a spymaster, its open words, and an item to judge readings by."""

    def __init__(self) -> None:
        self._games: dict[str, dict[int, Item]] = {}
        self._turns: dict | None = None
        self._positions: dict[str, dict] | None = None

    def item(self, ref: dict) -> Item:
        if "save" in ref:
            if ref["save"] not in self._games:
                self._games[ref["save"]] = {i.event: i for i in game_items(GAMES / ref["save"])}
            return self._games[ref["save"]][ref["event"]]
        if self._turns is None:
            self._turns = readings.dev_turns()
            self._positions = {p["id"]: p for p in map(json.loads, readings.POSITIONS.read_text().splitlines())}
        assert self._positions is not None
        _, open_words, green, assassin = readings.position_truth(self._positions[ref["pos"]], self._turns)
        return Item("", 0, "bot", 0, "", 0, tuple(open_words), frozenset(green), frozenset(assassin), (), (),
                    (frozenset(), frozenset()))

    def view(self, ref: dict):
        if "save" in ref:
            state = load_saved(GAMES / ref["save"]).state
            replay = State(state.deal, state.variant)
            for ev in state.events[:ref["event"]]:
                replay.apply(ev.action, ev.player)
            return spymaster_view(replay, Player.B)
        from duetbot.suggest.duet import spymaster_request_view

        self.item(ref)
        assert self._positions is not None and self._turns is not None
        req, *_ = readings.position_truth(self._positions[ref["pos"]], self._turns)
        return spymaster_request_view(req)


def make_batches(name: str, variants: list[str], games: str | None, people: bool, readers: int, out: Path,
                 seed: int, changed: bool = False) -> None:
    """``changed``: of every bot position of ``games`` (and people's boards), only those where
    the variants' clues differ, at most two a board."""
    rng = random.Random(seed)
    positions = (game_positions(games, rng, every=changed) if games else []) + (people_positions() if people else [])
    givers = spymasters(variants)
    truth = Truth()
    by_board: dict[str, list[list[dict]]] = defaultdict(list)
    for pos in positions:
        view = truth.view(pos.ref)
        items = []
        for g, sp in givers.items():
            o = sp.suggest(view, top=1)[0]
            x = {**pos.ref, "giver": g, "clue": o.clue.word.lower(), "number": o.clue.number}
            if "save" in pos.ref:   # people's boards stay in the split: not even the targets are copied
                x["targets"] = list(o.targets)
            items.append(x)
        if not changed or len({(x["clue"], x["number"]) for x in items}) > 1:
            by_board[pos.board].append(items)
    if changed:
        by_board = {b: rng.sample(p, min(2, len(p))) for b, p in by_board.items()}
    batches = readings.spread(([x for items in p for x in items] for p in by_board.values()), readers)
    out.mkdir(parents=True, exist_ok=True)
    (HERE / f"{name}_readings").mkdir(exist_ok=True)
    key = {}
    for r, batch in enumerate(batches):
        rng.shuffle(batch)
        puzzles = []
        for n, x in enumerate(batch):
            words = [w.upper() for w in truth.item(x).open_words]
            rng.shuffle(words)
            pid = f"v{r}-{n:03d}"
            key[pid] = x
            puzzles.append({"id": pid, "words": words, "clue": x["clue"].upper(), "number": x["number"]})
        (out / f"batch-{r}.json").write_text(json.dumps(puzzles, indent=1))
    (HERE / f"{name}_readings" / "key.json").write_text(json.dumps(key, indent=1))
    print(f"{sum(map(len, batches))} items in {readers} batches ({', '.join(str(len(b)) for b in batches)}) in {out}")


def score(name: str, answer_files: list[Path]) -> None:
    """Each variant's readings within the number, by source (the games' positions, people's
    boards), and each pair of variants compared position by position."""
    key = json.loads((HERE / f"{name}_readings" / "key.json").read_text())
    truth = Truth()
    rows: dict[tuple[str, str], list[dict]] = defaultdict(list)
    by_pos: dict[tuple, dict[str, int]] = defaultdict(dict)
    for path in answer_files:
        for pid, guesses in json.loads(path.read_text()).items():
            x = key[pid]
            source = "games" if "save" in x else "people's boards"
            it = replace(truth.item(x), clue=x["clue"], number=x["number"])
            r = read_within(it, guesses)
            rows[(source, x["giver"])].append(r)
            by_pos[(x.get("save"), x.get("event"), x.get("pos"))][x["giver"]] = int(r["before_miss"])
    print("| positions | giver | clues | greens in first n | greens before a miss | first guess a miss | assassin hit "
          "| mean number |")
    print("|---|---|---|---|---|---|---|---|")
    for (source, g), rs in sorted(rows.items()):
        t = readings.figures(rs)
        print(f"| {source} | {g} | {t['clues']} | {readings.cells(t)} | {t['mean_number']:.2f} |")
    givers = sorted({g for _, g in rows})
    print()
    for a in givers:
        for b in givers:
            d = [v[b] - v[a] for v in by_pos.values() if a < b and a in v and b in v]
            if len(d) > 1:
                m = sum(d) / len(d)
                sd = (sum((x - m) ** 2 for x in d) / (len(d) - 1)) ** 0.5 or 1.0
                print(f"{b} - {a}, paired by position: {m:+.2f} greens before a miss (n={len(d)}, t={m / sd * len(d) ** 0.5:.2f}; "
                      f"better {sum(x > 0 for x in d)}, worse {sum(x < 0 for x in d)}, same {sum(x == 0 for x in d)})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("batches")
    b.add_argument("--name", required=True, help="the experiment: its key goes to NAME_readings/")
    b.add_argument("--variants", required=True, help="comma-separated: base, families:A+B, retrofit, ...")
    b.add_argument("--games", default="new2",
                   help="the folders of games/ (comma-separated) whose bot positions to use ('' for none)")
    b.add_argument("--people", action="store_true", help="add readings.py's positions on people's boards")
    b.add_argument("--changed", action="store_true",
                   help="every position of --games where the variants' clues differ (at most two a board)")
    b.add_argument("--readers", type=int, default=0, help="default: two a variant")
    b.add_argument("--out", type=Path, required=True, help="a folder for the readers' batch files")
    b.add_argument("--seed", type=int, default=7)
    s = sub.add_parser("score")
    s.add_argument("--name", required=True)
    s.add_argument("answers", type=Path, nargs="+")
    args = ap.parse_args(argv)
    if args.cmd == "batches":
        variants = args.variants.split(",")
        make_batches(args.name, variants, args.games or None, args.people, args.readers or 2 * len(variants),
                     args.out, args.seed, args.changed)
    else:
        score(args.name, args.answers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
