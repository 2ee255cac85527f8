"""Quotas per client on tables and AI work (issue 16: one cheap request bought an all-AI table's 600–700 events),
on a real Redis: a table past a quota is 429 ``request/rate_limited`` with ``Retry-After`` and writes nothing; the
worker plays no AI move past its client's hourly allowance, and plays on once the hour turns. On a real Redis Cluster
too: a client's counters share one slot, so one script checks and counts them."""

from __future__ import annotations

import pytest

from session_service.worker import jobs

from session_service.use_cases import quotas
from tests.support.stack import make_session_app
from tests.support.toy import GAME

HUMANS = [{"name": "Ada"}, {"name": "Bo"}]
BOTS = [{"name": "Ada", "ai": "random"}, {"name": "Bo", "ai": "random"}]
OFF = {"OPEN_TABLES_PER_CLIENT": 0, "TABLES_PER_CLIENT_PER_HOUR": 0, "AI_TABLES_PER_CLIENT_PER_HOUR": 0,
       "AI_CPU_SECONDS_PER_CLIENT_PER_HOUR": 0}


@pytest.fixture(params=["redis", "cluster"])
def redis_client(request):
    return request.getfixturevalue({"redis": "real_redis", "cluster": "cluster_redis"}[request.param])


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def stack(redis_client, prefix, **limits):
    app, scheduler = make_session_app(redis_client, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, **{**OFF, **limits})
    clock = Clock()
    app.extensions["tables"].quotas.clock = clock
    return app.test_client(), scheduler, clock


def open_table(client, seats=HUMANS, address="198.51.100.7", **headers):
    return client.post("/v1/games", json={"game": "toy", "seats": seats}, headers=headers, environ_base={"REMOTE_ADDR": address})


def stored(redis_client, prefix) -> dict[str, object]:
    """Every key of the test's prefix but the quota counters, with its content: what a refusal must not change."""
    found = {}
    for key in sorted(redis_client.scan_iter(match=f"{prefix}:*", count=1000)):
        kind = redis_client.type(key).decode()
        if b":quota:" in key:
            continue
        found[key] = {"hash": redis_client.hgetall, "zset": lambda k: redis_client.zrange(k, 0, -1, withscores=True),
                      "stream": redis_client.xrange, "set": redis_client.smembers, "string": redis_client.get}[kind](key)
    return found


def assert_refused(reply, quota: str, limit: int, max_retry_s: int) -> None:
    assert reply.status_code == 429, reply.json
    assert reply.json["error"]["code"] == "request/rate_limited"
    assert reply.json["error"]["details"] == {"quota": quota, "limit": limit}
    assert 0 < int(reply.headers["Retry-After"]) <= max_retry_s


def test_open_tables_past_the_quota_are_refused_and_write_nothing_until_one_ends(redis_client, prefix):
    client, scheduler, _ = stack(redis_client, prefix, OPEN_TABLES_PER_CLIENT=2)
    assert open_table(client).status_code == 201
    assert open_table(client, BOTS).status_code == 201
    before = stored(redis_client, prefix)
    refused = open_table(client)
    assert_refused(refused, "open_tables", 2, quotas.OPEN_RETRY_S)
    assert stored(redis_client, prefix) == before  # nothing written: no game, no index entry, no active mark
    assert open_table(client, address="198.51.100.8").status_code == 201  # the quota is per client
    # A forged X-Forwarded-For is no other client while no proxy is trusted.
    assert open_table(client, **{"X-Forwarded-For": "203.0.113.9"}).status_code == 429
    scheduler.run_ai()  # the all-AI table plays to its end: one table of the client's is over
    assert open_table(client).status_code == 201
    assert open_table(client).status_code == 429


