"""A worker's kill -9 stalls the AI moves of one client's 15 tables at most 2 s (issue 47: ~16 s, until the sweep).

Two workers, the fair share of the defaults (one turn of a client in the queue or running at once), 15 all-AI
tables of one client at the test stacks' pace (``AI_TIME_SCALE`` 0.02, so the stall is not lost in the levels'
delays), the sweeper at its default. The moves' public ``at`` times of all 15 tables, merged, are the client's AI
moves; the longest gap between two of them in the 4 s after each kill (four kills, each worker twice, the victim
started again after each), beside the longest in the 2 s before it, is the stall (docs/reliability.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests

from deploy.stacks.dev import Stack
from session_service.use_cases.meta import parse_iso
from tests.support.real_stack import SHARED, running_stack
from tests.trust.helpers import record_figures

pytestmark = pytest.mark.e2e

TABLES, CLIENT = 15, "203.0.113.7"


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    with running_stack("worker-death", {**SHARED, "TRUSTED_PROXIES": "1", "AI_TURNS_AT_ONCE_PER_CLIENT": "1"}) as live:
        live.start_worker("worker2")
        yield live


def moments(stack: Stack, games: list[str]) -> list[float]:
    """The ``at`` of every event after the deal of ``games``, merged and sorted."""
    found: list[float] = []
    for game_id in games:
        page = requests.get(f"{stack.url}/v1/games/{game_id}/events", params={"after": 1, "limit": 1000}, timeout=30).json()
        found += [parse_iso(e["at"]).timestamp() for e in page["events"]]
    return sorted(found)


def longest_gap(times: list[float], start: float, end: float) -> float:
    inside = [start] + [t for t in times if start <= t <= end] + [end]
    return max(b - a for a, b in zip(inside, inside[1:]))


def test_a_workers_kill_stalls_one_clients_fifteen_ai_tables_at_most_two_seconds(stack):
    games = []
    for _ in range(TABLES):
        reply = requests.post(f"{stack.url}/v1/games", json={"game": "rites-of-cthulhu", "seats": [
            {"name": "Ada", "ai": "random"}, {"name": "Bo", "ai": "random"}]}, headers={"X-Forwarded-For": CLIENT}, timeout=30)
        assert reply.status_code == 201, reply.text
        games.append(reply.json()["id"])
    stalls = []
    for victim in ("worker", "worker2", "worker", "worker2"):
        time.sleep(6)  # the last victim's replacement started (seconds of CPU on a small machine), and settled
        killed_at = time.time()
        stack.kill(victim)  # SIGKILL of its group
        time.sleep(5)
        seen = moments(stack, games)
        stalls.append((longest_gap(seen, killed_at - 2, killed_at), longest_gap(seen, killed_at, killed_at + 4)))
        stack.start_worker(victim)
    record_figures("worker-death", tables=TABLES, kills=len(stalls), longest_gap_before_ms=round(1000 * max(b for b, _ in stalls)),
                   longest_gap_after_kill_ms=round(1000 * max(a for _, a in stalls)))
    active = [requests.get(f"{stack.url}/v1/games/{g}", timeout=30).json()["status"] for g in games].count("active")
    assert active == TABLES  # every kill fell on 15 tables in play
    assert max(a for _, a in stalls) <= 2.0, stalls
