"""The lobby over HTTP on fakeredis with the rules in process, on the toy game: players, open seats, joining,
invites, starting, resigning, aborting, idle tables, safe retries (API.md, "Lobby and players")."""

from __future__ import annotations

import json
import secrets
import time

import pytest

from session_service.worker import jobs

from session_service.use_cases import lobby, player_live
from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.fixture
def app(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0]


@pytest.fixture
def client(app):
    return app.test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def player(client, name="Ada", bot=False):
    reply = client.post("/v1/players", json={"name": name, "bot": bot})
    assert reply.status_code == 201, reply.json
    assert reply.json["key"].startswith("pk_") and reply.json["id"].startswith("p_")
    return reply.json


def open_table(client, key, seats=None, **extra):
    seats = seats or [{"me": True}, {"open": True}]
    reply = client.post("/v1/games", json={"game": "toy", "seats": seats, **extra}, headers=auth(key))
    assert reply.status_code == 201, reply.json
    return reply.json


def test_a_table_with_an_open_seat_waits_deals_nothing_and_starts_when_a_player_joins(client):
    ada, cy = player(client), player(client, "Cy")
    game = open_table(client, ada["key"])
    assert game["status"] == "waiting" and game["to_act"] == []
    assert "token" not in game["seats"][0] and game["seats"][0]["player"] == ada["id"]
    waiting = client.get(f"/v1/games/{game['id']}/state", headers=auth(ada["key"])).json
    assert waiting["view"] == {"open_seats": [1]} and waiting["legal_commands"] == []
    listed = client.get("/v1/games?status=waiting").json["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    joined = client.post(f"/v1/games/{game['id']}/join", json={}, headers=auth(cy["key"]))
    assert joined.status_code == 200, joined.json
    assert joined.json["seat"] == 1 and "token" not in joined.json
    assert joined.headers["Location"].endswith(f"/v1/games/{game['id']}")
    started = client.get(f"/v1/games/{game['id']}").json
    assert started["status"] == "active" and started["to_act"] == [0]
    log = client.get(f"/v1/games/{game['id']}/events").json["events"]
    assert [e["type"] for e in log][:2] == ["table_opened", "table_seat_joined"] and log[-1]["type"] == "table_started"
    mine = client.get(f"/v1/games/{game['id']}/state", headers=auth(ada["key"])).json
    assert mine["legal_commands"], "a player key acts for the seat its player holds"
    assert client.get("/v1/games?status=waiting").json["games"] == []
    assert [g["id"] for g in client.get("/v1/me/games", headers=auth(cy["key"])).json["games"]] == [game["id"]]


def test_joining_without_a_player_key_answers_a_seat_token_that_plays(client):
    ada = player(client)
    game = open_table(client, ada["key"])
    joined = client.post(f"/v1/games/{game['id']}/join", json={"name": "Bo"}).json
    state = client.get(f"/v1/games/{game['id']}/state", headers=auth(joined["token"])).json
    assert state["view"]["hands"][1] != 1 or isinstance(state["view"]["hands"][1], list)
    assert client.post(f"/v1/games/{game['id']}/join", json={"name": "Late"}).json["error"]["code"] == "game/started"


def test_a_private_table_is_not_listed_and_needs_its_invite(client):
    ada = player(client)
    game = open_table(client, ada["key"], visibility="private")
    assert game["invite"] and client.get("/v1/games?status=waiting").json["games"] == []
    refused = client.post(f"/v1/games/{game['id']}/join", json={"name": "Bo", "invite": "guess"})
    assert refused.status_code == 403 and refused.json["error"]["code"] == "game/invite_required"
    assert client.get(f"/v1/games/{game['id']}").json["seats"][1]["open"] is True, "nothing was written"
    ok = client.post(f"/v1/games/{game['id']}/join", json={"name": "Bo", "invite": game["invite"]})
    assert ok.status_code == 200 and ok.json["seat"] == 1
    # started, it stays unlisted: only those given its id (and the players at it) find it
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "active"
    for query in ("", "?status=active", "?game=toy", "?status=active&game=toy"):
        assert client.get("/v1/games" + query).json["games"] == [], query
    assert [g["id"] for g in client.get("/v1/me/games", headers=auth(ada["key"])).json["games"]] == [game["id"]]


def test_a_seat_kept_for_a_player_is_theirs_alone(client):
    ada, cy = player(client), player(client, "Cy")
    game = open_table(client, ada["key"], seats=[{"me": True}, {"open": True, "player": cy["id"]}], visibility="private")
    other = client.post(f"/v1/games/{game['id']}/join", json={"name": "Eve", "invite": game["invite"]})
    assert other.status_code == 409 and other.json["error"]["code"] == "game/full"
    mine = client.post(f"/v1/games/{game['id']}/join", json={}, headers=auth(cy["key"]))
    assert mine.status_code == 200 and mine.json["seat"] == 1


def test_the_creator_starts_early_with_ai_seats_and_nobody_else_may(client):
    ada, cy = player(client), player(client, "Cy")
    game = open_table(client, ada["key"])
    assert client.post(f"/v1/games/{game['id']}/start", json={}, headers=auth(cy["key"])).status_code == 403
    started = client.post(f"/v1/games/{game['id']}/start", json={"ai": "random"}, headers=auth(ada["key"]))
    assert started.status_code == 200, started.json
    resource = client.get(f"/v1/games/{game['id']}").json
    assert resource["status"] == "active" and resource["seats"][1]["ai"] == "random"


def test_resigning_hands_the_seat_to_the_ai_and_the_other_seat_wins(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    token = game["seats"][1]["token"]
    resigned = client.post(f"/v1/games/{game['id']}/resign", headers=auth(token))
    assert resigned.status_code == 200, resigned.json
    assert [e["type"] for e in resigned.json["events"]] == ["table_seat_resigned", "table_ended"]
    final = client.get(f"/v1/games/{game['id']}").json
    assert final["status"] == "finished" and final["outcome"]["winners"] == [0]
    assert final["outcome"]["reason"] == "resignation"
    assert client.get(f"/v1/games/{game['id']}/audit").json["replay_ok"] is True


def test_abort_only_before_the_first_move(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    tokens = [s["token"] for s in game["seats"]]
    moved = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}},
                        headers=auth(tokens[0]))
    assert moved.status_code == 200, moved.json
    late = client.post(f"/v1/games/{game['id']}/abort", headers=auth(tokens[1]))
    assert late.status_code == 422 and late.json["error"]["code"] == "rules/already_moved"
    fresh = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    assert client.post(f"/v1/games/{fresh['id']}/abort", headers=auth(fresh["seats"][1]["token"])).status_code == 200
    assert client.get(f"/v1/games/{fresh['id']}").json["status"] == "aborted"
    assert client.post(f"/v1/games/{fresh['id']}/abort").json["error"]["code"] == "auth/missing_token"


