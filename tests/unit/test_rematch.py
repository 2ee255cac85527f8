"""Rematches (issue 31 item 2): offered by a person at a finished table, made when every person said yes (same seats,
game and options, AI seats kept, a new seed), dropped on a decline or after a time limit, on the players' streams, and
no part of the finished game's log; over HTTP on fakeredis with the rules in process, on the toy game."""

from __future__ import annotations

import json

import pytest

from tests.support.lobby import auth, player, toy_app


@pytest.fixture
def app(fake_redis, prefix):
    return toy_app(fake_redis, prefix, SSE_KEEPALIVE_S=0.2)


@pytest.fixture
def client(app):
    return app.test_client()




def finished(client, ada, bo, extra_seats=(), **options):
    """A table of Ada (player key), Bo (player key) and ``extra_seats``, ended by Bo resigning."""
    seats = [{"me": True}, {"open": True}, *extra_seats]
    game = client.post("/v1/games", json={"game": "toy", "seats": seats, **options}, headers=auth(ada["key"])).json
    assert client.post(f"/v1/games/{game['id']}/join", json={}, headers=auth(bo["key"])).status_code == 200
    assert client.post(f"/v1/games/{game['id']}/resign", headers=auth(bo["key"])).status_code == 200
    resource = client.get(f"/v1/games/{game['id']}").json
    assert resource["status"] == "finished"
    return resource


def rematch(client, game_id, key, decline=False):
    return client.post(f"/v1/games/{game_id}/rematch" + ("/decline" if decline else ""), headers=auth(key))


def test_a_rematch_starts_when_everyone_accepts_with_the_same_seats_and_a_new_seed(client):
    ada, bo = player(client, "Ada"), player(client, "Bo")
    old = finished(client, ada, bo, turn_timeout_s=300)
    audit = client.get(f"/v1/games/{old['id']}/audit").json
    assert client.get(f"/v1/games/{old['id']}/rematch").json == {"rematch": None}
    offered = rematch(client, old["id"], ada["key"])
    assert offered.status_code == 200, offered.json
    assert offered.json["rematch"]["offered_by"] == 0 and offered.json["rematch"]["accepted"] == [0]
    assert offered.json["rematch"]["status"] == "offered" and offered.json["rematch"]["game"] is None
    again = rematch(client, old["id"], ada["key"]).json["rematch"]
    assert again["accepted"] == [0] and again["game"] is None, "an offer repeated is the same offer"
    accepted = rematch(client, old["id"], bo["key"]).json["rematch"]
    assert accepted["status"] == "accepted" and accepted["accepted"] == [0, 1]
    new = client.get(f"/v1/games/{accepted['game']}").json
    assert new["status"] == "active" and new["rematch_of"] == old["id"] and new["game"] == old["game"]
    assert new["seed_commitment"] != old["seed_commitment"] and new["turn_timeout_s"] == 300
    assert [(s["name"], s["player"], s["ai"]) for s in new["seats"]] == [("Ada", ada["id"], None), ("Bo", bo["id"], None)]
    assert new["host"] == old["host"]
    state = client.get(f"/v1/games/{new['id']}/state", headers=auth(bo["key"])).json
    assert state["legal_commands"] or state["to_act"] == [0], "Bo's key holds his seat at the new table"
    assert rematch(client, old["id"], bo["key"]).json["rematch"]["game"] == new["id"], "answered again, the same table"
    assert client.get(f"/v1/games/{old['id']}/audit").json == audit, "the finished game's audit does not change"
    assert {g["id"] for g in client.get("/v1/me/games", headers=auth(bo["key"])).json["games"]} == {old["id"], new["id"]}


