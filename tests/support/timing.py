"""What any spectator can measure of the AI's timing, from a finished game's public record alone: for each AI turn,
the gap between the ``at`` of the event it answered and its first, and whether the seat had a choice (its legal
commands, known to all once the game is over). And the two-sample Kolmogorov–Smirnov test on two such samples."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from shared.games import GAMES
from shared.kernel.table import Seating
from shared.records import event_of
from session_service.use_cases.meta import parse_iso


def ai_turn_gaps(export: Mapping[str, Any]) -> tuple[list[float], list[float]]:
    """The seconds an AI seat's turn waited, from the event it answered to its turn's first event, for turns in which
    the seat had exactly one legal command at every command (forced) and for the others (free), from a game's export
    (or its log). A turn is the seat's consecutive commands (issue 46: a turn is paced as one, and published command
    after command once due)."""
    seating = Seating(GAMES[export["game"]])
    records = export["events"]
    table, forced, free = None, [], []
    turn: list[Any] = []  # [seat, gap, every command forced so far]

    def close() -> None:
        if turn:
            (forced if turn[2] else free).append(turn[1])

    for i, record in enumerate(records):
        cause = record.get("cause") or {}
        starts_batch = i == 0 or (records[i - 1].get("cause") or {}).get("id") != cause.get("id")
        if starts_batch and table is not None:
            one = len(seating.legal_commands(table, cause["seat"])) == 1 if cause.get("by") == "ai" else False
            if cause.get("by") == "ai" and turn and turn[0] == cause["seat"]:
                turn[2] = turn[2] and one
            else:
                close()
                turn = ([cause["seat"], (parse_iso(record["at"]) - parse_iso(records[i - 1]["at"])).total_seconds(), one]
                        if cause.get("by") == "ai" else [])
        table = seating.fold(table, [event_of(record)])
    close()
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
