"""What any spectator can measure of the AI's timing, from a finished game's public record alone: for each AI move,
the gap between the ``at`` of the event it answered and its own, and whether the seat had a choice (its legal
commands, known to all once the game is over). And the two-sample Kolmogorov–Smirnov test on two such samples."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from shared.games import GAMES
from shared.kernel.table import Seating
from shared.records import event_of
from session_service.use_cases.meta import parse_iso


def ai_move_gaps(export: Mapping[str, Any]) -> tuple[list[float], list[float]]:
    """The seconds between the event an AI seat answered and its move's first event, for moves where the seat had
    exactly one legal command (forced) and where it had more (free), from a game's export (or its log)."""
    seating = Seating(GAMES[export["game"]])
    records = export["events"]
    table, forced, free = None, [], []
    for i, record in enumerate(records):
        cause = record.get("cause") or {}
        starts_batch = i == 0 or (records[i - 1].get("cause") or {}).get("id") != cause.get("id")
        if starts_batch and cause.get("by") == "ai" and table is not None:
            legal = seating.legal_commands(table, cause["seat"])
            gap = (parse_iso(record["at"]) - parse_iso(records[i - 1]["at"])).total_seconds()
            (forced if len(legal) == 1 else free).append(gap)
        table = seating.fold(table, [event_of(record)])
    return forced, free


def ks_two_sample(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The two-sample Kolmogorov–Smirnov statistic D and its asymptotic p-value (Numerical Recipes' ``kstwo``)."""
    xs, ys = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    while i < len(xs) and j < len(ys):
        value = min(xs[i], ys[j])
        while i < len(xs) and xs[i] == value:
            i += 1
        while j < len(ys) and ys[j] == value:
            j += 1
        d = max(d, abs(i / len(xs) - j / len(ys)))
    n = math.sqrt(len(xs) * len(ys) / (len(xs) + len(ys)))
    lam = (n + 0.12 + 0.11 / n) * d
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return d, min(1.0, max(0.0, p))