def test_a_retried_create_makes_one_table_with_the_same_tokens(client):
    body = {"game": "toy", "seats": [{"name": "Ada"}, {"open": True}]}
    first = client.post("/v1/games", json=body, headers={"Idempotency-Key": "k1"})
    again = client.post("/v1/games", json=body, headers={"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201
    assert first.json["id"] == again.json["id"] and first.json["seats"][0]["token"] == again.json["seats"][0]["token"]
    assert first.headers["Location"] == again.headers["Location"]
    assert len(client.get("/v1/games").json["games"]) == 1
    other = client.post("/v1/games", json={**body, "options": {"x": 1}}, headers={"Idempotency-Key": "k1"})
    assert other.status_code == 422 and other.json["error"]["code"] == "request/idempotency_key_reused"


def test_a_retried_join_answers_the_same_seat_and_token(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"open": True}, {"open": True}]}).json
    first = client.post(f"/v1/games/{game['id']}/join", json={"name": "Bo"}, headers={"Idempotency-Key": "j"})
    again = client.post(f"/v1/games/{game['id']}/join", json={"name": "Bo"}, headers={"Idempotency-Key": "j"})
    assert first.status_code == again.status_code == 200
    assert first.json == again.json
    assert client.get(f"/v1/games/{game['id']}").json["seats"][2]["open"] is True, "one seat taken, not two"
    other = client.post(f"/v1/games/{game['id']}/join", json={"name": "Cy"}, headers={"Idempotency-Key": "j"})
    assert other.status_code == 422 and other.json["error"]["code"] == "request/idempotency_key_reused"


def test_a_command_key_reused_with_another_command_is_refused(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    headers = {**auth(game["seats"][0]["token"]), "Idempotency-Key": "m"}
    assert client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=headers).status_code == 200
    other = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "play_card", "card": 1}}, headers=headers)
    assert other.status_code == 422 and other.json["error"]["code"] == "request/idempotency_key_reused"


def test_a_json_body_sent_as_another_media_type_is_refused_by_name(client):
    reply = client.post("/v1/games", data='{"game": "toy"}', headers={"Content-Type": "text/plain"})
    assert reply.status_code == 415 and reply.json["error"]["code"] == "request/unsupported_media_type"


def test_seat_shapes_are_checked(client):
    for seats in ([{"name": "A", "open": True}], [{}], [{"open": True, "ai": "random"}], [{"me": True}]):
        reply = client.post("/v1/games", json={"game": "toy", "seats": seats + [{"name": "B"}]})
        assert reply.status_code in (400, 401), (seats, reply.json)
    assert client.get("/v1/games").json["games"] == []
    assert client.get("/v1/me/games").json["error"]["code"] == "auth/missing_token"
    assert client.get("/v1/me/games", headers=auth("pk_madeup")).json["error"]["code"] == "auth/bad_token"


