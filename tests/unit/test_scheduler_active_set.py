"""The RQ scheduler keeps the set of active games (what the sweeper walks) with one SADD per game per process,
not one per command (issue 10: a round trip on every command), and still drops a game from it when it ends."""

from __future__ import annotations

from dataclasses import replace

from rq import Queue

from session_service.scheduler import RqScheduler
from session_service.storage.store import EventStore
from session_service.use_cases.meta import Meta


def meta(game_id: str, version: int, status: str = "active") -> Meta:
    return Meta(id=game_id, game="toy", status=status, version=version, seats=[{"name": "A", "ai": None}],
                seed=b"\0" * 8, seed_commitment="", options={}, turn_timeout_s=None, rules_version="1", head_hash="",
                to_act=[0] if status == "active" else [], outcome=None, deadline=None,
                created_at="2026-01-01T00:00:00Z", updated_at="2026-01-01T00:00:00Z")


class CountingStore(EventStore):
    def __init__(self, *args):
        super().__init__(*args)
        self.sadds = 0

    def mark_active(self, game_id: str) -> None:
        self.sadds += 1
        super().mark_active(game_id)


def test_a_game_is_marked_active_once_then_dropped_when_it_ends(fake_redis, prefix):
    store = CountingStore(fake_redis, prefix)
    scheduler = RqScheduler(Queue(prefix, connection=fake_redis), store)
    for version in range(1, 6):
        scheduler.schedule(meta("g1", version))
    scheduler.schedule(meta("g2", 1))
    assert sorted(store.active_ids()) == ["g1", "g2"] and store.sadds == 2
    scheduler.schedule(replace(meta("g1", 6, "finished")))
    assert sorted(store.active_ids()) == ["g2"]


def test_the_sweeper_s_forced_schedule_marks_again_and_a_fresh_process_marks_again(fake_redis, prefix):
    store = CountingStore(fake_redis, prefix)
    scheduler = RqScheduler(Queue(prefix, connection=fake_redis), store)
    scheduler.schedule(meta("g1", 1))
    fake_redis.delete(store.active_key("g1"))  # as if the set were lost
    scheduler.schedule(meta("g1", 2), force=True)
    assert sorted(store.active_ids()) == ["g1"]
    fake_redis.delete(store.active_key("g1"))
    RqScheduler(Queue(prefix, connection=fake_redis), store).schedule(meta("g1", 3))
    assert sorted(store.active_ids()) == ["g1"] and store.sadds == 3


def test_the_jobs_it_schedules_are_the_worker_s_job_functions():
    """The scheduler names its jobs by import path, so the app never imports the worker: each name must be the job."""
    from rq.utils import import_attribute

    from session_service.scheduler import AI_TURN, TURN_TIMEOUT
    from session_service.worker import jobs

    assert import_attribute(AI_TURN) is jobs.ai_turn and import_attribute(TURN_TIMEOUT) is jobs.turn_timeout
