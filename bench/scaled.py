"""Scaled: command throughput through HAProxy on the Redis Cluster stack, against the single-Redis stack.

The scaled stack (``deploy.stacks.cluster``: a Redis Cluster of three primaries and three replicas,
two session and two rules processes of one gunicorn worker each, HAProxy, two workers) and the single-Redis
stack of the command section (one session and one rules gunicorn of two workers each: the same number of
worker processes) replay the same seeded games, back to back in alternating rounds. On one machine of two
cores the scaled stack can only lose (more processes share the same cores, a balancer hop, a WAIT per
append); what it buys is room to grow, which docs/scaling.md works out from the costs measured here: the
CPU each part spends per command, the Redis commands and bytes per command, and Redis memory per game.
"""

from __future__ import annotations

import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from deploy.stacks.cluster import ScaledStack
from deploy.stacks.dev import Stack, free_port
from deploy.stacks.rediscluster import RedisClusterNodes

from bench import command_path, load
from bench.procs import BENCH_ENV, cpu_seconds, stop
from bench.report import Report

SECTION = "scaled"


def start_scaled(tmp: Path) -> ScaledStack:
    prefix = f"mt-bench-{uuid.uuid4().hex[:8]}"
    stack = ScaledStack(port=free_port(), rules_port=free_port(), redis_port=free_port(), data_dir=tmp, key_prefix=prefix,
                        queue=prefix, log_dir=tmp, extra_env={**BENCH_ENV, "SESSION_WORKERS": "1", "RULES_WORKERS": "1"})
    try:
        stack.start()
    except Exception:
        stop_scaled(stack)
        raise
    return stack


def stop_scaled(stack: ScaledStack) -> None:
    stop(stack)
    if stack.cluster:
        stack.cluster.stop()


def redis_counters(cluster: RedisClusterNodes) -> dict[str, float]:
    """Commands run, bytes in and out, and memory used, summed over the primaries (what clients cost them)."""
    totals = {"calls": 0.0, "usec": 0.0, "net_in": 0.0, "net_out": 0.0, "used_memory": 0.0}
    for port in cluster.running():
        client = cluster.client(port)
        if client.info("replication")["role"] != "master":
            continue
        stats = client.info("stats")
        commands = [v for k, v in client.info("commandstats").items() if k.startswith("cmdstat_")]
        totals["calls"] += sum(v["calls"] for v in commands)
        totals["usec"] += sum(v["usec"] for v in commands)  # time spent running clients' commands (no idle cost)
        totals["net_in"] += stats["total_net_input_bytes"]
        totals["net_out"] += stats["total_net_output_bytes"]
        totals["used_memory"] += client.info("memory")["used_memory"]
    return totals


def parts(stack: ScaledStack) -> dict[str, list[int]]:
    """The scaled stack's processes by part, for the CPU each spends per command."""
    named = stack.processes
    return {
        "session": [named[n].pid for n in stack.session_names],
        "rules": [named[n].pid for n in stack.rules_names],
        "redis cluster": [p.pid for p in stack.cluster.processes.values()],
        "haproxy": [named["balancer"].pid],
        "workers": [p.pid for n, p in named.items() if n.startswith("worker")],
    }


def measure(report: Report, single: Stack, tmp: Path, levels: list[int], warmup_s: float, measure_s: float,
            rounds: int = 1, seeds: int = 8) -> None:
    scaled = start_scaled(tmp / "scaled")
    try:
        report.figure(SECTION, "cluster formed (3 primaries + 3 replicas)", scaled.cluster.formed_in_s, "s")
        _measure(report, single, scaled, levels, warmup_s, measure_s, rounds, seeds)
    finally:
        stop_scaled(scaled)


