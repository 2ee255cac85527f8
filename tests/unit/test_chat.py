"""Chat at a table (issue 31 item 3): two channels, plain text, limits, mutes, never in the game's log, on the game's
streams; over HTTP on fakeredis with the rules in process, on the toy game."""

from __future__ import annotations

import json

import pytest

from tests.support.lobby import auth, player, toy_app


@pytest.fixture
def app(fake_redis, prefix):
    return toy_app(fake_redis, prefix, SSE_KEEPALIVE_S=0.2, CHAT_LINES_PER_MINUTE=50)


@pytest.fixture
def client(app):
    return app.test_client()




def table(client, ada, bo):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"me": True}, {"open": True}]}, headers=auth(ada["key"])).json
    assert client.post(f"/v1/games/{game['id']}/join", json={}, headers=auth(bo["key"])).status_code == 200
    return game["id"]


def say(client, game_id, key, text, channel=None):
    body = {"text": text, **({"channel": channel} if channel else {})}
    return client.post(f"/v1/games/{game_id}/chat", json=body, headers=auth(key) if key else {})


def lines(client, game_id, key=None, channel="players"):
    reply = client.get(f"/v1/games/{game_id}/chat?channel={channel}", headers=auth(key) if key else {})
    assert reply.status_code == 200, reply.json
    return [(m["from"]["name"], m["text"]) for m in reply.json["messages"]]


class Stream:
    """A game stream read message by message (NDJSON), keep-alives skipped."""

    def __init__(self, client, game_id, key=None, query=""):
        self.reply = client.get(f"/v1/games/{game_id}/events/stream{query}",
                                headers={**(auth(key) if key else {}), "Accept": "application/x-ndjson"})
        assert self.reply.status_code == 200, self.reply.json
        self.lines = (line for chunk in self.reply.response for line in chunk.split(b"\n"))

    def until(self, kind, count=1, limit=200):
        """The messages up to the ``count``-th of ``kind`` (keep-alives skipped)."""
        seen = []
        for line in self.lines:
            if line.strip():
                seen.append(json.loads(line))
                if sum(m["type"] == kind for m in seen) == count:
                    return seen
            if len(seen) > limit:
                break
        raise AssertionError(f"no {kind}: {seen}")

    def close(self):
        self.reply.close()


def test_players_and_spectators_talk_on_their_channels_and_the_seats_never_receive_the_spectators(client):
    ada, bo, cy = player(client, "Ada"), player(client, "Bo"), player(client, "Cy")
    game_id = table(client, ada, bo)
    seat = Stream(client, game_id, bo["key"])
    watcher = Stream(client, game_id, cy["key"])
    try:
        said = say(client, game_id, ada["key"], "good luck")
        assert said.status_code == 201, said.json
        assert said.json["channel"] == "players" and said.json["from"] == {"name": "Ada", "seat": 0, "player": ada["id"]}
        assert say(client, game_id, cy["key"], "Ada will win").json["channel"] == "spectators"
        assert say(client, game_id, bo["key"], "thanks\nAda\x07").json["text"] == "thanks Ada", "plain text"
        for_seat = [m["data"]["text"] for m in seat.until("chat", 2) if m["type"] == "chat"]
        assert for_seat == ["good luck", "thanks Ada"]
        for_watcher = [(m["data"]["channel"], m["data"]["text"]) for m in watcher.until("chat", 3) if m["type"] == "chat"]
        assert for_watcher == [("players", "good luck"), ("spectators", "Ada will win"), ("players", "thanks Ada")]
        assert say(client, game_id, ada["key"], "last").status_code == 201
        rest = seat.until("chat")
        assert [m["data"]["text"] for m in rest if m["type"] == "chat"] == ["last"], "no spectator line in between"
    finally:
        seat.close()
        watcher.close()
    assert lines(client, game_id) == [("Ada", "good luck"), ("Bo", "thanks Ada"), ("Ada", "last")]
    assert lines(client, game_id, cy["key"], "spectators") == [("Cy", "Ada will win")]
    refused = client.get(f"/v1/games/{game_id}/chat?channel=spectators", headers=auth(ada["key"]))
    assert refused.status_code == 403 and refused.json["error"]["code"] == "chat/not_your_channel"
    wrong = say(client, game_id, ada["key"], "psst", "spectators")
    assert wrong.status_code == 403 and wrong.json["error"]["code"] == "chat/not_your_channel"
    assert say(client, game_id, None, "anonymous").json["error"]["code"] == "auth/missing_token"
    assert client.post(f"/v1/games/{game_id}/resign", headers=auth(bo["key"])).status_code == 200
    assert lines(client, game_id, ada["key"], "spectators") == [("Cy", "Ada will win")], "over: the seats read it"


