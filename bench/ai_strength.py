"""The AI strength table (``make ai-table``): each level against ``random`` and against the greedy one-ply
baseline (``bench.greedy``), per game, at two seats and the largest table, seat-rotated, with Wilson 95% intervals
and the issue's targets. Not part of ``make test``.

    nice .venv/bin/python -m bench.ai_strength --games 40 --jobs 2 --write-docs

Each match is one seat at the level under test and every other seat at the opponent; the tested seat moves round
the table from game to game. A win is the tested seat among the winners. ``fair`` is a seat's win rate when every
seat plays ``random`` (the share it would get with no skill: in a shared-victory game it is not 1/players).

Budgets are CPU time: each search stops after its level's think time (times ``--scale``) of this process's
``time.process_time``, with no wall-clock cap, so on a busy host a game takes longer but every search gets the
same CPU as on an idle one (``--clock wall``: the worker's rule instead, CPU capped at 3x in wall clock, which a
busy host weakens). ``--playouts N`` fixes every search at N playouts with no clock. Games are appended to
``--out`` as they end, index by index across the cells, so a run stopped early still gives a table
(``--summarise``). ``--oracle`` hands the tested seat's searches the real state instead of worlds drawn from its
knowledge: a player no seat can be, for a ceiling (what the same search would win if it knew every card).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bench import greedy
from shared.ai import LEVELS, SeatKnowledge
from shared.ai.ismcts import Model
from shared.ai.levels import plan
from shared.games import GAMES
from shared.kernel import entropy_for, fold

ORDER = ["random", "greedy", "easy", "medium", "hard"]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "ai.md"
START, END = "<!-- ai-table:start -->", "<!-- ai-table:end -->"


def _seed(*parts: Any) -> int:
    return int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:8], "big")


def play(task: tuple[str, int, str, str, int, int | None, str, float, bool, bool]) -> dict[str, Any]:
    """One game: seat ``k % players`` at ``level``, the others at ``opponent`` (a level, or ``greedy``: the
    baseline of ``bench.greedy``). Think time is the level's times ``scale``, counted on ``clock``: ``cpu`` is this
    process's CPU time with no wall-clock cap (a busy host slows a game down but never weakens a search), ``wall``
    the worker's own rule (CPU time capped at 3x in wall clock). ``oracle``: the tested seat's every world is the
    real state (a ceiling, never a player). ``modelled``: the tested seat's searches are told how the other seats
    play (``ismcts.search``'s ``opponents``: ``random`` or greedy, as they are), another ceiling."""
    game_id, players, level, opponent, k, fixed, clock_kind, scale, oracle, modelled = task
    game = GAMES[game_id]
    seed = _seed(game_id, players, level, opponent, k)
    tested = k % players
    rand = random.Random(seed)
    game_seed = seed.to_bytes(8, "big")
    _, events = game.start(players, {}, entropy_for(game_seed, 0))
    state, version = fold(game, events), len(events)
    moves: list[float] = []
    searches: list[tuple[int, float]] = []
    for _ in range(5000):
        if game.decider.outcome(state) is not None:
            break
        seat = sorted(game.decider.to_act(state))[0]
        knowledge = SeatKnowledge.of(game, state, seat)
        if oracle and seat == tested:
            knowledge = SeatKnowledge(game, seat, knowledge.legal, knowledge.view, lambda _rng, real=state: real)
        who = level if seat == tested else opponent
        model = opponent_model(game, opponent) if modelled and seat == tested else None
        rng = random.Random(rand.getrandbits(64))
        started = time.process_time()
        if who == "greedy":
            command = greedy.choose(game_id, knowledge, rng)
        elif fixed:
            command = plan(knowledge, who, rng, playouts=fixed, opponents=model).best
        else:
            spec = LEVELS[who]
            wall = time.perf_counter if clock_kind == "wall" else None
            result = plan(knowledge, who, rng, clock=time.process_time, wall=wall, think_s=spec.seconds * scale,
                          opponents=model)
            command = result.best
            if seat == tested and result.iterations:
                searches.append((result.iterations, time.process_time() - started))
        if seat == tested:
            moves.append(time.process_time() - started)
        new, state = game.checked_decide(state, command, seat, entropy_for(game_seed, version))
        version += len(new)
    final = game.decider.outcome(state)
    return {"game": game_id, "players": players, "level": level, "opponent": opponent, "k": k, "oracle": oracle,
            "modelled": modelled,
            "win": bool(final and tested in final.winners), "ended": final is not None, "moves": moves,
            "searches": searches}


def opponent_model(game: Any, opponent: str) -> Model:
    """How ``opponent`` plays a seat of a world inside a search: ``random`` draws a legal command, greedy chooses
    from that seat's knowledge of the world."""
    if opponent == "random":
        return lambda _world, _seat, legal, rng: rng.choice(legal)
    if opponent == "greedy":
        return lambda world, seat, _legal, rng: greedy.choose(game.id, SeatKnowledge.of(game, world, seat), rng)
    raise ValueError(f"no model of {opponent!r}: --model-opponents is for random and greedy opponents")


def wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def counts_of(game: Any, players: str) -> list[int]:
    least, most = game.catalogue.min_players, game.catalogue.max_players
    if players == "all":
        return list(range(least, most + 1))
    if players == "min":
        return [max(least, 2)]
    if players == "ends":  # the smallest table of two or more and the largest
        return sorted({max(least, 2), most})
    return [int(n) for n in players.split(",") if least <= int(n) <= most]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_strength", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded games per match-up (default 40)")
    parser.add_argument("--first", type=int, default=0,
                        help="index of the first seeded game (to extend an earlier sample with new games)")
    parser.add_argument("--only", default=",".join(sorted(g for g in GAMES if g in greedy.EVALUATIONS)),
                        help="comma-separated game ids")
    parser.add_argument("--players", default="ends", help="'ends' (2 and the largest), 'min', 'all', or counts")
    parser.add_argument("--levels", default="random,easy,medium,hard", help="levels to test (greedy too)")
    parser.add_argument("--vs", default="random,greedy", help="opponents: random, greedy, below (the level below)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="cpu: think time in this process's CPU time, no wall-clock cap (a busy host does not "
                             "weaken the search); wall: the worker's rule, CPU capped at 3x in wall clock")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every level's think time (AI_TIME_SCALE)")
    parser.add_argument("--playouts", type=int, help="fix every search at N playouts, no clock (reproducible)")
    parser.add_argument("--fair-games", type=int, default=1000,
                        help="all-random games behind the fair share (1000: ±3 points; a random game is 2-32 ms)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine has 2 cores)")
    parser.add_argument("--out", type=Path, default=Path("bench-results/ai-strength.jsonl"),
                        help="one line a game, appended as games finish (a run cut short still counts)")
    parser.add_argument("--oracle", action="store_true",
                        help="the tested seat searches the real state (a ceiling: what knowing every card wins)")
    parser.add_argument("--model-opponents", action="store_true",
                        help="the tested seat's searches are told how the other seats play (random or greedy, drawn "
                             "in the tree instead of searched): a ceiling on what knowing the opponents is worth")
    parser.add_argument("--summarise", action="store_true", help="only build the table from --out")
    parser.add_argument("--write-docs", action="store_true", help="put the table into docs/ai.md")
    args = parser.parse_args(argv)
    levels = [lv for lv in args.levels.split(",") if lv]
    if not args.summarise:
        run(args, levels)
    records = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    fair = [r for r in records if r.get("fair")]
    results = [r for r in records if not r.get("fair")]
    table = summarise(fair, results, args)
    print(table)
    if args.write_docs:
        text = DOCS.read_text()
        head, rest = text.split(START, 1)
        DOCS.write_text(head + START + "\n" + table + "\n" + END + rest.split(END, 1)[1])
    return 0


