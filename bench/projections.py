"""Projections and quick play (issue 44): the projector's folds per second and its lag behind a game's end under
command load, the matchmaker's seeks matched per second and the p99 from the last seeker to ``matched`` with 1,000
seeks open, and commands per second with the projector and the matchmaker running beside them against without.

Everything runs against the bench stack's Redis under a key prefix of its own, with the rules in process (the toy
game: two-seat rated tables, a resignation ending each at once, so the figures are the read models' own cost, not
a game's). The projector and the matchmaker run in a process of their own, as in a worker: in this process they
would share the command loop's interpreter lock, which a deployment never does.
"""

from __future__ import annotations

import multiprocessing
import random
import secrets
import threading
import time
import uuid
from statistics import median, quantiles
from typing import Any

from shared import ratings
from session_service import bootstrap
from session_service.config import Settings
from session_service.rules_client import LocalRules
from session_service.use_cases.lobby import Caller
from session_service.use_cases.matchmaker import SeekLimits, pool_name
from tests.support.toy import GAME

from bench.report import Report

SECTION = "projections"
SECRET = secrets.token_hex(32)  # the lobby derives tokens with it (bootstrap.token_secret)


def service(redis_url: str, prefix: str, projections: bool = True) -> bootstrap.Service:
    from session_service.storage import redis_clients

    settings = Settings.from_config({"KEY_PREFIX": prefix, "TOKEN_SECRET": SECRET, "PROJECTIONS": projections,
                                     "LEADERBOARD_MIN_GAMES": 1, "OPEN_TABLES_PER_CLIENT": 0,
                                     "TABLES_PER_CLIENT_PER_HOUR": 0, "AI_TABLES_PER_CLIENT_PER_HOUR": 0})
    return bootstrap.build(settings, {"REDIS": redis_clients.connect(redis_url), "RULES": LocalRules(),
                                      "GAMES": {"toy": GAME}, "SCHEDULER": None})


def people(svc: bootstrap.Service, count: int) -> list[Caller]:
    made = [svc.players.make(f"P{i}", False) for i in range(count)]
    return [Caller(f"player:{p.id}", p, key) for p, key in made]


def rated_game(svc: bootstrap.Service, a: Caller, b: Caller) -> str:
    """A rated two-seat toy table, joined and then resigned by its second seat: ended at once."""
    made = svc.lobby.create({"game": "toy", "seats": [{"me": True}, {"open": True}], "rated": True}, a)
    svc.lobby.join(made["id"], {}, b)
    svc.tables.table_command(made["id"], 1, {"type": "resign", "ai": "random"})
    return str(made["id"])


def _background(redis_url: str, prefix: str, stop: Any, running: Any, ready: Any, rounds: Any) -> None:
    """The worker's two threads in a process of their own, running while ``running`` is set (started and stopped
    with it, the process kept: its start is not part of a round). Each running puts on ``rounds`` the CPU (s) it
    took and each game's lag (s) behind its end, once it stopped (a put a game would wake a feeder thread a game)."""
    svc = service(redis_url, prefix)
    projector = svc.projector
    fold = projector.fold
    lags: list[float] = []

    def timed_fold(results: list[ratings.Result]) -> None:
        fold(results)
        for result in results:
            lags.append(time.time() - result.ended_ms / 1000)

    projector.fold = timed_fold  # type: ignore[method-assign]
    ready.set()
    while not stop.is_set():
        if not running.wait(0.1):
            continue
        halt = threading.Event()
        threads = [threading.Thread(target=svc.matchmaker.run, args=(halt, 1.0), daemon=True),
                   threading.Thread(target=projector.run, args=(halt,), daemon=True)]
        for thread in threads:
            thread.start()
        cpu = time.process_time()
        while running.is_set() and not stop.is_set():
            time.sleep(0.2)
        halt.set()
        for thread in threads:
            thread.join(10)
        rounds.put((time.process_time() - cpu, lags[:]))
        lags.clear()
        ready.set()  # stopped: the next round may start


