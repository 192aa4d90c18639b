"""Person-like readings: single clues read cold and blind, scored per clue giver.

The readers are language-model stand-ins briefed as careful, ordinary players
(``../shared/person-like/BRIEFS.md``), not people. Each reads a batch of unrelated items (the
open words shuffled, a clue, its number) and answers its guesses in order; it never learns
whose clue an item is, the key, or the bot's reasoning, and never sees one board twice.

    PYTHONPATH=src python benchmarks/person_like/readings.py positions            # once
    PYTHONPATH=src python benchmarks/person_like/readings.py clues --giver new    # this code
    PYTHONPATH=OLD/src python benchmarks/person_like/readings.py clues --giver old   # an older main
    PYTHONPATH=src python benchmarks/person_like/readings.py batches --readers 3 --out DIR
    PYTHONPATH=src python benchmarks/person_like/readings.py score ANSWERS...

Positions (``positions.jsonl``, in this folder):

- ``dev-open``: the first turn of games of the human development split
  (``../shared/data/human-duet-dev/``); its clue givers are the person (the human clue) and the
  bots. The split's README forbids copying it into the repository, so such a position is kept
  as a reference (the turn's id) and the board, key and clue are read from the split when
  batches are made or scored.
- ``dev-mid``: a later turn (the giver's third or later) of such a game, with its history and a
  tight clock (``9 - 2 * (turn - 1)`` tokens, at least 2: both players give clues in Duet).
- ``dealt``: a position of a seeded game between the default bots once the clock is down to
  ``DEALT_TOKENS`` tokens or fewer, kept whole (our own word pool).

A bot's clue at a position is the recommended clue of ``suggest`` (the spymaster request
the position makes, history included): ``clues --giver NAME`` writes ``clues-NAME.jsonl`` with
the code on ``PYTHONPATH``, so an older main gives its clues on the same positions.

Scores, per setting and giver, each with its count of clues and of readers' guesses: greens
in the first n (the share of the number's guesses that are the giver's greens), greens before
a miss (per clue), a miss on the first guess, and the assassin (clues whose first miss is one
of the giver's assassins; and clues with an assassin anywhere in the guesses).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Iterable, Sequence

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEV = ROOT.parent / "shared" / "data" / "human-duet-dev" / "turns.jsonl"
POSITIONS = HERE / "readings" / "positions.jsonl"
DEALT_TOKENS = 5


def dev_turns() -> dict[str, dict]:
    if not DEV.exists():
        raise SystemExit(f"the human development split is not at {DEV}")
    return {t["id"]: t for t in map(json.loads, DEV.read_text().splitlines())}


def dev_request(turn: dict, turns: dict[str, dict]) -> dict:
    """The spymaster request of a development turn: the giver's side, what is covered, the
    game's earlier clues with the human guesses, and the clock."""
    board = turn["board"]
    covered = [w for w in board if w not in turn["remaining"]]
    history = [{"clue": t["clue"], "number": t["number"], "guesses": t["human_guesses"]}
               for t in turns.values() if t["game"] == turn["game"] and t["turn"] < turn["turn"]]
    history = [h for h in history if all(g in board for g in h["guesses"])]
    return {"board": board, "green": [w for w in turn["green"] if w in turn["remaining"]],
            "assassin": turn["black"], "covered": covered, "history": history,
            "tokens": max(9 - 2 * (turn["turn"] - 1), 2)}


def position_truth(pos: dict, turns: dict[str, dict] | None) -> tuple[dict, list[str], set[str], set[str]]:
    """(request, open words, the giver's greens, the giver's assassins) of a position."""
    if pos["kind"] == "dealt":
        req = pos["request"]
    else:
        turns = turns or dev_turns()
        req = dev_request(turns[pos["ref"]], turns)
    shut = set(req["covered"]) | set(req.get("partner_bystanders", ()))
    open_words = [w for w in req["board"] if w not in shut]
    return req, open_words, set(req["green"]) - shut, set(req["assassin"]) - shut


# --- positions -----------------------------------------------------------------------------------

