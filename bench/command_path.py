"""Command path: concurrent games over HTTP through the real stack, against the two-hop echo in the same run.

At each concurrency level the stack and the echo baseline are loaded back to back (in alternating rounds, so
that a change in the machine's other load falls on both) by the same client code: one client thread per
game, each op some reads then one timed write. The stack's op reads the state of the seat it guesses is to
act (a second read when the guess was wrong: one thread holds every seat of its game, where a real client of
one seat would learn its turn from the event stream) and posts one of its legal commands, with
``expected_version`` and an ``Idempotency-Key`` as a careful client does. The echo's op makes as many one-hop
reads per write as the game clients needed per command in the round just before, then posts through the
front to the back: the same request mix through a trivial stack. A write-only echo run is reported too, for
the plain two-hop rate.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from session_service.devstack import Stack
from shared.games import GAMES

from bench import load
from bench.procs import EchoPair, cpu_seconds
from bench.report import Report

SECTION = "command path"


def table_mix() -> list[tuple[str, int]]:
    """Every registered game, at each of its player counts, in turn."""
    return [(game.id, players) for game in GAMES.values() for players in range(game.min_players, game.max_players + 1)]


def combine(results: list[load.LoadResult]) -> load.LoadResult:
    """Rounds of one run added up: writes, seconds, CPU, every latency."""
    statuses: Counter[int] = Counter()
    for r in results:
        statuses.update(r.statuses)
    cpu = None if any(r.cpu_s is None for r in results) else sum(r.cpu_s for r in results)
    return load.LoadResult(results[0].concurrency, sum(r.seconds for r in results), sum(r.writes for r in results),
                           [ms for r in results for ms in r.latencies_ms], statuses, cpu)


def measure(report: Report, stack: Stack, echo: EchoPair, levels: list[int], warmup_s: float, measure_s: float,
            rounds: int = 1, plain_echo: bool = True) -> None:
    """At each level, ``rounds`` times: the stack, the echo with the same reads per write, the write-only echo."""
    details: dict[str, Any] = report.details.setdefault(SECTION, {"levels": {}})
    mix = table_mix()
    details["games"] = [f"{kind}/{players}p" for kind, players in mix]
    stack_pids = [p.pid for p in stack.processes.values()]
    echo_pids = [p.pid for p in echo.processes.values()]
    stack_cpu, echo_cpu = (lambda: cpu_seconds(stack_pids)), (lambda: cpu_seconds(echo_pids))
    for level in levels:
        echoes, plains, results, clients = [], [], [], []
        for _ in range(rounds):
            players = [load.GameClient(stack.url, i, mix) for i in range(level)]
            results.append(load.run(players, warmup_s, measure_s, stack_cpu))
            clients.extend(players)
            reads = sum(c.reads for c in players) / max(1, sum(c.commands for c in players))
            echoes.append(load.run([load.EchoClient(echo.url, i, reads) for i in range(level)], warmup_s, measure_s, echo_cpu))
            if plain_echo:
                plains.append(load.run([load.EchoClient(echo.url, i, 0) for i in range(level)], warmup_s, measure_s, echo_cpu))
        baseline, result = combine(echoes), combine(results)
        plain = combine(plains) if plains else None
        unexpected = sum((c.unexpected for c in clients), start=Counter())
        result.extra = {"state_reads_per_command": round(sum(c.reads for c in clients) / max(1, sum(c.commands for c in clients)), 2),
                        "games_started": sum(c.games_started for c in clients), "unexpected": dict(unexpected)}
        details["levels"][str(level)] = {"rounds": rounds, "stack": result.to_json(), "echo": baseline.to_json(),
                                        **({"echo_write_only": plain.to_json()} if plain else {})}
        name = f"{level} game{'s' if level > 1 else ''}"
        failed = sum(result.statuses.values()) - result.writes
        report.compare(SECTION, f"{name}: commands/s", result.rate, "/s", baseline.rate, "echo ops/s",
                       ">= 0.5x", lambda r: r >= 0.5,
                       note=(f"{failed} writes not 200: {dict(unexpected)}; " if failed else "")
                       + f"{result.extra['state_reads_per_command']} reads per write, echo the same")
        report.compare(SECTION, f"{name}: p50", result.p50, "ms", baseline.p50, "echo p50")
        report.compare(SECTION, f"{name}: p99", result.p99, "ms", baseline.p99, "echo p99", "< 3x", lambda r: r < 3)
        report.compare(SECTION, f"{name}: server CPU per command", result.cpu_ms_per_write, "ms", baseline.cpu_ms_per_write,
                       "echo CPU/op", note="all server processes; hardly moved by other load")
        if plain:
            report.compare(SECTION, f"{name}: commands/s vs write-only echo", result.rate, "/s", plain.rate, "echo writes/s")