def _measure(report: Report, single: Stack, scaled: ScaledStack, levels: list[int], warmup_s: float, measure_s: float,
             rounds: int, seeds: int) -> None:
    details: dict[str, Any] = report.details.setdefault(SECTION, {"levels": {}})
    mix = command_path.table_mix()
    pool = command_path.replays(mix, seeds)
    single_pids = [p.pid for p in single.processes.values()]
    by_part = parts(scaled)
    empty = redis_counters(scaled.cluster)["used_memory"]
    all_scaled = [pid for pids in by_part.values() for pid in pids]
    for level in levels:
        singles, scaleds, clients = [], [], []
        part_cpu = dict.fromkeys(by_part, 0.0)
        before = redis_counters(scaled.cluster)
        for _ in range(rounds):
            singles.append(load.run([load.ReplayClient(single.url, i, pool[mix[i % len(mix)]]) for i in range(level)],
                                    warmup_s, measure_s, lambda: cpu_seconds(single_pids)))
            players = [load.ReplayClient(scaled.url, i, pool[mix[i % len(mix)]]) for i in range(level)]
            started = {part: cpu_seconds(pids) for part, pids in by_part.items()}
            scaleds.append(load.run(players, warmup_s, measure_s, lambda: cpu_seconds(all_scaled)))
            for part, pids in by_part.items():
                part_cpu[part] += cpu_seconds(pids) - started[part]
            clients.extend(players)
        after = redis_counters(scaled.cluster)
        baseline, result = command_path.combine(singles), command_path.combine(scaleds)
        # Every command the clients posted in these rounds, warm-up included, for the per-command Redis costs.
        commands = sum(c.commands for c in clients) or 1
        unexpected = sum((c.unexpected for c in clients), start=Counter())
        per_command = {"redis_commands": (after["calls"] - before["calls"]) / commands,
                       "redis_usec": (after["usec"] - before["usec"]) / commands,
                       "redis_bytes_in": (after["net_in"] - before["net_in"]) / commands,
                       "redis_bytes_out": (after["net_out"] - before["net_out"]) / commands,
                       "cpu_ms": {part: cpu * 1000 / commands for part, cpu in part_cpu.items()}}
        result.extra = {"unexpected": dict(unexpected), "games_started": sum(c.games_started for c in clients),
                        "per_command": per_command, "redis_used_memory_bytes": after["used_memory"]}
        details["levels"][str(level)] = {"rounds": rounds, "scaled": result.to_json(), "single": baseline.to_json()}
        name = f"{level} game{'s' if level > 1 else ''}"
        report.compare(SECTION, f"{name}: commands/s via HAProxy + cluster", result.rate, "/s", baseline.rate,
                       "single-Redis stack", note=f"{dict(unexpected)} refused; " if unexpected else "same worker processes, 2 cores")
        report.compare(SECTION, f"{name}: p99", result.p99, "ms", baseline.p99, "single-Redis p99")
        report.compare(SECTION, f"{name}: server CPU per command", result.cpu_ms_per_write, "ms", baseline.cpu_ms_per_write,
                       "single-Redis CPU/command", note="every process of each stack, Redis and HAProxy included")
        report.figure(SECTION, f"{name}: Redis commands per command", per_command["redis_commands"], "",
                      note="on the primaries; WAIT included")
        report.figure(SECTION, f"{name}: Redis time in commands per command", per_command["redis_usec"], "us",
                      note="INFO commandstats on the primaries: the primaries' own work, without idle or cluster-bus CPU")
        report.figure(SECTION, f"{name}: Redis bytes per command", per_command["redis_bytes_in"] + per_command["redis_bytes_out"],
                      "B", note=f"in {per_command['redis_bytes_in']:.0f} + out {per_command['redis_bytes_out']:.0f} "
                                "(out: replies and the replication stream)")
        for part, ms in per_command["cpu_ms"].items():
            report.figure(SECTION, f"{name}: {part} CPU per command", ms, "ms")
    games = sum(1 for _ in scaled_store_games(scaled))
    if games:
        memory = redis_counters(scaled.cluster)["used_memory"] - empty
        details["games_stored"] = games
        report.figure(SECTION, "Redis memory per stored game (primaries)", memory / games / 1024, "KiB",
                      note=f"{games} games of the mix, most played to the end, with their indexes and snapshots")


def scaled_store_games(stack: ScaledStack):
    from session_service.storage import redis_clients
    from session_service.storage.index import GameIndex
    from session_service.storage.store import EventStore

    store = EventStore(redis_clients.connect(stack.cluster.url), stack.key_prefix)
    index = GameIndex(store)
    after = None
    while window := index.window("all", after, 500):
        yield from window
        after = window[-1]