def make_positions(n_open: int, n_mid: int, n_dealt: int, seed: int) -> list[dict]:
    from duetbot.bots.factory import PartnerSpec
    from duetbot.harness.duet import step
    from duetbot.rules import Label, Phase, State, deal
    from duetbot.wordpool import default_pool

    turns = dev_turns()
    rng = random.Random(seed)
    games: dict[str, list[dict]] = defaultdict(list)
    for t in turns.values():
        games[t["game"]].append(t)
    ids = sorted(games)
    rng.shuffle(ids)
    out: list[dict] = []
    for g in ids[:n_open]:
        first = min(games[g], key=lambda t: t["turn"])
        if first["turn"] == 1 and first["number"] > 0:
            out.append({"id": f"open-{first['id']}", "kind": "dev-open", "ref": first["id"]})
    for g in ids[n_open:]:
        if sum(p["kind"] == "dev-mid" for p in out) >= n_mid:
            break
        later = [t for t in sorted(games[g], key=lambda t: t["turn"]) if t["turn"] >= 3 and t["number"] > 0]
        if later:
            t = later[0]
            out.append({"id": f"mid-{t['id']}", "kind": "dev-mid", "ref": t["id"]})
    pool = default_pool()
    game = 0
    while sum(p["kind"] == "dealt" for p in out) < n_dealt:
        game += 1
        a = PartnerSpec.parse("default").build(seed + game)
        b = PartnerSpec.parse("default").build(seed + game + 1)
        state = State(deal(seed * 1000 + game, pool))
        while state.outcome is None:
            if state.phase is Phase.CLUE and state.tokens <= DEALT_TOKENS:
                giver = state.mover()
                side = state.deal.key.side(giver)
                covered = state.covered()
                words = state.deal.words
                mine = [t for t in state.turns if t.giver == giver and t.guesses]
                req = {"board": list(words),
                       "green": [w for i, w in enumerate(words) if side[i] is Label.GREEN and i not in covered],
                       "assassin": [w for i, w in enumerate(words) if side[i] is Label.ASSASSIN],
                       "covered": [words[i] for i in sorted(covered)],
                       "partner_bystanders": [words[i] for i in sorted(state.marks[giver.other]) if i not in covered],
                       "history": [{"clue": t.clue.word, "number": t.clue.number, "guesses": [w for w, _ in t.guesses]}
                                   for t in mine],
                       "tokens": state.tokens}
                if req["green"]:
                    out.append({"id": f"dealt-{seed}-{game}", "kind": "dealt", "request": req})
                break
            step(state, (a, b))
    return out


# --- clues ---------------------------------------------------------------------------------------

def bot_clue(req: dict) -> dict:
    """The bot's recommended positive clue at a request (the code on ``PYTHONPATH``)."""
    from duetbot.bots.factory import default_bots
    from duetbot.suggest.duet import spymaster_request_view

    spymaster = default_bots()[0]
    options = spymaster.suggest(spymaster_request_view(req), top=5)
    best = next(o for o in options if o.clue.number > 0)
    return {"clue": best.clue.word.lower(), "number": best.clue.number, "targets": list(best.targets),
            "links": [round(v, 2) for v in best.links], "zero_first": options[0].clue.number == 0}


def write_clues(giver: str) -> Path:
    turns = dev_turns()
    out = HERE / "readings" / f"clues-{giver}.jsonl"
    with out.open("w") as f:
        for pos in map(json.loads, POSITIONS.read_text().splitlines()):
            req, *_ = position_truth(pos, turns)
            f.write(json.dumps({"id": pos["id"], **bot_clue(req)}) + "\n")
    return out


# --- shared by the reading studies ----------------------------------------------------------------

def judge(open_words: Sequence[str], green: set[str] | frozenset[str], assassin: set[str] | frozenset[str],
          guesses: Sequence[object], number: int) -> dict:
    """One reading judged on the giver's side, within the number (guesses past it are left out)."""
    fold = {w.casefold(): w for w in open_words}
    words = [fold.get(str(g).casefold()) for g in guesses][:number]
    found, miss = 0, None
    for w in words:
        if w in green:
            found += 1
            continue
        miss = w
        break
    return {"number": number, "guesses": len(words), "green": sum(w in green for w in words), "before_miss": found,
            "first_miss": bool(words) and words[0] not in green, "assassin_hit": miss is not None and miss in assassin,
            "assassin_any": any(w in assassin for w in words)}


def figures(rows: list[dict]) -> dict:
    """The figures of a group of :func:`judge` rows."""
    n, g = len(rows), sum(r["guesses"] for r in rows)
    return {"clues": n, "guesses": g, "green_share": sum(r["green"] for r in rows) / max(g, 1),
            "before_miss": sum(r["before_miss"] for r in rows) / n, "first_miss": sum(r["first_miss"] for r in rows) / n,
            "assassin_hit": sum(r["assassin_hit"] for r in rows), "assassin_any": sum(r["assassin_any"] for r in rows),
            "mean_number": sum(r["number"] for r in rows) / n}


def cells(t: dict) -> str:
    """Table cells: greens in the first n, greens before a miss, first guess a miss, assassin hit."""
    return (f"{100 * t['green_share']:.1f}% | {t['before_miss']:.2f} | {100 * t['first_miss']:.1f}% | "
            f"{t['assassin_hit']} ({100 * t['assassin_hit'] / t['clues']:.1f}%)")


def spread(groups: Iterable[list[dict]], readers: int) -> list[list[dict]]:
    """Each group (one board's items) over different readers, the loads kept even: a reader
    never sees one board twice."""
    batches: list[list[dict]] = [[] for _ in range(readers)]
    start = 0
    for group in groups:
        if len(group) > readers:
            raise SystemExit(f"a board has {len(group)} items for {readers} readers: never one board twice")
        for k, it in enumerate(group):
            batches[(start + k) % readers].append(it)
        start += len(group)
    return batches


# --- batches -------------------------------------------------------------------------------------

