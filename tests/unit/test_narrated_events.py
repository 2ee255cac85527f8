"""Every event a reader receives carries its sentence (``text``): the events endpoint, a command's answer and the
live stream, on the toy game (API.md, "Words and types"). Each reader reads its own seat as "you"; a card only its
holder may see is named to the holder alone; the seat a sentence names is the one the event is about."""

from __future__ import annotations

import pytest

from session_service.use_cases import live
from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.fixture
def app(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0]


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def events(client, game_id, token=None, after=0):
    return client.get(f"/v1/games/{game_id}/events?after={after}", headers=auth(token) if token else {}).json["events"]


def two_seats(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    return game, [seat["token"] for seat in game["seats"]]


def test_the_events_endpoint_tells_each_reader_its_own_sentences(app):
    client = app.test_client()
    game, (ada, bo) = two_seats(client)
    told = {reader: {e["type"] + str(e["data"].get("seat", "")): e["text"] for e in events(client, game["id"], token)}
            for reader, token in (("ada", ada), ("bo", bo), ("spectator", None))}
    dealt_to_ada = "card_dealt0"
    card = next(e["data"]["card"] for e in events(client, game["id"], ada) if e["type"] == "card_dealt" and e["data"]["seat"] == 0)
    assert told["ada"][dealt_to_ada]["plain"] == f"You received the {card}"
    assert told["ada"][dealt_to_ada]["args"] == {"seat": {"seat": 0, "name": "Ada", "you": True},
                                               "card": {"card": card, "name": str(card)}}
    assert told["bo"][dealt_to_ada]["plain"] == told["spectator"][dealt_to_ada]["plain"] == "Ada received a card"
    assert told["bo"]["table_opened"]["plain"] == "Ada and you sat down at the table"
    assert told["spectator"]["table_started"]["plain"] == "The game began"


def test_a_commands_answer_tells_its_events_to_the_seat_that_played_it(app):
    client = app.test_client()
    game, (ada, _) = two_seats(client)
    reply = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=auth(ada))
    assert reply.status_code == 200, reply.json
    drawn, = reply.json["events"]
    assert drawn["text"]["plain"] == f"You drew the {drawn['data']['card']}"
    later = events(client, game["id"], None, after=drawn["version"] - 1)[0]
    assert later["text"]["plain"] == "Ada drew a card" and "card" not in later["data"]


def test_once_the_game_is_over_the_replay_names_every_card_and_still_reads_you_for_the_reader(app):
    client = app.test_client()
    game, (ada, bo) = two_seats(client)
    for turn in range(40):
        state = client.get(f"/v1/games/{game['id']}/state", headers=auth(ada if turn % 2 == 0 else bo)).json
        if state["status"] != "active":
            break
        client.post(f"/v1/games/{game['id']}/commands", json={"command": state["legal_commands"][-1]},
                    headers=auth(ada if turn % 2 == 0 else bo))
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "finished"
    mine = events(client, game["id"], ada)
    dealt_to_bo = next(e for e in mine if e["type"] == "card_dealt" and e["data"]["seat"] == 1)
    assert dealt_to_bo["text"]["plain"] == f"Bo received the {dealt_to_bo['data']['card']}"
    assert mine[-1]["type"] == "table_ended" and mine[-1]["text"]["plain"] in ("You won the game", "Bo won the game",
                                                                                 "The game ended with no winner")


def test_a_stream_opened_before_a_seat_was_taken_names_that_seat_once_it_is(app):
    """The stream reads the seats' names when it opens; a seat taken later is named by the join itself."""
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"open": True}]}).json
    tables = app.extensions["tables"]
    before = tables.meta(game["id"])
    assert client.post(f"/v1/games/{game['id']}/join", json={"name": "Cy"}).status_code == 200
    messages = live.stream(tables, game["id"], 0, 0, 1.0, app.extensions["streams"].hub, meta=before)
    told = []
    for message in messages:
        if message.kind != "event":
            break
        told.append(message.data["text"]["plain"])
    assert told[:2] == ["You sat down at the table, with one open seat", "Cy took an open seat"]
    assert "Cy received a card" in told, told