def run(args: argparse.Namespace, levels: list[str]) -> None:
    """Play every match-up, game index by game index (so a run stopped early has about as many games in every
    cell), appending each game to ``--out`` as it ends."""
    tasks, fair_tasks = [], []
    for game_id in args.only.split(","):
        for n in counts_of(GAMES[game_id], args.players):
            fair_tasks += [(game_id, n, "random", "random", k, None, args.clock, args.scale, False, False)
                           for k in range(args.fair_games)]
            for level in levels:
                below = ORDER[max(0, ORDER.index(level) - 1)]
                wanted = [{"random": "random", "greedy": "greedy", "below": below}[v] for v in args.vs.split(",") if v]
                for opponent in dict.fromkeys(w for w in wanted if w != level):
                    tasks += [(game_id, n, level, opponent, k, args.playouts, args.clock, args.scale, args.oracle,
                               args.model_opponents)
                              for k in range(args.first, args.first + args.games)]
    tasks.sort(key=lambda t: (t[4], t[0], t[1], ORDER.index(t[2]), t[3]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    started = time.time()
    with Pool(args.jobs) as pool, args.out.open("a") as out:
        for r in pool.imap_unordered(play, fair_tasks, chunksize=20):
            out.write(json.dumps({**r, "fair": True, "moves": [], "searches": []}) + "\n")
        out.flush()
        for i, r in enumerate(pool.imap_unordered(play, tasks)):
            out.write(json.dumps({**r, "scale": args.scale, "clock": args.clock}) + "\n")
            out.flush()
            if (i + 1) % 20 == 0:
                print(f"[ai] {i + 1}/{len(tasks)} games, {time.time() - started:.0f}s", flush=True)


# The targets: (level, opponent, games) -> × fair share at two seats (three for Arkham Ritual's least
# table) and at the largest table.
TARGETS = {("hard", "greedy", g): (1.5, 1.25) for g in ("pocket-madness", "rise-of-cthulhu", "great-old-one")} | {
    ("hard", "random", g): (1.5, 1.25) for g in ("rites-of-cthulhu", "arkham-ritual")}


def summarise(fair: list[dict[str, Any]], results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    fair_rate: dict[tuple[str, int], float] = defaultdict(float)
    fair_n: dict[tuple[str, int], int] = defaultdict(int)
    fair = list({(r["game"], r["players"], r["k"]): r for r in fair}.values())  # every run replays them: once each
    for r in fair:
        fair_rate[(r["game"], r["players"])] += r["win"]
        fair_n[(r["game"], r["players"])] += 1
    groups: dict[tuple[str, int, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        level = (r["level"] + (" (oracle)" if r.get("oracle") else "")
                 + (" (told the opponents)" if r.get("modelled") else ""))
        groups[(r["game"], r["players"], level, r["opponent"])].append(r)
    largest = {g: max(n for (gg, n, _, _) in groups if gg == g) for (g, _, _, _) in groups}
    load = os.getloadavg()
    budget = (f"{args.playouts} playouts a move, no clock" if args.playouts else
              f"the levels' think times × {args.scale:g} in "
              f"{'CPU time of the process, no wall-clock cap' if args.clock == 'cpu' else 'CPU time capped at 3x in wall clock'}")
    lines = [f"Budgets: {budget}. Up to {args.games} games a match-up, the tested seat rotated round the table. "
             f"Load average at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} cores.", "",
             "| game | players | level | vs | games | wins (%, Wilson 95%) | fair % | × fair | target × | "
             "move CPU p50 / p99 ms | playouts/move |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]

    def order(kv: Any) -> Any:
        return kv[0][0], kv[0][1], ORDER.index(kv[0][3]), ORDER.index(kv[0][2].split()[0]), kv[0][2]

    for (game_id, n, level, opponent), rs in sorted(groups.items(), key=order):
        wins = sum(r["win"] for r in rs)
        lo, hi = wilson(wins, len(rs))
        share = fair_rate[(game_id, n)] / max(1, fair_n[(game_id, n)])
        times = [t for r in rs for _, t in r["searches"]]  # moves with a search (a forced move takes no thought)
        its = [i for r in rs for i, _ in r["searches"]]
        ratio = wins / len(rs) / share if share else float("nan")
        target = None if "(" in level else TARGETS.get((level, opponent, game_id))
        least = max(2, GAMES[game_id].catalogue.min_players)
        wanted = "" if target is None else f"{target[1] if n == largest[game_id] and n > least else target[0]:g}"
        met = "" if not wanted else (" ✓" if ratio >= float(wanted) else " ✗")
        lines.append(
            f"| {game_id} | {n} | {level} | {opponent} | {len(rs)} | {wins} ({100 * wins / len(rs):.0f}, "
            f"{100 * lo:.0f}–{100 * hi:.0f}) | {100 * share:.0f} | {ratio:.2f} | {wanted}{met} "
            f"| {1000 * pct(times, 0.5):.0f} / {1000 * pct(times, 0.99):.0f} "
            f"| {statistics.mean(its) if its else 0:.0f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
