"""The AI strength table (``make ai-table``): each level against ``random`` and against the level below, per
game and player count, seat-rotated; playouts/s per game; move time p50/p99 per level. Not part of ``make test``.

    .venv/bin/python -m bench.ai_strength --games 40 --jobs 2 --write-docs

Each match is one seat at the level under test and every other seat at the opponent level; the tested seat
moves round the table from game to game. A win is the tested seat among the winners. ``fair`` is a seat's win
rate when every seat plays ``random`` (the share it would get with no skill: in a shared-victory game it is not
1/players). Intervals are Wilson 95%. Think times are the levels' own, in CPU time as the worker counts them
(``--clock wall``: in wall clock, weaker on a busy machine; the load average is printed with the table), unless
``--playouts N`` fixes every search at N playouts with no clock.
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

from shared.ai import LEVELS, SeatKnowledge, search
from shared.ai.levels import _elapsed
from shared.games import GAMES
from shared.kernel import entropy_for, fold

ORDER = ["random", "easy", "medium", "hard"]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "ai.md"
START, END = "<!-- ai-table:start -->", "<!-- ai-table:end -->"


def _seed(*parts: Any) -> int:
    return int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:8], "big")


def play(task: tuple[str, int, str, str, int, int | None, str]) -> dict[str, Any]:
    """One game: seat ``k % players`` at ``level``, the others at ``opponent``."""
    game_id, players, level, opponent, k, fixed, clock_kind = task
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
        spec = LEVELS[level if seat == tested else opponent]
        rng = random.Random(rand.getrandbits(64))
        started = time.perf_counter()
        if spec.playouts == 0 or len(knowledge.legal) == 1:
            command = rng.choice(knowledge.legal)
        else:
            budget = fixed or spec.playouts
            clock = None if fixed else (_elapsed(time.process_time, time.perf_counter) if clock_kind == "cpu"
                                        else _elapsed(time.perf_counter, None))
            result = search(knowledge, budget, rng, clock=clock, deadline=None if fixed else spec.seconds)
            command = result.best
            if seat == tested:
                searches.append((result.iterations, time.perf_counter() - started))
        if seat == tested:
            moves.append(time.perf_counter() - started)
        new, state = game.checked_decide(state, command, seat, entropy_for(game_seed, version))
        version += len(new)
    final = game.decider.outcome(state)
    return {"game": game_id, "players": players, "level": level, "opponent": opponent, "k": k,
            "win": bool(final and tested in final.winners), "ended": final is not None, "moves": moves,
            "searches": searches}


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_strength", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded games per match-up (default 40)")
    parser.add_argument("--first", type=int, default=0,
                        help="index of the first seeded game (to extend an earlier sample with new games)")
    parser.add_argument("--only", default=",".join(sorted(GAMES)), help="comma-separated game ids")
    parser.add_argument("--players", default="min", help="'min', 'all', or comma-separated player counts")
    parser.add_argument("--levels", default="easy,medium,hard", help="levels to test")
    parser.add_argument("--vs", default="random,below", help="opponents: random, below (the level below), or both")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="think time as the worker counts it (cpu, capped at 3x in wall clock) or wall clock")
    parser.add_argument("--playouts", type=int, help="fix every search at N playouts, no clock (reproducible)")
    parser.add_argument("--fair-games", type=int, default=200, help="all-random games behind the fair share")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine has 2 cores)")
    parser.add_argument("--out", type=Path, default=Path("bench-results/ai-strength.json"))
    parser.add_argument("--write-docs", action="store_true", help="put the table into docs/ai.md")
    args = parser.parse_args(argv)
    levels = [lv for lv in args.levels.split(",") if lv]
    tasks, fair_tasks = [], []
    for game_id in args.only.split(","):
        game = GAMES[game_id]
        counts = (list(range(game.catalogue.min_players, game.catalogue.max_players + 1)) if args.players == "all" else
                  [max(game.catalogue.min_players, 2)] if args.players == "min" else
                  [int(n) for n in args.players.split(",") if game.catalogue.min_players <= int(n) <= game.catalogue.max_players])
        for n in counts:
            fair_tasks += [(game_id, n, "random", "random", k, None, args.clock) for k in range(args.fair_games)]
            for level in levels:
                below = ORDER[ORDER.index(level) - 1]
                wanted = [{"random": "random", "below": below}[v] for v in args.vs.split(",") if v]
                for opponent in dict.fromkeys(wanted):
                    tasks += [(game_id, n, level, opponent, k, args.playouts, args.clock)
                              for k in range(args.first, args.first + args.games)]
    started = time.time()
    with Pool(args.jobs) as pool:
        fair = pool.map(play, fair_tasks, chunksize=20)
        results = []
        for i, result in enumerate(pool.imap_unordered(play, tasks)):
            results.append(result)
            if (i + 1) % 20 == 0:
                print(f"[ai] {i + 1}/{len(tasks)} games, {time.time() - started:.0f}s", flush=True)
    table = summarise(fair, results, args, levels)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"table": table, "results": results}, indent=1))
    print(table)
    if args.write_docs:
        text = DOCS.read_text()
        head, rest = text.split(START, 1)
        DOCS.write_text(head + START + "\n" + table + "\n" + END + rest.split(END, 1)[1])
    return 0


def summarise(fair: list[dict[str, Any]], results: list[dict[str, Any]], args: argparse.Namespace,
              levels: list[str]) -> str:
    fair_rate: dict[tuple[str, int], float] = defaultdict(float)
    fair_n: dict[tuple[str, int], int] = defaultdict(int)
    for r in fair:
        fair_rate[(r["game"], r["players"])] += r["win"]
        fair_n[(r["game"], r["players"])] += 1
    groups: dict[tuple[str, int, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        groups[(r["game"], r["players"], r["level"], r["opponent"])].append(r)
    load = os.getloadavg()
    budget = (f"{args.playouts} playouts a move, no clock" if args.playouts else
              f"the levels' own budgets, think time in {'CPU time (capped at 3x in wall clock)' if args.clock == 'cpu' else 'wall clock'}")
    lines = [f"Budgets: {budget}. {args.games} games per match-up, seat-rotated. Load average at the end: "
             f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} cores.", "",
             "| game | players | level | vs | games | win % (95% CI) | fair % | × fair | search move p50 / p99 ms | playouts/move | playouts/s |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    def order(kv):
        return kv[0][0], kv[0][1], ORDER.index(kv[0][2]), ORDER.index(kv[0][3])

    for (game_id, n, level, opponent), rs in sorted(groups.items(), key=order):
        wins = sum(r["win"] for r in rs)
        lo, hi = wilson(wins, len(rs))
        share = fair_rate[(game_id, n)] / max(1, fair_n[(game_id, n)])
        times = [t for r in rs for _, t in r["searches"]]  # moves with a choice (a forced move takes no thought)
        its = [i for r in rs for i, _ in r["searches"]]
        secs = sum(s for r in rs for _, s in r["searches"])
        lines.append(
            f"| {game_id} | {n} | {level} | {opponent} | {len(rs)} | {100 * wins / len(rs):.0f} ({100 * lo:.0f}–{100 * hi:.0f}) "
            f"| {100 * share:.0f} | {wins / len(rs) / share if share else float('nan'):.1f} "
            f"| {1000 * pct(times, 0.5):.0f} / {1000 * pct(times, 0.99):.0f} "
            f"| {statistics.mean(its) if its else 0:.0f} | {sum(its) / secs if secs else 0:.0f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
