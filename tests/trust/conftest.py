"""Fixtures for the trust suites: the real stack, and private copies of it which these tests may break on purpose.

The suites that only talk to the real stack use the one the end-to-end suites share (the ``stack`` of
tests/conftest.py, one per test process: Redis, both services under gunicorn, a worker); the fault suites
start stacks of their own (``make_stack``, ``start``, ``finish``), each with its own Redis (always a private
redis-server with ``deploy/redis.conf``, so it can be killed and restarted), whose parts they kill and restart.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

import pytest
import redis

from deploy.stacks.dev import Stack, free_port
from session_service.storage import redis_clients
from shared.games import GAMES
from tests.trust.helpers import Api

# Every registered game, now and later: the suites parametrize over this and need no change for a new game.
GAME_IDS = sorted(GAMES)


def make_stack(tag: str, **env: str) -> Stack:
    """A stack of the fault suites' own, on a Redis of its own (no REDIS_URL: they kill and restart it)."""
    tmp = Path(tempfile.mkdtemp(prefix=f"mythos-{tag}-"))
    prefix = f"mt-{tag}-{uuid.uuid4().hex[:8]}"
    return Stack(
        port=free_port(), rules_port=free_port(), redis_url=None,
        redis_port=free_port(), data_dir=tmp, key_prefix=prefix, queue=prefix, log_dir=tmp,
        extra_env={"SESSION_WORKERS": "2", "RULES_WORKERS": "2", "RATE_LIMIT_PER_MINUTE": "1000000",
                   "SSE_KEEPALIVE_S": "1", **env},
    )


def start(live: Stack) -> Stack:
    try:
        live.start()
    except RuntimeError:
        live.stop()
        for log in Path(live.log_dir).glob("*.log"):
            print(log.name, log.read_text()[-3000:])
        raise
    return live


def finish(live: Stack) -> None:
    for name in ("worker", "session", "rules", "redis"):
        live.kill(name)  # SIGKILL: nothing of a test stack needs a graceful end
    shutil.rmtree(live.data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def api(stack) -> Api:
    return Api(stack.url)


@pytest.fixture(scope="session")
def trust_redis(stack) -> redis.Redis:
    return redis_clients.connect(stack.effective_redis_url)
