"""Every Redis client of the code base is built here: the session service, the worker, the tests and the bench.

One place so that each client has deliberate timeouts (a Redis that stops answering costs a request seconds,
not a thread for ever) and so that a cluster URL works everywhere:

- ``redis://host:port/db`` (or ``rediss://``): one Redis server;
- ``redis+cluster://host:port[,host:port…]`` (or ``rediss+cluster://``): a Redis Cluster, reached through any
  of the listed nodes; ``REDIS_CLUSTER=1`` makes a plain ``redis://host:port`` URL mean the same.

The job queue (RQ) cannot run on a cluster (its enqueue is not atomic there and its workers fail), so
``queue_client`` refuses a cluster URL, or a plain URL that reaches a cluster node, with a message that says so.
Every client of the queue's Redis (the worker's wait for jobs and its other loops, the session service's enqueues,
the leases, the gate) is made by ``queue_client``, from one ``QueueRedis``: a plain Redis, or the primary its
Sentinels name (``QUEUE_SENTINELS``), found again after a failover (issue 47).
"""

from __future__ import annotations

import os
import select
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import redis
from redis._parsers import _HiredisParser
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.connection import parse_url
from redis.retry import Retry
from redis.sentinel import Sentinel

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
CONNECT_TIMEOUT_S = 2.0
READ_TIMEOUT_S = 5.0  # a command that takes longer has met a Redis in trouble: answer 503 rather than wait


try:  # a poll that never waits needs no event loop: the original one, even where gevent patched the module
    from gevent import monkey  # type: ignore[import-untyped]

    _poll = monkey.get_original("select", "poll")
except ImportError:  # pragma: no cover - gevent is a dependency
    _poll = select.poll


class Connection(redis.Connection):
    """redis-py's connection, with the check its pool makes of each connection it hands out (a reply left unread? the
    server gone?) answered by a plain zero-timeout poll of the socket when there is plainly nothing: under gevent
    redis-py's own poll sets up a watcher on the hub for each check, about a twentieth of the session service's CPU
    per command (docs/performance.md, issue 32). Anything else is redis-py's own check."""

    def can_read(self, timeout: float = 0) -> bool:
        sock, parser = self._sock, self._parser
        if timeout or sock is None or not isinstance(parser, _HiredisParser) or parser._reader is None:
            return bool(super().can_read(timeout))
        poller = _poll()
        poller.register(sock.fileno(), select.POLLIN)
        if not parser._reader.has_data() and not poller.poll(0):
            return False
        return bool(super().can_read(timeout))


class QueueOnCluster(RuntimeError):
    """RQ was pointed at a Redis Cluster."""


def is_cluster(url: str, env: Mapping[str, str] = os.environ) -> bool:
    return urlsplit(url).scheme in CLUSTER_SCHEMES or env.get("REDIS_CLUSTER") == "1"


def connect(url: str, *, read_timeout_s: float | None = READ_TIMEOUT_S, pool_size: int | None = None,
            env: Mapping[str, str] = os.environ) -> Any:
    """A client for ``url``: a ``redis.Redis``, or a ``RedisCluster`` when the URL names a cluster.

    ``read_timeout_s`` bounds each reply (nothing blocks longer: live streams wait on the hub's pub/sub read,
    which the keep-alive period bounds). With ``pool_size`` the pool is bounded and blocking: under the gevent
    worker hundreds of requests may want Redis at once, and they take turns on that many connections rather
    than each opening its own (redis-py's default pool raises past 100); waiting for one is bounded too."""
    common: dict[str, Any] = {"socket_timeout": read_timeout_s, "socket_connect_timeout": CONNECT_TIMEOUT_S}
    if not is_cluster(url, env):
        # No silent re-sending of a command whose reply was lost: the store decides what a lost reply means.
        options = {"retry": Retry(NoBackoff(), 0), "health_check_interval": 15, **common}
        if urlsplit(url).scheme == "redis":
            options["connection_class"] = Connection
        if pool_size is None:
            return redis.Redis.from_url(url, **options)
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=pool_size, timeout=read_timeout_s, **options)
        return redis.Redis(connection_pool=pool)
    parts = urlsplit(url)
    userinfo, _, hosts = parts.netloc.rpartition("@")
    username, _, password = userinfo.partition(":")
    nodes = []
    for host_port in hosts.split(","):
        host, _, port = host_port.strip().rpartition(":")
        nodes.append(ClusterNode(host or host_port, int(port or 6379)))
    return RedisCluster(
        startup_nodes=nodes,
        username=unquote(username) or None,
        password=unquote(password) or None,
        ssl=CLUSTER_SCHEMES.get(parts.scheme, parts.scheme) == "rediss",
        require_full_coverage=False,  # a primary being failed over must not stop the other slots
        retry=Retry(NoBackoff(), 3),  # re-routes after MOVED or a lost node; the store handles what is left
        **common,
    )


