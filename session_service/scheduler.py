"""Where the session service hands AI turns and turn timers to RQ, after every change of a game (``Tables``'
``Scheduler``, as the app and the worker wire it in ``bootstrap``), and how the workers are shared between clients.

Fair shares (issue 33: six ``hard`` all-AI tables of one client, within its quotas, took 53 of 65 worker
CPU-seconds, and another client's AI reply went from 0.11 s to 5.8 s): RQ's queue is one FIFO, so every client
also has a queue of its own (``Gate``). A client has at most ``AI_TURNS_AT_ONCE_PER_CLIENT`` (1) turns in RQ's
queue or running; its other turns wait in its own queue, oldest first, and the next one goes to the back of RQ's
queue when one of its turns ends. So a turn of a client waits behind at most that many turns of each other
client, however many tables they have: the clients with work are served in turn (round robin). An AI turn takes
its place when it is scheduled, a timer's when it fires (timers are scheduled at their deadline by RQ).

Jobs take ids and a version only, use RQ's JSON serializer and deterministic ids
(``ai-<game>-<seat>-<version>``: RQ allows letters, digits, ``-`` and ``_``). They are named here by their import
path, which is what RQ records of a job anyway: the app schedules jobs but never imports the worker that runs them
(tests/unit/test_scheduler_active_set.py checks that each name is the worker's job function).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

import redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

from session_service.use_cases.meta import Meta
from session_service.use_cases.quotas import META_FIELD
from session_service.use_cases.ports import Scheduler

log = logging.getLogger("mythos.jobs")
AI_TURN = "session_service.worker.jobs.ai_turn"
TURN_TIMEOUT = "session_service.worker.jobs.turn_timeout"
STALLED_AFTER_S = float(os.environ.get("STALLED_AFTER_S", "10"))
MARKED_HELD = 100_000  # game ids a scheduler remembers having marked active, before it starts afresh
# Nobody reads a turn's result (the sweeper asks a job's status only while it is pending), and RQ kept each
# finished job ~500 s at ~7 KB (bench.abuse --only tables: 44 MB of queue Redis for 20 all-AI tables whose own
# keys held 6 MB), failed ones a year: a finished turn leaves nothing, a failed one a day for whoever looks.
KEEP = {"result_ttl": 0, "failure_ttl": 24 * 3600}
RETRY = {"retry": Retry(max=3, interval=[1, 3, 10])}
HELD_S = 60  # a place held this long is given up: its turn was lost (a worker killed), or sat in a jammed queue

ADMIT = """
-- KEYS: the client's places (turn -> since), its waiting turns (turn -> since), a worker's running hash (optional).
-- ARGV: turn, now, places, held_s, ttl, the worker. A turn given a place is held against the worker's lease.
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", tonumber(ARGV[2]) - tonumber(ARGV[4]))
if redis.call("ZSCORE", KEYS[1], ARGV[1]) then return 1 end
if redis.call("ZCARD", KEYS[1]) < tonumber(ARGV[3]) then
  if KEYS[3] then redis.call("HSET", KEYS[3], ARGV[1], ARGV[6]) end
  redis.call("ZADD", KEYS[1], ARGV[2], ARGV[1])
  redis.call("ZREM", KEYS[2], ARGV[1])
  redis.call("EXPIRE", KEYS[1], ARGV[5])
  return 1
end
redis.call("ZADD", KEYS[2], "NX", ARGV[2], ARGV[1])
redis.call("EXPIRE", KEYS[2], ARGV[5])
return 0
"""

RELEASE = """
-- KEYS as ADMIT's, and a worker's running hash (optional). ARGV: turn, now, ttl, the worker. Answers the client's
-- next waiting turn, now holding the freed place, and held against the worker's lease until it is enqueued.
if redis.call("ZREM", KEYS[1], ARGV[1]) == 0 then return false end
local nxt = redis.call("ZRANGE", KEYS[2], 0, 0)[1]
if not nxt then return false end
redis.call("ZREM", KEYS[2], nxt)
redis.call("ZADD", KEYS[1], ARGV[2], nxt)
redis.call("EXPIRE", KEYS[1], ARGV[3])
if KEYS[3] then redis.call("HSET", KEYS[3], nxt, ARGV[4]) end
return nxt
"""


class Holds(Protocol):
    """A worker's lease (session_service/worker/lease.py), as the gate sees it: the hash of what it holds, its name."""

    running: str
    me: str

    def done(self, turn: str) -> None: ...



