"""The workers are shared between clients in turn (issue 33: six `hard` all-AI tables of one client, within its
quotas, took 53 of 65 worker CPU-seconds, and another client's AI reply went from 0.11 s to 5.8 s).

RQ's queue is one FIFO: each client now also has a queue of its own (``scheduler.Gate``), and holds at most
``AI_TURNS_AT_ONCE_PER_CLIENT`` turns in RQ's queue or running. Deterministic: one RQ worker in this process runs
the queue in order, and the test reads which table each move was played for.
"""

from __future__ import annotations

import pytest
from rq import SimpleWorker

from session_service import scheduler as rq_scheduler
from session_service.scheduler import Gate, RqScheduler, parse_turn_id, turn_id
from session_service.storage.store import EventStore
from session_service.use_cases.meta import Meta
from session_service.worker import jobs
from tests.support.stack import make_session_app
from tests.support.toy import GAME

BOTS = [{"name": "Ada", "ai": "random"}, {"name": "Bo", "ai": "random"}]
SEED = "00" * 31 + "07"  # every table the same long game (the AI draws from the seed too): no table ends in the window


def played_in_order(fake_redis, prefix, monkeypatch, places: int) -> tuple[list[str], list[str], str]:
    """Client A opens six all-AI tables, then client B one; one worker plays 14 moves. The tables each move was for."""
    queue = rq_scheduler.make_queue(fake_redis, prefix)
    scheduler = RqScheduler(queue, EventStore(fake_redis, prefix), Gate(fake_redis, prefix, places))
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, SCHEDULER=scheduler,
                              ALLOW_CLIENT_SEED=True)
    client = app.test_client()
    table = {"game": "toy", "seats": BOTS, "seed": SEED}
    a = [client.post("/v1/games", json=table, environ_base={"REMOTE_ADDR": "198.51.100.7"}).json["id"] for _ in range(6)]
    b = client.post("/v1/games", json=table, environ_base={"REMOTE_ADDR": "198.51.100.8"}).json["id"]
    order: list[str] = []
    publish = jobs.publish

    def recorded(move, tables=None):
        order.append(move.game_id)
        return publish(move, tables)

    monkeypatch.setattr(jobs, "publish", recorded)
    jobs.use_tables(app.extensions["tables"])
    SimpleWorker([queue], connection=fake_redis, serializer=queue.serializer).work(burst=True, max_jobs=14)
    return order, a, b


def test_another_client_waits_behind_one_turn_of_a_client_with_many_tables(fake_redis, prefix, monkeypatch):
    order, a, b = played_in_order(fake_redis, prefix, monkeypatch, places=1)
    assert len(order) == 14
    assert order.index(b) == 1  # behind A's first turn only, not its six
    assert order.count(b) == 7  # then every other move: the two clients with work are served in turn
    assert set(order) - {b} <= set(a)


def test_without_the_gate_the_same_queue_serves_one_client_first(fake_redis, prefix, monkeypatch):
    """The same run with no gate (``AI_TURNS_AT_ONCE_PER_CLIENT=0``): what the issue measured."""
    order, _, b = played_in_order(fake_redis, prefix, monkeypatch, places=0)
    assert order.index(b) == 6 and order.count(b) == 2


def test_a_client_holds_its_places_and_its_other_turns_wait_oldest_first(fake_redis, prefix):
    gate = Gate(fake_redis, prefix, 2, clock=lambda: 1000.0)
    assert [gate.admit("A", t) for t in ("t1", "t2", "t3", "t4")] == [True, True, False, False]
    assert gate.admit("B", "u1") and gate.admit("A", "t1")  # another client; a turn holding its place keeps it
    assert gate.release("A", "t2") == "t3"  # the place goes to A's oldest waiting turn
    assert gate.release("A", "t2") is None  # released once
    assert gate.release("A", "t1") == "t4" and gate.release("A", "t3") is None and gate.release("A", "t4") is None
    assert gate.admit(None, "anything")  # a table of no client is not gated


def test_a_place_held_by_a_lost_turn_is_given_up(fake_redis, prefix):
    now = [1000.0]
    gate = Gate(fake_redis, prefix, 1, clock=lambda: now[0])
    assert gate.admit("A", "lost") and not gate.admit("A", "next")
    now[0] += rq_scheduler.HELD_S + 1  # its worker was killed: nobody releases it
    assert gate.admit("A", "next")


@pytest.mark.parametrize("game_id", ["g_abc", "g_a-b-c", "g_-x_"])
def test_a_turns_job_id_reads_back(game_id):
    assert parse_turn_id(turn_id("ai", game_id, 3, 41)) == ("ai", game_id, 3, 41)
    assert parse_turn_id(turn_id("timeout", game_id, 0, 7)) == ("timeout", game_id, 0, 7)


def test_the_sweeper_gives_back_a_place_held_by_a_turn_nobody_will_run(fake_redis, prefix):
    """A worker killed after handing its move over, before giving its place back: another worker publishes the move,
    the game moves on, and its next turn waits for a place the dead turn holds. The sweeper, finding the game stopped,
    frees every place of the client whose turn no worker will run, and the waiting turn goes in."""
    queue = rq_scheduler.make_queue(fake_redis, prefix)
    scheduler = RqScheduler(queue, EventStore(fake_redis, prefix), Gate(fake_redis, prefix, 1))
    lost, waiting = turn_id("ai", "g_1", 0, 11), turn_id("ai", "g_1", 1, 12)
    assert scheduler.gate.admit("C", lost)  # its job died with its worker: nothing of it in RQ
    meta = Meta(id="g_1", game="toy", status="active", version=12, seats=[{"name": "A", "ai": "random"}] * 2,
                seed=b"\0" * 32, seed_commitment="", options={}, turn_timeout_s=None, rules_version="1", head_hash="",
                to_act=[1], outcome=None, deadline=None, created_at="2026-01-01T00:00:00Z",
                updated_at="2026-01-01T00:00:00Z", extra={"quota_client": "C"})
    assert scheduler.schedule(meta) == 0 and queue.job_ids == []  # parked behind the lost turn
    assert scheduler.schedule(meta, force=True) == 1  # the sweeper
    assert queue.job_ids == [waiting] and scheduler.gate.holders("C") == [waiting]