@dataclass(frozen=True)
class QueueRedis:
    """Where the job queue's Redis is: the plain Redis of ``url`` or, with ``sentinels`` (``host:port,…``), the primary
    the Sentinels know as ``master``, reached with ``url``'s credentials and database (its host is then unused)."""

    url: str
    sentinels: str = ""
    master: str = "mythos-queue"

    def sentinel_addresses(self) -> list[tuple[str, int]]:
        found = []
        for host_port in self.sentinels.split(","):
            if host_port.strip():
                host, _, port = host_port.strip().rpartition(":")
                found.append((host, int(port)))
        return found


# A queue command that meets a lost connection is sent again a few times within about a second: across a Sentinel
# failover's switch, the next connection asks the Sentinels for the primary again. (RQ's enqueues and the leases'
# scripts are safe to repeat: job ids are deterministic, the claims compare and set.)
QUEUE_RETRY = Retry(ExponentialBackoff(cap=0.5, base=0.05), 4)


def queue_client(where: QueueRedis | str, wait_s: float | None = None) -> redis.Redis:
    """A plain Redis for RQ, through its Sentinels when it has them; a cluster is refused, before any job is
    enqueued on it. With ``wait_s``, a client for one blocking wait of up to that long (an RQ worker's wait for a job):
    its reads may take the wait plus a margin, and only its own connections do, so the worker's other clients keep
    their short timeouts; TCP keep-alive finds a peer gone without a word (a partition) within the wait's own bound."""
    where = QueueRedis(where) if isinstance(where, str) else where
    if urlsplit(where.url).scheme in CLUSTER_SCHEMES:
        raise QueueOnCluster(f"RQ_REDIS_URL (which defaults to REDIS_URL) names a Redis Cluster ({where.url}); RQ "
                             "needs a plain Redis: set RQ_REDIS_URL to a redis://host:port/db of its own")
    options: dict[str, Any] = {"socket_connect_timeout": CONNECT_TIMEOUT_S}
    if wait_s is None:
        options.update(socket_timeout=READ_TIMEOUT_S, health_check_interval=15, retry=QUEUE_RETRY)
    else:  # RQ retries its wait itself, every second while Redis is away (worker/main.py)
        options.update(socket_timeout=wait_s + 10, socket_keepalive=True, health_check_interval=0,
                       retry=Retry(NoBackoff(), 0))
    if where.sentinels:
        return _through_sentinels(where, options)
    client = redis.Redis.from_url(where.url, **options)
    if wait_s is not None:
        return client
    try:
        cluster_enabled = client.info("cluster").get("cluster_enabled") == 1
    except redis.ConnectionError:
        return client  # not up yet: the worker waits for it, the session service reports it in /readyz
    if cluster_enabled:
        raise QueueOnCluster(f"RQ_REDIS_URL ({where.url}) reaches a Redis Cluster node; RQ needs a plain Redis: "
                             "set RQ_REDIS_URL to a redis://host:port/db of its own")
    return client


def _through_sentinels(where: QueueRedis, options: dict[str, Any]) -> redis.Redis:
    """The primary the Sentinels name: each new connection asks them where it is (redis-py's SentinelConnectionPool),
    so after a failover the next one reaches the replica they promoted; a connection to a primary demoted meanwhile
    is dropped at its first refused write. The Sentinels are asked with the same credentials."""
    given = parse_url(where.url) if where.url else {}
    credentials = {k: given[k] for k in ("username", "password") if k in given}
    sentinels = Sentinel(where.sentinel_addresses(), sentinel_kwargs={
        "socket_timeout": CONNECT_TIMEOUT_S, "socket_connect_timeout": CONNECT_TIMEOUT_S, **credentials})
    tls = {"ssl": True} if urlsplit(where.url).scheme == "rediss" else {}
    primary: redis.Redis = sentinels.master_for(where.master, db=given.get("db", 0), **credentials, **tls, **options)
    return primary


def ping(client: Any) -> bool:
    """Can this client reach its Redis? For a cluster: any one node (every session process sees the same
    cluster, so a primary being failed over is no reason to take this one out of the balancer)."""
    if isinstance(client, RedisCluster):
        return bool(client.ping(target_nodes=RedisCluster.RANDOM))
    return bool(client.ping())
