"""GET /v1/games reads one index a page at a time (issue 16: a filter with no match read every stored game,
one HGETALL each), on fakeredis, a real Redis and a real Redis Cluster. Redis commands are counted, not timed."""

from __future__ import annotations

import pytest
from redis.client import Pipeline, Redis
from redis.cluster import ClusterPipeline, RedisCluster

from session_service.storage.index import status_names
from session_service.use_cases.writes import created_ms
from tests.support.stack import make_session_app
from tests.support.toy import GAME


# What a cluster client sends of its own accord when it refreshes its map of the slots (after a slow node or a
# MOVED, as on a loaded machine), not for the request: the listing's cost is the rest.
UPKEEP = frozenset({"CLUSTER", "COMMAND", "PING", "READONLY", "INFO"})


def _one(obj, *args) -> int:
    return 0 if args and str(args[0]).split(" ")[0].upper() in UPKEEP else 1


class CommandCounter:
    """Counts the Redis commands this process sends, single or pipelined, through any client."""

    def __init__(self, monkeypatch):
        self.sent = 0
        # each command as it is sent alone or staged in a pipeline (a cluster pipeline stages its commands with its
        # strategy, not in ``command_stack``: counting that stack at ``execute`` saw none of them on a cluster)
        for cls, method in ((Redis, "execute_command"), (RedisCluster, "execute_command"),
                            (Pipeline, "pipeline_execute_command"), (ClusterPipeline, "execute_command")):
            monkeypatch.setattr(cls, method, self._counting(getattr(cls, method), _one))

    def _counting(self, original, size):
        def counted(obj, *args, **kwargs):
            self.sent += size(obj, *args)
            return original(obj, *args, **kwargs)
        return counted


@pytest.fixture(params=["fakeredis", "redis", "cluster"])
def redis_client(request):
    return request.getfixturevalue({"fakeredis": "fake_redis", "redis": "real_redis", "cluster": "cluster_redis"}[request.param])


@pytest.fixture
def app_and_scheduler(redis_client, prefix):
    return make_session_app(redis_client, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, KEY_SHARDS=4)


@pytest.fixture
def client(app_and_scheduler):
    return app_and_scheduler[0].test_client()


def create(client, ai: bool = False) -> dict:
    seats = [{"name": "Ada", "ai": "random" if ai else None}, {"name": "Bo", "ai": "random" if ai else None}]
    reply = client.post("/v1/games", json={"game": "toy", "seats": seats})
    assert reply.status_code == 201, reply.json
    return reply.json


def listed(client, query: str) -> list[str]:
    """Every game id the listing gives for ``query``, following its cursor page by page."""
    ids, cursor = [], None
    while True:
        page = client.get(f"/v1/games?{query}&limit=3" + (f"&cursor={cursor}" if cursor else "")).json
        ids += [g["id"] for g in page["games"]]
        cursor = page["next"]
        if cursor is None:
            return ids


def test_a_listing_costs_as_many_redis_commands_with_many_games_stored_as_with_few(client, monkeypatch):
    counter = CommandCounter(monkeypatch)

    def cost(query: str) -> int:
        counter.sent = 0
        assert client.get(f"/v1/games?{query}").status_code == 200
        return counter.sent

    queries = ["status=finished", "game=no-such-game", "status=finished&game=toy", "limit=5"]
    for _ in range(5):
        create(client)
    few = [cost(q) for q in queries]
    for _ in range(40):
        create(client)
    assert min(few) > 0  # the counter sees every listing's commands, on each backend
    assert [cost(q) for q in queries] == few


def test_every_filter_lists_exactly_the_matching_games_newest_first(app_and_scheduler, client):
    _, scheduler = app_and_scheduler
    games = [create(client, ai=i % 3 == 0) for i in range(9)]
    scheduler.run_ai()
    resources = sorted((client.get(f"/v1/games/{g['id']}").json for g in games),
                       key=lambda r: (r["created_at"], r["id"]), reverse=True)
    finished = [r["id"] for r in resources if r["status"] == "finished"]
    assert len(finished) == 3
    assert listed(client, "game=toy") == listed(client, "limit=3") == [r["id"] for r in resources]
    assert listed(client, "status=finished") == listed(client, "status=finished&game=toy") == finished
    assert listed(client, "status=active") == [r["id"] for r in resources if r["status"] == "active"]
    assert listed(client, "game=other") == []


def test_an_index_update_that_was_lost_never_makes_a_listing_wrong(app_and_scheduler, client):
    app, scheduler = app_and_scheduler
    tables = app.extensions["tables"]
    done, playing = create(client, ai=True), create(client)
    scheduler.run_ai()
    done_meta, playing_meta = tables.meta(done["id"]), tables.meta(playing["id"])
    # A crash between a game's last append and its index update: still listed as active.
    tables.index.enter(done["id"], created_ms(done_meta), status_names("toy", "active"))
    # A game listed under its next status by a write that then failed: listed as finished too early.
    tables.index.enter(playing["id"], created_ms(playing_meta), status_names("toy", "finished"))
    # A create that listed its game and then failed: a game that does not exist, listed long ago.
    tables.index.enter("g_never_written", 1, ["all", "status:active"])
    assert listed(client, "status=active") == [playing["id"]]
    assert listed(client, "status=finished") == [done["id"]]
    assert listed(client, "limit=3") == [playing["id"], done["id"]]
    # Read repair dropped the entries that can never be right again, and kept the one that may yet be.
    active = {g for _, g in tables.index.window("status:active", None, 10)}
    assert active == {playing["id"]}
    assert {g for _, g in tables.index.window("status:finished", None, 10)} == {done["id"], playing["id"]}


def test_a_cursor_from_another_listing_or_an_unknown_one_still_pages(client):
    created = [client.get(f"/v1/games/{create(client)['id']}").json for _ in range(4)]
    newest_first = [r["id"] for r in sorted(created, key=lambda r: (r["created_at"], r["id"]), reverse=True)]
    first = client.get("/v1/games?limit=2").json
    assert [g["id"] for g in first["games"]] == newest_first[:2] and first["next"] == newest_first[1]
    rest = client.get(f"/v1/games?limit=2&status=active&cursor={first['next']}").json
    assert [g["id"] for g in rest["games"]] == newest_first[2:]
    assert client.get("/v1/games?limit=2&cursor=g_unknown").json["games"] == first["games"]
