"""Races on the real stack: many clients on one game, many games at once from several processes, retries with
idempotency keys, two workers running the same AI job. Afterwards every log is contiguous, its chain and
re-decision verify, and every accepted command is in the log exactly once."""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing.managers import SyncManager

import pytest

from shared.games import GAMES
from tests.support.client import ApiClient
from tests.trust.conftest import GAME_IDS
from tests.trust.helpers import Api, record_figures, stored_records

pytestmark = pytest.mark.e2e

SCALE = int(os.environ.get("MYTHOS_RACE_SCALE", "1"))


def batches(records: list[dict]) -> list[list[dict]]:
    """The records each command wrote (setup included), in order."""
    out: list[list[dict]] = []
    for record in records:
        if out and out[-1][0]["cause"]["id"] == record["cause"]["id"]:
            out[-1].append(record)
        else:
            out.append([record])
    return out


def check_log(r, prefix: str, game_id: str, answers: list[dict]) -> int:
    """The log is contiguous and chained, and the accepted answers are its command batches, each once."""
    from shared.records import first_broken_link

    records = stored_records(r, prefix, game_id)
    assert [x["v"] for x in records] == list(range(1, len(records) + 1)), "the log has a gap or a repeat"
    assert first_broken_link(records) is None, f"the chain breaks: {first_broken_link(records)}"
    spans = sorted({(a["events"][0]["version"], a["version"]) for a in answers if a["events"]})
    logged = [(b[0]["v"], b[-1]["v"]) for b in batches(records) if b[0]["cause"]["type"] != "setup" and b[0]["cause"]["by"] == "seat"]
    assert spans == logged, "accepted answers and logged commands differ (a command lost or applied twice)"
    assert len({b[0]["cause"]["id"] for b in batches(records)}) == len(batches(records)), "a command id appears twice"
    return len(records)


def audit_ok(api: Api, game_id: str) -> None:
    report = api.get(f"/v1/games/{game_id}/audit").json()
    assert report["chain_ok"], report
    if report["replay_ok"] is not None:
        assert report["replay_ok"] and report["seed_ok"], report


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_many_clients_hammering_one_game_lose_and_duplicate_nothing(api, stack, trust_redis, game_id):
    game = GAMES[game_id]
    players = min(game.catalogue.max_players, 4)
    created = api.create(game_id, [{"name": f"Seat {i}"} for i in range(players)])
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    answers: list[dict] = []
    statuses: Counter = Counter()
    lock = threading.Lock()
    clients = 16

    def hammer(worker: int) -> None:
        client, rand = Api(api.base), random.Random(worker)
        for attempt in range(25 * SCALE):
            seat = rand.choice(sorted(tokens))
            state = client.state(created["id"], tokens[seat]).json()
            if state["status"] != "active":
                return
            if not state["legal_commands"]:
                continue
            expected = state["version"] if rand.random() < 0.5 else None
            reply = client.command(created["id"], tokens[seat], rand.choice(state["legal_commands"]), expected,
                                   key=f"w{worker}-a{attempt}")
            with lock:
                statuses[reply.status_code] += 1
                if reply.status_code == 200:
                    answers.append(reply.json())
            assert reply.status_code in (200, 409, 422), reply.text

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(hammer, range(clients)))
    assert statuses[200] > 0
    events = check_log(trust_redis, stack.key_prefix, created["id"], answers)
    audit_ok(api, created["id"])
    record_figures("races_one_game", game=game_id, clients=clients, requests=sum(statuses.values()),
                   accepted=statuses[200], conflicts=statuses[409], refused=statuses[422], events=events)


def play_one(base: str, game_id: str, seed: int) -> tuple[str, int]:
    """A whole game played over HTTP by one process (its seats human, moves random legal ones)."""
    client = ApiClient(base)
    game = GAMES[game_id]
    created = client.create(game_id, [{"name": f"Seat {i}"} for i in range(game.catalogue.min_players)])
    client.play_humans(created, seed)
    return created["id"], client.get(f"/v1/games/{created['id']}").json()["version"]


@pytest.fixture(scope="module")
def processes() -> Iterator[tuple[ProcessPoolExecutor, SyncManager]]:
    """Four fresh processes (spawned, not forked from this threaded one) and a manager for their barriers, shared by
    the tests below: a spawned process pays its imports again, so the module starts five, not one pool per test."""
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(4, mp_context=context) as pool:
        yield pool, manager


