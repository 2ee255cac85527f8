"""The OpenAPI document describes the whole wire (issue 29, item 2): every game's commands, views, events and outcome as
components, the streams by their messages (OpenAPI 3.2's ``itemSchema``, never a schema a generator would read a
never-ending body with), and renderings for readers of OpenAPI 3.1 and 3.0 (openapi-python-client, the bundled
Swagger UI of ``/docs``). What the services send is checked against it in tests/property/test_wire_shapes.py and
tests/e2e/test_wire_contract.py."""

from __future__ import annotations

import dataclasses

import fakeredis
import orjson
import pytest

from shared.games import GAMES
from shared.kernel.table import TABLE_FACTS
from shared.wire.catalog import command_schemas
from shared.wire.contract import pascal
from shared.wire.openapi import schema_3_0
from session_service.http.streaming import NDJSON, SSE, reconnect_hint
from tests.support.contract import Contract
from tests.support.stack import make_session_app
from tests.support.toy import GAME as TOY

STREAMS = {"/v1/games/{game_id}/events/stream": ("GameStreamEvent", "GameStreamMessage"),
           "/v1/me/stream": ("PlayerStreamEvent", "PlayerStreamMessage")}


@pytest.fixture(scope="module")
def client():
    return make_session_app(fakeredis.FakeRedis(), "document", GAMES)[0].test_client()


@pytest.fixture(scope="module")
def document(client):
    return client.get("/openapi.json").get_json()


def test_the_document_is_openapi_3_2_and_its_renderings_3_1_and_3_0(client, document):
    assert document["openapi"] == "3.2.0"
    assert client.get("/openapi-3.1.json").get_json()["openapi"] == "3.1.1"
    assert client.get("/openapi-3.0.json").get_json()["openapi"] == "3.0.3"
    assert b"/openapi-3.0.json" in client.get("/docs").data  # the bundled Swagger UI renders 3.0 only


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_its_commands_views_events_and_outcome_as_components(document, game_id):
    game, name, schemas = GAMES[game_id], pascal(game_id), document["components"]["schemas"]
    commands = schemas[name + "Command"]
    assert set(commands["discriminator"]["mapping"]) == set(game.catalogue.commands)
    for kind, schema in command_schemas(game).items():
        component = schemas[name + pascal(kind)]
        assert component["properties"]["type"]["const"] == kind and "additionalProperties" not in component
        assert set(component["properties"]) == set(schema["properties"])  # the catalogue's schema, one source
    events = schemas[name + "Event"]["discriminator"]["mapping"]
    assert set(events) == {f.TYPE for f in [*TABLE_FACTS, *game.decider.facts]}
    for fact in game.decider.facts:
        data = schemas[name + pascal(fact.TYPE) + "Event"]["properties"]["data"]
        assert set(data["properties"]) == {f.name for f in dataclasses.fields(fact)}
        withheld = set(game.catalogue.shapes.withheld.get(fact.TYPE, ())) | fact.OPTIONAL
        assert set(data.get("required", [])) == set(data["properties"]) - withheld
    for view in ("View", "SeatView", "SpectatorView"):
        assert name + view in schemas
    outcome = schemas[name + "Outcome"]["properties"]
    assert outcome["scores"]["type"] == ["array", "null"] and outcome["scores"]["items"]["type"] == "integer"
    assert set(outcome["reason"]["enum"]) >= {str(r) for r in game.decider.reasons} | {"resignation", "abandoned"}
    assert {"$ref": f"#/components/schemas/{name}View"} in schemas["View"]["anyOf"]