def test_a_fresh_stream_starts_with_the_last_lines_and_a_resumed_one_goes_on_from_its_line(client):
    ada, bo = player(client, "Ada"), player(client, "Bo")
    game_id = table(client, ada, bo)
    first = say(client, game_id, ada["key"], "one").json
    say(client, game_id, bo["key"], "two")
    fresh = Stream(client, game_id, ada["key"])
    try:
        assert [m["data"]["text"] for m in fresh.until("chat", 2) if m["type"] == "chat"] == ["one", "two"]
    finally:
        fresh.close()
    resumed = Stream(client, game_id, ada["key"], f"?chat_after={first['id']}")
    try:
        assert [m["data"]["text"] for m in resumed.until("chat") if m["type"] == "chat"] == ["two"]
    finally:
        resumed.close()


def test_a_muted_players_lines_never_reach_the_one_who_muted(client):
    ada, bo, cy = player(client, "Ada"), player(client, "Bo"), player(client, "Cy")
    game_id = table(client, ada, bo)
    assert client.post(f"/v1/players/{bo['id']}/mute", headers=auth(ada["key"])).json == {"player": bo["id"], "muted": True}
    stream = Stream(client, game_id, ada["key"])
    try:
        say(client, game_id, bo["key"], "you will lose")
        say(client, game_id, cy["key"], "hello all")
        say(client, game_id, ada["key"], "hm")
        assert [m["data"]["text"] for m in stream.until("chat") if m["type"] == "chat"] == ["hm"]
    finally:
        stream.close()
    assert lines(client, game_id, ada["key"]) == [("Ada", "hm")]
    assert lines(client, game_id, cy["key"]) == [("Bo", "you will lose"), ("Ada", "hm")], "others still read Bo"
    assert client.post(f"/v1/players/{bo['id']}/unmute", headers=auth(ada["key"])).status_code == 200
    assert lines(client, game_id, ada["key"]) == [("Bo", "you will lose"), ("Ada", "hm")]
    assert client.post(f"/v1/players/{ada['id']}/mute", headers=auth(ada["key"])).status_code == 422
    assert client.post("/v1/players/p_nobody/mute", headers=auth(ada["key"])).json["error"]["code"] == "player/not_found"
    assert client.post(f"/v1/players/{bo['id']}/mute").json["error"]["code"] == "auth/missing_token"


def test_chat_is_limited_and_never_in_the_game_s_log(fake_redis, prefix):
    client = toy_app(fake_redis, prefix, CHAT_LINES_PER_MINUTE=2, CHAT_MAX_CHARS=10).test_client()
    ada, bo = player(client, "Ada"), player(client, "Bo")
    game_id = table(client, ada, bo)
    before = client.get(f"/v1/games/{game_id}").json
    too_long = say(client, game_id, ada["key"], "x" * 11)
    assert too_long.status_code == 422 and too_long.json["error"]["details"] == {"max_chars": 10}
    assert too_long.json["error"]["code"] == "chat/bad_length"
    assert say(client, game_id, ada["key"], "   ").status_code == 422
    assert [say(client, game_id, ada["key"], "hi").status_code for _ in range(3)] == [201, 201, 429]
    refused = say(client, game_id, ada["key"], "hi")
    assert refused.json["error"]["details"] == {"quota": "chat_lines_per_minute", "limit": 2}
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert say(client, game_id, bo["key"], "hi").status_code == 201, "per writer"
    after = client.get(f"/v1/games/{game_id}").json
    assert (after["version"], after["head_hash"]) == (before["version"], before["head_hash"])
    assert all(e["type"] != "chat" for e in client.get(f"/v1/games/{game_id}/events").json["events"])
    assert client.get("/v1/games/g_nothing/chat").status_code == 404


def test_retention_deletes_a_game_s_chat_with_it(app, client, fake_redis, prefix):
    ada, bo = player(client, "Ada"), player(client, "Bo")
    game_id = table(client, ada, bo)
    say(client, game_id, ada["key"], "bye")
    assert fake_redis.keys(f"{prefix}:{{{game_id}}}:chat*")
    app.extensions["tables"].store.delete_game(game_id)
    assert fake_redis.keys(f"{prefix}:{{{game_id}}}:*") == []


