"""The RQ worker: runs AI turns, turn timeouts and the sweeper, with RQ's scheduler for timers, and publishes the
moves chosen at their due time (pacing.py) from a thread of its own."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from datetime import timedelta

import redis
from rq import Queue, SimpleWorker

from shared.wire import logs
from session_service import bootstrap
from session_service.config import Settings
from session_service.scheduler import RqScheduler
from session_service.worker import jobs
from session_service.worker.pacing import Publisher


log = logging.getLogger("mythos.worker")
# How long the AI's search (pure Python, on the main thread) holds the GIL before the publisher's thread may take it.
# At Python's 5 ms each of a publication's ~30 round trips to Redis and the rules waited up to 5 ms for the search:
# one client's `hard` tables delayed another's moves from 0.16 to 0.60 s (issue 41, L5); 0.5 ms cuts that tenfold
# (30 round trips beside a busy thread: 553 → 103 ms) for a search that is billed in CPU time anyway.
SWITCH_INTERVAL_S = 0.0005


def configure_process() -> None:
    """What the worker process sets before it works: its log lines, and the GIL's switch interval."""
    logs.configure(("mythos", "rq"))  # a line per job is ours (jobs.py); RQ's own only at RQ_LOG_LEVEL
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def sweep_forever(stop: threading.Event) -> None:
    """Sweep every SWEEP_EVERY_S in a thread of the worker itself. RQ's scheduler, which runs timed jobs, is held
    up for minutes by the lock of a worker that was killed (the lock lives 60 s, a new worker asks again every
    120 s); turns left pending by that very worker must not wait for it."""
    while not stop.wait(jobs.SWEEP_EVERY_S):
        try:
            jobs.sweep_once()
        except Exception:  # noqa: BLE001 - Redis restarting, the rules service down: try again next round
            log.warning("sweep failed; trying again in %ss", jobs.SWEEP_EVERY_S, exc_info=True)


def start_publisher(queue: Queue) -> Publisher:
    """The thread that publishes the moves this worker (or another) chose, each at its due time (pacing.py), with
    a Tables of its own (the job's is not shared between threads)."""
    own = bootstrap.build(Settings.from_env(), serves_clients=False).tables
    publisher = Publisher(queue.connection, f"{queue.name}:publish", lambda move: jobs.published(move, own))
    jobs.use_publisher(publisher)
    threading.Thread(target=publisher.run, args=(threading.Event(),), name="publisher", daemon=True).start()
    return publisher


def start_projections() -> None:
    """The projector and the matchmaker, each in a thread with a Service of its own (use_cases/projector.py,
    matchmaker.py): every worker runs both; Redis keeps them apart (a consumer group, the seeks' claim script)."""
    settings = Settings.from_env()
    if not settings.projections:
        return
    service = bootstrap.build(settings, serves_clients=False)
    threading.Thread(target=service.projector.run, args=(threading.Event(),), name="projector", daemon=True).start()
    matching = bootstrap.build(settings, serves_clients=False)
    threading.Thread(target=matching.matchmaker.run, args=(threading.Event(),), name="matchmaker", daemon=True).start()


def main() -> None:
    """Work the queue forever. A SimpleWorker keeps one Tables (and its state cache) across jobs."""
    configure_process()
    tables = jobs.worker_tables()
    assert isinstance(tables.scheduler, RqScheduler)  # bootstrap gives a worker RQ's scheduler
    queue = tables.scheduler.queue
    queue.enqueue_in(timedelta(seconds=1), jobs.sweep, job_id="sweep")
    threading.Thread(target=sweep_forever, args=(threading.Event(),), name="sweeper", daemon=True).start()
    start_publisher(queue)
    start_projections()
    while True:
        worker = SimpleWorker([queue], connection=queue.connection, serializer=queue.serializer)
        try:
            worker.work(with_scheduler=True, logging_level=os.environ.get("RQ_LOG_LEVEL", "WARNING").upper())
        except redis.RedisError:
            log.warning("the worker lost Redis", exc_info=True)
        # RQ's work() quits on any error inside its loop (Redis restarting under a job is one): unless a stop
        # was asked for (SIGTERM, Ctrl-C), wait for Redis and work on with a new worker.
        if getattr(worker, "_shutdown_requested_date", True) is not None:
            return
        wait_for_redis(queue.connection)


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
