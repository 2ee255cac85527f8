"""The queue's primary killed under AI tables and turn timers, on the scaled stack (issue 47): shared by
tests/e2e/test_scaled_stack.py (one kill, make test) and tests/soak/test_queue_failover.py (several, make soak).

The moves' public ``at`` times are the clock: the AI tables' moves merged, and the timers' (``by: timeout``) merged;
the longest gap between two of them from the kill on is how long the failover stopped them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from deploy.stacks.cluster import QUEUE_NODES, SENTINELS, ScaledStack
from session_service.use_cases.meta import parse_iso
from tests.trust.helpers import Api

BOTS = [{"name": "Ada", "ai": "random"}, {"name": "Bo", "ai": "random"}]
TIMED = [{"name": "Silent"}, {"name": "Bo", "ai": "random"}]  # seat 0 never plays: its timer plays for it


@dataclass
class Tables:
    api: Api
    ai: list[str] = field(default_factory=list)  # all-AI tables
    timed: list[str] = field(default_factory=list)  # a silent seat on a one-second timer, against an AI seat

    @classmethod
    def opened(cls, api: Api, ai: int, timed: int, game: str = "rites-of-cthulhu") -> Tables:
        """Long games (Rites of Cthulhu: ~640 events), so none ends within a measurement."""
        return cls(api, [api.create(game, BOTS)["id"] for _ in range(ai)],
                   [api.create(game, TIMED, turn_timeout_s=1)["id"] for _ in range(timed)])

    def moves(self, game_id: str) -> list[dict[str, Any]]:
        events, after = [], 1  # after the deal
        while True:
            page = self.api.get(f"/v1/games/{game_id}/events", after=after, limit=1000).json()["events"]
            events += [{"at": parse_iso(e["at"]).timestamp(), "by": e["by"]} for e in page]
            if len(page) < 1000:
                return events
            after += len(page)

    def since(self, moment: float) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
        """Each table's AI moves and timer moves after ``moment`` (epoch seconds)."""
        ai, timer = {}, {}
        for game_id in self.ai + self.timed:
            moves = self.moves(game_id)
            ai[game_id] = [m["at"] for m in moves if m["by"] == "ai" and m["at"] > moment]
            timer[game_id] = [m["at"] for m in moves if m["by"] == "timeout" and m["at"] > moment]
        return ai, timer

    def under_way(self, moment: float, ai_moves: int, timeouts: int) -> bool:
        """Has every table still in play made ``ai_moves`` AI moves since ``moment``, and every timed one ``timeouts``
        timer moves?"""
        ai, timer = self.since(moment)
        playing = {g for g in ai if self.api.get(f"/v1/games/{g}").json()["status"] == "active"}
        return (all(len(ai[g]) >= ai_moves for g in playing)
                and all(len(timer[g]) >= timeouts for g in self.timed if g in playing))


def longest_gap(times: list[float], start: float) -> float:
    """The longest time between two of ``times`` (merged, from ``start`` on), ``start`` itself included."""
    inside = [start] + sorted(t for t in times if t >= start)
    return max(b - a for a, b in zip(inside, inside[1:]))


def kill_queue_primary(stack: ScaledStack, tables: Tables, timeout_s: float = 90) -> dict[str, Any]:
    """Kill -9 the queue's primary once every table is under way; wait until every table has moved again (AI moves,
    and timer moves on the timed tables). The figures: the longest gaps of the AI moves and of the timers' moves from
    the kill on, and which node the Sentinels promoted."""
    deadline = time.monotonic() + timeout_s
    while not tables.under_way(0, 2, 1):
        assert time.monotonic() < deadline, "the tables did not get under way"
        time.sleep(0.5)
    victim = stack.queue_primary()
    killed_at = time.time()
    stack.kill(victim)  # SIGKILL of its group
    while not tables.under_way(killed_at, 3, 2):
        assert time.monotonic() < deadline + timeout_s, f"no progress after the queue's primary was killed: {tables.since(killed_at)}"
        time.sleep(0.5)
    ai, timer = tables.since(killed_at)
    return {"killed": victim, "promoted": stack.queue_primary(),
            "ai_gap_s": round(longest_gap([t for times in ai.values() for t in times], killed_at), 2),
            "timer_gap_s": round(longest_gap([t for g in tables.timed for t in timer[g]], killed_at), 2)}


def queue_back(stack: ScaledStack) -> None:
    """The queue's killed node started again (it asks the Sentinels, and comes back as the replica), and the
    Sentinels watching it."""
    for name in (*QUEUE_NODES, *SENTINELS):
        if stack.processes[name].poll() is not None:
            stack.restart(name)
    stack._wait(stack.queue_watched, "the queue's replica back and watched", 60)
