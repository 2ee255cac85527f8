"""A lobby that describes each table (host, seats, time limit, watchers, filters: issue 31 item 4), that private tables
cannot hide (issue 33 item 6), and private tables watched only by those they were opened for (issue 33 item 11); over
HTTP on fakeredis with the rules in process, on the toy game."""

from __future__ import annotations

import json

import pytest

from tests.support.lobby import auth, player, toy_app


@pytest.fixture
def app(fake_redis, prefix):
    return toy_app(fake_redis, prefix)


@pytest.fixture
def client(app):
    return app.test_client()




def create(client, seats, key=None, **extra):
    reply = client.post("/v1/games", json={"game": "toy", "seats": seats, **extra}, headers=auth(key) if key else {})
    assert reply.status_code == 201, reply.json
    return reply.json


def test_each_listed_table_says_who_hosts_it_its_seats_its_time_limit_and_how_many_watch(client):
    ada = player(client, "Ada")
    game = create(client, [{"me": True}, {"open": True}, {"name": "Bot", "ai": "random"}], ada["key"], turn_timeout_s=90)
    anonymous = create(client, [{"name": "Cy"}, {"open": True}])
    listed = {g["id"]: g for g in client.get("/v1/games?status=waiting").json["games"]}
    table = listed[game["id"]]
    assert table["host"] == {"name": "Ada", "player": ada["id"], "seats": [0]}
    assert listed[anonymous["id"]]["host"] == {"name": "Cy", "seats": [0]}
    assert [(s["name"], s["open"], s["ai"]) for s in table["seats"]] == [("Ada", False, None), (None, True, None),
                                                                        ("Bot", False, "random")]
    assert table["turn_timeout_s"] == 90 and table["watchers"] == 0
    watching = [client.get(f"/v1/games/{game['id']}/events/stream", headers={"Accept": "application/x-ndjson"}) for _ in range(2)]
    seat_stream = client.get(f"/v1/games/{game['id']}/events/stream", headers={**auth(ada["key"]), "Accept": "application/x-ndjson"})
    try:
        assert client.get(f"/v1/games/{game['id']}").json["watchers"] == 2, "a seat's stream is no watcher"
        assert {g["id"]: g["watchers"] for g in client.get("/v1/games?status=waiting").json["games"]}[game["id"]] == 2
    finally:
        for reply in (*watching, seat_stream):
            reply.close()
    assert client.get(f"/v1/games/{game['id']}").json["watchers"] == 0


def test_the_listing_filters_by_game_and_open_seats(client):
    one = create(client, [{"name": "A"}, {"open": True}])
    two = create(client, [{"name": "A"}, {"open": True}, {"open": True}])
    ids = lambda query: [g["id"] for g in client.get(f"/v1/games?{query}").json["games"]]  # noqa: E731
    assert ids("status=waiting") == [two["id"], one["id"]]
    assert ids("status=waiting&open_seats=2") == [two["id"]]
    assert ids("status=waiting&game=toy&open_seats=1") == [two["id"], one["id"]]
    assert ids("status=waiting&game=pocket-madness") == []
    assert client.get("/v1/games?open_seats=-1").status_code == 400


def test_private_tables_never_crowd_public_ones_out_of_a_page(client, app):
    """Issue 33 (6): after sixty private waiting tables, `?status=waiting&limit=10` answered no game and a cursor."""
    public = create(client, [{"name": "A"}, {"open": True}])
    for _ in range(60):
        create(client, [{"name": "P"}, {"open": True}], visibility="private")
    page = client.get("/v1/games?status=waiting&limit=10").json
    assert [g["id"] for g in page["games"]] == [public["id"]] and page["next"] is None
    assert [g["id"] for g in client.get("/v1/games?limit=10").json["games"]] == [public["id"]]
    # A private table listed among the public ones (written before they were apart) is moved by the reader.
    tables = app.extensions["tables"]
    old = create(client, [{"name": "P"}, {"open": True}], visibility="private")
    tables.index.enter(old["id"], 1, ["status:waiting"])
    assert [g["id"] for g in client.get("/v1/games?status=waiting").json["games"]] == [public["id"]]
    assert old["id"] not in {g for _, g in tables.index.window("status:waiting", None, 100)}
    assert old["id"] in {g for _, g in tables.index.window("private:status:waiting", None, 100)}


def test_a_private_table_is_watched_by_its_seats_its_invitees_and_holders_of_its_invite_only(client):
    """Issue 33 (11): a private table's spectator view was readable by anyone who had its id."""
    ada, cy, eve = player(client, "Ada"), player(client, "Cy"), player(client, "Eve")
    game = create(client, [{"me": True}, {"open": True, "player": cy["id"]}, {"open": True}], ada["key"], visibility="private")
    path = f"/v1/games/{game['id']}"
    reads = ["/state", "/events", "/events/stream"]
    for who in ({}, auth(eve["key"])):
        for read in reads:
            refused = client.get(path + read, headers=who)
            assert refused.status_code == 403 and refused.json["error"]["code"] == "game/invite_required", (read, who)
    assert client.get(path, headers={}).status_code == 200, "the table's resource stays readable"
    assert client.get(path + "/state", headers=auth("not-a-token")).status_code == 401
    for who in (auth(game["invite"]), auth(cy["key"]), auth(ada["key"])):
        for read in reads[:2]:
            assert client.get(path + read, headers=who).status_code == 200, (read, who)
        stream = client.get(path + "/events/stream", headers={**who, "Accept": "application/x-ndjson"})
        try:
            assert stream.status_code == 200
            assert json.loads(next(iter(stream.response)))["type"] == "state"
        finally:
            stream.close()
    joined = client.post(f"{path}/join", json={"name": "Bo", "invite": game["invite"]}).json
    assert client.post(f"{path}/join", json={}, headers=auth(cy["key"])).status_code == 200
    assert client.post(f"{path}/resign", headers=auth(joined["token"])).status_code == 200
    assert client.post(f"{path}/resign", headers=auth(cy["key"])).status_code == 200
    assert client.get(path).json["status"] == "finished"
    assert client.get(path + "/export").status_code == 403, "nor its record once it is over"
    assert client.get(path + "/export", headers=auth(joined["token"])).status_code == 200
    public = create(client, [{"name": "A"}, {"name": "B"}])
    assert client.get(f"/v1/games/{public['id']}/state").status_code == 200, "a public table is anyone's to watch"
