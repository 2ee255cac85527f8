"""Long runs: the trust suites scaled up (see conftest.py), and mixed load on one stack for a bounded time."""

from __future__ import annotations

import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from shared.games import GAMES
from shared.records import first_broken_link
from tests.trust.conftest import GAME_IDS
from tests.trust.helpers import Api, record_figures, stored_records
from tests.trust.test_fuzz_openapi import (  # noqa: F401 - collected here at the soak scale
    targets,
    test_the_rules_service_keeps_its_openapi_document,
    test_the_session_service_keeps_its_openapi_document,
)
from tests.e2e.test_ai_timing import (  # noqa: F401 - at full scale (conftest.py)
    test_forced_and_free_ai_moves_take_the_same_time_as_a_spectator_sees_it,
    timed_stack,
)
from tests.trust.test_non_interference import (  # noqa: F401
    test_http_twins_look_the_same_to_the_seat_that_cannot_tell_them_apart,
)
from tests.trust.test_races import (  # noqa: F401
    test_many_clients_hammering_one_game_lose_and_duplicate_nothing,
    test_many_games_at_once_from_several_processes_all_verify,
)

pytestmark = pytest.mark.e2e

SECONDS = float(os.environ.get("MYTHOS_SOAK_SECONDS", "180"))


def test_mixed_load_for_minutes_loses_and_duplicates_nothing(api, stack, trust_redis):
    """Human tables played by 8 client threads and all-AI tables played by the worker, side by side, for
    MYTHOS_SOAK_SECONDS; then every game's log is contiguous and chained, and every finished one re-decides."""
    deadline = time.monotonic() + SECONDS
    games: list[str] = []
    lock = threading.Lock()
    counts = {"commands": 0, "refused": 0, "unavailable": 0}

    def humans(worker: int) -> None:
        client, rand = Api(api.base), random.Random(worker)
        while time.monotonic() < deadline:
            game = GAMES[rand.choice(GAME_IDS)]
            created = client.create(game.id, [{"name": f"Seat {i}"} for i in range(rand.randint(game.catalogue.min_players, min(game.catalogue.max_players, 4)))])
            with lock:
                games.append(created["id"])
            tokens = {s["seat"]: s["token"] for s in created["seats"]}
            while time.monotonic() < deadline:
                resource = client.get(f"/v1/games/{created['id']}").json()
                if resource["status"] != "active":
                    break
                seat = rand.choice(resource["to_act"])
                state = client.state(created["id"], tokens[seat]).json()
                reply = client.command(created["id"], tokens[seat], rand.choice(state["legal_commands"]),
                                       state["version"] if rand.random() < 0.7 else None, key=f"{worker}-{time.monotonic_ns()}")
                # 503: a part overloaded past its timeout (nothing written; the log checks below hold regardless)
                assert reply.status_code in (200, 409, 422, 503), reply.text
                with lock:
                    counts[{200: "commands", 503: "unavailable"}.get(reply.status_code, "refused")] += 1

    def bots() -> None:
        rand = random.Random(99)
        while time.monotonic() < deadline:
            game = GAMES[rand.choice(GAME_IDS)]
            created = api.create(game.id, [{"name": f"Bot {i}", "ai": "random"} for i in range(game.catalogue.min_players)])
            with lock:
                games.append(created["id"])
            time.sleep(1.0)

    with ThreadPoolExecutor(9) as pool:
        futures = [pool.submit(humans, w) for w in range(8)] + [pool.submit(bots)]
        [f.result() for f in futures]
    finished = events = 0
    for game_id in games:
        resource = api.get(f"/v1/games/{game_id}").json()
        if resource["status"] == "active" and all(s["ai"] for s in resource["seats"]):
            resource = api.wait_finished(game_id, timeout_s=300)
        records = stored_records(trust_redis, stack.key_prefix, game_id)
        assert [r["v"] for r in records] == list(range(1, resource["version"] + 1)), f"{game_id}: a gap or a repeat"
        assert first_broken_link(records) is None
        if resource["status"] == "finished":
            report = api.get(f"/v1/games/{game_id}/audit").json()
            assert report["chain_ok"] and report["replay_ok"] and report["seed_ok"], report
            finished += 1
        events += len(records)
    record_figures("soak", seconds=SECONDS, games=len(games), finished=finished, events=events, **counts)
