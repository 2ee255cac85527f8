"""A turn or a move held by a worker whose lease ran out is taken over by exactly one other worker, and due timers go
to the queue without RQ's scheduler (issue 47: one worker's death stalled every AI and timer move for ~16 s)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import redis
from rq import SimpleWorker
from rq.job import Job

from session_service.scheduler import TURN_TIMEOUT, RqScheduler, make_queue
from session_service.storage.store import EventStore
from session_service.worker.lease import MOVE, Leases, move_due
from session_service.worker.main import LeasedWorker, run_again_held
from session_service.worker.pacing import Move, Publisher


def workers(fake_redis, prefix, *names):
    return [Leases(fake_redis, prefix, name, lease_s=60) for name in names]


def test_a_turn_held_by_a_live_worker_is_nobodys_to_take(fake_redis, prefix):
    a, b = workers(fake_redis, prefix, "a", "b")
    a.beat()
    a.hold("ai-g1-0-3")
    assert b.orphans() == [] and a.orphans() == []


def test_a_dead_workers_turn_is_taken_over_once_by_one_worker(fake_redis, prefix):
    dead, b, c = workers(fake_redis, prefix, "dead", "b", "c")
    dead.beat()
    dead.hold("ai-g1-0-3")
    dead.hold("timeout-g2-1-7")
    fake_redis.delete(dead.alive_key("dead"))  # its lease ran out: nothing renewed it
    b.beat(), c.beat()
    assert sorted(b.orphans()) == ["ai-g1-0-3", "timeout-g2-1-7"]
    assert c.orphans() == []  # b claimed them: they are run once


def test_a_turn_done_is_no_longer_held(fake_redis, prefix):
    a, b = workers(fake_redis, prefix, "a", "b")
    a.hold("ai-g1-0-3")
    a.done("ai-g1-0-3")
    assert b.orphans() == [] and fake_redis.hlen(a.running) == 0


def test_a_move_claimed_by_a_publisher_that_dies_is_held_until_another_takes_it(fake_redis, prefix):
    dead, b = workers(fake_redis, prefix, "dead", "b")
    key = f"{prefix}:publish"
    move = Move("g1", 0, 3, "ai", {"type": "pass"}, due=1.0)
    publisher = Publisher(fake_redis, key, lambda m: "played", clock=lambda: 2.0, leases=dead)
    publisher.add(move)
    claimed, _ = publisher.next_due()  # taken out of the set; the worker then dies before publishing it
    assert claimed == move and fake_redis.zcard(key) == 0
    b.beat()
    taken = b.orphans()
    assert taken == [MOVE + move.encoded().decode()]
    assert Move.decoded(taken[0][len(MOVE):].encode()) == move


def test_a_published_move_is_held_no_more(fake_redis, prefix):
    (a,) = workers(fake_redis, prefix, "a")
    published = []
    publisher = Publisher(fake_redis, f"{prefix}:publish", published.append, clock=lambda: 2.0, leases=a)
    publisher.add(Move("g1", 0, 3, "ai", {"type": "pass"}, due=1.0))
    move, _ = publisher.next_due()
    publisher.publish(move)
    publisher._done(move)
    assert published == [move] and fake_redis.hlen(a.running) == 0


def test_due_timers_move_to_the_queue_once_and_later_ones_wait(fake_redis, prefix):
    queue = make_queue(fake_redis, prefix)
    now = datetime.now(timezone.utc)
    queue.enqueue_at(now - timedelta(seconds=1), TURN_TIMEOUT, "g1", 0, 3, job_id="timeout-g1-0-3")
    queue.enqueue_at(now + timedelta(hours=1), TURN_TIMEOUT, "g2", 0, 3, job_id="timeout-g2-0-3")
    assert move_due(queue) == 1
    assert move_due(queue) == 0  # another worker's look finds it moved already
    assert queue.job_ids == ["timeout-g1-0-3"]
    assert queue.scheduled_job_registry.get_job_ids() == ["timeout-g2-0-3"]


def test_a_turn_a_dead_worker_took_off_the_queue_before_holding_it_is_claimed_once_after_a_lease(fake_redis, prefix):
    now = [0.0]
    b, c = (Leases(fake_redis, prefix, name, lease_s=1, clock=lambda: now[0]) for name in ("b", "c"))
    intermediate = f"{prefix}:intermediate"
    fake_redis.rpush(intermediate, "ai-g1-0-3", "ai-g2-0-5", "sweep")
    b.hold("ai-g2-0-5")  # taken by a live worker, which holds it: not stranded
    assert b.stranded(intermediate) == [] and c.stranded(intermediate) == []  # first seen: it may be starting
    now[0] = 1.0
    assert b.stranded(intermediate) == ["ai-g1-0-3"]
    assert c.stranded(intermediate) == []  # b claimed it
    assert fake_redis.lrange(intermediate, 0, -1) == [b"ai-g2-0-5", b"sweep"]


def test_a_turn_whose_end_rq_could_not_record_stays_held_and_runs_again_once_redis_answers(fake_redis, prefix, monkeypatch):
    """Issue 47: the queue's primary failed over under a turn, RQ could not record the turn's end and quit its loop; the
    turn, given up anyway, held its client's one place until the sweep (~20 s for every table of that client)."""
    (a,) = workers(fake_redis, prefix, "a")
    queue = make_queue(fake_redis, prefix)
    worker = LeasedWorker([queue.name], connection=fake_redis, serializer=queue.serializer)
    worker.leases = a

    def lost(self, job, queue):
        raise redis.ConnectionError("the primary is being failed over")

    monkeypatch.setattr(SimpleWorker, "execute_job", lost)
    with pytest.raises(redis.ConnectionError):
        worker.execute_job(Job.create("os.getpid", id="ai-g1-0-3", connection=fake_redis), queue)
    assert a.mine() == ["ai-g1-0-3"]
    run_again_held(a, RqScheduler(queue, EventStore(fake_redis, prefix)))
    assert queue.job_ids == ["ai-g1-0-3"] and a.mine() == []
