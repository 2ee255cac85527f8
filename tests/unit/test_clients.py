"""``clients.client``: who is asking, the one answer the rate limit (and the stream caps, and the lobby's quotas)
use. A seat whose token holds is one client however its header is spelled; anything else is its address."""

from __future__ import annotations

import pytest

from session_service.http import clients
from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.fixture
def game(fake_redis, prefix):
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)
    created = app.test_client().post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    tables = app.extensions["tables"]
    return app, tables.meta(created["id"]), [s["token"] for s in created["seats"]]


def who(app, meta, authorization=None, address="203.0.113.5", **headers):
    sent = {**({"Authorization": authorization} if authorization is not None else {}), **headers}
    with app.test_request_context(headers=sent, environ_base={"REMOTE_ADDR": address}):
        return clients.client(meta)


def test_a_seat_is_one_client_however_its_token_is_spelled(game):
    app, meta, (ada, bo) = game
    seen = {who(app, meta, f"{scheme}{gap}{ada}{tail}", address=f"203.0.113.{i}")
            for i, (scheme, gap, tail) in enumerate([("Bearer", " ", ""), ("bearer", "   ", " "), ("BEARER", " ", "  ")])}
    assert seen == {clients.token_client(ada)}
    assert who(app, meta, f"Bearer {bo}") == clients.token_client(bo) != clients.token_client(ada)
    assert ada not in clients.token_client(ada)  # the key never holds the token itself


@pytest.mark.parametrize("authorization", [None, "Bearer made-up", "Basic Zm9vOmJhcg==", "Bearer", "", "Bearer a b c"])
def test_anything_but_a_token_that_holds_is_the_address(game, authorization):
    app, meta, _ = game
    assert who(app, meta, authorization) == "addr:203.0.113.5"


def test_a_token_is_a_client_only_where_it_holds(game):
    app, meta, (ada, _bo) = game
    assert who(app, None, f"Bearer {ada}") == "addr:203.0.113.5"  # no game: nothing to hold in
