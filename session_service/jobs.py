"""RQ jobs: AI turns, turn timeouts and the sweeper that picks up whatever was left pending.

Jobs take ids and a version only, use RQ's JSON serializer and deterministic ids
(``ai-<game>-<seat>-<version>``: RQ allows letters, digits, ``-`` and ``_``), and do nothing when the game has
moved past their version. They submit through ``Tables.command``, the path a client's command takes, with an
idempotency key bound to the version, so a retried or duplicated job can never act twice.
"""

from __future__ import annotations

import logging
import os
import random
import time
from datetime import datetime, timedelta, timezone
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

from shared.ai import LEVELS, SeatKnowledge, choose
from shared.kernel import seat_rng
from shared.wire import logs
from session_service import retention
from session_service.errors import Finished, NotFound, Refused, VersionConflict
from session_service.lobby import Lobby
from session_service.players import Players
from session_service.meta import STUCK_AT, Meta
from session_service.tables import Scheduler, Tables

log = logging.getLogger("mythos.jobs")
SWEEP_EVERY_S = float(os.environ.get("SWEEP_EVERY_S", "20"))
STALLED_AFTER_S = float(os.environ.get("STALLED_AFTER_S", "10"))
IDLE_TABLE_S = int(os.environ.get("IDLE_TABLE_S", str(7 * 86400)))  # see config.py
STUCK = "stuck: nothing to play"
"""A job's outcome where the game waits on a seat that has nothing to play (``_stuck``)."""
MARKED_HELD = 100_000  # game ids a scheduler remembers having marked active, before it starts afresh
# Nobody reads a turn's result (the sweeper asks a job's status only while it is pending), and RQ kept each
# finished job ~500 s at ~7 KB (bench.abuse --only tables: 44 MB of queue Redis for 20 all-AI tables whose own
# keys held 6 MB), failed ones a year: a finished turn leaves nothing, a failed one a day for whoever looks.
KEEP = {"result_ttl": 0, "failure_ttl": 24 * 3600}


def choose_random(state: dict[str, Any], rand: random.Random) -> dict[str, Any] | None:
    """The ``random`` AI: a uniformly random legal command, from exactly what a client of its seat gets."""
    legal = state["legal_commands"]
    return rand.choice(legal) if legal else None


def _play_for(tables: Tables, game_id: str, seat: int, version: int, by: str) -> str:
    """Play for ``seat`` at ``version`` if the game still waits on it there: the AI's choice, or the game's
    timeout policy. Both draw from the game's secret seed, so nobody can predict them while the game runs."""
    meta = tables.meta(game_id)
    if meta.over or meta.version != version or seat not in meta.to_act:
        return "stale"
    if by == "ai" and tables.quotas is not None and not tables.quotas.ai_move(meta):
        return "over quota"  # its client's AI moves for this hour are spent: the sweeper tries again later
    pos = tables.position(game_id, meta)  # the table at ``version`` exactly: the meta was read there
    if by == "ai":
        # The AI gets its seat's knowledge, never the state (shared.ai). Its think time is CPU time (a busy
        # worker does not weaken it), with a hard cap in wall clock (shared.ai.levels.WALL_FACTOR).
        level = meta.seats[seat]["ai"] if meta.seats[seat]["ai"] in LEVELS else "random"
        knowledge = SeatKnowledge.of(pos.game, pos.table.game, seat)
        command = choose(knowledge, level, seat_rng(meta.seed, "ai", seat, version), clock=time.process_time,
                         wall=time.perf_counter)
    else:
        command = pos.game.timeout_choice(pos.table.game, seat, seat_rng(meta.seed, "timeout", seat, version))
    if command is None:
        return _stuck(tables, meta, seat)
    started = time.perf_counter()
    try:
        tables.command(game_id, seat, command, expected_version=version, idempotency_key=str(version), by=by)
    except (VersionConflict, Finished):
        return "stale"
    if by == "ai":
        tables.store.redis.hincrbyfloat(tables.store.key("stats", "ai"), "seconds", time.perf_counter() - started)
        tables.store.redis.hincrby(tables.store.key("stats", "ai"), "moves", 1)
    return "played"


def _stuck(tables: Tables, meta: Meta, seat: int | None) -> str:
    """The game waits on ``seat``, which has nothing to play, or (``None``) waits on nobody while it runs: a defect of
    the game's rules (the kernel's liveness guarantee is broken). Logged once a version with public facts only, and
    marked on the table (``Meta.stuck``) so its seats are told; nobody can move it, so the idle rule ends it
    (``Lobby.end_if_idle``)."""
    if not meta.stuck:
        tables.store.set_meta(meta.id, **{STUCK_AT: str(meta.version)})
        waits = ("nobody at version %d", ()) if seat is None else ("seat %d at version %d, which has nothing to play", (seat,))
        log.error("liveness defect: %s waits on " + waits[0], meta.id, *waits[1], meta.version,
                  extra={"fields": {"event": "liveness_defect", "game_id": meta.id, "game": meta.game,
                                    "rules_version": meta.rules_version, "version": meta.version, "seat": seat}})
    return STUCK


def ai_turn(game_id: str, seat: int, version: int) -> str:
    """Play the AI seat's move at ``version``, if the game is still there."""
    return _logged("ai_turn", game_id, seat, version, "ai")


def turn_timeout(game_id: str, seat: int, version: int) -> str:
    """The seat's time is up at ``version``: play the game's timeout policy for it, recorded as a timeout."""
    return _logged("turn_timeout", game_id, seat, version, "timeout")


