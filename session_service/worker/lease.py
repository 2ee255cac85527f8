"""A turn whose worker died is run again within ``LEASE_S``, and a timer fires on time whichever worker lives.

Issue 47: one worker's kill -9 stalled every AI and timer move of ~15 games for ~16 s while the other worker lived.
The dead worker's turn held its client's one place (``scheduler.Gate``), so the client's other turns waited behind
it until the sweeper (every 20 s, on games still for 10 s) gave the place back; and RQ's scheduler, which moves
due timers to the queue, runs in one worker under a lock that outlives it by a minute.

So each worker process keeps a lease: a key that lives ``LEASE_S`` and that a thread of the worker (``keep``)
renews every ``BEAT_S``. A turn being run is recorded against its worker in one hash (``hold``/``done``); the same
thread of every worker looks at that hash, and a turn whose worker's lease is gone is claimed by exactly one of
them (compare-and-delete) and put back on the queue, where it still holds its client's place. Running it again
is safe: a turn's move is submitted with an idempotency key bound to its version. A move being published by the
worker's publisher (``pacing.py``) is held the same way (``claim``), and put back in the publisher's set; a turn
given its client's place is held until it is on the queue (``scheduler.Gate.holder``), and one a worker took off
the queue and died with before holding it is found in RQ's intermediate list (``stranded``). The same thread moves due timers
and retries from RQ's scheduled registry to the queue, each claimed by one worker (ZREM), so no lock of a dead
worker holds them up.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from rq import Queue

from session_service.worker.outage import WORKER

log = logging.getLogger("mythos.worker")
LEASE_S = float(os.environ.get("WORKER_LEASE_S", "1.0"))
BEAT_S = LEASE_S / 4
TURNS = ("ai-", "timeout-")  # the jobs a lease holds (scheduler.turn_id): a dead worker's are run again

MOVE = "move:"  # a held publication's name in the running hash: this, then the move as the publisher's set holds it

CLAIM = """
-- KEYS: a sorted set, the running hash. ARGV: member, its name there, the worker. Takes the member out of the set
-- and holds it against the worker, at once (a worker killed in between loses nothing).
if redis.call("ZREM", KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call("HSET", KEYS[2], ARGV[2], ARGV[3])
return 1
"""

TAKE = """
-- KEYS: the running hash. ARGV: turn, the worker it names. Claims the turn if that worker still holds it.
if redis.call("HGET", KEYS[1], ARGV[1]) == ARGV[2] then return redis.call("HDEL", KEYS[1], ARGV[1]) end
return 0
"""


class Leases:
    """The leases of the workers on one queue (``prefix`` is the queue's name), as seen by worker ``me``."""

    def __init__(self, connection: Any, prefix: str, me: str, lease_s: float = LEASE_S,
                 clock: Callable[[], float] = time.monotonic):
        self.connection, self.prefix, self.me, self.lease_s, self.clock = connection, prefix, me, lease_s, clock
        self.running = f"{prefix}:running"
        self.seen: dict[str, float] = {}  # turns in RQ's intermediate list, and when this worker first saw them
        self._take = connection.register_script(TAKE)
        self._claim = connection.register_script(CLAIM)

    def alive_key(self, worker: str) -> str:
        return f"{self.prefix}:lease:{worker}"

    def beat(self) -> None:
        self.connection.set(self.alive_key(self.me), "1", px=int(self.lease_s * 1000))

    def hold(self, turn: str) -> None:
        self.connection.hset(self.running, turn, self.me)

    def claim(self, key: str, member: bytes, name: str) -> bool:
        """Take ``member`` out of the sorted set ``key`` and hold it as ``name``; False if another worker took it."""
        return bool(self._claim(keys=[key, self.running], args=[member, name, self.me]))

    def done(self, turn: str) -> None:
        self._take(keys=[self.running], args=[turn, self.me])

    def mine(self) -> list[str]:
        """The turns (not the moves: the publisher's own) this worker holds."""
        held = self.connection.hgetall(self.running)
        return sorted(t.decode() for t, w in held.items() if w.decode() == self.me and t.decode().startswith(TURNS))

    def orphans(self) -> list[str]:
        """The turns whose worker's lease has run out, each claimed here (no other worker gets it)."""
        held = {turn.decode(): worker.decode() for turn, worker in self.connection.hgetall(self.running).items()}
        workers = sorted(set(held.values()) - {self.me})
        if not workers:
            return []
        alive = {w for w, found in zip(workers, self.connection.mget([self.alive_key(w) for w in workers])) if found}
        return [turn for turn, worker in held.items()
                if worker != self.me and worker not in alive and self._take(keys=[self.running], args=[turn, worker])]


    def stranded(self, intermediate: str) -> list[str]:
        """The turns a worker took off the queue and died with before it held them: RQ moves each job it takes to an
        intermediate list, and out of it when the job starts, so a turn left there for a lease's time that nobody
        holds is claimed here (LREM: one worker gets it)."""
        now, listed = self.clock(), {job_id.decode() for job_id in self.connection.lrange(intermediate, 0, -1)}
        self.seen = {turn: self.seen.get(turn, now) for turn in listed if turn.startswith(TURNS)}
        old = [turn for turn, since in self.seen.items() if now - since >= self.lease_s]
        if not old:
            return []
        held = self.connection.hmget(self.running, old)
        return [turn for turn, holder in zip(old, held) if holder is None and self.connection.lrem(intermediate, 1, turn)]


def move_due(queue: Queue) -> int:
    """Move the jobs of ``queue``'s scheduled registry that are due (timers, retries, the sweep) to the queue, each
    claimed by a ZREM so that one worker moves it; what RQ's scheduler does, without its lock."""
    registry, moved = queue.scheduled_job_registry, 0
    for job_id in registry.get_jobs_to_schedule(int(time.time()), chunk_size=100):
        if not queue.connection.zrem(registry.key, job_id):
            continue  # another worker's
        job = queue.fetch_job(job_id)
        if job is not None:
            queue.enqueue_job(job)
            moved += 1
    return moved


def keep(leases: Leases, queue: Queue, requeue: Callable[[str], None], stop: threading.Event) -> None:
    """The worker's lease thread: renew the lease, put back the turns of dead workers, move due timers."""
    while not stop.wait(BEAT_S):
        began = time.monotonic()
        try:
            leases.beat()
            for turn in leases.orphans():
                log.warning("turn %s was held by a worker that is gone; running it again", turn)
                requeue(turn)
            for turn in leases.stranded(queue.intermediate_queue_key):
                log.warning("turn %s was taken by a worker that is gone; running it again", turn)
                requeue(turn)
            move_due(queue)
        except redis.RedisError as exc:
            WORKER.lost(exc)
            continue
        WORKER.reached(began)