def test_while_the_game_is_on_the_spectators_channel_is_for_spectators_who_say_who_they_are(client):
    """Issue 41, L1: a seat read the spectators' channel by leaving out its credential (public table) or presenting
    its private table's invite code as the bearer. Now only a player key that holds no seat reads it during play,
    on ``GET /chat`` and on the streams; anyone who may watch reads it once the game is over."""
    ada, bo, cy = player(client, "Ada"), player(client, "Bo"), player(client, "Cy")
    game_id = table(client, ada, bo)
    assert say(client, game_id, cy["key"], "Bo is bluffing").status_code == 201
    anonymous = client.get(f"/v1/games/{game_id}/chat?channel=spectators")
    assert anonymous.status_code == 401 and anonymous.json["error"]["code"] == "auth/missing_token"
    assert "player key" in anonymous.json["error"]["message"]
    assert lines(client, game_id, cy["key"], "spectators") == [("Cy", "Bo is bluffing")]
    stream = Stream(client, game_id)  # anonymous: the players' channel only
    try:
        say(client, game_id, cy["key"], "still bluffing")
        say(client, game_id, ada["key"], "hello")
        assert [m["data"]["text"] for m in stream.until("chat") if m["type"] == "chat"] == ["hello"]
    finally:
        stream.close()
    private = client.post("/v1/games", json={"game": "toy", "seats": [{"me": True}, {"open": True}], "visibility": "private"},
                          headers=auth(ada["key"])).json
    joined = client.post(f"/v1/games/{private['id']}/join", json={"invite": private["invite"]}, headers=auth(bo["key"]))
    assert joined.status_code == 200, joined.json
    with_invite = client.get(f"/v1/games/{private['id']}/chat?channel=spectators", headers=auth(private["invite"]))
    assert with_invite.status_code == 401 and with_invite.json["error"]["code"] == "auth/missing_token"
    assert lines(client, private["id"], private["invite"]) == []  # the players' channel stays readable with it
    assert client.post(f"/v1/games/{game_id}/resign", headers=auth(bo["key"])).status_code == 200
    assert lines(client, game_id, None, "spectators") == [("Cy", "Bo is bluffing"), ("Cy", "still bluffing")]


def test_chat_is_limited_per_address_whoever_writes_from_it(fake_redis, prefix):
    """Issue 41, L2: one address's thirty players each wrote their own allowance, and pushed a channel's kept lines
    out in a minute and a half. Every writer of one address now shares CHAT_LINES_PER_ADDRESS a minute."""
    client = toy_app(fake_redis, prefix, CHAT_LINES_PER_MINUTE=3, CHAT_LINES_PER_ADDRESS=5).test_client()
    ada, bo = player(client, "Ada"), player(client, "Bo")
    game_id = table(client, ada, bo)
    watchers = [player(client, f"Watcher {i}") for i in range(3)]
    answers = [say(client, game_id, w["key"], f"line {n}").status_code for n in range(2) for w in watchers]
    assert answers == [201] * 5 + [429]
    refused = say(client, game_id, ada["key"], "mine")
    assert refused.status_code == 429 and refused.json["error"]["details"] == {"quota": "chat_lines_per_address", "limit": 5}
    elsewhere = client.post(f"/v1/games/{game_id}/chat", json={"text": "from elsewhere"}, headers=auth(bo["key"]),
                            environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert elsewhere.status_code == 201, "another address has its own allowance"
    assert len(lines(client, game_id, watchers[0]["key"], "spectators")) == 5


def test_a_seat_held_by_a_token_can_be_muted_by_naming_the_seat(client):
    """Issue 41, L3: mute named players only, so a seat held by a token (no player key) could not be muted. Mute
    may name a seat of the table: its lines leave the muter's GET /chat and streams, whoever holds it."""
    ada, cy = player(client, "Ada"), player(client, "Cy")
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"me": True}, {"open": True}]}, headers=auth(ada["key"])).json
    bo = client.post(f"/v1/games/{game['id']}/join", json={"name": "Bo"}).json  # a token, no player key
    say(client, game["id"], bo["token"], "you will lose")
    path = f"/v1/games/{game['id']}/seats"
    assert client.post(f"{path}/1/mute", headers=auth(ada["key"])).json == {"game": game["id"], "seat": 1, "muted": True}
    stream = Stream(client, game["id"], ada["key"])
    try:
        say(client, game["id"], bo["token"], "still here")
        say(client, game["id"], ada["key"], "hm")
        assert [m["data"]["text"] for m in stream.until("chat") if m["type"] == "chat"] == ["hm"]
    finally:
        stream.close()
    assert lines(client, game["id"], ada["key"]) == [("Ada", "hm")]
    assert lines(client, game["id"], cy["key"]) == [("Bo", "you will lose"), ("Bo", "still here"), ("Ada", "hm")]
    for refused, status in ((f"{path}/0/mute", 400), (f"{path}/2/mute", 400), ("/v1/games/g_none/seats/1/mute", 404)):
        assert client.post(refused, headers=auth(ada["key"])).status_code == status, refused
    assert client.post(f"{path}/1/mute", headers=auth(bo["token"])).json["error"]["code"] == "auth/missing_token"
    assert client.post(f"{path}/1/unmute", headers=auth(ada["key"])).json["muted"] is False
    assert len(lines(client, game["id"], ada["key"])) == 3
