"""The write rate limit: per client (a seat whose token holds, else the address) and per address (whatever tokens it
presents) per minute, counted in Redis so every process shares it, refused with 429 and nothing written. A command's
count rides in its append's round trip, so a command costs one Redis round trip, limit or none (issue 32); a write
refused before its append is counted when it is answered."""

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


def test_a_command_is_one_round_trip_and_the_limit_costs_it_none(prefix):
    unlimited = round_trips_per_command(0, prefix + "-off")
    limited = round_trips_per_command(1000, prefix + "-on")
    assert limited == unlimited == [1] * 6  # the append, with the count in it (the meta was known from the last)


def test_commands_past_the_limit_get_429_and_write_nothing(fake_redis, prefix):
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=4)
    client = app.test_client()
    game, (ada, bo) = new_game(client)
    assert command(client, game, ada).status_code == 200
    assert command(client, game, ada, kind="no_such").status_code == 422  # refused moves count too
    assert command(client, game, ada, kind="no_such").status_code == 422
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


def test_a_body_that_does_not_parse_counts_against_the_address(fake_redis, prefix):
    """It never gets as far as a seat, so it is the address's write, whatever token it shows."""
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=2)
    client = app.test_client()
    game, (ada, _bo) = new_game(client)
    bad = [client.post(f"/v1/games/{game['id']}/commands", data=b"{not json", headers={**ada, "Content-Type": "application/json"},
                       environ_base={"REMOTE_ADDR": "198.51.100.5"}).status_code for _ in range(3)]
    assert bad == [400, 400, 429]
    assert command(client, game, ada).status_code == 200  # the seat's own bucket is untouched


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
    # A token holds no seat of a game that does not exist: these counted against the address, whatever the token.
    again = client.post("/v1/games/g_missing/commands", json={"command": {"type": "draw_card"}}, headers={"Authorization": "Bearer other"})
    assert again.status_code == 429
    elsewhere = client.post("/v1/games/g_missing/commands", json={"command": {"type": "draw_card"}}, headers=headers,
                            environ_base={"REMOTE_ADDR": "198.51.100.99"})
    assert elsewhere.status_code == 404 and elsewhere.json["error"]["code"] == "game/not_found"


# -- who is counted (issue 16) ------------------------------------------------------------------------------
# The limit was keyed on the raw Authorization header before the token was checked: every made-up header, and
# every spelling of one real token, got a fresh bucket. Now a bucket is a seat whose token holds, else the address.

def post_as(client, game, authorization, address="198.51.100.7", **headers):
    sent = {**({"Authorization": authorization} if authorization is not None else {}), **headers}
    return client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "no_such"}}, headers=sent,
                       environ_base={"REMOTE_ADDR": address})


def limited_app(store, prefix, limit, **config):
    app, _ = make_session_app(store, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=limit, **config)
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]},
                       environ_base={"REMOTE_ADDR": "192.0.2.1"}).json
    return client, game, [s["token"] for s in game["seats"]]


def test_made_up_tokens_share_their_address_s_bucket(fake_redis, prefix):
    client, game, _ = limited_app(fake_redis, prefix, 3)
    statuses = [post_as(client, game, f"Bearer made-up-{i}").status_code for i in range(5)]
    assert statuses == [401, 401, 401, 429, 429]
    assert post_as(client, game, "Bearer made-up-9", address="198.51.100.8").status_code == 401  # another address


def test_one_token_in_any_spelling_is_one_bucket(fake_redis, prefix):
    client, game, (ada, _bo) = limited_app(fake_redis, prefix, 4)
    spellings = [f"Bearer {ada}", f"bearer {ada}", f"BEARER {ada}", f"Bearer   {ada}  ", f"  bEaReR {ada}"]
    statuses = [post_as(client, game, s, address=f"203.0.113.{i}").status_code for i, s in enumerate(spellings)]
    assert statuses == [422, 422, 422, 422, 429]


def test_a_seat_s_bucket_is_its_own_and_not_its_address_s(fake_redis, prefix):
    """Made-up tokens exhaust the address's bucket; the seats behind that address keep theirs."""
    client, game, (ada, bo) = limited_app(fake_redis, prefix, 2)
    assert [post_as(client, game, f"Bearer nobody-{i}").status_code for i in range(3)] == [401, 401, 429]
    assert post_as(client, game, None).status_code == 429  # no token: the address too
    assert [post_as(client, game, f"Bearer {ada}").status_code for _ in range(3)] == [422, 422, 429]
    assert post_as(client, game, f"Bearer {bo}").status_code == 422


