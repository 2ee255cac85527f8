"""Rulings of challenges (session_service/use_cases/challenges.py) over the API on fakeredis, fast: a player who
muted the challenger is refused to it as one on ``never``. tests/integration/test_challenges.py holds it on a real
Redis."""

from __future__ import annotations

import pytest

from tests.support.lobby import auth, player, toy_app


@pytest.fixture
def client(fake_redis, prefix):
    return toy_app(fake_redis, prefix, CHALLENGES_PER_PLAYER=1).test_client()


def test_a_player_who_muted_the_challenger_refuses_it_as_never_does(client):
    ada, cy, eve = player(client, "Ada"), player(client, "Cy"), player(client, "Eve")
    client.patch("/v1/me", json={"accept_challenges": "never"}, headers=auth(eve["key"]))
    client.post(f"/v1/players/{ada['id']}/mute", headers=auth(cy["key"]))
    never, muted = (client.post("/v1/challenges", json={"to": who["id"], "game": "toy"}, headers=auth(ada["key"]))
                    for who in (eve, cy))
    assert (muted.status_code, muted.json) == (never.status_code, never.json)
    assert never.json["error"]["code"] == "challenge/not_accepting"