def test_what_carries_a_view_is_told_apart_by_its_game_and_refers_to_that_games_own_components(document):
    """Issue 45: a view's legal commands referred to the union of every game's, whose ``type`` values repeat across
    games (a generated client filed Rise of Cthulhu's ``draw_card`` as Rites of Cthulhu's). Each message that carries a
    view, a command, an event or an outcome names its game (``game``, a const), and refers to that game's own."""
    schemas = document["components"]["schemas"]
    for kind in ("State", "Turn", "End", "GameResource", "Export"):
        assert schemas[kind]["discriminator"]["mapping"] == {g: f"#/components/schemas/{pascal(g)}{kind}" for g in GAMES}
        for game_id in GAMES:
            assert schemas[pascal(game_id) + kind]["properties"]["game"]["const"] == game_id
            outcome = schemas[pascal(game_id) + kind]["properties"]["outcome"]["anyOf"][0]["$ref"]
            assert outcome.endswith(f"/{pascal(game_id)}Outcome")
    for game_id in GAMES:
        name = pascal(game_id)
        for kind in ("State", "Turn"):
            fields = schemas[name + kind]["properties"]
            assert fields["game"]["const"] == game_id and "game" in schemas[name + kind]["required"]
            assert fields["legal_commands"]["items"]["$ref"].endswith(f"/{name}Command")
            assert [r["$ref"].rsplit("/", 1)[1] for r in fields["view"]["anyOf"]] == [name + "View", "WaitingView"]
            assert fields["outcome"]["anyOf"][0]["$ref"].endswith(f"/{name}Outcome")
        for event in schemas[name + "Event"]["oneOf"]:
            assert schemas[event["$ref"].rsplit("/", 1)[1]]["properties"]["game"]["const"] == game_id
    assert [r["$ref"].rsplit("/", 1)[1] for r in schemas["Event"]["oneOf"]] == [pascal(g) + "Event" for g in GAMES]
    # where the game is not known (a request's command), the union of every game's stays
    assert schemas["CommandRequest"]["properties"]["command"]["$ref"].endswith("/Command")


@pytest.mark.parametrize("path", sorted(STREAMS))
def test_a_stream_is_described_by_its_items_never_as_one_body(document, path):
    content = document["paths"][path]["get"]["responses"]["200"]["content"]
    sse, line = STREAMS[path]
    assert content[SSE] == {"itemSchema": {"$ref": f"#/components/schemas/{sse}"}}
    assert content[NDJSON] == content["application/jsonl"] == {"itemSchema": {"$ref": f"#/components/schemas/{line}"}}


def test_the_3_1_rendering_keeps_the_items_as_an_extension_and_no_body_schema(client):
    content = client.get("/openapi-3.1.json").get_json()["paths"]["/v1/games/{game_id}/events/stream"]["get"][
        "responses"]["200"]["content"]
    assert all("schema" not in media and "itemSchema" not in media and "x-itemSchema" in media for media in content.values())


def test_a_schema_in_openapi_3_0_s_dialect():
    assert schema_3_0({"type": ["integer", "null"], "minimum": 0}) == {"type": "integer", "minimum": 0, "nullable": True}
    assert schema_3_0({"type": "string", "const": "turn"}) == {"type": "string", "enum": ["turn"]}
    assert schema_3_0({"anyOf": [{"$ref": "#/x"}, {"type": "null"}]}) == {"allOf": [{"$ref": "#/x"}], "nullable": True}
    assert schema_3_0({"type": ["string", "null"], "enum": ["a", None]}) == {"type": "string", "enum": ["a", None],
                                                                             "nullable": True}
    assert schema_3_0({"type": "object", "if": {}, "then": {}, "propertyNames": {}, "properties": {
        "a": {"type": ["integer", "string"]}}}) == {"type": "object", "properties": {
            "a": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}}


def test_a_retry_line_and_a_keepalive_as_the_streams_send_them(document):
    contract = Contract(document)
    contract.check("GameStreamMessage", orjson.loads(reconnect_hint(NDJSON, 1500)))
    contract.check("PlayerStreamMessage", orjson.loads(reconnect_hint(NDJSON, 1500)))
    fields = dict(line.split(": ", 1) for line in reconnect_hint(SSE, 1500).decode().strip().splitlines())
    contract.check("GameStreamEvent", {"retry": int(fields["retry"])})
    assert contract.problems("GameStreamMessage", {"type": "retry", "data": {}})


def test_a_stream_answers_json_lines_when_asked_for_them():
    client = make_session_app(fakeredis.FakeRedis(), "jsonl", {"toy": TOY})[0].test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]}).json
    reply = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Accept": "application/jsonl"})
    try:
        assert reply.status_code == 200 and reply.mimetype == "application/jsonl"
        first = orjson.loads(next(iter(reply.response)).split(b"\n")[0])
        assert first["type"] == "state" and first["id"] == game["version"]
    finally:
        reply.close()