def test_a_token_of_another_game_counts_against_the_address(fake_redis, prefix):
    client, game, (ada, _bo) = limited_app(fake_redis, prefix, 2)
    other = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Cy"}, {"name": "Di"}]},
                        environ_base={"REMOTE_ADDR": "192.0.2.2"}).json
    assert [post_as(client, other, f"Bearer {ada}").status_code for _ in range(3)] == [401, 401, 429]
    assert post_as(client, game, f"Bearer {ada}").status_code == 422  # and not against its own seat


def round_trips_of(client, game, authorization) -> int:
    before = CountingRedis.round_trips
    post_as(client, game, authorization)
    return CountingRedis.round_trips - before


def test_a_refused_command_is_counted_in_a_round_trip_of_its_own(prefix):
    client, game, (ada, _bo) = limited_app(CountingRedis(), prefix, 1000)
    assert round_trips_of(client, game, f"Bearer {ada}") == 2  # refused by the rules: the meta, to refuse on the log's word, and the count
    assert round_trips_of(client, game, None) == 1  # no seat, so no append: the count
    assert round_trips_of(client, game, "Bearer made-up") == 2  # a token of no seat it knows: the meta again, the count


def test_every_write_says_its_limit_and_a_429_when_to_retry(fake_redis, prefix):
    client, game, (ada, _bo) = limited_app(fake_redis, prefix, 2)
    replies = [post_as(client, game, f"Bearer {ada}") for _ in range(3)]
    assert [r.headers["RateLimit-Limit"] for r in replies] == ["2", "2", "2"]
    assert [r.headers["RateLimit-Remaining"] for r in replies] == ["1", "0", "0"]
    for reply in replies:
        assert 1 <= int(reply.headers["RateLimit-Reset"]) <= 60
    assert replies[2].status_code == 429
    assert replies[2].headers["Retry-After"] == replies[2].headers["RateLimit-Reset"]
    created = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "a"}, {"name": "b"}]})
    assert created.status_code == 201 and created.headers["RateLimit-Limit"] == "2"
    assert "RateLimit-Limit" not in client.get(f"/v1/games/{game['id']}").headers  # reads are not limited


def test_x_forwarded_for_is_ignored_unless_proxies_are_trusted(fake_redis, prefix):
    client, game, _ = limited_app(fake_redis, prefix, 2)
    statuses = [post_as(client, game, None, **{"X-Forwarded-For": f"10.0.0.{i}"}).status_code for i in range(3)]
    assert statuses == [401, 401, 429]  # one peer, whatever it claims


def test_behind_trusted_proxies_the_client_is_the_address_they_saw(fake_redis, prefix):
    client, game, _ = limited_app(fake_redis, prefix + "-p", 2, TRUSTED_PROXIES=1)
    # Through one trusted proxy (the peer): its X-Forwarded-For's last entry is the client; what the client
    # itself wrote before that is not believed.
    first = [post_as(client, game, None, **{"X-Forwarded-For": f"10.9.9.{i}, 10.0.0.1"}).status_code for i in range(3)]
    assert first == [401, 401, 429]
    assert post_as(client, game, None, **{"X-Forwarded-For": "10.0.0.2"}).status_code == 401


# -- seat tokens do not multiply an address's budget (issue 33, item 5) -------------------------------------------
# 35 seat tokens from one address once wrote 35 budgets a minute (43,300 refused writes, no 429). Every write now
# counts against its address too, whatever token it presents, up to RATE_LIMIT_PER_ADDRESS.

def test_the_seats_behind_one_address_share_its_cap(fake_redis, prefix):
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=3, RATE_LIMIT_PER_ADDRESS=5)
    client = app.test_client()
    tokens = []
    for _ in range(3):
        game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]},
                           environ_base={"REMOTE_ADDR": "192.0.2.9"}).json
        tokens += [(game, s["token"]) for s in game["seats"]]
    statuses = [post_as(client, game, f"Bearer {token}").status_code for game, token in tokens]  # one write each
    assert statuses == [422, 422, 422, 422, 422, 429]
    limited = post_as(client, tokens[0][0], f"Bearer {tokens[0][1]}")
    assert limited.json["error"]["details"] == {"limit_per_minute": 5, "per": "address"}
    assert limited.headers["RateLimit-Limit"] == "5" and limited.headers["RateLimit-Remaining"] == "0"
    game, token = tokens[5]
    assert post_as(client, game, f"Bearer {token}", address="198.51.100.200").status_code == 422  # another address