def command_load(svc: bootstrap.Service, seconds: float, callers: list[Caller], ending_every: int) -> tuple[int, int]:
    """Toy commands (each seat's first legal one) on a few games for ``seconds``; every ``ending_every``-th command
    ends a rated table besides (the games the projector folds meanwhile). Commands and tables ended."""
    tables, rng = svc.tables, random.Random(7)
    games = [tables.create({"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]})["id"] for _ in range(8)]
    done = ended = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        game_id = games[done % len(games)]
        meta = tables.meta(game_id)
        if meta.over:
            games[done % len(games)] = tables.create({"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]})["id"]
            continue
        seat = meta.to_act[0]
        legal = tables.state(game_id, seat, meta=meta)["legal_commands"]
        tables.command(game_id, seat, legal[0], meta=meta)
        done += 1
        if ending_every and done % ending_every == 0:
            a, b = rng.sample(callers, 2)
            rated_game(svc, a, b)
            ended += 1
    return done, ended


def measure(report: Report, redis_url: str, games: int = 300, seeks: int = 1000, pairs: int = 100,
            load_s: float = 5.0, rounds: int = 3) -> None:
    details: dict[str, Any] = report.details.setdefault(SECTION, {})
    prefix = f"bench-proj-{uuid.uuid4().hex[:6]}"
    svc = service(redis_url, prefix)
    callers = people(svc, 20)
    rng = random.Random(1)

    # -- the projector: folds per second over a backlog ------------------------------------------------------------
    for _ in range(games):
        a, b = rng.sample(callers, 2)
        rated_game(svc, a, b)
    started = time.perf_counter()
    folded = 0
    while (n := svc.projector.run_once(count=200)):
        folded += n
    fold_s = time.perf_counter() - started
    report.figure(SECTION, "projector: finished games folded", folded / fold_s, "games/s",
                  note=f"{folded} rated two-seat games in a backlog, ratings, leaderboard and histories each")

    # -- the matchmaker: seeks matched per second, and the last seeker's wait at 1,000 open seeks ------------------
    matcher = svc.matchmaker
    matcher.limits = SeekLimits(per_player=10, per_address=0, lapse_s=600, widen_per_s=0.0)
    pool = pool_name("toy", "humans", False)
    seekers = [svc.players.make(f"S{i}", False) for i in range(seeks)]
    for i, (player, _) in enumerate(seekers):
        matcher.pools.renew(player.id, 600)
        matcher.pools.add(pool, {"id": f"s_bench{i}", "player": player.id, "name": player.name, "key_hash": "x" * 64,
                                 "game": "toy", "pool": "humans", "rated": False, "min_seats": 2, "max_seats": 2,
                                 "window": None, "ai_fill_after_s": None, "ai": "random", "made_ms": int(time.time() * 1000) + i,
                                 "ordinal": 0.0, "owners": [player.id]}, [player.id])
    started = time.perf_counter()
    while matcher.pools.size(pool):
        matcher.match(pool)
    match_s = time.perf_counter() - started
    report.figure(SECTION, "matchmaker: seeks matched", seeks / match_s, "seeks/s",
                  note=f"{seeks} compatible seeks open at once, seated in pairs (a table written for each)")
    for i, (player, _) in enumerate(seekers):  # open again, each alone: window 0 around an ordinal of its own
        matcher.pools.add(pool, {"id": f"s_wait{i}", "player": player.id, "name": player.name, "key_hash": "x" * 64,
                                 "game": "toy", "pool": "humans", "rated": False, "min_seats": 2, "max_seats": 2,
                                 "window": 0.0, "ai_fill_after_s": None, "ai": "random", "made_ms": int(time.time() * 1000),
                                 "ordinal": 10.0 * (i + 1), "owners": [player.id]}, [player.id])
    waits = []
    for i in range(pairs):
        first, second = callers[(2 * i) % 20], callers[(2 * i + 1) % 20]
        matcher.seek(first.player, first.key, {"game": "toy", "seats": 2}, None)  # type: ignore[arg-type]
        started = time.perf_counter()
        matcher.seek(second.player, second.key, {"game": "toy", "seats": 2}, None)  # type: ignore[arg-type]
        waits.append(time.perf_counter() - started)
    report.figure(SECTION, f"matchmaker: last seeker to matched, p99 ({seeks:,} seeks open)", quantiles(waits, n=100)[98] * 1000,
                  "ms", note=f"{pairs} pairs; the seek's request, the match over the whole pool, the table and both notices")

    for i in range(seeks):  # the seeks left waiting go: the load below runs beside an ordinary pool
        matcher.pools.claim(pool, [f"s_wait{i}"])

    details.update({"games": games, "seeks": seeks, "pairs": pairs, "load_s": load_s})
    compare_load(report, details, redis_url, prefix, svc, callers, load_s, rounds)
    _forget(svc, prefix)


def compare_load(report: Report, details: dict[str, Any], redis_url: str, prefix: str, svc: bootstrap.Service,
                 callers: list[Caller], load_s: float, rounds: int) -> None:
    """Commands per second without, then with, the projector and the matchmaker running: short rounds in pairs,
    each pair's order the other way from the last's, so the drift of a shared machine's load cancels; and, as
    figures the noise moves less, the CPU each side spent (this process's, Redis's, the background process's)."""
    bare = service(redis_url, prefix, projections=False)
    context = multiprocessing.get_context("spawn")
    told, stop, running, ready = context.Queue(), context.Event(), context.Event(), context.Event()
    worker = context.Process(target=_background, args=(redis_url, prefix, stop, running, ready, told), daemon=True)
    worker.start()
    ready.wait(120)
    time.sleep(1.0)  # past its start, which takes a core while it imports
    redis = svc.tables.store.redis
    sides: dict[str, dict[str, list[float]]] = {side: {"rate": [], "cpu": [], "redis_cpu": [], "commands": []}
                                                for side in ("without", "with")}
    ended = 0

    def one(side: str) -> None:
        nonlocal ended
        if side == "with":
            ready.clear()
            running.set()
            time.sleep(0.5)  # its threads started
        redis_before, cpu = _redis_cpu(redis), time.process_time()
        done, n = command_load(svc if side == "with" else bare, load_s, callers, 10)  # bare: told to no feed
        kept = sides[side]
        kept["cpu"].append(time.process_time() - cpu)
        kept["rate"].append(done / load_s)
        kept["commands"].append(done)
        if side == "with":
            ended += n
            time.sleep(0.5)  # the last games folded
            running.clear()
            ready.wait(30)
        kept["redis_cpu"].append(_redis_cpu(redis) - redis_before)

    for round_ in range(rounds):
        for side in (("without", "with") if round_ % 2 == 0 else ("with", "without")):
            one(side)
    stop.set()
    runs = [told.get(timeout=10) for _ in range(rounds)]
    background, seen = [cpu for cpu, _ in runs], [lag for _, lags in runs for lag in lags]
    worker.join(10)
    without, with_them = sides["without"]["rate"], sides["with"]["rate"]
    ratios = sorted(w / b for w, b in zip(with_them, without))
    report.compare(SECTION, "commands with the projector and matchmaker running", median(with_them), "commands/s",
                   median(without), "without them", target=">= 0.9x", holds=lambda r: r >= 0.9,
                   note=f"medians of {rounds} rounds of {load_s:g} s each, in turn (each pair's ratio {ratios[0]:.2f}x to "
                        f"{ratios[-1]:.2f}x, median {median(ratios):.2f}x); {ended} rated tables ended meanwhile, "
                        "folded by a process of their own (a worker's two threads)")
    parts = {side: {"load": 1000 * sum(k["cpu"]) / sum(k["commands"]), "redis": 1000 * sum(k["redis_cpu"]) / sum(k["commands"])}
             for side, k in sides.items()}
    parts["with"]["background"] = 1000 * sum(background) / sum(sides["with"]["commands"])
    per_command = {side: sum(part.values()) for side, part in parts.items()}
    report.compare(SECTION, "CPU a command costs, with them (the load, Redis, the projector and matchmaker)",
                   per_command["with"], "ms", per_command["without"], "without them (the load, Redis)",
                   note=f"the background process: {1000 * sum(background) / max(1, ended):.2f} ms a game folded, "
                        f"{100 * sum(background) / (rounds * (load_s + 1.0)):.1f} % of a core while it ran")
    if len(seen) >= 2:
        report.figure(SECTION, "projector lag behind a game's end, p99 (under that load)", quantiles(seen, n=100)[98] * 1000, "ms",
                      note=f"{len(seen)} games, from the end's record to its fold written")
    details.update({"lags": len(seen), "without": without, "with": with_them, "pair_ratios": ratios,
                    "cpu_ms_per_command": per_command, "cpu_ms_per_command_parts": parts, "background_cpu_s": background})


def _redis_cpu(redis: Any) -> float:
    """The CPU (s) Redis has spent, its main thread and children (INFO cpu; on a cluster, 0: not measured)."""
    info = redis.info("cpu")
    return float(info.get("used_cpu_user", 0.0)) + float(info.get("used_cpu_sys", 0.0)) if "used_cpu_user" in info else 0.0


def _forget(svc: bootstrap.Service, prefix: str) -> None:
    """Delete the section's keys (its own prefix)."""
    client = svc.tables.store.redis
    for key in client.scan_iter(match=f"{prefix}:*", count=1000):
        client.delete(key)
