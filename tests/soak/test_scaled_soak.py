"""The scaled stack at soak scale (``make soak``): the faults of tests/e2e/test_scaled_stack.py again and again
under a longer load. In each of three rounds the primary under a set of busy games is killed (and comes back
as a replica), and session and rules processes are killed repeatedly during one long burst; every acknowledgement
the clients received is checked against the log, and every log against its audit."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from deploy.stacks.cluster import ScaledStack
from shared.games import GAMES
from tests.e2e.test_scaled_stack import (  # noqa: F401 - every game here (tests/support/breadth.py)
    test_a_game_plays_to_its_end_through_the_balancer_on_every_session_process,
)
from tests.support.scaled import Player, healed, human_game, running_scaled_stack, store_of, until_ack_after
from tests.trust.helpers import Api, record_figures

pytestmark = pytest.mark.e2e
GAME_IDS = sorted(GAMES)
ROUNDS = 3


@pytest.fixture(scope="module")
def stack() -> Iterator[ScaledStack]:
    yield from running_scaled_stack()


def test_every_primary_lost_in_turn_under_busy_games_loses_no_acknowledged_command(stack):
    api, store, cluster = Api(stack.url), store_of(stack), stack.cluster
    outages = []
    for round_ in range(ROUNDS):
        players = [Player(Api(stack.url), human_game(api, g), seed=round_ * 10 + i) for i, g in enumerate(GAME_IDS * 3)]
        primary = cluster.primary_port(store.key(players[0].created["id"], "events"))
        hit = [p for p in players if cluster.primary_port(store.key(p.created["id"], "events")) == primary]
        stop = threading.Event()
        with ThreadPoolExecutor(len(players)) as pool:
            running = [pool.submit(p.play, stop) for p in players]
            time.sleep(2.0)
            killed_at = time.monotonic()
            cluster.kill(primary)
            outages.append(until_ack_after(hit, killed_at, 45) - killed_at)  # games on the other primaries go on
            time.sleep(3.0)
            stop.set()
            [f.result() for f in running]
        for player in players:
            player.check(store)
        healed(stack)
        record_figures("scaled-soak", fault="primary killed", round=round_, write_outage_s=round(outages[-1], 2),
                       acks=sum(len(p.acks) for p in players), acks_lost=0)
    assert len(outages) == ROUNDS


def test_processes_killed_again_and_again_during_a_long_burst_lose_and_duplicate_nothing(stack):
    players = [Player(Api(stack.url), human_game(Api(stack.url), g), seed=i) for i, g in enumerate(GAME_IDS * 4)]
    stop = threading.Event()
    with ThreadPoolExecutor(len(players)) as pool:
        running = [pool.submit(p.play, stop, 60) for p in players]
        for round_ in range(ROUNDS):
            time.sleep(2.0)
            stack.kill(f"session{round_ % 2}")
            time.sleep(1.0)
            stack.kill(f"rules{round_ % 2}")
            time.sleep(1.0)
            healed(stack)
        [f.result() for f in running]
    store = store_of(stack)
    for player in players:
        player.check(store)
    record_figures("scaled-soak", fault="session and rules processes killed repeatedly", kills=2 * ROUNDS,
                   commands=sum(len(p.acks) for p in players), retries=sum(p.retries for p in players))
