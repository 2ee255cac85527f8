"""The RQ worker: runs AI turns, turn timeouts and the sweeper; from threads of its own it publishes the moves chosen
at their due time (pacing.py), and keeps its lease, takes over the turns of dead workers and moves due timers to the
queue (lease.py, in place of RQ's scheduler)."""

from __future__ import annotations

import logging
import os
import secrets
import socket
import sys
import threading
import time
from datetime import datetime, timedelta

import redis
from rq import Queue, SimpleWorker
from rq.job import Job

from shared.wire import logs
from session_service import bootstrap
from session_service.config import Settings
from session_service.storage import redis_clients
from session_service.scheduler import RqScheduler
from session_service.worker import jobs, lease, outage
from session_service.worker.pacing import Move, Publisher


log = logging.getLogger("mythos.worker")
# How long the AI's search (pure Python, on the main thread) holds the GIL before the publisher's thread may take it.
# At Python's 5 ms each of a publication's ~30 round trips to Redis and the rules waited up to 5 ms for the search:
# one client's `hard` tables delayed another's moves from 0.16 to 0.60 s (issue 41, L5); 0.5 ms cuts that tenfold
# (30 round trips beside a busy thread: 553 → 103 ms) for a search that is billed in CPU time anyway.
SWITCH_INTERVAL_S = 0.0005
# RQ's blocking wait for a job (BLMOVE), bounded so a Redis cut off without a word (a partition) is noticed within it
# plus the margin of the worker's own socket timeout (redis_clients.queue_client); RQ waits worker_ttl - 15.
DEQUEUE_WAIT_S = 10


class LeasedWorker(SimpleWorker):
    """RQ's SimpleWorker (one Tables and its cache across jobs) that holds each turn against this worker's lease
    from the moment it has it (lease.py), and whose heartbeat, the first thing of each wait for a job, tells
    ``outage.WORKER`` that Redis answers again."""

    leases: lease.Leases | None = None
    # RQ waits 1, 2, 4 … 60 s between its attempts to reach a lost Redis: after a failover of the queue's primary
    # (seconds) the worker took up to twice as long again to notice it was over. Every second instead (one line
    # says the loss: outage.RQ_RETRIES).
    max_connection_wait_time = 1.0

    def execute_job(self, job: Job, queue: Queue) -> None:
        """Run the job held against the lease. The hold is given up once RQ has recorded the job's end; when RQ could
        not (Redis lost under the job: RQ then quits its loop), it stays, and ``run_again_held`` runs the turn again
        once Redis answers (issue 47: such a turn held its client's one place until the sweep, ~20 s)."""
        leases = self.leases if job.id.startswith(lease.TURNS) else None
        if leases is not None:
            leases.hold(job.id)
        super().execute_job(job, queue)
        if leases is not None:
            leases.done(job.id)

    def heartbeat(self, *args: object, **kwargs: object) -> None:
        began = time.monotonic()
        super().heartbeat(*args, **kwargs)  # type: ignore[arg-type]
        outage.WORKER.reached(began)


def rq_worker(queue: Queue, where: redis_clients.QueueRedis, leases: lease.Leases) -> LeasedWorker:
    """A worker on ``queue`` that waits for jobs on a connection of its own, whose socket timeout is longer than
    the wait: with the queue's 5 s one, an idle worker logged `Timeout reading from socket` every few seconds."""
    worker = LeasedWorker([queue.name], connection=redis_clients.queue_client(where, wait_s=DEQUEUE_WAIT_S),
                          serializer=queue.serializer, worker_ttl=DEQUEUE_WAIT_S + 15)
    worker.leases = leases
    return worker


def sweep_forever(stop: threading.Event) -> None:
    """Sweep every SWEEP_EVERY_S in a thread of the worker itself, whatever the queue holds (the sweep job, which
    schedules its own next run, can be lost with a queue Redis that restarts empty), and at once when the worker
    reaches Redis again after losing it: then every game that has not moved since is looked at, not only those still
    for STALLED_AFTER_S, since what the queue forgot meanwhile (an enqueue refused while its primary was being failed
    over, the jobs the failover took back) would otherwise wait for a sweep that finds them still (issue 47)."""
    while True:
        back = outage.WORKER.back.wait(jobs.SWEEP_EVERY_S)
        if stop.is_set():
            return
        since = None
        if back:
            outage.WORKER.back.clear()
            since = datetime.fromtimestamp(outage.WORKER.back_at).astimezone()
        began = time.monotonic()
        try:
            jobs.sweep_once(stalled_before=since)
        except redis.RedisError as exc:
            outage.WORKER.lost(exc)
            continue
        except Exception:  # noqa: BLE001 - the rules service down: try again next round
            log.warning("sweep failed; trying again in %ss", jobs.SWEEP_EVERY_S, exc_info=True)
        outage.WORKER.reached(began)


