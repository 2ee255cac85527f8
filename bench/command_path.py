"""Command path: concurrent games over HTTP through the real stack, against the two-hop echo in the same run.

The issue's baseline is "a trivial two-hop echo (a Flask app calling another Flask app and answering) under
the same gunicorn settings": one request per op, a POST through both apps. The game clients are made to do
the same, one request per op: before the timing, seeded random playouts of every registered game are
computed in process (``tests.support.properties.random_playout``, the kernel's own decide); in the timed part
each client creates a game with the playout's seed (the stack runs with ``MYTHOS_ALLOW_CLIENT_SEED=1``, every
seat human), so the server produces the same events, and then posts the playout's commands in order, each
with ``expected_version`` (the version the previous answer gave) and an ``Idempotency-Key``. No state is
read. A command the server refused (a wrong version, an illegal move: the replay diverged) would show in
``unexpected``.

At each concurrency level the stack and the echo are loaded back to back, in alternating rounds, so that a
change in the machine's other load falls on both.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson

from deploy.stacks.dev import Stack
from shared.games import GAMES
from tests.support.properties import random_playout

from bench import load
from bench.procs import EchoPair, cpu_seconds
from bench.report import Report

SECTION = "command path"


def table_mix() -> list[tuple[str, int]]:
    """Every registered game, at each of its player counts, in turn."""
    return [(game.id, players) for game in GAMES.values() for players in range(game.catalogue.min_players, game.catalogue.max_players + 1)]


def replays(mix: list[tuple[str, int]], seeds: int) -> dict[tuple[str, int], list[load.Replay]]:
    """``seeds`` seeded random playouts of each table of the mix, with their commands as JSON (not timed)."""
    found: dict[tuple[str, int], list[load.Replay]] = {}
    for kind, players in mix:
        found[(kind, players)] = []
        for seed in range(seeds):
            play = random_playout(GAMES[kind], players, seed)
            commands = tuple((seat, orjson.dumps(command)) for seat, command in play.commands)
            found[(kind, players)].append(load.Replay(kind, players, play.options, seed.to_bytes(8, "big").hex(), commands))
    return found


def combine(results: list[load.LoadResult]) -> load.LoadResult:
    """Rounds of one run added up: writes, seconds, CPU, every latency."""
    statuses: Counter[int] = Counter()
    for r in results:
        statuses.update(r.statuses)
    cpu = None if any(r.cpu_s is None for r in results) else sum(r.cpu_s for r in results)
    return load.LoadResult(results[0].concurrency, sum(r.seconds for r in results), sum(r.writes for r in results),
                           [ms for r in results for ms in r.latencies_ms], statuses, cpu)


def measure(report: Report, stack: Stack, echo: EchoPair, levels: list[int], warmup_s: float, measure_s: float,
            rounds: int = 1, seeds: int = 8) -> None:
    """At each level, ``rounds`` times: the stack replaying seeded games, then the two-hop echo."""
    details: dict[str, Any] = report.details.setdefault(SECTION, {"levels": {}})
    mix = table_mix()
    pool = replays(mix, seeds)
    details["games"] = [f"{kind}/{players}p" for kind, players in mix]
    details["seeds_per_table"] = seeds
    stack_pids = [p.pid for p in stack.processes.values()]
    echo_pids = [p.pid for p in echo.processes.values()]
    stack_cpu, echo_cpu = (lambda: cpu_seconds(stack_pids)), (lambda: cpu_seconds(echo_pids))
    for level in levels:
        echoes, results, clients = [], [], []
        for _ in range(rounds):
            players = [load.ReplayClient(stack.url, i, pool[mix[i % len(mix)]]) for i in range(level)]
            results.append(load.run(players, warmup_s, measure_s, stack_cpu))
            clients.extend(players)
            echoes.append(load.run([load.EchoClient(echo.url, i) for i in range(level)], warmup_s, measure_s, echo_cpu))
        baseline, result = combine(echoes), combine(results)
        unexpected = sum((c.unexpected for c in clients), start=Counter())
        result.extra = {"state_reads": 0, "games_started": sum(c.games_started for c in clients),
                        "games_finished": sum(c.games_finished for c in clients), "unexpected": dict(unexpected)}
        details["levels"][str(level)] = {"rounds": rounds, "stack": result.to_json(), "echo": baseline.to_json()}
        name = f"{level} game{'s' if level > 1 else ''}"
        failed = sum(result.statuses.values()) - result.writes
        report.compare(SECTION, f"{name}: commands/s", result.rate, "/s", baseline.rate, "echo ops/s",
                       ">= 0.5x", lambda r: r >= 0.5,
                       note=(f"{failed} writes not 200: {dict(unexpected)}; " if failed else "")
                       + "one POST per op on both sides, no reads")
        report.compare(SECTION, f"{name}: p50", result.p50, "ms", baseline.p50, "echo p50")
        report.compare(SECTION, f"{name}: p99", result.p99, "ms", baseline.p99, "echo p99", "< 3x", lambda r: r < 3)
        report.compare(SECTION, f"{name}: server CPU per command", result.cpu_ms_per_write, "ms", baseline.cpu_ms_per_write,
                       "echo CPU/op", note="all server processes; hardly moved by other load")
