"""A stream's ``turn`` message carries the reader's view and the outcome, so a client draws the table from its
stream alone (the web client used to read ``GET /state`` after every message: 131 calls for 45 clicks). The
view is the one ``GET /state`` gives the same reader at that version: a seat's own hand, the others' as counts,
a spectator no hand at all, and every hand once the game is over."""

from __future__ import annotations

import json

import pytest

from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.fixture
def client(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0].test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def messages(client, path, token, count):
    reply = client.get(path, headers={**auth(token), "Accept": "application/x-ndjson"})
    try:
        assert reply.status_code == 200, reply.json
        lines = (line for chunk in reply.response for line in chunk.split(b"\n") if line.strip())
        return [json.loads(next(lines)) for _ in range(count)]
    finally:
        reply.close()


def state(client, game_id, token):
    return client.get(f"/v1/games/{game_id}/state", headers=auth(token)).json


def test_each_readers_turn_message_carries_its_own_view_as_get_state_gives_it(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]}).json
    tokens = [s["token"] for s in game["seats"]]
    before = state(client, game["id"], tokens[0])
    command = before["legal_commands"][0]
    posted = client.post(f"/v1/games/{game['id']}/commands", headers=auth(tokens[0]),
                         json={"command": command, "expected_version": before["version"]})
    assert posted.status_code == 200, posted.json
    path = f"/v1/games/{game['id']}/events/stream?after={before['version']}"
    views = []
    for token in [*tokens, None]:
        *events, turn = messages(client, path, token, len(posted.json["events"]) + 1)
        assert [e["type"] for e in events] == ["event"] * len(events) and turn["type"] == "turn"
        now = state(client, game["id"], token)
        assert turn["data"]["view"] == now["view"] and turn["data"]["outcome"] is None
        assert turn["data"]["legal_commands"] == now["legal_commands"]
        views.append(turn["data"]["view"]["hands"])
    (mine, theirs), (seen_by_1_of_0, own_1), spectator = views
    assert isinstance(mine, list) and isinstance(own_1, list)  # each seat holds its own cards in its view
    assert theirs == len(own_1) and seen_by_1_of_0 == len(mine)  # and only the count of the other's
    assert all(isinstance(h, int) for h in spectator)


def test_a_resumed_stream_with_nothing_to_replay_gives_the_view_at_once(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]}).json
    token = game["seats"][1]["token"]
    now = state(client, game["id"], token)
    turn, = messages(client, f"/v1/games/{game['id']}/events/stream?after={now['version']}", token, 1)
    assert turn["type"] == "turn" and turn["data"]["view"] == now["view"] and turn["data"]["outcome"] is None


def test_the_last_turn_message_carries_the_outcome_and_every_hand(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]}).json
    tokens = [s["token"] for s in game["seats"]]
    resigned = client.post(f"/v1/games/{game['id']}/resign", headers=auth(tokens[1]))
    assert resigned.status_code == 200
    final = state(client, game["id"], tokens[0])
    assert final["status"] == "finished"  # two seats: the one left wins
    head = final["version"]
    event, turn, end = messages(client, f"/v1/games/{game['id']}/events/stream?after={head - 1}", tokens[0], 3)
    assert (event["type"], turn["type"], end["type"]) == ("event", "turn", "end")
    assert turn["data"]["outcome"] == end["data"]["outcome"] == final["outcome"] and turn["data"]["outcome"]
    assert turn["data"]["view"] == final["view"]
    assert all(isinstance(h, list) for h in turn["data"]["view"]["hands"])  # over: every hand is public
