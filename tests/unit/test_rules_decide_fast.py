"""The check that lets the rules service's lean decide (rules_service/lean.py) skip marshmallow
(rules_service.decisions.plainly_valid_decide): what it accepts, the schema loads to the same body; what it does not
goes to Flask and the schema refuses it; and the answer is the shape ``DecideResult`` dumps. That the lean
path answers byte for byte as Flask would is tests/unit/test_rules_lean.py's matter."""

from __future__ import annotations

import json

import orjson
import pytest

import rules_service.app as rules_app
from rules_service import decisions
from shared.games import GAMES
from shared.kernel import entropy_for
from shared.wire import schemas
from tests.support.properties import random_playout


def bodies(per_game: int = 6) -> list[dict]:
    found = []
    for game in GAMES.values():
        play = random_playout(game, game.catalogue.min_players, 5, keep_states=True)
        for i, (seat, command) in list(enumerate(play.commands))[:per_game]:
            found.append({"game": game.id, "state": json.loads(orjson.dumps(game.codec.encode(play.states[i]))),
                          "command": command, "seat": seat, "entropy": entropy_for(b"seed", i).hex()})
    return found


BODIES = bodies()


@pytest.fixture
def client():
    return rules_app.create_app().test_client()


@pytest.mark.parametrize("index", range(len(BODIES)))
def test_a_session_service_body_is_taken_as_the_schema_loads_it_and_answered_as_the_schema_dumps(client, index):
    body = BODIES[index]
    assert decisions.plainly_valid_decide(orjson.dumps(body)) == schemas.DecideRequest().load(body)
    reply = client.post("/v1/decide", json=body)
    assert reply.status_code == 200, reply.json
    assert schemas.DecideResult().dump(reply.json) == reply.json and reply.json["events"]


def variants() -> list[tuple[str, object]]:
    body = BODIES[0]
    return [
        ("extra field", {**body, "extra": 1}),
        ("events, not state", {k: v for k, v in body.items() if k != "state"} | {"events": []}),
        ("state and events", {**body, "events": []}),
        ("no command", {k: v for k, v in body.items() if k != "command"}),
        ("seat true", {**body, "seat": True}),
        ("seat 65", {**body, "seat": 65}),
        ("seat -1", {**body, "seat": -1}),
        ("seat 1.0", {**body, "seat": 1.0}),
        ("seat text", {**body, "seat": "1"}),
        ("entropy upper case", {**body, "entropy": body["entropy"].upper()}),
        ("entropy with a newline", {**body, "entropy": body["entropy"] + "\n"}),
        ("entropy one digit", {**body, "entropy": "a"}),
        ("entropy too long", {**body, "entropy": "ab" * 65}),
        ("game empty", {**body, "game": ""}),
        ("game too long", {**body, "game": "g" * 65}),
        ("game a number", {**body, "game": 7}),
        ("command a list", {**body, "command": []}),
        ("body a list", [body]),
        ("not JSON", b"{'game': 1}"),
    ]


@pytest.mark.parametrize("name, body", variants(), ids=[name for name, _ in variants()])
def test_anything_else_goes_to_the_schema_and_is_answered_as_before(client, name, body):
    data = body if isinstance(body, bytes) else orjson.dumps(body)
    assert decisions.plainly_valid_decide(data) is None
    reply = client.post("/v1/decide", data=data, content_type="application/json")
    if name.startswith(("events", "entropy one")):
        return  # valid to the schema; refused or decided further on
    assert reply.status_code == 400, name  # the schema's refusal: the lean path passed it to Flask whole


def test_a_body_not_sent_as_json_goes_to_the_schema(client):
    reply = client.post("/v1/decide", data=orjson.dumps(BODIES[0]), content_type="text/plain")
    assert reply.status_code == 400
