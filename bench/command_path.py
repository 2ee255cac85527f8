"""Command path: concurrent games over HTTP through the real stack, against the two-hop echo in the same run.

At each concurrency level the echo baseline and the stack are loaded back to back by the same client code:
one client thread per game, each op a read then a timed write. The stack's op reads the seat's state and
posts one of its legal commands (with ``expected_version`` and an ``Idempotency-Key``, as a careful client
does); the echo's op reads from the front and posts through it to the back. A second echo run without the
read is reported too, for the plain two-hop rate.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from session_service.devstack import Stack
from shared.games import GAMES

from bench import load
from bench.procs import EchoPair
from bench.report import Report

SECTION = "command path"


def table_mix() -> list[tuple[str, int]]:
    """Every registered game, at each of its player counts, in turn."""
    return [(game.id, players) for game in GAMES.values() for players in range(game.min_players, game.max_players + 1)]


def measure(report: Report, stack: Stack, echo: EchoPair, levels: list[int], warmup_s: float, measure_s: float,
            plain_echo: bool = True) -> None:
    details: dict[str, Any] = report.details.setdefault(SECTION, {"levels": {}})
    mix = table_mix()
    details["games"] = [f"{kind}/{players}p" for kind, players in mix]
    for level in levels:
        baseline = load.run([load.EchoClient(echo.url, i) for i in range(level)], warmup_s, measure_s)
        plain = load.run([load.EchoClient(echo.url, i, read=False) for i in range(level)], warmup_s, measure_s) if plain_echo else None
        clients = [load.GameClient(stack.url, i, mix) for i in range(level)]
        result = load.run(clients, warmup_s, measure_s)
        unexpected = sum((c.unexpected for c in clients), start=Counter())
        result.extra = {"state_reads_per_command": round(sum(c.reads for c in clients) / max(1, sum(c.sent for c in clients)), 2),
                        "games_started": sum(c.games_started for c in clients), "unexpected": dict(unexpected)}
        details["levels"][str(level)] = {"stack": result.to_json(), "echo": baseline.to_json(),
                                        **({"echo_write_only": plain.to_json()} if plain else {})}
        name = f"{level} game{'s' if level > 1 else ''}"
        report.compare(SECTION, f"{name}: commands/s", result.rate, "/s", baseline.rate, "echo ops/s",
                       ">= 0.5x", lambda r: r >= 0.5,
                       note=f"{sum(result.statuses.values()) - result.writes} non-200 writes" if sum(result.statuses.values()) != result.writes else "")
        report.compare(SECTION, f"{name}: p50", result.p50, "ms", baseline.p50, "echo p50")
        report.compare(SECTION, f"{name}: p99", result.p99, "ms", baseline.p99, "echo p99", "< 3x", lambda r: r < 3)
        if plain:
            report.compare(SECTION, f"{name}: commands/s vs write-only echo", result.rate, "/s", plain.rate, "echo writes/s")
