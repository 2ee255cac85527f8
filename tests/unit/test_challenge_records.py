"""The challenges' keys and scripts (session_service/storage/challenges.py) on fakeredis: the limit of open challenges
per player, one answer winning, a lapse seen by the answer that comes after it, the accept undone, the due ones, a
challenge written once."""

from __future__ import annotations

import pytest

from session_service.storage.challenges import ChallengeRecords
from session_service.storage.store import EventStore

NOW = 1_800_000_000_000  # ms


@pytest.fixture
def records(fake_redis, prefix):
    return ChallengeRecords(EventStore(fake_redis, prefix, shards=4))


def body(challenge_id: str, expires_ms: int = NOW + 300_000) -> dict:
    return {"id": challenge_id, "expires_ms": expires_ms, "game": "toy", "challenger": {"player": "p_a"},
            "challenged": {"player": "p_b"}}


def test_a_player_holds_at_most_its_limit_of_open_challenges_and_a_lapsed_one_frees_its_place(records):
    assert all(records.admit("p_a", "out", f"c_{i}", NOW, NOW + 1000 * (i + 1), 3) for i in range(3))
    assert records.admit("p_a", "out", "c_1", NOW, NOW + 2000, 3), "one counted already is admitted again"
    assert not records.admit("p_a", "out", "c_9", NOW, NOW + 9000, 3)
    assert records.open_ids("p_a", "out", NOW) == ["c_0", "c_1", "c_2"]
    assert records.admit("p_a", "out", "c_9", NOW + 1000, NOW + 9000, 3), "c_0 lapsed at NOW + 1000"
    assert records.open_ids("p_a", "out", NOW + 1000) == ["c_1", "c_2", "c_9"]
    assert records.open_ids("p_a", "in", NOW) == [] and records.admit("p_a", "in", "c_0", NOW, NOW + 1, 1)


def test_one_answer_wins_and_the_others_read_what_it_was(records):
    records.put(body("c_1"))
    assert records.answer("c_1", "accepted", NOW, "g_1") == (True, "accepted", "g_1")
    assert records.answer("c_1", "accepted", NOW, "g_2") == (False, "accepted", "g_1")
    assert records.answer("c_1", "withdrawn", NOW) == (False, "accepted", "g_1")
    assert records.get("c_1")["status"] == "accepted" and records.get("c_1")["table"] == "g_1"
    assert records.answer("c_none", "declined", NOW) is None and records.get("c_none") is None


def test_an_answer_after_the_lapse_expires_it_and_the_round_expires_only_lapsed_ones(records):
    records.put(body("c_1", NOW + 1000))
    assert records.answer("c_1", "expired", NOW) == (False, "open", ""), "not lapsed yet"
    assert records.answer("c_1", "accepted", NOW + 1000, "g_1") == (True, "expired", "")
    assert records.get("c_1")["table"] is None


def test_an_accept_whose_table_was_not_opened_is_undone_and_only_that_one(records):
    records.put(body("c_1"))
    records.answer("c_1", "accepted", NOW, "g_1")
    assert not records.reopen("c_1", "g_other")
    assert records.reopen("c_1", "g_1") and records.get("c_1")["status"] == "open"
    assert records.answer("c_1", "declined", NOW) == (True, "declined", "")


def test_the_due_ones_are_found_in_every_shard_until_forgotten(records):
    ids = [f"c_{i}" for i in range(8)]
    for i, challenge_id in enumerate(ids):
        records.put(body(challenge_id, NOW + i))
    assert len({records.store.shard_of(c) for c in ids}) > 1
    assert sorted(records.due(NOW + 3, 100)) == ids[:4]
    records.forget(body("c_0"))
    records.undue("c_1")
    assert sorted(records.due(NOW + 3, 100)) == ids[2:4]
    records.delete(body("c_2"))
    assert records.get("c_2") is None and sorted(records.due(NOW + 3, 100)) == ["c_3"]


def test_a_challenge_is_written_once_and_a_second_write_of_it_changes_nothing(records):
    assert records.put(body("c_1"))
    records.answer("c_1", "declined", NOW)
    assert not records.put({**body("c_1", NOW + 9_000), "game": "other"})
    assert records.get("c_1")["status"] == "declined" and records.get("c_1")["game"] == "toy"
    assert records.due(NOW + 300_000, 10) == ["c_1"] and records.due(NOW + 9_000, 10) == []
