"""AI seats at every level play through the worker's job to the end, on the toy game with small budgets."""

from __future__ import annotations

import pytest

from shared.ai import LEVELS, Level
from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.fixture
def app_and_scheduler(fake_redis, prefix, monkeypatch):
    for name, spec in LEVELS.items():  # small budgets: the test checks the wiring, not the strength
        monkeypatch.setitem(LEVELS, name, Level(name, min(spec.playouts, 12), 30.0))
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)


def test_the_catalogue_offers_every_level_and_the_table_takes_them(app_and_scheduler):
    app, scheduler = app_and_scheduler
    client = app.test_client()
    entry = next(g for g in client.get("/v1/catalog").json["games"] if g["id"] == "toy")
    assert entry["ai_levels"] == ["random", "easy", "medium", "hard"]
    seats = [{"name": "E", "ai": "easy"}, {"name": "M", "ai": "medium"}, {"name": "H", "ai": "hard"}]
    game = client.post("/v1/games", json={"game": "toy", "seats": seats}).json
    scheduler.run_ai()
    final = client.get(f"/v1/games/{game['id']}").json
    assert final["status"] == "finished" and final["outcome"]["winners"]
    assert [s["ai"] for s in final["seats"]] == ["easy", "medium", "hard"]
    audit = client.get(f"/v1/games/{game['id']}/audit").json
    assert audit["chain_ok"] and audit["replay_ok"] and audit["seed_ok"]


def test_an_unknown_level_is_refused_with_the_levels_on_offer(app_and_scheduler):
    app, _ = app_and_scheduler
    reply = app.test_client().post("/v1/games", json={"game": "toy", "seats": [{"name": "A", "ai": "godlike"}, {"name": "B"}]})
    assert reply.status_code == 422 and reply.json["error"]["code"] == "rules/unknown_ai"
    assert "hard" in reply.json["error"]["details"]["ai_levels"]
