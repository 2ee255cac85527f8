"""The session service's command route without marshmallow on plainly valid bodies (session_service.http.api
.plainly_valid_command), and its answer not dumped through ``schemas.CommandResult``: what the check accepts the
schema loads to the same body; what it does not goes to Flask and the schema refuses it (that the lean path,
session_service/http/lean.py, answers as Flask would is tests/unit/test_session_lean.py's matter); and every answer of real games is the shape ``CommandResult`` dumps, its events exactly
what the seat's own event log shows (so no less redacted)."""

from __future__ import annotations

import orjson
import pytest

import session_service.http.api as api
from shared.games import GAMES
from shared.wire import schemas
from tests.support.properties import random_playout
from tests.support.stack import make_session_app
from tests.support.toy import GAME

VALID = [
    {"command": {"type": "draw_card"}},
    {"command": {"type": "draw_card"}, "expected_version": None},
    {"command": {"type": "play", "card": 3, "targets": [1, 2], "x": {"y": [{"z": 1}]}}, "expected_version": 0},
    {"command": {}, "expected_version": schemas.MAX_VERSION},
    {"command": {"a": [[[[[[[1]]]]]]]}, "expected_version": 7},
]
INVALID = [
    ("extra field", {"command": {"type": "draw_card"}, "extra": 1}),
    ("no command", {"expected_version": 3}),
    ("command a list", {"command": [1]}),
    ("command text", {"command": "draw_card"}),
    ("command null", {"command": None}),
    ("nested too deep", {"command": {"a": [[[[[[[[1]]]]]]]]}}),
    ("version negative", {"command": {}, "expected_version": -1}),
    ("version too large", {"command": {}, "expected_version": schemas.MAX_VERSION + 1}),
    ("version true", {"command": {}, "expected_version": True}),
    ("version 1.0", {"command": {}, "expected_version": 1.0}),
    ("version text", {"command": {}, "expected_version": "1"}),
    ("body a list", [{"command": {}}]),
    ("body a number", 3),
    ("not JSON", b"{'command': {}}"),
    ("bad UTF-8", b'{"command": {"type": "\xff"}}'),
]


@pytest.mark.parametrize("body", VALID)
def test_a_plainly_valid_body_is_taken_as_the_schema_loads_it(body):
    assert api.plainly_valid_command(orjson.dumps(body)) == schemas.CommandRequest().load(body)


@pytest.fixture
def client(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0].test_client()


@pytest.mark.parametrize("name, body", INVALID, ids=[name for name, _ in INVALID])
def test_anything_else_goes_to_the_schema_and_is_answered_as_before(client, name, body):
    data = body if isinstance(body, bytes) else orjson.dumps(body)
    assert api.plainly_valid_command(data) is None
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    path = f"/v1/games/{game['id']}/commands"
    reply = client.post(path, data=data, content_type="application/json", headers=seat)
    assert reply.status_code == 400, name  # the schema's refusal: the lean path passed it to Flask whole


def test_a_body_not_sent_as_json_is_refused_as_before(client):
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    reply = client.post(f"/v1/games/{game['id']}/commands", data=orjson.dumps(VALID[0]), content_type="text/plain",
                        headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
    assert reply.status_code == 415


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_answer_is_the_schemas_shape_and_the_seats_own_events(fake_redis, prefix, kind):
    game_type = GAMES[kind]
    app, _ = make_session_app(fake_redis, prefix, GAMES, RATE_LIMIT_PER_MINUTE=0, ALLOW_CLIENT_SEED=True)
    client = app.test_client()
    play = random_playout(game_type, game_type.catalogue.max_players, 11)
    game = client.post("/v1/games", json={"game": kind, "seats": [{"name": f"S{i}"} for i in range(play.players)],
                                          "options": play.options, "seed": (11).to_bytes(8, "big").hex()}).json
    tokens = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in game["seats"]}
    version = game["version"]
    for seat, command in play.commands[:40]:
        reply = client.post(f"/v1/games/{game['id']}/commands", json={"command": command, "expected_version": version},
                            headers={**tokens[seat], "Idempotency-Key": f"k{version}"})
        assert reply.status_code == 200, reply.json
        assert schemas.CommandResult().dump(reply.json) == reply.json and reply.json["events"]
        logged = client.get(f"/v1/games/{game['id']}/events?after={version}", headers=tokens[seat]).json
        assert logged["events"] == reply.json["events"]
        again = client.post(f"/v1/games/{game['id']}/commands", json={"command": command, "expected_version": version},
                            headers={**tokens[seat], "Idempotency-Key": f"k{version}"})
        assert (again.status_code, again.json) == (200, reply.json)
        version = reply.json["version"]