def test_many_games_at_once_from_several_processes_all_verify(api, stack, trust_redis, processes):
    jobs = [(api.base, game_id, seed) for seed in range(SCALE) for game_id in GAME_IDS]
    pool, _ = processes
    played = list(pool.map(play_one, *zip(*jobs)))
    for game_id, version in played:
        resource = api.get(f"/v1/games/{game_id}").json()
        assert resource["status"] == "finished" and resource["version"] == version
        records = stored_records(trust_redis, stack.key_prefix, game_id)
        assert [x["v"] for x in records] == list(range(1, version + 1))
        audit_ok(api, game_id)
    record_figures("races_many_games", processes=4, games=len(played), events=sum(v for _, v in played),
                   commands=sum(len(batches(stored_records(trust_redis, stack.key_prefix, g))) - 1 for g, _ in played))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_same_idempotency_key_sent_by_many_clients_at_once_writes_once(api, stack, trust_redis, game_id):
    game = GAMES[game_id]
    created = api.create(game_id, [{"name": f"Seat {i}"} for i in range(game.catalogue.min_players)])
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    rounds = 0
    for round_ in range(4 * SCALE):
        resource = api.get(f"/v1/games/{created['id']}").json()
        if resource["status"] != "active":
            break
        seat = resource["to_act"][0]
        command = api.state(created["id"], tokens[seat]).json()["legal_commands"][0]
        barrier = threading.Barrier(12)

        def send(_):
            client = Api(api.base)
            barrier.wait()
            # Half of them say which version they expect, as a client retrying a timed-out request would.
            return client.command(created["id"], tokens[seat], command, resource["version"] if _ % 2 else None, key=f"retry-{round_}")

        with ThreadPoolExecutor(12) as pool:
            replies = list(pool.map(send, range(12)))
        assert {r.status_code for r in replies} == {200}, [(r.status_code, r.text[-300:]) for r in replies if r.status_code != 200]
        assert len({r.content for r in replies}) == 1, "retries got different answers"
        assert api.get(f"/v1/games/{created['id']}").json()["version"] == replies[0].json()["version"]
        rounds += 1
        # Sent again later, the key still answers the same and writes nothing.
        again = api.command(created["id"], tokens[seat], command, key=f"retry-{round_}")
        assert again.content == replies[0].content
    records = stored_records(trust_redis, stack.key_prefix, created["id"])
    assert len(batches(records)) == 1 + rounds
    record_figures("races_idempotency", game=game_id, rounds=rounds, duplicate_sends=rounds * 12)


def run_ai_job(env: dict[str, str], game_id: str, seat: int, version: int, barrier) -> str:
    os.environ.update(env)
    from session_service.worker import jobs

    jobs.worker_tables()
    barrier.wait()
    return jobs.ai_turn(game_id, seat, version)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_two_workers_running_the_same_ai_job_move_once(stack, trust_redis, processes, game_id):
    """The job carries an idempotency key bound to its version: whichever worker comes second finds it done."""
    from session_service.bootstrap import build_tables
    from session_service.config import Settings
    from tests.support.stack import RecordingScheduler

    game = GAMES[game_id]
    env = {"REDIS_URL": stack.effective_redis_url, "RQ_REDIS_URL": stack.effective_redis_url,
           "RULES_URL": stack.rules_url, "KEY_PREFIX": f"{stack.key_prefix}:race", "QUEUE_NAME": stack.queue + "-race"}
    # A game whose AI turns nobody has queued, under a prefix the stack's sweeper does not watch: only the
    # workers of this test run its AI turns.
    tables = build_tables(Settings.from_config(env), {"SCHEDULER": RecordingScheduler()})
    created = tables.create({"game": game_id, "seats": [{"name": f"Bot {i}", "ai": "random"} for i in range(game.catalogue.min_players)],
                             "options": {}, "turn_timeout_s": None})
    pool, manager = processes
    outcomes: Counter = Counter()
    rounds = 0
    for _ in range(3 * SCALE):
        meta = tables.meta(created["id"])
        if meta.over:
            break
        barrier = manager.Barrier(2)  # the two jobs wait for each other, so they run in two processes at once
        seat = meta.to_act[0]
        results = list(pool.map(run_ai_job, [env] * 2, [created["id"]] * 2, [seat] * 2, [meta.version] * 2, [barrier] * 2))
        # Both may say "played" when they overlap (the second one's append finds the key and answers the
        # first's result); what matters is below: one move in the log.
        assert "played" in results and set(results) <= {"played", "stale"}, results
        outcomes.update(results)
        records = stored_records(trust_redis, env["KEY_PREFIX"], created["id"])
        moved = [b for b in batches(records) if b[0]["v"] == meta.version + 1]
        assert len(moved) == 1 and moved[0][0]["cause"]["by"] == "ai"
        assert records[-1]["v"] == tables.meta(created["id"]).version
        rounds += 1
    assert rounds >= 1
    record_figures("races_ai_job", game=game_id, jobs_run=sum(outcomes.values()), moves=rounds)