def all_items(givers: list[str], turns: dict[str, dict]) -> list[dict]:
    """Every (position, giver) item: the person's clue on people's boards, each bot's."""
    positions = [json.loads(line) for line in POSITIONS.read_text().splitlines()]
    clues = {g: {c["id"]: c for c in map(json.loads, (HERE / "readings" / f"clues-{g}.jsonl").read_text().splitlines())}
             for g in givers}
    items = []
    for pos in positions:
        if "ref" in pos:
            t = turns[pos["ref"]]
            items.append({"pos": pos["id"], "giver": "person", "clue": t["clue"], "number": t["number"]})
        for g in givers:
            c = clues[g][pos["id"]]
            items.append({"pos": pos["id"], "giver": g, "clue": c["clue"], "number": c["number"]})
    return items


def make_batches(givers: list[str], readers: int, out: Path, seed: int) -> None:
    """Reader batch files (``batch-K.json``, outside the repository: dev boards may not be
    copied in) and the key of which item is which (``key.json``, kept in the repository with
    nothing of the split: position, giver, number)."""
    turns = dev_turns()
    positions = {p["id"]: p for p in map(json.loads, POSITIONS.read_text().splitlines())}
    rng = random.Random(seed)
    by_pos: dict[str, list[dict]] = defaultdict(list)
    for it in all_items(givers, turns):
        by_pos[it["pos"]].append(it)
    order = list(by_pos)
    rng.shuffle(order)
    for pos_id in order:
        rng.shuffle(by_pos[pos_id])
    batches = spread((by_pos[pos_id] for pos_id in order), readers)
    out.mkdir(parents=True, exist_ok=True)
    key = {}
    for r, batch in enumerate(batches):
        rng.shuffle(batch)
        puzzles = []
        for n, it in enumerate(batch):
            _, open_words, _, _ = position_truth(positions[it["pos"]], turns)
            words = [w.upper() for w in open_words]
            rng.shuffle(words)
            pid = f"r{r}-{n:03d}"
            key[pid] = {"pos": it["pos"], "giver": it["giver"], "number": it["number"]}
            puzzles.append({"id": pid, "words": words, "clue": it["clue"].upper(), "number": it["number"]})
        (out / f"batch-{r}.json").write_text(json.dumps(puzzles, indent=1))
    (HERE / "readings" / "key.json").write_text(json.dumps(key, indent=1, sort_keys=True))
    print(f"{sum(map(len, batches))} items in {readers} batches ({', '.join(str(len(b)) for b in batches)}) in {out}")


# --- scoring -------------------------------------------------------------------------------------

def score(answer_files: list[Path], as_json: Path | None) -> dict:
    turns = dev_turns()
    positions = {p["id"]: p for p in map(json.loads, POSITIONS.read_text().splitlines())}
    key = json.loads((HERE / "readings" / "key.json").read_text())
    rows: dict[tuple[str, str], list[dict]] = defaultdict(list)
    bad = 0
    for path in answer_files:
        for pid, guesses in json.loads(path.read_text()).items():
            it = key.get(pid)
            if it is None:
                bad += 1
                continue
            pos = positions[it["pos"]]
            _, open_words, green, assassin = position_truth(pos, turns)
            kind = pos["kind"]
            setting = "opening" if kind == "dev-open" else ("mid-game, people's boards" if kind == "dev-mid"
                                                             else "mid-game, dealt")
            rows[(setting, it["giver"])].append(judge(open_words, green, assassin, guesses, it["number"]))
    table = {}
    print("| setting | giver | clues | guesses | greens in first n | greens before a miss | first guess a miss | assassin hit | assassin among guesses | mean number |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (setting, giver), rs in sorted(rows.items()):
        t = figures(rs)
        table[f"{setting} / {giver}"] = t
        print(f"| {setting} | {giver} | {t['clues']} | {t['guesses']} | {cells(t)} | "
              f"{t['assassin_any']} ({100 * t['assassin_any'] / t['clues']:.1f}%) | {t['mean_number']:.2f} |")
    if bad:
        print(f"\n{bad} answers named no item of the key (left out)")
    if as_json:
        as_json.write_text(json.dumps(table, indent=1, sort_keys=True))
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--open", type=int, default=24)
    p.add_argument("--mid", type=int, default=20)
    p.add_argument("--dealt", type=int, default=20)
    p.add_argument("--seed", type=int, default=36)
    c = sub.add_parser("clues")
    c.add_argument("--giver", required=True)
    b = sub.add_parser("batches")
    b.add_argument("--givers", default="new,old")
    b.add_argument("--readers", type=int, default=3)
    b.add_argument("--out", type=Path, required=True, help="a folder outside the repository")
    b.add_argument("--seed", type=int, default=36)
    s = sub.add_parser("score")
    s.add_argument("answers", type=Path, nargs="+")
    s.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "positions":
        POSITIONS.parent.mkdir(exist_ok=True)
        pos = make_positions(args.open, args.mid, args.dealt, args.seed)
        POSITIONS.write_text("".join(json.dumps(p) + "\n" for p in pos))
        print(f"{len(pos)} positions in {POSITIONS}")
    elif args.cmd == "clues":
        print(f"clues in {write_clues(args.giver)}")
    elif args.cmd == "batches":
        make_batches(args.givers.split(","), args.readers, args.out, args.seed)
    else:
        score(args.answers, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
