"""What the queue forgets while its Redis is away (issue 47: an enqueue refused while the queue's primary was failed
over, jobs the failover took back) is put back as soon as a worker reaches it again, not a sweep period later on
games still for ``STALLED_AFTER_S``; and a future turn timer the queue forgot is set again by the sweeper."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone

from rq import Queue

from session_service.scheduler import RqScheduler, turn_id
from session_service.storage.store import EventStore
from session_service.use_cases.meta import Meta
from session_service.worker import jobs, main, outage


def waiting_on_a_timer(game_id: str, deadline: datetime) -> Meta:
    return Meta(id=game_id, game="toy", status="active", version=4, seats=[{"name": "A", "ai": None}], seed=b"\0" * 8,
                seed_commitment="", options={}, turn_timeout_s=60, rules_version="1", head_hash="", to_act=[0],
                outcome=None, deadline=deadline.isoformat(), created_at="2026-01-01T00:00:00Z",
                updated_at="2026-01-01T00:00:00Z")


def test_the_sweeper_sets_again_a_future_timer_the_queue_forgot_and_leaves_one_it_holds(fake_redis, prefix):
    queue = Queue(prefix, connection=fake_redis)
    scheduler = RqScheduler(queue, EventStore(fake_redis, prefix))
    meta = waiting_on_a_timer("g1", datetime.now(timezone.utc) + timedelta(seconds=30))
    timer = turn_id("timeout", "g1", 0, 4)
    assert scheduler.schedule(meta, force=True) == 1  # none held: set again, at its deadline
    assert timer in queue.scheduled_job_registry.get_job_ids()
    assert scheduler.schedule(meta, force=True) == 0  # held: left as it is
    assert queue.scheduled_job_registry.get_job_ids() == [timer]


def test_a_worker_that_reaches_redis_again_sweeps_at_once_every_game_not_moved_since(monkeypatch):
    swept: list[datetime | None] = []
    done = threading.Event()

    def sweep_once(stalled_before=None):
        swept.append(stalled_before)
        done.set()
        return {"requeued": 0}

    monkeypatch.setattr(jobs, "sweep_once", sweep_once)
    monkeypatch.setattr(jobs, "SWEEP_EVERY_S", 3600.0)  # no regular sweep within the test
    watched = outage.Outage("the worker")
    monkeypatch.setattr(outage, "WORKER", watched)
    stop = threading.Event()
    sweeper = threading.Thread(target=main.sweep_forever, args=(stop,), daemon=True)
    sweeper.start()
    watched.lost(ConnectionError("gone"))
    before = datetime.now().astimezone()
    watched.reached()
    assert done.wait(10), "no sweep followed the outage's end"
    stop.set()
    watched.back.set()  # wakes the sweeper to see the stop
    sweeper.join(10)
    (since,) = swept[:1]
    assert since is not None and before <= since <= datetime.now().astimezone()


def test_an_attempt_that_began_before_the_loss_does_not_end_it(caplog):
    """A reply already on its way when Redis went (a loop's call begun before another loop noted the loss) is no sign
    that Redis is back: it ended a fresh outage once, and the worker said lost, reached, lost for one loss."""
    watched = outage.Outage("the test")
    before = time.monotonic()
    with caplog.at_level("WARNING", logger="mythos.worker"):
        assert watched.lost(ConnectionError("gone"))
        watched.reached(before)  # began before the loss: nothing said, still lost
        assert watched.lost_at is not None and not watched.back.is_set()
        watched.reached(time.monotonic())
    assert [r.getMessage().split(" (")[0].split(" after")[0] for r in caplog.records] == [
        "the test lost Redis", "the test reached Redis again"]
    assert watched.lost_at is None and watched.back.is_set()
