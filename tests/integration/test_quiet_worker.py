"""An idle worker logs nothing, and a Redis lost logs one line and one when it is back (issue 47: an idle worker logged
`could not connect to Redis instance: Timeout reading from socket` every few seconds, its socket timeout, 5 s, shorter
than RQ's wait for a job; a Redis away logged a line a second per thread of the worker)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from rq import Worker
from rq.job import Job

from session_service.scheduler import make_queue
from session_service.storage import redis_clients
from tests.support.redis_server import PrivateRedis
from tests.support.stack import TEST_HOP_SECRET


def lines_of(log: Path) -> list[str]:
    """The log's lines that say something: a warning or an error, with the tracebacks' first lines."""
    return [line for line in log.read_text(errors="replace").splitlines()
            if "[WARNING]" in line or "[ERROR]" in line or line.startswith("Traceback")]


def until(probe, what: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not probe():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_an_idle_worker_is_quiet_and_a_lost_redis_is_one_line_then_one_when_back():
    redis_server = PrivateRedis().start()
    name = f"mt-quiet-{uuid.uuid4().hex[:8]}"
    log = Path(tempfile.mkdtemp(prefix="mythos-quiet-")) / "worker.log"
    env = {**os.environ, "REDIS_URL": redis_server.url, "RQ_REDIS_URL": redis_server.url, "KEY_PREFIX": name,
           "QUEUE_NAME": name, "HOP_SECRET": TEST_HOP_SECRET, "PYTHONUNBUFFERED": "1"}
    with open(log, "ab") as out:
        worker = subprocess.Popen([sys.executable, "-m", "session_service.worker.main"], env=env, stdout=out,
                                  stderr=subprocess.STDOUT)
    try:
        queue = make_queue(redis_clients.connect(redis_server.url), name)
        until(lambda: Worker.all(queue=queue), "the worker to start")
        time.sleep(6.5)  # longer than the 5 s read timeout the worker's wait for a job used to have
        assert lines_of(log) == []

        redis_server.stop(kill=True)
        until(lambda: any("Redis" in line for line in lines_of(log)), "the worker to notice")
        time.sleep(4)  # RQ retries after 1 s and 2 s, the publisher and the lease thread every second
        lost = lines_of(log)
        assert len([line for line in lost if "[WARNING]" in line or "[ERROR]" in line]) == 1, lost

        redis_server.start()  # the same port
        until(lambda: any("reached Redis again" in line for line in lines_of(log)), "the worker to say it is back")
        job = queue.enqueue("os.getpid")
        until(lambda: Job.fetch(job.id, connection=queue.connection, serializer=queue.serializer).is_finished,
              "the worker to run a job again")
        said = lines_of(log)
        assert len(said) == 2 and "reached Redis again" in said[1], said
    finally:
        worker.kill()
        worker.wait(10)
        redis_server.cleanup()
