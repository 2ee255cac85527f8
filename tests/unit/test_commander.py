"""How a command finds its meta and seat is the use case's (``Tables.commander``, issue 43), not the HTTP view's:
the meta this process knows stands in for a read, and a token that holds no seat in it is looked for again in the
log's (a seat taken since, through another process)."""

from __future__ import annotations

import pytest

from session_service.use_cases.errors import BadToken
from tests.support.stack import make_session_app
from tests.support.toy import GAME


def test_a_seat_taken_through_another_process_is_found_in_the_log(fake_redis, prefix):
    here, there = (make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0] for _ in range(2))
    client = here.test_client()
    created = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"open": True}]}).json
    tables = here.extensions["tables"]
    known = tables.commander(created["id"], created["seats"][0]["token"], None)
    assert (known.seat, known.unread) == (0, True), "the meta this process wrote stands in for a read"
    joined = there.test_client().post(f"/v1/games/{created['id']}/join", json={"name": "Bo"}).json
    behind = tables.known_meta(created["id"], None)
    found = tables.commander(created["id"], joined["token"], None)
    assert (found.seat, found.unread) == (1, False) and found.meta.version > behind.version
    with pytest.raises(BadToken):
        tables.commander(created["id"], "st_not-a-token-of-this-game", None)
    assert tables.commander(created["id"], None, None).seat is None  # a spectator