def _logged(kind: str, game_id: str, seat: int, version: int, by: str) -> str:
    """Run one job and write its one log line (shared/wire/logs.py): played, stale, refused or failed. A refusal
    the service expects (the rules service or Redis away for a moment) is a line, not a traceback; RQ retries."""
    started = time.perf_counter()
    ids: dict[str, Any] = {"game_id": game_id, "seat": seat, "version": version}
    try:
        outcome = _play_for(worker_tables(), game_id, seat, version, by)
    except (Refused, redis.RedisError) as exc:
        logs.job_line(kind, started, f"failed: {type(exc).__name__}", logging.WARNING, **ids)
        raise
    except Exception:
        logs.job_line(kind, started, "failed", logging.ERROR, **ids)
        raise
    logs.job_line(kind, started, outcome, logging.ERROR if outcome == STUCK else logging.INFO, **ids)
    return outcome


def sweep() -> dict[str, int]:
    """The sweep as a job that schedules its own next run (first, so a failure half way does not end it)."""
    worker_tables()
    _SCHEDULER.queue.enqueue_in(timedelta(seconds=SWEEP_EVERY_S), sweep, job_id="sweep", retry=None)
    return sweep_once()


def sweep_once() -> dict[str, int]:
    """Re-enqueue AI turns and expired timers of every active game that has not moved for a while, report a game in
    play that waits on nobody (``_stuck``), and end the tables nobody plays (``Lobby.end_if_idle``)."""
    tables, started = worker_tables(), time.perf_counter()
    lobby = Lobby(tables, Players(tables.store))
    counts = {"games": 0, "requeued": 0, "idle_ended": 0}
    cutoff = datetime.now().astimezone() - timedelta(seconds=STALLED_AFTER_S)
    for game_id in tables.store.active_ids():
        try:
            meta = tables.meta(game_id)
        except NotFound:
            tables.store.mark_finished(game_id)
            continue
        counts["games"] += 1
        if meta.status == "active" and not meta.to_act:
            _stuck(tables, meta, None)  # no turn of anyone's will find it
        if meta.over:
            tables.store.mark_finished(game_id)
        elif lobby.end_if_idle(meta, IDLE_TABLE_S, time.time()) is not None:
            counts["idle_ended"] += 1
        elif datetime.fromisoformat(meta.updated_at) < cutoff:
            counts["requeued"] += _SCHEDULER.schedule(meta, force=True)
    counts.update(retention.sweep(tables, _RETENTION))  # after the turns above: a failure here must not hold them up
    # a line when it found work left behind; a quiet sweep only at DEBUG (every SWEEP_EVERY_S per worker)
    busy = counts["requeued"] or counts["idle_ended"]
    logs.job_line("sweep", started, f"{counts['requeued']} requeued, {counts['idle_ended']} idle tables ended",
                  logging.INFO if busy else logging.DEBUG, games=counts["games"])
    return counts


class RqScheduler(Scheduler):
    """Hands AI turns and turn timers to RQ after every change of a game."""

    def __init__(self, queue: Queue, store: Any):
        self.queue, self.store = queue, store
        self.after_change = self.schedule_or_leave
        # Games this process has put in the active set. A game leaves the set only when it is over or gone (see
        # sweep_once), so after the first SADD the rest of its commands need not pay that round trip each.
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
                queued += self._enqueue("ai" + job_id, ai_turn, meta, seat, force)
            elif meta.deadline:
                when = datetime.fromisoformat(meta.deadline.replace("Z", "+00:00"))
                if force and when <= datetime.now(when.tzinfo):
                    queued += self._enqueue("timeout" + job_id, turn_timeout, meta, seat, force)
                elif not force:
                    self.queue.enqueue_at(when, turn_timeout, meta.id, seat, meta.version, job_id="timeout" + job_id, **KEEP)
                    queued += 1
        return queued

    def _enqueue(self, job_id: str, func: Any, meta: Meta, seat: int, force: bool) -> int:
        if force:
            job = self.queue.fetch_job(job_id)
            if job is not None and _alive(job):
                return 0
        self.queue.enqueue(func, meta.id, seat, meta.version, job_id=job_id, retry=Retry(max=3, interval=[1, 3, 10]), **KEEP)
        return 1


def _alive(job: Job) -> bool:
    """Will this job still run by itself? A turn takes milliseconds, so a job that should have run a while ago
    and has not is an orphan: taken off the queue by a worker that then died, started by a worker killed
    mid-turn, or scheduled (a retry, a timer) while RQ's scheduler is held up, as it is for minutes after a
    killed worker leaves its lock behind. Running an orphan again is safe: its idempotency key says so."""
    status = job.get_status(refresh=False)
    queue: Queue = _SCHEDULER.queue
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


_TABLES: Tables | None = None
_SCHEDULER: Any = None
_RETENTION = retention.Policy()  # off until the worker reads its configuration


def worker_tables() -> Tables:
    """The worker process's one Tables, built from the environment on first use."""
    global _TABLES, _SCHEDULER, _RETENTION
    if _TABLES is None:
        from session_service.app import build_tables
        from session_service.config import from_env

        config = from_env()
        _TABLES = build_tables(config)
        _SCHEDULER = _TABLES.scheduler
        _RETENTION = retention.Policy.from_config(config)
    return _TABLES


def use_tables(tables: Tables, policy: retention.Policy | None = None) -> None:
    """Run jobs against ``tables`` (the worker's own, or a test's), with a retention ``policy`` (default: off)."""
    global _TABLES, _SCHEDULER, _RETENTION
    _TABLES, _SCHEDULER, _RETENTION = tables, tables.scheduler, policy or retention.Policy()
