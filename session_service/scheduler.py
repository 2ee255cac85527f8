"""Where the session service hands AI turns and turn timers to RQ, after every change of a game (``Tables``'
``Scheduler``, as the app and the worker wire it in ``bootstrap``).

Jobs take ids and a version only, use RQ's JSON serializer and deterministic ids
(``ai-<game>-<seat>-<version>``: RQ allows letters, digits, ``-`` and ``_``). They are named here by their import
path, which is what RQ records of a job anyway: the app schedules jobs but never imports the worker that runs them
(tests/unit/test_scheduler_active_set.py checks that each name is the worker's job function).
"""

from __future__ import annotations

import logging
import os
from datetime import datetime, timedelta, timezone
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

from session_service.use_cases.meta import Meta
from session_service.use_cases.tables import Scheduler

log = logging.getLogger("mythos.jobs")
AI_TURN = "session_service.worker.jobs.ai_turn"
TURN_TIMEOUT = "session_service.worker.jobs.turn_timeout"
STALLED_AFTER_S = float(os.environ.get("STALLED_AFTER_S", "10"))
MARKED_HELD = 100_000  # game ids a scheduler remembers having marked active, before it starts afresh
# Nobody reads a turn's result (the sweeper asks a job's status only while it is pending), and RQ kept each
# finished job ~500 s at ~7 KB (bench.abuse --only tables: 44 MB of queue Redis for 20 all-AI tables whose own
# keys held 6 MB), failed ones a year: a finished turn leaves nothing, a failed one a day for whoever looks.
KEEP = {"result_ttl": 0, "failure_ttl": 24 * 3600}


class RqScheduler(Scheduler):
    """Hands AI turns and turn timers to RQ after every change of a game."""

    def __init__(self, queue: Queue, store: Any):
        self.queue, self.store = queue, store
        self.after_change = self.schedule_or_leave
        # Games this process has put in the active set. A game leaves the set only when it is over or gone (see
        # jobs.sweep_once), so after the first SADD the rest of its commands need not pay that round trip each.
        self.marked: set[str] = set()

    def schedule_or_leave(self, meta: Meta) -> None:
        """Schedule after a change; if the queue cannot be reached, leave it to the sweeper (what was written
        stays written, and its writer still gets its answer rather than a 503 that would say nothing was)."""
        try:
            self.schedule(meta)
        except redis.RedisError:
            log.warning("could not schedule follow-up work for %s; the sweeper will", meta.id, exc_info=True)

    def schedule(self, meta: Meta, force: bool = False) -> int:
        if meta.over:
            self.store.mark_finished(meta.id)
            self.marked.discard(meta.id)
            return 0
        if force or meta.id not in self.marked:
            self.store.mark_active(meta.id)
            if len(self.marked) >= MARKED_HELD:
                self.marked.clear()
            self.marked.add(meta.id)
        if meta.stuck:
            return 0  # nothing can be played: the idle rule ends it
        queued = 0
        for seat in meta.to_act:
            job_id = f"-{meta.id}-{seat}-{meta.version}"
            if meta.seats[seat]["ai"]:
                queued += self._enqueue("ai" + job_id, AI_TURN, meta, seat, force)
            elif meta.deadline:
                when = datetime.fromisoformat(meta.deadline.replace("Z", "+00:00"))
                if force and when <= datetime.now(when.tzinfo):
                    queued += self._enqueue("timeout" + job_id, TURN_TIMEOUT, meta, seat, force)
                elif not force:
                    self.queue.enqueue_at(when, TURN_TIMEOUT, meta.id, seat, meta.version, job_id="timeout" + job_id, **KEEP)
                    queued += 1
        return queued

    def _enqueue(self, job_id: str, func: str, meta: Meta, seat: int, force: bool) -> int:
        if force:
            job = self.queue.fetch_job(job_id)
            if job is not None and _alive(job, self.queue):
                return 0
        self.queue.enqueue(func, meta.id, seat, meta.version, job_id=job_id, retry=Retry(max=3, interval=[1, 3, 10]), **KEEP)
        return 1


def _alive(job: Job, queue: Queue) -> bool:
    """Will this job still run by itself? A turn takes milliseconds, so a job that should have run a while ago
    and has not is an orphan: taken off the queue by a worker that then died, started by a worker killed
    mid-turn, or scheduled (a retry, a timer) while RQ's scheduler is held up, as it is for minutes after a
    killed worker leaves its lock behind. Running an orphan again is safe: its idempotency key says so."""
    status = job.get_status(refresh=False)
    overdue = timedelta(seconds=STALLED_AFTER_S)
    if status == "queued":
        return job.origin != queue.name or queue.get_job_position(job.id) is not None
    if status == "scheduled":
        try:
            scheduled: datetime = queue.scheduled_job_registry.get_scheduled_time(job)  # rq leaves the property untyped
            return datetime.now(timezone.utc) - scheduled < overdue
        except NoSuchJobError:
            return False
    if status == "started":
        started = job.started_at
        if started is None:
            return True
        if started.tzinfo is None:
            started = started.replace(tzinfo=timezone.utc)
        return datetime.now(timezone.utc) - started < overdue
    return status == "deferred"


def make_queue(connection: Any, name: str) -> Queue:
    return Queue(name, connection=connection, serializer=JSONSerializer)