class Gate:
    """Each client's own queue in front of RQ's (module docstring): ``admit`` gives a turn one of its client's
    ``places`` or parks it; ``release`` frees the place when the turn has run and hands back the client's next
    parked turn, which then holds it (the caller enqueues it). ``places`` 0: no gate, every turn goes straight in.
    Turns of a table with no client (opened by the server, or before quotas) are not gated."""

    holder: Holds | None = None
    """In a worker: its lease, which holds a turn given a place (by ``admit`` or ``release``) until it is enqueued
    (a worker killed in between would leave the place held by a turn nobody enqueues: its client's AI stalled until
    the sweeper); ``RqScheduler`` gives the hold up once the turn is on the queue."""

    def __init__(self, connection: Any, prefix: str, places: int, clock: Callable[[], float] = time.time):
        self.connection, self.prefix, self.places, self.clock = connection, prefix, places, clock
        self._admit = connection.register_script(ADMIT) if places > 0 else None
        self._release = connection.register_script(RELEASE) if places > 0 else None

    def keys(self, client: str) -> list[str]:
        return [f"{self.prefix}:fair:{client}:places", f"{self.prefix}:fair:{client}:waiting"]

    def admit(self, client: str | None, turn: str) -> bool:
        if self._admit is None or not client:
            return True
        held = self._held()
        return bool(self._admit(keys=self.keys(client) + held[0],
                                args=[turn, self.clock(), self.places, HELD_S, 24 * 3600] + held[1]))

    def _held(self) -> tuple[list[str], list[str]]:
        return ([self.holder.running], [self.holder.me]) if self.holder else ([], [])

    def holders(self, client: str) -> list[str]:
        """The turns holding ``client``'s places now."""
        return [t.decode() for t in self.connection.zrange(self.keys(client)[0], 0, -1)]

    def release(self, client: str | None, turn: str) -> str | None:
        if self._release is None or not client:
            return None
        held = self._held()
        nxt = self._release(keys=self.keys(client) + held[0], args=[turn, self.clock(), 24 * 3600] + held[1])
        return nxt.decode() if isinstance(nxt, bytes) else nxt


def turn_id(kind: str, game_id: str, seat: int, version: int) -> str:
    """A turn's job id: ``ai-<game>-<seat>-<version>`` or ``timeout-…`` (RQ allows letters, digits, - and _)."""
    return f"{kind}-{game_id}-{seat}-{version}"


def parse_turn_id(job_id: str) -> tuple[str, str, int, int]:
    """``turn_id`` read back (a game id may hold ``-`` itself: the seat and version are the last two parts)."""
    kind, rest = job_id.split("-", 1)
    game_id, seat, version = rest.rsplit("-", 2)
    return kind, game_id, int(seat), int(version)


class RqScheduler(Scheduler):
    """Hands AI turns and turn timers to RQ after every change of a game."""

    def __init__(self, queue: Queue, store: Any, gate: Gate | None = None):
        self.queue, self.store = queue, store
        self.gate = gate or Gate(queue.connection, queue.name, 0)
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
            if meta.seats[seat]["ai"]:
                queued += self._enqueue(turn_id("ai", meta.id, seat, meta.version), meta, force)
            elif meta.deadline:
                when = datetime.fromisoformat(meta.deadline.replace("Z", "+00:00"))
                job_id = turn_id("timeout", meta.id, seat, meta.version)
                if force and when <= datetime.now(when.tzinfo):
                    queued += self._enqueue(job_id, meta, force)
                # It takes its client's place when it fires (the job asks the gate then). The sweeper sets again a
                # timer the queue forgot (refused while the queue's primary was failed over, or taken back with it).
                elif not force or self.queue.fetch_job(job_id) is None:
                    self.queue.enqueue_at(when, TURN_TIMEOUT, meta.id, seat, meta.version, job_id=job_id, **KEEP)
                    queued += 1
        return queued

    def _enqueue(self, job_id: str, meta: Meta, force: bool) -> int:
        if force:
            job = self.queue.fetch_job(job_id)
            if job is not None and _alive(job, self.queue):
                return 0
        client = meta.extra.get(META_FIELD)
        if not self.gate.admit(client, job_id):
            if force and client:  # the sweeper, on a game that stopped: a place may be held by a turn nobody runs
                return self._free_lost_places(client)
            return 0  # its client's place is taken: it waits in the client's own queue (released in turn)
        self.enqueue_turn(job_id)
        self._handed(job_id)
        return 1

    def _free_lost_places(self, client: str) -> int:
        """Give back the places of ``client`` held by turns no worker will run (a worker killed mid-turn, whose
        move another worker then published: that turn is never run again, and its place would block the client's
        next turns until ``HELD_S``); each place freed goes to the client's next waiting turn."""
        freed = 0
        for holder in self.gate.holders(client):
            job = self.queue.fetch_job(holder)
            if job is None or not _alive(job, self.queue):
                freed += self.turn_done(client, holder)
        return freed

    def enqueue_turn(self, job_id: str) -> None:
        """Put the turn ``job_id`` names at the back of RQ's queue (it holds its client's place already)."""
        kind, game_id, seat, version = parse_turn_id(job_id)
        self.queue.enqueue(AI_TURN if kind == "ai" else TURN_TIMEOUT, game_id, seat, version, job_id=job_id, **RETRY, **KEEP)

    def turn_done(self, client: str | None, job_id: str) -> int:
        """A turn of ``client`` has run (or will not): its place goes to the client's next waiting turn, if any
        (answers 1 when one was enqueued)."""
        nxt = self.gate.release(client, job_id)
        if nxt is None:
            return 0
        self.enqueue_turn(nxt)
        self._handed(nxt)
        return 1

    def _handed(self, job_id: str) -> None:
        """The turn is on the queue: a worker's lease need hold it no more (``Gate.holder``)."""
        if self.gate.holder is not None:
            self.gate.holder.done(job_id)


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
