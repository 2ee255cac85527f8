"""Adding a game is its package and one registry line (docs/adding-a-game.md): the toy game, registered that
way, is served, played to its end by AI seats and audited with no other change."""

from __future__ import annotations

from shared.games import PACKAGES, registry
from tests.support.properties import check_game_properties
from tests.support.stack import make_session_app


def test_a_package_named_in_the_registry_is_a_game_the_server_plays(fake_redis, prefix):
    games = registry((*PACKAGES, "toy"))
    assert "toy" in games and len(games) == len(PACKAGES) + 1
    check_game_properties(games["toy"], 3, seed=11)
    app, scheduler = make_session_app(fake_redis, prefix, games, RATE_LIMIT_PER_MINUTE=0)
    client = app.test_client()
    assert "toy" in {g["id"] for g in client.get("/v1/catalog").json["games"]}
    created = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A", "ai": "random"}, {"name": "B", "ai": "random"}]})
    assert created.status_code == 201
    scheduler.run_ai()
    game_id = created.json["id"]
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    audit = client.get(f"/v1/games/{game_id}/audit").json
    assert audit["chain_ok"] and audit["replay_ok"]