def test_idle_tables_end_by_themselves(app, client, monkeypatch):
    waiting = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"open": True}]}).json
    playing = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    for game in (waiting, playing):  # what the real scheduler does after every change (this app's only records)
        app.extensions["tables"].store.mark_active(game["id"])
    monkeypatch.setattr(jobs, "IDLE_TABLE_S", 60)
    monkeypatch.setattr(time, "time", lambda real=time.time: real() + 120)
    counts = jobs.sweep_once()
    assert counts["idle_ended"] == 2
    assert client.get(f"/v1/games/{waiting['id']}").json["status"] == "aborted"
    ended = client.get(f"/v1/games/{playing['id']}").json
    assert ended["status"] == "finished" and ended["outcome"]["reason"] == "abandoned" and ended["outcome"]["winners"] == []
    assert client.get(f"/v1/games/{playing['id']}/audit").json["replay_ok"] is True


def test_me_says_who_a_key_belongs_to_and_never_shows_the_key(client):
    ada = player(client, "Ada", bot=True)
    me = client.get("/v1/me", headers=auth(ada["key"]))
    assert me.status_code == 200 and me.json == {**{k: ada[k] for k in ("id", "name", "bot", "created_at")},
                                                  "accept_challenges": "manual"}
    game = open_table(client, ada["key"])
    assert game["seats"][0]["player"] == me.json["id"]  # how a client finds its own seat at a table
    assert client.get("/v1/me").json["error"]["code"] == "auth/missing_token"
    assert client.get("/v1/me", headers=auth("pk_madeup")).status_code == 401
    seat_token = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]}).json["seats"][0]["token"]
    assert client.get("/v1/me", headers=auth(seat_token)).status_code == 401  # a seat token is no player


def test_player_keys_buy_no_extra_streams(fake_redis, prefix):
    """Players cost one request to make, so a key is no client of its own for the stream cap: one address that
    makes a player per stream still gets STREAMS_PER_CLIENT streams, not that many per key (else one address
    fills the process's ceiling, and every other client's stream is refused)."""
    app = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, STREAMS_PER_CLIENT=2)[0]
    client = app.test_client()
    opened = []
    try:
        for name in ("A", "B", "C"):
            opened.append(client.get("/v1/me/stream", headers=auth(player(client, name)["key"])))
        assert [r.status_code for r in opened] == [200, 200, 429]
        assert opened[2].json["error"]["code"] == "request/rate_limited"
    finally:
        for reply in opened:
            reply.close()
    again = client.get("/v1/me/stream", headers=auth(player(client, "D")["key"]))
    again.close()
    assert again.status_code == 200, "closed streams count no more"


def first_message(client, key):
    reply = client.get("/v1/me/stream", headers={**auth(key), "Accept": "application/x-ndjson"})
    try:
        assert reply.status_code == 200, reply.json
        return json.loads(next(iter(reply.response)))
    finally:
        reply.close()


def test_a_players_stream_keeps_its_tables_in_play_whatever_newer_tables_came_and_went(client, monkeypatch):
    """The stream follows the player's newest tables not over: tables that ended since (here a stranger's invitations,
    each aborted at once, which anyone may send to a player id seen at any table) cannot push a table in play out of
    the window, so its `your_turn` still comes."""
    monkeypatch.setattr(player_live, "WATCHED", 3)
    ada, cy = player(client), player(client, "Cy")
    game = open_table(client, ada["key"], seats=[{"me": True}, {"open": True, "player": cy["id"]}])
    assert client.post(f"/v1/games/{game['id']}/join", json={}, headers=auth(cy["key"])).status_code == 200
    for _ in range(4):
        spam = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "S"}, {"open": True, "player": cy["id"]}]}).json
        assert client.post(f"/v1/games/{spam['id']}/abort", headers=auth(spam["seats"][0]["token"])).status_code == 200
    tables = first_message(client, cy["key"])
    assert tables["type"] == "tables"
    assert [t["game"] for t in tables["data"]["tables"]] == [game["id"]]
    assert len(client.get("/v1/me/games", headers=auth(cy["key"])).json["games"]) == 5, "the list keeps every table"


def ndjson_messages(client, path, key, count):
    reply = client.get(path, headers={**auth(key), "Accept": "application/x-ndjson"})
    try:
        assert reply.status_code == 200, reply.json
        lines = (line for chunk in reply.response for line in chunk.split(b"\n") if line.strip())
        return [json.loads(next(lines)) for _ in range(count)]
    finally:
        reply.close()


