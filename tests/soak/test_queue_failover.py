"""The queue's primary killed again and again (``make soak``): the fault of tests/e2e/test_scaled_stack.py in six rounds
under 15 all-AI tables and 3 tables of a silent seat on a one-second timer, all opened by one client (so one lost turn,
holding the client's one place, would stop them all). Each round kills the primary with kill -9, the Sentinels promote
its replica, and the killed node comes back as the new primary's replica, which the next round kills. The figures
(docs/reliability.md): how long AI moves and timer moves stopped after each kill; only progress is asserted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from deploy.stacks.cluster import ScaledStack
from tests.support.queue_failover import Tables, kill_queue_primary, queue_back
from tests.support.scaled import running_scaled_stack
from tests.trust.helpers import Api, record_figures

pytestmark = pytest.mark.e2e
ROUNDS = 6


@pytest.fixture(scope="module")
def stack() -> Iterator[ScaledStack]:
    yield from running_scaled_stack()


def test_the_queue_s_primary_killed_in_turn_under_ai_tables_and_timers_loses_no_turn(stack):
    api = Api(stack.url)
    tables = Tables.opened(api, ai=15, timed=3)  # ~10,000 AI moves in all: none ends within the rounds
    rounds = []
    for round_ in range(ROUNDS):
        figures = kill_queue_primary(stack, tables, timeout_s=180)
        assert figures["promoted"] != figures["killed"]
        rounds.append(figures)
        print(f"round {round_}: {figures}")
        record_figures("queue-failover", round=round_, tables=len(tables.ai) + len(tables.timed), **figures)
        queue_back(stack)
    print("AI moves stopped (s):", [r["ai_gap_s"] for r in rounds], "timers (s):", [r["timer_gap_s"] for r in rounds])
    assert len(rounds) == ROUNDS