def test_tables_an_hour_past_the_quota_are_refused_until_the_hour_turns(redis_client, prefix):
    client, _, clock = stack(redis_client, prefix, TABLES_PER_CLIENT_PER_HOUR=3)
    clock.now = 1_800_000_000.0 + 3000  # 600 s before an hour turns
    bad = client.post("/v1/games", json={"game": "no-such-game", "seats": HUMANS}, environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert bad.status_code == 422  # refused for another reason: counts nothing
    assert [open_table(client).status_code for _ in range(3)] == [201, 201, 201]
    assert_refused(open_table(client), "tables_per_hour", 3, 600)
    clock.now += 600
    assert open_table(client).status_code == 201


def test_all_ai_tables_have_a_quota_of_their_own(redis_client, prefix):
    client, _, _ = stack(redis_client, prefix, AI_TABLES_PER_CLIENT_PER_HOUR=1)
    assert open_table(client, BOTS).status_code == 201
    assert_refused(open_table(client, BOTS), "ai_tables_per_hour", 1, 3600)
    assert open_table(client, [{"name": "Ada"}, {"name": "Bot", "ai": "random"}]).status_code == 201  # a person plays


def test_the_worker_plays_no_ai_move_past_its_clients_hourly_cpu(redis_client, prefix, monkeypatch):
    """The quota counts the worker's CPU, not moves (issue 33: a `hard` move costs a thousand `random` ones). Each
    move here is billed at least a second (``MIN_MOVE_CHARGE_S`` raised, so the count is exact): 3 s is 3 moves."""
    monkeypatch.setattr(quotas, "MIN_MOVE_CHARGE_S", 1.0)
    client, scheduler, clock = stack(redis_client, prefix, AI_CPU_SECONDS_PER_CLIENT_PER_HOUR=3)
    game = open_table(client, BOTS).json
    other = open_table(client, BOTS, address="198.51.100.8").json
    tables = client.application.extensions["tables"]
    assert tables.meta(game["id"]).extra[quotas.META_FIELD] != tables.meta(other["id"]).extra[quotas.META_FIELD]
    start = tables.meta(game["id"]).version
    scheduler.run_ai()
    held = tables.meta(game["id"])
    assert not held.over and held.to_act  # waiting on an AI seat the worker may not play this hour
    assert tables.meta(other["id"]).version == held.version  # the other client's table got its own 3 moves
    assert jobs.ai_turn(game["id"], held.to_act[0], held.version) == "over quota"
    assert tables.meta(game["id"]).version == held.version
    clock.now += quotas.HOUR_S
    assert jobs.ai_turn(game["id"], held.to_act[0], held.version) == "played"
    assert held.version > start


def test_the_turn_timers_moves_are_billed_like_the_ais(redis_client, prefix, monkeypatch):
    """Issue 33: ten tables of silent named seats with a 1 s timer played to the end, 3,494 events, unbilled."""
    monkeypatch.setattr(quotas, "MIN_MOVE_CHARGE_S", 1.0)
    client, _, _ = stack(redis_client, prefix, AI_CPU_SECONDS_PER_CLIENT_PER_HOUR=2)
    reply = client.post("/v1/games", json={"game": "toy", "seats": HUMANS, "turn_timeout_s": 1},
                        environ_base={"REMOTE_ADDR": "198.51.100.7"})
    tables = client.application.extensions["tables"]
    outcomes = []
    for _ in range(3):
        meta = tables.meta(reply.json["id"])
        outcomes.append(jobs.turn_timeout(meta.id, meta.to_act[0], meta.version))
    assert outcomes == ["played", "played", "over quota"]


def test_starting_a_table_with_no_person_left_is_an_all_ai_table(redis_client, prefix):
    """Issue 33: the 21st all-AI table got 429, then 5 of 5 tables of open seats started with AI ran. A start
    that fills every seat with an AI counts against the all-AI quota of the table's client; past it, refused and
    nothing written (the table keeps waiting); a start that leaves a person at the table is not counted."""
    client, _, _ = stack(redis_client, prefix, AI_TABLES_PER_CLIENT_PER_HOUR=1)
    address = {"REMOTE_ADDR": "198.51.100.7"}
    key = client.post("/v1/players", json={"name": "Ada"}, environ_base=address).json["key"]
    auth = {"Authorization": f"Bearer {key}"}
    opened = [{"open": True}, {"open": True}]

    def table(seats):
        reply = client.post("/v1/games", json={"game": "toy", "seats": seats}, headers=auth, environ_base=address)
        assert reply.status_code == 201, reply.json
        return reply.json["id"]

    def start(game_id):
        return client.post(f"/v1/games/{game_id}/start", json={"ai": "random"}, headers=auth, environ_base=address)

    first, second, with_me = table(opened), table(opened), table([{"me": True}, {"open": True}])
    assert start(first).status_code == 200
    before = stored(redis_client, prefix)
    assert_refused(start(second), "ai_tables_per_hour", 1, 3600)
    assert stored(redis_client, prefix) == before
    assert client.get(f"/v1/games/{second}").json["status"] == "waiting"
    assert start(with_me).status_code == 200  # a person plays there
    assert_refused(open_table(client, BOTS), "ai_tables_per_hour", 1, 3600)  # the start took the hour's table


def test_a_retry_of_an_admitted_table_is_the_same_table_not_one_more(redis_client, prefix):
    client, _, _ = stack(redis_client, prefix, OPEN_TABLES_PER_CLIENT=1, TABLES_PER_CLIENT_PER_HOUR=1)
    first = open_table(client, **{"Idempotency-Key": "table-1"})
    assert first.status_code == 201
    again = open_table(client, **{"Idempotency-Key": "table-1"})
    assert (again.status_code, again.json["id"]) == (201, first.json["id"])
    assert_refused(open_table(client, **{"Idempotency-Key": "table-2"}), "open_tables", 1, quotas.OPEN_RETRY_S)
