"""Redis at its ``maxmemory`` with ``noeviction`` (deploy/redis.conf): every write is refused as a whole, the API
answers 503 ``service/unavailable`` with ``Retry-After`` and nothing is written (the append script is refused at
its first write, so no half batch), reads go on, and writes resume once there is room (retention, more memory)."""

from __future__ import annotations

import pytest

from session_service.storage import redis_clients
from tests.support.redis_server import PrivateRedis
from tests.support.stack import make_session_app
from tests.support.toy import GAME

HUMANS = [{"name": "Ada"}, {"name": "Bo"}]


@pytest.fixture
def full_redis():
    server = PrivateRedis(appendonly=False).start()  # its own server: the limit must not touch other tests'
    client = redis_clients.connect(server.url)
    client.config_set("maxmemory-policy", "noeviction")
    yield client
    client.close()
    server.cleanup()


def snapshot(client) -> dict:
    """Every key with its content (not DUMP: a read may rehash a large hash and reorder its serialised form)."""
    read = {"hash": client.hgetall, "zset": lambda k: client.zrange(k, 0, -1, withscores=True), "stream": client.xrange,
            "set": client.smembers, "string": client.get, "list": lambda k: client.lrange(k, 0, -1)}
    return {key: read[client.type(key).decode()](key) for key in sorted(client.scan_iter(count=1000))}


@pytest.mark.parametrize("quotas", [False, True])
def test_at_maxmemory_writes_are_refused_whole_and_reads_go_on(full_redis, prefix, quotas):
    limits = {"OPEN_TABLES_PER_CLIENT": 20, "TABLES_PER_CLIENT_PER_HOUR": 100} if quotas else {}
    app, _ = make_session_app(full_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, **limits)
    http = app.test_client()
    game = http.post("/v1/games", json={"game": "toy", "seats": HUMANS}).json
    ada = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    full_redis.config_set("maxmemory", max(1, int(full_redis.info("memory")["used_memory"]) - 100_000))
    before = snapshot(full_redis)
    refused = [http.post("/v1/games", json={"game": "toy", "seats": HUMANS}),
               http.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=ada)]
    for reply in refused:
        assert reply.status_code == 503, reply.json
        assert reply.json["error"]["code"] == "service/unavailable"
        assert reply.headers.get("Retry-After")
    assert snapshot(full_redis) == before
    assert http.get(f"/v1/games/{game['id']}/state", headers=ada).status_code == 200
    full_redis.config_set("maxmemory", 0)
    assert http.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=ada).status_code == 200
