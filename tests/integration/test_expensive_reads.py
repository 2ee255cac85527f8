"""Expensive reads are throttled (issue 33, item 8), on a real Redis.

Each ``/audit`` of a finished game re-decided the whole game (30 ms of CPU for 568 events; 8 threads took both
cores), and one client pulled 193 MB in 10 s by resuming a finished game's stream from 0 again and again. Now an
ended game's re-decision is made once and kept (the chain is still checked on every call, so a log changed since
is still caught), and every read of a game's log (``/events`` pages, a stream's replay, ``/state?at``, ``/audit``,
``/export``) is paid from its client's ``LOG_READS_PER_CLIENT_PER_MINUTE``: past it, 429 with ``Retry-After``.
"""

from __future__ import annotations

import orjson
import pytest

from shared import audit
from session_service.use_cases import quotas
from tests.support.stack import make_session_app
from tests.integration.test_audit_tamper import rewrite
from tests.integration.test_quotas import Clock
from tests.support.toy import GAME

BOTS = [{"name": "Ada", "ai": "random"}, {"name": "Bo", "ai": "random"}]
ADDRESS = {"REMOTE_ADDR": "198.51.100.7"}
OTHER = {"REMOTE_ADDR": "198.51.100.8"}


def finished(redis_client, prefix, **config):
    app, scheduler = make_session_app(redis_client, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, **config)
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": BOTS}).json
    scheduler.run_ai()
    resource = client.get(f"/v1/games/{game['id']}").json
    assert resource["status"] == "finished"
    return client, app.extensions["tables"], resource


def test_a_finished_games_audit_is_decided_once_and_a_log_changed_since_is_still_caught(real_redis, prefix,
                                                                                           monkeypatch):
    client, tables, game = finished(real_redis, prefix)
    calls = []
    real = audit.redecide
    monkeypatch.setattr(audit, "redecide", lambda *args: calls.append(1) or real(*args))
    reports = [client.get(f"/v1/games/{game['id']}/audit").json for _ in range(5)]
    assert len(calls) == 1
    assert all(r == reports[0] for r in reports) and reports[0]["replay_ok"] and reports[0]["chain_ok"]
    # Someone rewrites an event in Redis after the first audit: the kept verdict is not served for that log.
    rewrite(tables, game["id"], lambda records: [{**r, "at": "2000-01-01T00:00:00.000Z"} if r["v"] == 2 else r
                                                 for r in records])
    tampered = client.get(f"/v1/games/{game['id']}/audit").json
    assert tampered["chain_ok"] is False
    assert tampered["first_divergence"] is not None


def test_an_active_games_audit_checks_the_chain_and_decides_nothing(real_redis, prefix, monkeypatch):
    app, _ = make_session_app(real_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    monkeypatch.setattr(audit, "redecide", lambda *args: pytest.fail("an active game is re-decided by nobody"))
    report = client.get(f"/v1/games/{game['id']}/audit").json
    assert report["chain_ok"] and report["replay_ok"] is None
    assert not real_redis.exists(app.extensions["tables"].store.key(game["id"], "audit"))


def replay(client, game, after=0, environ=ADDRESS):
    return client.get(f"/v1/games/{game['id']}/events/stream?after={after}", headers={"Accept": "application/x-ndjson"},
                      environ_base=environ)


def test_resuming_a_finished_games_stream_from_zero_again_and_again_is_refused_past_the_clients_budget(real_redis, prefix):
    client, tables, game = finished(real_redis, prefix)
    events = game["version"]
    tables.quotas.limits = quotas.Limits(log_reads_per_minute=3 * events)
    tables.quotas.clock = clock = Clock(1_800_000_000.0 + 15)  # 45 s before the minute turns
    served = []
    for _ in range(5):
        reply = replay(client, game)
        served.append(reply.status_code)
        if reply.status_code == 200:
            lines = [orjson.loads(line) for line in reply.data.splitlines() if line.strip()]
            assert [m["type"] for m in lines].count("event") == events and lines[-1]["type"] == "end"
    assert served == [200, 200, 200, 429, 429]
    refused = replay(client, game)
    assert refused.json["error"]["code"] == "request/rate_limited"
    assert refused.json["error"]["details"] == {"quota": "log_reads_per_minute", "limit": 3 * events}
    assert 0 < int(refused.headers["Retry-After"]) <= 45
    assert replay(client, game, environ=OTHER).status_code == 200  # the budget is the client's
    assert replay(client, game, after=events).status_code == 200  # a resume at the head replays nothing: costs nothing
    clock.now += 45
    assert replay(client, game).status_code == 200  # the minute turned


@pytest.mark.parametrize("path", ["/events?after=0&limit=1000", "/state?at=2", "/audit", "/export",
                                  "/events/stream?after=0"])
def test_every_read_of_a_games_log_is_paid_from_the_same_budget(real_redis, prefix, path):
    client, tables, game = finished(real_redis, prefix)
    tables.quotas.limits = quotas.Limits(log_reads_per_minute=1)
    tables.quotas.clock = Clock()
    url = f"/v1/games/{game['id']}{path}"
    assert client.get(url, environ_base=ADDRESS).status_code == 200  # the read that crosses the budget is served
    assert client.get(url, environ_base=ADDRESS).status_code == 429
    assert client.get(f"/v1/games/{game['id']}/state", environ_base=ADDRESS).status_code == 200  # the head: no log read
    assert client.get(f"/v1/games/{game['id']}", environ_base=ADDRESS).status_code == 200
