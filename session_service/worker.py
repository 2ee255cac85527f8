"""The RQ worker: runs AI turns, turn timeouts and the sweeper, with RQ's scheduler for timers."""

from __future__ import annotations

import logging
import os
from datetime import timedelta

from rq import SimpleWorker

from session_service import jobs


def main() -> None:
    """Work the queue forever. A SimpleWorker keeps one Tables (and its state cache) across jobs."""
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"))
    tables = jobs.worker_tables()
    queue = tables.scheduler.queue
    queue.enqueue_in(timedelta(seconds=1), jobs.sweep, job_id="sweep")
    worker = SimpleWorker([queue], connection=queue.connection, serializer=queue.serializer)
    worker.work(with_scheduler=True, logging_level=os.environ.get("LOG_LEVEL", "INFO"))


if __name__ == "__main__":
    main()
