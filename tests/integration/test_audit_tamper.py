"""Tampering with a stored game in a real Redis: the chain check or the re-decision finds it, naming the version."""

from __future__ import annotations

import orjson
import pytest

from shared.games import GAMES
from shared.kernel.entropy import commitment
from shared.records import record_hash
from tests.support.stack import make_session_app

GAME = GAMES["pocket-madness"]


@pytest.fixture
def finished(real_redis, prefix):
    app, scheduler = make_session_app(real_redis, prefix, {GAME.id: GAME}, RATE_LIMIT_PER_MINUTE=0)
    client = app.test_client()
    game = client.post("/v1/games", json={"game": GAME.id, "seats": [{"name": "A", "ai": "random"}, {"name": "B", "ai": "random"}]}).json
    scheduler.run_ai()
    tables = app.extensions["tables"]
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "finished"
    return client, tables, game["id"]


def rewrite(tables, game_id, change):
    """Rebuild the stream with ``change(records)`` applied (streams cannot be edited in place)."""
    key = tables.store.key(game_id, "events")
    records = change(tables.store.records(game_id))
    tables.store.redis.delete(key)
    for index, record in enumerate(records, start=1):
        tables.store.redis.xadd(key, {"r": orjson.dumps(record)}, id=f"{index}-0")
    tables.positions._cache.clear()


def audit(client, game_id):
    return client.get(f"/v1/games/{game_id}/audit").json


def test_an_untouched_game_audits_clean(finished):
    client, _, game_id = finished
    report = audit(client, game_id)
    assert (report["chain_ok"], report["replay_ok"], report["seed_ok"], report["first_divergence"]) == (True, True, True, None)


def test_changing_one_events_data_breaks_the_chain_at_that_version(finished):
    client, tables, game_id = finished

    def change(records):
        records[9]["data"] = {**records[9]["data"], "tampered": True}
        return records

    rewrite(tables, game_id, change)
    report = audit(client, game_id)
    assert not report["chain_ok"] and report["first_divergence"]["version"] == 10


def test_deleting_one_event_breaks_the_chain_at_that_version(finished):
    client, tables, game_id = finished
    tables.store.redis.xdel(tables.store.key(game_id, "events"), "7-0")
    report = audit(client, game_id)
    assert not report["chain_ok"] and report["first_divergence"]["version"] == 7


def test_reordering_two_events_breaks_the_chain_at_the_first(finished):
    client, tables, game_id = finished

    def swap(records):
        records[4], records[5] = records[5], records[4]
        return records

    rewrite(tables, game_id, swap)
    report = audit(client, game_id)
    assert not report["chain_ok"] and report["first_divergence"]["version"] == 5


def test_changing_the_seed_fails_the_commitment_and_the_re_decision(finished):
    client, tables, game_id = finished
    tables.store.set_meta(game_id, seed=(b"\x01" * 32).hex())
    report = audit(client, game_id)
    assert report["chain_ok"] and report["seed_ok"] is False and report["replay_ok"] is False
    assert report["first_divergence"]["version"] == 2  # table_opened draws nothing; the deal after it does


def test_a_rewritten_event_with_a_recomputed_chain_is_caught_by_the_re_decision(finished):
    client, tables, game_id = finished
    target = 12

    def forge(records):
        record = records[target - 1]
        record["data"] = {**record["data"], "forged": 1}
        prev = records[target - 2]["hash"]
        for r in records[target - 1 :]:
            r["prev"] = prev
            r["hash"] = prev = record_hash(prev, r)
        return records

    rewrite(tables, game_id, forge)
    tables.store.set_meta(game_id, head_hash=tables.store.records(game_id)[-1]["hash"])
    report = audit(client, game_id)
    assert report["chain_ok"] and report["replay_ok"] is False
    assert report["first_divergence"]["version"] == target


def test_an_audit_under_another_rules_version_says_so(finished):
    client, tables, game_id = finished

    def older(records):
        prev = "0" * 64
        for r in records:
            r["rules"] = "pocket-madness/0"
            r["prev"] = prev
            r["hash"] = prev = record_hash(prev, r)
        return records

    rewrite(tables, game_id, older)
    tables.store.set_meta(game_id, head_hash=tables.store.records(game_id)[-1]["hash"])
    report = audit(client, game_id)
    assert report["chain_ok"] and report["replay_ok"] is False
    assert "rules version" in report["first_divergence"]["problem"]
    assert report["first_divergence"]["found"] == "pocket-madness/0"


def test_a_running_game_audits_its_chain_only(real_redis, prefix):
    app, _ = make_session_app(real_redis, prefix, {GAME.id: GAME}, RATE_LIMIT_PER_MINUTE=0)
    client = app.test_client()
    game = client.post("/v1/games", json={"game": GAME.id, "seats": [{"name": "A"}, {"name": "B"}]}).json
    report = audit(client, game["id"])
    assert report["chain_ok"] and report["replay_ok"] is None and report["seed_ok"] is None
    assert commitment(b"x") != game["seed_commitment"]
