"""The document and the server agree on what a request may be (issue 45): schemathesis found ``seats: [{}]``
admitted by the document and refused by the server, ``{"bot": 0}`` accepted as false, muting yourself a 400
``request/malformed``, and openapi-typescript's default flags made every field with a ``default`` required."""

from __future__ import annotations

import fakeredis
import pytest

from shared.games import GAMES
from tests.support.contract import Contract
from tests.support.stack import make_session_app

SEATS = [
    {}, {"name": "Ada"}, {"name": "Bot", "ai": "random"}, {"ai": "random"}, {"open": True}, {"open": False},
    {"open": True, "player": "p_x"}, {"name": "Ada", "player": "p_x"}, {"me": True}, {"me": True, "open": True},
    {"me": True, "name": "Ada"}, {"me": False, "name": "Ada"}, {"open": True, "ai": "random"}, {"me": True, "ai": None},
    {"open": True, "name": "Ada"}, {"me": True, "player": "p_x"}, {"me": 1}, {"open": 1}, {"name": "Ada", "me": 0},
    {"open": True, "me": False, "ai": None},
]


@pytest.fixture(scope="module")
def app():
    return make_session_app(fakeredis.FakeRedis(), "rules", GAMES)[0]


@pytest.fixture(scope="module")
def contract(app):
    return Contract(app.test_client().get("/openapi.json").get_json(), strict=False)


@pytest.fixture(scope="module")
def key(app):
    return app.test_client().post("/v1/players", json={"name": "Ada"}).get_json()["key"]


@pytest.mark.parametrize("seat", SEATS, ids=repr)
def test_a_seat_the_document_admits_is_one_the_server_takes(app, contract, key, seat):
    body = {"game": "pocket-madness", "seats": [seat, {"name": "Bot", "ai": "random"}]}
    admitted = not contract.problems("CreateGame", body)
    answer = app.test_client().post("/v1/games", json=body, headers={"Authorization": f"Bearer {key}"})
    assert (answer.status_code == 201) == admitted, (admitted, answer.get_json())
    if not admitted:
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "request/malformed"


@pytest.mark.parametrize("bot", [0, 1, "true", "false", None])
def test_a_boolean_is_true_or_false_never_a_number_or_a_word(app, contract, bot):
    assert contract.problems("PlayerRequest", {"name": "Cy", "bot": bot})
    answer = app.test_client().post("/v1/players", json={"name": "Cy", "bot": bot})
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "request/malformed"


def test_no_request_field_has_a_default_keyword_its_description_says_it(contract):
    seat = contract.document["components"]["schemas"]["SeatRequest"]["properties"]
    assert not any("default" in field for field in seat.values())
    assert seat["me"]["description"].endswith("left out: false")


def test_muting_yourself_is_a_422_with_its_own_code(app, key):
    me = app.test_client().get("/v1/me", headers={"Authorization": f"Bearer {key}"}).get_json()
    answer = app.test_client().post(f"/v1/players/{me['id']}/mute", headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 422 and answer.get_json()["error"]["code"] == "player/cannot_mute_self"