def start_leases(scheduler: RqScheduler) -> lease.Leases:
    """This worker's lease, its publisher (which holds each move it publishes against it), and the thread that keeps
    the lease and runs again what dead workers held (lease.py): a turn goes back on the queue, a move to the
    publisher's set."""
    me = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
    leases = lease.Leases(scheduler.queue.connection, scheduler.queue.name, me)
    leases.beat()
    scheduler.gate.holder = leases
    publisher = start_publisher(scheduler.queue, leases)

    def take_over(held: str) -> None:
        if held.startswith(lease.MOVE):
            publisher.add(Move.decoded(held[len(lease.MOVE):].encode()))
        else:
            scheduler.enqueue_turn(held)

    threading.Thread(target=lease.keep, args=(leases, scheduler.queue, take_over, threading.Event()), name="lease",
                     daemon=True).start()
    return leases


def start_publisher(queue: Queue, leases: lease.Leases | None = None) -> Publisher:
    """The thread that publishes the moves this worker (or another) chose, each at its due time (pacing.py), with
    a Tables of its own (the job's is not shared between threads)."""
    own = bootstrap.build(Settings.from_env(), serves_clients=False).tables
    if leases is not None and isinstance(own.scheduler, RqScheduler):
        own.scheduler.gate.holder = leases  # the publisher hands places to the turns that follow its moves
    publisher = Publisher(queue.connection, f"{queue.name}:publish", lambda move: jobs.published(move, own), leases=leases)
    jobs.use_publisher(publisher)
    threading.Thread(target=publisher.run, args=(threading.Event(),), name="publisher", daemon=True).start()
    return publisher


def start_projections() -> None:
    """The projector and the matchmaker, each in a thread with a Service of its own (use_cases/projector.py,
    matchmaker.py; the matchmaker's round expires lapsed challenges too, challenges.py): every worker runs both;
    Redis keeps them apart (a consumer group, the seeks' claim script, the challenges' answer script)."""
    settings = Settings.from_env()
    if not settings.projections:
        return
    said = {"failed": failed_once, "reached": outage.WORKER.reached}
    service = bootstrap.build(settings, serves_clients=False)
    threading.Thread(target=service.projector.run, args=(threading.Event(),), kwargs=said, name="projector",
                     daemon=True).start()
    matching = bootstrap.build(settings, serves_clients=False)
    threading.Thread(target=matching.matchmaker.run, args=(threading.Event(),),
                     kwargs={**said, "also": matching.challenges.lapse_due}, name="matchmaker",
                     daemon=True).start()


def failed_once(exc: Exception) -> None:
    """A loop's failure: a lost Redis is said once for the worker (outage.py), anything else with its traceback."""
    if isinstance(exc, redis.RedisError):
        outage.WORKER.lost(exc)
    else:
        log.warning("%s failed; trying again", threading.current_thread().name, exc_info=exc)


def configure_process() -> None:
    """What the worker process sets before it works: its log lines, the GIL's switch interval, and one line per loss
    of Redis from RQ's retries (outage.py)."""
    logs.configure(("mythos", "rq"))  # a line per job is ours (jobs.py); RQ's own only at RQ_LOG_LEVEL
    logging.getLogger("rq.worker").addFilter(outage.RQ_RETRIES)
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def main() -> None:
    """Work the queue forever. A SimpleWorker keeps one Tables (and its state cache) across jobs."""
    configure_process()
    tables = jobs.worker_tables()
    assert isinstance(tables.scheduler, RqScheduler)  # bootstrap gives a worker RQ's scheduler
    queue = tables.scheduler.queue
    queue.enqueue_in(timedelta(seconds=1), jobs.sweep, job_id="sweep")
    threading.Thread(target=sweep_forever, args=(threading.Event(),), name="sweeper", daemon=True).start()
    leases, where = start_leases(tables.scheduler), Settings.from_env().queue_redis
    start_projections()
    while True:
        worker = rq_worker(queue, where, leases)
        try:
            worker.work(with_scheduler=False, logging_level=os.environ.get("RQ_LOG_LEVEL", "WARNING").upper())
        except redis.RedisError:
            log.warning("the worker lost Redis", exc_info=True)
        # RQ's work() quits on any error inside its loop (Redis restarting under a job is one): unless a stop
        # was asked for (SIGTERM, Ctrl-C), wait for Redis and work on with a new worker.
        if getattr(worker, "_shutdown_requested_date", True) is not None:
            return
        wait_for_redis(queue.connection)
        run_again_held(leases, tables.scheduler)


def run_again_held(leases: lease.Leases, scheduler: RqScheduler) -> None:
    """The turns this worker held when its RQ loop quit (Redis lost under them), back on the queue, where each still
    holds its client's place (running one again is safe: the idempotency key bound to its version)."""
    try:
        for turn in leases.mine():
            log.warning("turn %s was under way when the worker lost Redis; running it again", turn)
            scheduler.enqueue_turn(turn)
            leases.done(turn)
    except redis.RedisError as exc:  # lost again: the lease keeps them, the next return or the sweeper runs them
        outage.WORKER.lost(exc)


def wait_for_redis(connection: redis.Redis) -> None:
    while True:
        try:
            if connection.ping():
                return
        except redis.RedisError:
            pass
        time.sleep(0.5)


if __name__ == "__main__":
    main()