def test_a_resigned_seat_is_offered_no_command_it_may_not_post(client):
    """legal_commands is every command the seat may post now; once it resigned, the table's AI plays it and its own
    commands are refused (rules/resigned), so it is offered none: in its state, and in its stream's turn messages
    (a bot posting what it is offered would be refused at every turn)."""
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}).json
    token = game["seats"][0]["token"]
    assert client.get(f"/v1/games/{game['id']}/state", headers=auth(token)).json["legal_commands"], "seat 0 is to act"
    assert client.post(f"/v1/games/{game['id']}/resign", headers=auth(token)).status_code == 200
    state = client.get(f"/v1/games/{game['id']}/state", headers=auth(token)).json
    assert state["status"] == "active" and state["to_act"] == [0] and state["legal_commands"] == []
    refused = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=auth(token))
    assert refused.status_code == 422 and refused.json["error"]["code"] == "rules/resigned"
    path = f"/v1/games/{game['id']}/events/stream"
    first, = ndjson_messages(client, path, token, 1)
    assert first["type"] == "state" and first["data"]["legal_commands"] == []
    resumed, = ndjson_messages(client, f"{path}?after={state['version']}", token, 1)
    assert resumed["type"] == "turn" and resumed["data"]["legal_commands"] == []
    event, turn = ndjson_messages(client, f"{path}?after={state['version'] - 1}", token, 2)
    assert event["data"]["type"] == "table_seat_resigned" and turn["type"] == "turn" and turn["data"]["legal_commands"] == []


def test_a_seat_token_is_never_spelled_like_a_player_key(client, monkeypatch):
    """A bearer token that starts `pk_` is looked up as a player key; a seat token is random URL-safe base64, which
    starts so once in 262,144 draws: such a creator could not start its table (401 'that player key belongs to no
    player'). Here every token is made to start so."""
    made = lobby.derived
    monkeypatch.setattr(lobby, "derived", lambda key, secret, purpose: "pk_" + made(key, secret, purpose))
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=None: "pk_" + made(b"k", "00" * 16, str(n)))
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"open": True}, {"open": True}]}).json
    token = game["seats"][0]["token"]
    assert not token.startswith("pk_")
    assert client.get(f"/v1/games/{game['id']}/state", headers=auth(token)).json["view"] == {"open_seats": [1, 2]}
    joined = client.post(f"/v1/games/{game['id']}/join", json={"name": "Bo"}).json
    assert not joined["token"].startswith("pk_")
    started = client.post(f"/v1/games/{game['id']}/start", json={}, headers=auth(token))
    assert started.status_code == 200, started.json


def test_players_one_client_makes_are_a_quota(fake_redis, prefix):
    """A player is a few hundred bytes of Redis kept for ever, made by one request: within the write rate limit
    one address made 72,000 an hour. PLAYERS_PER_CLIENT_PER_HOUR bounds them like tables (429 with the quota and
    Retry-After, nothing written); a player key makes no other client, so the players' own requests count too."""
    app = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, PLAYERS_PER_CLIENT_PER_HOUR=2)[0]
    client = app.test_client()
    ada = player(client)
    player(client, "Bo")
    refused = client.post("/v1/players", json={"name": "Cy"}, headers=auth(ada["key"]))
    assert refused.status_code == 429 and refused.json["error"]["code"] == "request/rate_limited"
    assert refused.json["error"]["details"] == {"quota": "players_per_hour", "limit": 2}
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert len(fake_redis.keys(f"{prefix}:*:player")) == 2, "the refused player was not written"


def test_a_player_who_joined_through_another_process_is_known_by_its_key_to_a_process_that_saw_the_table_before(
        fake_redis, prefix):
    """A process that opened the table keeps its meta from before the join; a command with the joiner's key and no
    expected version is played for the joiner's seat (it was a 401 "commands need a seat token": the stale meta has
    no seat for that key, which reads as a spectator's)."""
    first = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0].test_client()
    second = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0].test_client()
    ada, cy = player(first), player(first, "Cy")
    game = open_table(first, ada["key"])
    assert second.post(f"/v1/games/{game['id']}/join", json={}, headers=auth(cy["key"])).status_code == 200
    state = second.get(f"/v1/games/{game['id']}/state", headers=auth(cy["key"])).json
    mover = ada if 0 in state["to_act"] else cy
    waiting = cy if mover is ada else ada
    # The seat not waited on is told it is not its turn, not that it holds no seat; the seat waited on plays.
    refused = first.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=auth(waiting["key"]))
    assert refused.status_code == 422 and refused.json["error"]["code"] == "rules/not_your_turn", refused.json
    played = first.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=auth(mover["key"]))
    assert played.status_code == 200, played.json
