"""The rules service over its Flask test client, on the toy game."""

import pytest

from rules_service.app import create_app
from shared.kernel import entropy_for
from tests.support.toy import GAME

E0 = entropy_for(b"seed", 0).hex()


@pytest.fixture
def client():
    return create_app({"GAMES": {"toy": GAME}}).test_client()


def setup_events(client, players=2):
    reply = client.post("/v1/setup", json={"game": "toy", "players": players, "entropy": E0})
    assert reply.status_code == 200, reply.json
    return reply.json["events"]


def test_setup_then_decide_from_events(client):
    events = setup_events(client)
    reply = client.post("/v1/decide", json={"game": "toy", "events": events, "command": {"type": "draw_card"}, "seat": 0, "entropy": E0})
    assert reply.status_code == 200, reply.json
    assert reply.json["events"][0]["type"] == "card_drawn"


def test_decide_from_an_encoded_state(client):
    state = GAME.replay(GAME.start(2, {}, bytes.fromhex(E0))[1])
    reply = client.post("/v1/decide", json={"game": "toy", "state": GAME.codec.encode(state), "command": {"type": "draw_card"}, "seat": 0, "entropy": E0})
    assert reply.status_code == 200


def test_a_rule_violation_is_a_422_with_the_rules_code(client):
    events = setup_events(client)
    reply = client.post("/v1/decide", json={"game": "toy", "events": events, "command": {"type": "draw_card"}, "seat": 1, "entropy": E0})
    assert reply.status_code == 422
    assert reply.json["error"]["code"] == "rules/not_your_turn"


def test_legal_commands(client):
    events = setup_events(client)
    reply = client.post("/v1/legal-commands", json={"game": "toy", "events": events, "seat": 0})
    assert reply.status_code == 200
    assert {"type": "draw_card"} in reply.json["legal_commands"]
    assert reply.json["to_act"] == [0]


@pytest.mark.parametrize(
    "path, body, status, code",
    [
        ("/v1/setup", {"game": "nope", "players": 2, "entropy": E0}, 422, "rules/unknown_game"),
        ("/v1/setup", {"game": "toy", "players": 9, "entropy": E0}, 422, "rules/player_count"),
        ("/v1/setup", {"game": "toy", "players": "2", "entropy": E0}, 400, "request/malformed"),
        ("/v1/setup", {"game": "toy", "players": 2, "entropy": "xyz"}, 400, "request/malformed"),
        ("/v1/setup", {"game": "toy", "players": 2, "entropy": "000\n"}, 400, "request/malformed"),  # was a 500: even length, fromhex fails
        ("/v1/decide", {"game": "toy", "events": [], "command": {"type": "x"}, "seat": 0, "entropy": E0[:-1] + "\n"}, 400, "request/malformed"),
        ("/v1/setup", {"game": "toy", "players": 2, "entropy": E0, "extra": 1}, 400, "request/malformed"),
        ("/v1/decide", {"game": "toy", "state": {"$": "os.system"}, "command": {"type": "draw_card"}, "seat": 0, "entropy": E0}, 400, "request/malformed"),
        ("/v1/decide", {"game": "toy", "state": {"$": "ToyState", "players": 2}, "command": {"type": "draw_card"}, "seat": 0, "entropy": E0}, 400, "request/malformed"),
        ("/v1/decide", {"game": "toy", "events": [{"type": "nope", "data": {}}], "command": {"type": "x"}, "seat": 0, "entropy": E0}, 400, "request/malformed"),
        ("/v1/decide", {"game": "toy", "command": {"type": "x"}, "seat": 0, "entropy": E0}, 400, "request/malformed"),
        ("/v1/legal-commands", {"game": "toy", "events": "x", "seat": 0}, 400, "request/malformed"),
    ],
)
def test_bad_requests_get_the_error_body_never_a_500(client, path, body, status, code):
    reply = client.post(path, json=body)
    assert reply.status_code == status, reply.json
    assert reply.json["error"]["code"] == code


def test_not_json_is_malformed(client):
    reply = client.post("/v1/setup", data="{nope", content_type="application/json")
    assert reply.status_code == 400
    assert reply.json["error"]["code"] == "request/malformed"


def test_the_catalogue_lists_commands_as_json_schemas(client):
    entry = client.get("/v1/catalog").json["games"][0]
    assert entry["commands"]["play_card"]["properties"]["card"]["type"] == "integer"
    assert entry["options"]["target"]["default"] == 15


def test_openapi_and_ops(client):
    spec = client.get("/openapi.json").json
    assert "/v1/decide" in spec["paths"]
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200
    assert b"http_requests_total" in client.get("/metrics").data
