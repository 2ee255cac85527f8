"""The use cases' answer records and the schemas that serialize them hold the same keys (issue 43): a schema drops a
key it does not declare, silently, so a field the use case adds would reach POST …/commands' callers (answered
as built) but vanish from GET /v1/games and /state."""

from __future__ import annotations

from typing import get_type_hints

import pytest

from shared.wire import schemas
from session_service.use_cases.resources import GameResource, SeatState
from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.mark.parametrize(("record", "schema"), [(GameResource, schemas.GameResource), (SeatState, schemas.State)])
def test_each_answer_record_declares_the_keys_of_its_schema(record, schema):
    assert set(get_type_hints(record)) == set(schema().fields)


def test_a_served_game_resource_holds_every_key_the_use_case_built(fake_redis, prefix):
    """Through the schema, a table's resource keeps each key the use case built, on a read and in a listing."""
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME})
    client = app.test_client()
    created = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]}).json
    built = app.extensions["tables"].resource(created["id"])
    served = client.get(f"/v1/games/{created['id']}").json
    assert set(served) == set(built)
    listed = client.get("/v1/games").json["games"]
    assert set(next(g for g in listed if g["id"] == created["id"])) == set(built)
