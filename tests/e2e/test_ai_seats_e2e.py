"""Over HTTP on the real stack: a person against `hard` AI seats plays to the end, the AI moving in the worker."""

from __future__ import annotations

import pytest

from tests.support.client import ApiClient

pytestmark = pytest.mark.e2e


def test_one_person_and_hard_seats_play_to_the_end_through_the_worker(stack):
    api = ApiClient(stack.url)
    entry = next(g for g in api.get("/v1/catalog").json()["games"] if g["id"] == "arkham-ritual")
    assert entry["ai_levels"] == ["random", "easy", "medium", "hard"]
    created = api.create("arkham-ritual", [{"name": "Ada"}, {"name": "H1", "ai": "hard"}, {"name": "H2", "ai": "hard"}])
    final = api.play_humans(created, seed=17)
    assert final["status"] == "finished"
    assert [s["ai"] for s in final["seats"]] == [None, "hard", "hard"]
    export = api.get(f"/v1/games/{created['id']}/export").json()
    by_seat = {(r["cause"]["seat"], r["cause"]["by"]) for r in export["events"] if r.get("cause", {}).get("type") not in
               (None, "open_table", "join", "start")}
    assert {(1, "ai"), (2, "ai"), (0, "seat")} <= by_seat
