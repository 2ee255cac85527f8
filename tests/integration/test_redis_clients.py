"""One place builds every Redis client: a cluster URL gives a cluster client, every client has timeouts, and the
job queue refuses a cluster (RQ cannot run on one) with a message that says what to do."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

from session_service.storage import redis_clients
from session_service.http.app import create_app


def test_a_cluster_url_names_several_nodes_any_of_which_will_do(redis_cluster):
    assert redis_clients.is_cluster("redis+cluster://h:1,h:2", env={})
    assert redis_clients.is_cluster("redis://h:1", env={"REDIS_CLUSTER": "1"})
    assert not redis_clients.is_cluster("redis://h:1/0", env={})
    dead = 1  # nothing listens on port 1: the client goes on to the next node of the URL
    client = redis_clients.connect(f"redis+cluster://127.0.0.1:{dead},127.0.0.1:{redis_cluster.ports[1]}", env={})
    assert len(client.get_primaries()) == 3


def test_the_clients_have_deliberate_timeouts(redis_url, redis_cluster):
    plain = redis_clients.connect(redis_url).connection_pool.connection_kwargs
    assert (plain["socket_timeout"], plain["socket_connect_timeout"]) == (redis_clients.READ_TIMEOUT_S, redis_clients.CONNECT_TIMEOUT_S)
    reader = redis_clients.connect(redis_url, read_timeout_s=25).connection_pool.connection_kwargs
    assert reader["socket_timeout"] == 25
    cluster = redis_clients.connect(redis_cluster.url)
    assert isinstance(cluster, RedisCluster) and cluster.ping(target_nodes=RedisCluster.ALL_NODES)
    node = cluster.get_redis_connection(cluster.get_primaries()[0]).connection_pool.connection_kwargs
    assert node["socket_timeout"] == redis_clients.READ_TIMEOUT_S


def test_a_plain_url_with_the_cluster_switch_reaches_the_cluster(redis_cluster):
    client = redis_clients.connect(f"redis://127.0.0.1:{redis_cluster.ports[0]}", env={"REDIS_CLUSTER": "1"})
    assert isinstance(client, RedisCluster) and len(client.get_primaries()) == 3


def test_the_queue_refuses_a_cluster_by_url_or_by_what_it_reaches(redis_cluster, redis_url):
    with pytest.raises(redis_clients.QueueOnCluster, match="RQ_REDIS_URL"):
        redis_clients.queue_client(redis_cluster.url)
    with pytest.raises(redis_clients.QueueOnCluster, match="reaches a Redis Cluster node"):
        redis_clients.queue_client(f"redis://127.0.0.1:{redis_cluster.ports[0]}/0")
    assert isinstance(redis_clients.queue_client(redis_url), redis.Redis)


def test_the_session_service_refuses_to_start_with_its_queue_on_a_cluster(redis_cluster, prefix):
    with pytest.raises(redis_clients.QueueOnCluster):
        create_app({"REDIS_URL": redis_cluster.url, "RQ_REDIS_URL": redis_cluster.url, "KEY_PREFIX": prefix})


def test_a_connection_still_tells_an_unread_reply_or_a_closed_socket(redis_url):
    """The check redis-py makes of each connection it hands out is answered by a plain poll when there is nothing
    to read (issue 32); with a reply left unread, or the server gone, it answers as redis-py's own check does."""
    import time

    pool = redis_clients.connect(redis_url, pool_size=1).connection_pool
    connection = pool.get_connection()
    assert isinstance(connection, redis_clients.Connection) and connection.can_read() is False
    connection.send_command("PING")  # its reply is not read yet
    deadline = time.monotonic() + 5
    while not connection.can_read():
        assert time.monotonic() < deadline, "the PONG never came"
        time.sleep(0.01)
    assert connection.read_response() in (b"PONG", "PONG") and connection.can_read() is False
    connection.send_command("CLIENT", "KILL", "SKIPME", "no")  # the server closes this very connection
    connection.read_response()
    deadline = time.monotonic() + 5
    while True:
        try:
            if connection.can_read():
                break
        except redis.ConnectionError:
            break  # redis-py's own check says so too
        assert time.monotonic() < deadline, "the closed connection still looked clean"
        time.sleep(0.01)
    pool.release(connection)


def test_the_queue_through_its_sentinels_takes_the_url_s_credentials_and_database_and_its_own_timeouts():
    """QUEUE_SENTINELS (issue 47): each connection asks the Sentinels where the primary is; RQ_REDIS_URL then gives
    only the password and the database. Nothing is reached here: the pool connects on first use."""
    from redis.sentinel import SentinelConnectionPool

    where = redis_clients.QueueRedis("redis://:s3cret@unused:1/3", "127.0.0.1:26379, 127.0.0.1:26380", "mythos-queue")
    assert where.sentinel_addresses() == [("127.0.0.1", 26379), ("127.0.0.1", 26380)]
    pool = redis_clients.queue_client(where).connection_pool
    assert isinstance(pool, SentinelConnectionPool) and pool.service_name == "mythos-queue"
    kwargs = pool.connection_kwargs
    assert (kwargs["db"], kwargs["password"], kwargs["socket_timeout"]) == (3, "s3cret", redis_clients.READ_TIMEOUT_S)
    assert pool.sentinel_manager.sentinels[0].connection_pool.connection_kwargs["password"] == "s3cret"
    waiting = redis_clients.queue_client(where, wait_s=10).connection_pool.connection_kwargs
    assert waiting["socket_timeout"] == 20 and waiting["socket_keepalive"]


def test_redis_timeout_s_bounds_the_services_replies_and_its_pools_wait(redis_url, prefix):
    from session_service.bootstrap import build_tables
    from session_service.config import Settings

    def client(**env: str):
        settings = Settings.from_config({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, **env})
        return build_tables(settings, {"SCHEDULER": None}, decides=False).store.redis

    default = client()
    assert default.connection_pool.connection_kwargs["socket_timeout"] == redis_clients.READ_TIMEOUT_S
    given = client(REDIS_TIMEOUT_S="1.5")
    assert given.connection_pool.connection_kwargs["socket_timeout"] == 1.5 and given.connection_pool.timeout == 1.5
