"""The write rate limit: per client (seat token, else address) per minute, counted in Redis so every process
shares it, checked before anything else of the request, refused with 429 and nothing written. A command's
count rides in the same round trip as its meta read, so the limit costs a command no round trip of its own."""

from __future__ import annotations

import fakeredis

from tests.support.stack import make_session_app
from tests.support.toy import GAME


class CountingRedis(fakeredis.FakeRedis):
    """A fake Redis that counts round trips: each command sent alone, and each pipeline."""

    round_trips = 0

    def execute_command(self, *args, **options):
        CountingRedis.round_trips += 1
        return super().execute_command(*args, **options)

    def pipeline(self, transaction=True, shard_hint=None):
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        def counted(*args, **kwargs):
            CountingRedis.round_trips += 1
            return execute(*args, **kwargs)

        pipe.execute = counted
        return pipe


def new_game(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    return game, [{"Authorization": f"Bearer {s['token']}"} for s in game["seats"]]


def command(client, game, headers, kind="draw_card", expected=None):
    return client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": kind}, "expected_version": expected}, headers=headers)


def round_trips_per_command(limit: int, prefix: str) -> list[int]:
    app, _ = make_session_app(CountingRedis(), prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=limit)
    client = app.test_client()
    game, seats = new_game(client)
    version = client.get(f"/v1/games/{game['id']}").json["version"]
    counts = []
    for turn in range(6):
        before = CountingRedis.round_trips
        reply = command(client, game, seats[turn % 2], expected=version)
        assert reply.status_code == 200, reply.json
        version = reply.json["version"]
        counts.append(CountingRedis.round_trips - before)
    return counts


def test_the_limit_costs_a_command_no_round_trip_of_its_own(prefix):
    unlimited = round_trips_per_command(0, prefix + "-off")
    limited = round_trips_per_command(1000, prefix + "-on")
    assert limited == unlimited
    assert max(limited) <= 2  # the meta (with the count), the append


def test_commands_past_the_limit_get_429_and_write_nothing(fake_redis, prefix):
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=4)
    client = app.test_client()
    game, (ada, bo) = new_game(client)
    assert command(client, game, ada).status_code == 200
    assert command(client, game, ada, kind="no_such").status_code == 422  # refused moves count too
    bad_body = client.post(f"/v1/games/{game['id']}/commands", data=b"{not json", headers={**ada, "Content-Type": "application/json"})
    assert bad_body.status_code == 400  # and so do bodies that do not parse: the limit is checked first
    assert command(client, game, ada, kind="no_such").status_code == 422
    version = client.get(f"/v1/games/{game['id']}").json["version"]
    for kind in ("draw_card", "no_such"):
        limited = command(client, game, ada, kind=kind)
        assert limited.status_code == 429
        assert limited.json["error"]["code"] == "request/rate_limited"
        assert limited.json["error"]["details"] == {"limit_per_minute": 4}
    assert client.get(f"/v1/games/{game['id']}").json["version"] == version  # nothing written
    assert client.get(f"/v1/games/{game['id']}/state", headers=ada).status_code == 200  # reads are not limited
    assert command(client, game, bo).status_code == 200  # the count is per client


def test_the_count_is_shared_by_every_process_on_the_same_redis(fake_redis, prefix):
    apps = [make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=3)[0].test_client() for _ in range(2)]
    game, (ada, _bo) = new_game(apps[0])
    statuses = [command(apps[i % 2], game, ada, kind="no_such").status_code for i in range(4)]
    assert statuses == [422, 422, 422, 429]


def test_a_command_for_a_game_that_does_not_exist_is_still_404_and_counted(fake_redis, prefix):
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=2)
    client = app.test_client()
    headers = {"Authorization": "Bearer nobody"}
    for game_id in ("g_missing", "x" * 70, "g_{brace}"):
        reply = client.post(f"/v1/games/{game_id}/commands", json={"command": {"type": "draw_card"}}, headers=headers)
        assert reply.status_code in (404, 429)
    assert reply.status_code == 429
    first = client.post("/v1/games/g_missing/commands", json={"command": {"type": "draw_card"}}, headers={"Authorization": "Bearer other"})
    assert first.status_code == 404 and first.json["error"]["code"] == "game/not_found"
