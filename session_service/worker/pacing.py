"""When a server move (an AI seat's, or the turn timer's) is made public, so that its time says nothing of a hand.

Issue 33: from the public ``at`` timestamps, a gap under 50 ms meant the AI had exactly one legal move (119 of 119
forced moves, 189 of 190 free ones): a search is skipped when there is nothing to choose. So the worker no longer
publishes a move when it is chosen. Each move has a due time, ``anchor + delay``:

- ``anchor``: when the game came to wait on the seat, a public fact (the ``at`` of the log's head; for the timer,
  the seat's deadline);
- ``delay``: one draw from the level's distribution (``shared.ai.Level.delay``; the timer's is ``TIMER``), from the
  game's secret seed (``seat_rng(seed, "publish", seat, version)``: nobody can predict it while the game runs),
  whose least value lies above the level's think time plus ``MARGIN_S``.

The search is given the wall clock left before the due time (less the margin), and its think time in CPU as before,
so a move is always ready when it is due, forced or not; the move is then published at the due time, whatever it
cost. A turn that starts too late to think in time (the queue was busy past the delay's least value less the think
time) is due its delay after it started instead (``late``: counted in the worker's stats): then its time says how
long the queue was, which is the other games' work and never this seat's hand.

The worker does not wait for a due time: the job that chose the move hands it to the ``Publisher``, a thread of each
worker process that publishes every move at its time (within ``POLL_S`` for one another process handed over, at
once for its own), from a sorted set in the queue's Redis, so a worker killed meanwhile loses no move another
worker's publisher cannot publish.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, asdict, dataclass
from typing import Any

import orjson
import redis

from session_service.worker.lease import MOVE, Leases
from session_service.worker.outage import WORKER

log = logging.getLogger("mythos.jobs")
# How often a publisher looks for moves another process handed over (a process killed before their due time): a
# worker's own moves wake its publisher at once, so this bounds only how late a dead worker's move is published,
# and it is what an idle worker costs Redis (twenty reads a second at 0.05 s, in every worker process).
POLL_S = 0.5


@dataclass(frozen=True, slots=True)
class Plan:
    due: float  # epoch seconds: when the move is published
    wall_s: float  # wall clock the search may take, from now
    late: bool = False  # the turn started too late to think before ``anchor + delay``: due ``delay`` after it started


def plan(anchor: float, now: float, delay: float, think_s: float, margin_s: float, wall_cap_s: float) -> Plan:
    """The due time of a move whose turn began at ``anchor`` and whose job starts at ``now``, and the wall clock its
    search may use (at most ``wall_cap_s``, the level's own cap). ``delay`` must exceed ``think_s + margin_s``."""
    wall = anchor + delay - margin_s - now
    if wall >= think_s:
        return Plan(anchor + delay, min(wall, wall_cap_s))
    return Plan(now + delay, min(delay - margin_s, wall_cap_s), late=True)


@dataclass(frozen=True, slots=True)
class Move:
    """A move chosen for a seat at ``version``, to publish at ``due`` (``by``: ``ai`` or ``timeout``), and ``rest``:
    the seat's next commands of the same turn with their versions, published right after it (a turn is paced as one).
    """

    game_id: str
    seat: int
    version: int
    by: str
    command: dict[str, Any]
    due: float
    _: KW_ONLY  # what follows is named where it is given: two of its fields came from two changes at once
    # The AI's figures of its choice (wall seconds, started late), counted for /metrics once it is published: counted
    # at the choice, a poll of /metrics told a forced move from a free one before either reached the table.
    chose_s: float = 0.0
    late: bool = False
    rest: tuple[tuple[int, dict[str, Any]], ...] = ()

    def encoded(self) -> bytes:
        return orjson.dumps(asdict(self), option=orjson.OPT_SORT_KEYS)

    @classmethod
    def decoded(cls, raw: bytes) -> Move:
        fields = orjson.loads(raw)
        return cls(**{**fields, "rest": tuple((v, c) for v, c in fields.get("rest", ()))})


class Publisher:
    """Publishes handed-over moves at their due time, from a thread (``run``): the worker that chose a move is free
    for the next turn meanwhile. ``publish(move)`` applies one (the jobs' path: ``Tables.command`` with the version
    and the server's idempotency key, so a move published twice is applied once)."""

    def __init__(self, connection: Any, key: str, publish: Callable[[Move], str], clock: Callable[[], float] = time.time,
                 leases: Leases | None = None):
        self.connection, self.key, self.publish, self.clock, self.leases = connection, key, publish, clock, leases
        self.woken = threading.Event()

    def add(self, move: Move) -> None:
        self.connection.zadd(self.key, {move.encoded(): move.due})
        self.woken.set()

    def next_due(self) -> tuple[Move | None, float]:
        """The earliest move if it is due (claimed: no other publisher gets it), else None and how long to wait."""
        head = self.connection.zrange(self.key, 0, 0, withscores=True)
        if not head:
            return None, POLL_S
        raw, due = head[0]
        wait = due - self.clock()
        if wait > 0:
            return None, min(wait, POLL_S)
        claimed = self.leases.claim(self.key, raw, MOVE + raw.decode()) if self.leases else self.connection.zrem(self.key, raw)
        if not claimed:
            return None, 0.0  # another publisher took it
        return Move.decoded(raw), 0.0

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            began = time.monotonic()
            try:
                move, wait = self.next_due()
            except redis.RedisError as exc:
                WORKER.lost(exc)
                stop.wait(1.0)
                continue
            WORKER.reached(began)
            if move is not None:
                try:
                    self.publish(move)
                except Exception:  # noqa: BLE001 - one move failed (logged there); the sweeper plays its turn again
                    pass
                self._done(move)
            elif wait > 0:
                self.woken.wait(wait)
                self.woken.clear()

    def _done(self, move: Move) -> None:
        """Give up the hold on a published move (if Redis is away, its lease thread later finds it held by a live
        worker: the hold stays until this worker dies, and then the move is published again, harmlessly)."""
        if self.leases is not None:
            try:
                self.leases.done(MOVE + move.encoded().decode())
            except redis.RedisError as exc:
                WORKER.lost(exc)
