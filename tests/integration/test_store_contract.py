"""The store contract, run against fakeredis (fast) and a real Redis (the truth)."""

from __future__ import annotations

import threading

import orjson
import pytest

from session_service.store import EventStore
from shared.records import GENESIS, first_broken_link, make_records
from shared.kernel import ev


def records(version, prev, n=2, cause="c"):
    events = [ev("thing_happened", n=i) for i in range(n)]
    return make_records(events, version=version, prev_hash=prev, cause={"id": cause, "seat": 0, "type": "x", "by": "seat"},
                        command={"type": "x"}, at="2026-01-01T00:00:00.000Z", rules_version="t/1")


class StoreContract:
    @pytest.fixture
    def store(self, client, prefix):
        return EventStore(client, prefix)

    def new_game(self, store, game_id="g1"):
        first = records(0, GENESIS, cause="setup")
        store.create(game_id, {"game": "toy", "status": "active"}, first, 1)
        return first

    def test_keys_of_one_game_share_a_cluster_hash_tag(self, store):
        assert store.key("g1", "events").split(":")[1] == store.key("g1", "meta").split(":")[1] == "{g1}"

    def test_create_writes_meta_and_setup_records(self, store):
        first = self.new_game(store)
        assert store.version("g1") == 2
        assert store.records("g1") == first
        assert store.meta("g1")["game"] == "toy"

    def test_append_checks_the_expected_version(self, store):
        first = self.new_game(store)
        more = records(2, first[-1]["hash"])
        assert store.append("g1", 1, more, {}).status == "conflict"
        assert store.append("g1", 2, more, {"head_hash": more[-1]["hash"]}).version == 4
        assert first_broken_link(store.records("g1")) is None
        assert store.meta("g1")["head_hash"] == more[-1]["hash"]

    def test_a_repeated_idempotency_key_writes_once_and_returns_the_first_answer(self, store):
        first = self.new_game(store)
        more = records(2, first[-1]["hash"])
        assert store.append("g1", 2, more, {}, "0:k", "answer").status == "ok"
        again = store.append("g1", 4, records(4, more[-1]["hash"]), {}, "0:k", "other")
        assert (again.status, again.prior) == ("duplicate", "answer")
        assert store.version("g1") == 4

    def test_append_to_a_missing_game_writes_nothing(self, store):
        assert store.append("nope", 0, records(0, GENESIS), {}).status == "missing"
        assert store.records("nope") == []

    def test_records_are_read_by_version_range(self, store):
        first = self.new_game(store)
        store.append("g1", 2, records(2, first[-1]["hash"], n=3), {})
        assert [r["v"] for r in store.records("g1", after=1, until=4)] == [2, 3, 4]
        assert [r["v"] for r in store.records("g1", after=3, limit=1)] == [4]

    def test_a_snapshot_is_only_replaced_by_a_newer_one(self, store):
        store.save_snapshot("g1", 10, b"ten")
        store.save_snapshot("g1", 5, b"five")
        assert store.snapshot("g1") == (10, b"ten")
        store.save_snapshot("g1", 20, b"twenty")
        assert store.snapshot("g1") == (20, b"twenty")

    def test_concurrent_appends_at_one_version_let_exactly_one_through(self, store):
        first = self.new_game(store)
        results = []

        def attempt(i):
            results.append(store.append("g1", 2, records(2, first[-1]["hash"], cause=f"c{i}"), {}).status)

        threads = [threading.Thread(target=attempt, args=(i,)) for i in range(10)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert sorted(results) == ["conflict"] * 9 + ["ok"]
        assert [r["v"] for r in store.records("g1")] == [1, 2, 3, 4]

    def test_listing_is_newest_first_with_a_cursor(self, store):
        for i in range(5):
            store.create(f"g{i}", {"game": "toy", "status": "active"}, records(0, GENESIS), i)
        assert store.game_ids(None, 2) == ["g4", "g3"]
        assert store.game_ids("g3", 2) == ["g2", "g1"]

    def test_records_round_trip_as_json(self, store):
        first = self.new_game(store)
        assert orjson.loads(orjson.dumps(store.records("g1"))) == first


class TestFakeRedisStore(StoreContract):
    @pytest.fixture
    def client(self, fake_redis):
        return fake_redis


class TestRealRedisStore(StoreContract):
    @pytest.fixture
    def client(self, real_redis):
        return real_redis
