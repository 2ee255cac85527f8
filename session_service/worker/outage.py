"""One line when the worker loses Redis and one when it reaches it again: each of its loops (RQ's wait for jobs, the
publisher, the lease thread, the sweeper) retries every second or so while Redis is away, and a line a retry, in
each loop, said nothing the first had not (issue 47: an idle worker's log was a wall of them)."""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("mythos.worker")


class Outage:
    """The state of one loop's reach of Redis: ``lost`` says it once per outage, ``reached`` ends it."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.lost_at: float | None = None
        # Set when an outage ends, with the moment (epoch seconds): the sweeper then looks at once for what the
        # queue forgot meanwhile (worker/main.py, sweep_forever).
        self.back = threading.Event()
        self.back_at = 0.0

    def lost(self, error: BaseException | None = None) -> bool:
        """Note a failed attempt; True (and a warning) only for the first of an outage."""
        if self.lost_at is not None:
            return False
        self.lost_at = time.monotonic()
        if error is not None:
            log.warning("%s lost Redis (%s: %s); retrying until it answers", self.what, type(error).__name__, error)
        return True

    def reached(self, began: float | None = None) -> None:
        """An attempt worked. ``began``: when it started (``time.monotonic()``): one that began before the loss was
        noted (a reply already on its way when Redis went) says nothing of Redis now, and ends nothing."""
        if self.lost_at is not None and (began is None or began > self.lost_at):
            log.warning("%s reached Redis again after %.1f s", self.what, time.monotonic() - self.lost_at)
            self.lost_at = None
            self.back_at = time.time()
            self.back.set()


class OneLinePerLoss(logging.Filter):
    """For RQ's own logger: RQ logs every retry of a lost Redis at ERROR (1, 2, 4 … 60 s apart); the first is let
    through, the rest are dropped until ``outage.reached()``."""

    LOST = "could not connect to Redis"  # the start of RQ's line for each retry (rq/worker/base.py)

    def __init__(self, outage: Outage) -> None:
        super().__init__()
        self.outage = outage

    def filter(self, record: logging.LogRecord) -> bool:
        return self.LOST not in record.getMessage() or self.outage.lost()


WORKER = Outage("the worker")
"""The worker process's one view of its Redis, shared by its loops: the first to fail says so, the first to reach
Redis again says that."""
RQ_RETRIES = OneLinePerLoss(WORKER)
"""The filter on RQ's logger (one object, so adding it again adds nothing)."""
