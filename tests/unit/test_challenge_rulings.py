"""Two rulings of challenges (session_service/use_cases/challenges.py) over the API on fakeredis, fast: a challenge
sent again with its ``Idempotency-Key`` answers the same challenge (another body under it: 422), and a player who
muted the challenger is refused to it as one on ``never``. tests/integration/test_challenge_retries.py and
test_challenges.py hold them on a real Redis."""

from __future__ import annotations

import pytest

from tests.support.lobby import auth, player, toy_app


@pytest.fixture
def client(fake_redis, prefix):
    return toy_app(fake_redis, prefix, CHALLENGES_PER_PLAYER=1).test_client()


def test_a_retry_with_the_key_answers_the_same_challenge_and_another_body_under_it_is_refused(client):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    headers = {**auth(ada["key"]), "Idempotency-Key": "k-1"}
    first, again = (client.post("/v1/challenges", json={"to": cy["id"], "game": "toy"}, headers=headers) for _ in range(2))
    assert (again.status_code, again.json) == (first.status_code, first.json) == (201, first.json)
    other = client.post("/v1/challenges", json={"to": cy["id"], "game": "toy", "rated": True}, headers=headers)
    assert (other.status_code, other.json["error"]["code"]) == (422, "request/idempotency_key_reused")
    assert len(client.get("/v1/challenges", headers=auth(cy["key"])).json["incoming"]) == 1


def test_a_player_who_muted_the_challenger_refuses_it_as_never_does(client):
    ada, cy, eve = player(client, "Ada"), player(client, "Cy"), player(client, "Eve")
    client.patch("/v1/me", json={"accept_challenges": "never"}, headers=auth(eve["key"]))
    client.post(f"/v1/players/{ada['id']}/mute", headers=auth(cy["key"]))
    never, muted = (client.post("/v1/challenges", json={"to": who["id"], "game": "toy"}, headers=auth(ada["key"]))
                    for who in (eve, cy))
    assert (muted.status_code, muted.json) == (never.status_code, never.json)
    assert never.json["error"]["code"] == "challenge/not_accepting"