def test_seat_tokens_and_ai_seats_carry_over_to_the_rematch(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bot", "ai": "random"},
                                                                   {"name": "Cy"}]}).json
    ada, cy = game["seats"][0]["token"], game["seats"][2]["token"]
    assert client.post(f"/v1/games/{game['id']}/resign", headers=auth(cy)).status_code == 200
    assert client.post(f"/v1/games/{game['id']}/resign", headers=auth(ada)).status_code == 200
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "finished"
    refused = client.post(f"/v1/games/{game['id']}/rematch")
    assert refused.status_code == 401
    assert rematch(client, game["id"], cy).json["rematch"]["game"] is None
    made = rematch(client, game["id"], ada).json["rematch"]
    assert made["accepted"] == [0, 2], "the AI seat is not asked"
    new = client.get(f"/v1/games/{made['game']}").json
    assert [(s["name"], s["ai"]) for s in new["seats"]] == [("Ada", None), ("Bot", "random"), ("Cy", None)]
    assert not any(s.get("resigned") for s in new["seats"])
    assert client.post(f"/v1/games/{new['id']}/resign", headers=auth(cy)).status_code == 200, "Cy's token holds seat 2"


def test_a_decline_drops_the_offer_and_offers_are_bounded_and_expire(app, client):
    ada, bo = player(client, "Ada"), player(client, "Bo")
    old = finished(client, ada, bo)
    none = rematch(client, old["id"], ada["key"], decline=True)
    assert none.status_code == 409 and none.json["error"]["code"] == "rematch/none"
    rematch(client, old["id"], ada["key"])
    declined = rematch(client, old["id"], bo["key"], decline=True)
    assert declined.status_code == 200 and declined.json["rematch"]["status"] == "declined"
    assert declined.json["rematch"]["declined_by"] == 1 and declined.json["rematch"]["game"] is None
    assert rematch(client, old["id"], bo["key"]).json["rematch"]["offered_by"] == 1, "a new offer after a decline"
    rematches = app.extensions["rematches"]
    real = rematches.clock
    rematches.clock = lambda: real() + 121
    try:
        assert client.get(f"/v1/games/{old['id']}/rematch").json["rematch"]["status"] == "expired"
        assert rematch(client, old["id"], ada["key"]).json["rematch"]["offered_by"] == 0, "a new offer after it expired"
    finally:
        rematches.clock = real
    rematch(client, old["id"], ada["key"], decline=True)
    refused = rematch(client, old["id"], ada["key"])
    assert refused.status_code == 429 and refused.json["error"]["details"] == {"quota": "rematch_offers_per_table", "limit": 3}


def test_only_the_people_at_a_finished_table_answer_its_rematch(client):
    ada, bo, eve = player(client, "Ada"), player(client, "Bo"), player(client, "Eve")
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"me": True}, {"open": True}]}, headers=auth(ada["key"])).json
    early = rematch(client, game["id"], ada["key"])
    assert early.status_code == 409 and early.json["error"]["code"] == "game/not_finished"
    old = finished(client, ada, bo)
    assert rematch(client, old["id"], eve["key"]).status_code == 401, "a stranger holds no seat"
    aborted = client.post("/v1/games", json={"game": "toy", "seats": [{"me": True}, {"open": True}]}, headers=auth(ada["key"])).json
    client.post(f"/v1/games/{aborted['id']}/abort", headers=auth(ada["key"]))
    assert rematch(client, aborted["id"], ada["key"]).status_code == 409


def test_offers_and_answers_reach_the_players_streams(client):
    ada, bo = player(client, "Ada"), player(client, "Bo")
    old = finished(client, ada, bo)
    rematch(client, old["id"], ada["key"])  # before Bo's stream opens: it is told of the offer still open
    reply = client.get("/v1/me/stream", headers={**auth(bo["key"]), "Accept": "application/x-ndjson"})
    try:
        read = (json.loads(line) for chunk in reply.response for line in chunk.split(b"\n") if line.strip())
        first = next(read)
        assert first["type"] == "tables"
        pending = next(read)
        assert pending["type"] == "rematch" and pending["data"]["game"] == old["id"]
        assert pending["data"]["by"] == {"seat": 0, "name": "Ada"} and pending["data"]["rematch"]["status"] == "offered"
        rematch(client, old["id"], bo["key"])
        answer = next(m for m in read if m["type"] == "rematch")
        assert answer["data"]["answer"] == "accept" and answer["data"]["rematch"]["status"] == "accepted"
        assert answer["data"]["rematch"]["game"]
    finally:
        reply.close()
