"""The storage contracts, run against fakeredis (fast), a real Redis (the truth) and a real three-primary Redis
Cluster (what a scaled deployment runs): every backend passes the same tests. The event store's and its listing
index's are here; the other adapters' (``adapter_contracts.py``) run here too, to share one cluster."""

from __future__ import annotations

import threading

import orjson
import pytest
import redis

from session_service.storage.index import GameIndex, names_for, status_names
from session_service.storage.store import Charge, EventStore
from shared.records import GENESIS, first_broken_link, make_records
from shared.kernel import ev
from tests.integration.adapter_contracts import CONTRACTS
from tests.support.backends import OnFakeRedis, OnRealRedis, OnRedisCluster, on_every_backend


def records(version, prev, n=2, cause="c"):
    events = [ev("thing_happened", n=i) for i in range(n)]
    return make_records(events, version=version, prev_hash=prev, cause={"id": cause, "seat": 0, "type": "x", "by": "seat"},
                        command={"type": "x"}, at="2026-01-01T00:00:00.000Z", rules_version="t/1")


class StoreContract:
    @pytest.fixture
    def store(self, client, prefix):
        return EventStore(client, prefix, shards=4)

    def new_game(self, store, game_id="g1"):
        first = records(0, GENESIS, cause="setup")
        store.create(game_id, {"game": "toy", "status": "active"}, first)
        return first

    def test_keys_of_one_game_share_a_cluster_hash_tag(self, store):
        assert store.key("g1", "events").split(":")[1] == store.key("g1", "meta").split(":")[1] == "{g1}"

    def test_create_writes_meta_and_setup_records(self, store):
        first = self.new_game(store)
        assert store.version("g1") == 2
        assert store.records("g1") == first
        assert store.meta("g1")["game"] == "toy"

    def test_a_game_is_created_once(self, store):
        self.new_game(store)
        again = store.create("g1", {"game": "other", "status": "active"}, records(0, GENESIS, cause="other"))
        assert again.status == "conflict"
        assert store.meta("g1")["game"] == "toy" and len(store.records("g1")) == 2

    def test_append_checks_the_expected_version(self, store):
        first = self.new_game(store)
        more = records(2, first[-1]["hash"])
        assert store.append("g1", 1, more, {}).status == "conflict"
        assert store.append("g1", 2, more, {"head_hash": more[-1]["hash"]}).version == 4
        assert first_broken_link(store.records("g1")) is None
        assert store.meta("g1")["head_hash"] == more[-1]["hash"]

    def test_an_append_sent_again_after_a_lost_reply_lands_once_and_answers_ok(self, store):
        first = self.new_game(store)
        more = records(2, first[-1]["hash"], cause="mine")
        assert store.append("g1", 2, more, {}).status == "ok"
        again = store.append("g1", 2, more, {})  # the first reply lost: the store finds its records in the log
        assert (again.status, again.version) == ("ok", 4)
        assert [r["v"] for r in store.records("g1")] == [1, 2, 3, 4]

    def test_an_append_whose_reply_is_lost_is_sent_again_and_lands_once(self, store, monkeypatch):
        first = self.new_game(store)
        run, lost = store._run_append, []

        def reply_lost_once(keys, args):
            reply = run(keys, args)
            if not lost:
                lost.append(reply)
                raise redis.ConnectionError("connection reset after the script ran")
            return reply

        monkeypatch.setattr(store, "_run_append", reply_lost_once)
        appended = store.append("g1", 2, records(2, first[-1]["hash"], cause="mine"), {})
        assert lost and (appended.status, appended.version) == ("ok", 4)
        assert [r["v"] for r in store.records("g1")] == [1, 2, 3, 4]

    def test_someone_else_s_append_at_the_version_is_still_a_conflict(self, store):
        first = self.new_game(store)
        store.append("g1", 2, records(2, first[-1]["hash"], cause="theirs"), {})
        mine = store.append("g1", 2, records(2, first[-1]["hash"], cause="mine"), {})
        assert (mine.status, mine.version) == ("conflict", 4)

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

    def test_records_round_trip_as_json(self, store):
        first = self.new_game(store)
        assert orjson.loads(orjson.dumps(store.records("g1"))) == first

    def test_metas_are_read_together_in_order(self, store):
        for game_id in ("g1", "g2"):
            self.new_game(store, game_id)
        assert [m and m["version"] for m in store.metas(["g2", "nope", "g1"])] == ["2", None, "2"]

    def test_the_active_set_is_sharded_and_walked_whole(self, store):
        ids = [f"g{i}" for i in range(40)]
        for game_id in ids:
            store.mark_active(game_id)
        store.mark_finished("g7")
        assert sorted(store.active_ids()) == sorted(set(ids) - {"g7"})
        assert len({store.active_key(g) for g in ids}) == store.shards

    def test_the_listing_index_is_newest_first_across_shards_with_a_cursor(self, store):
        index = GameIndex(store)
        ids = [f"g{i:02}" for i in range(30)]
        for i, game_id in enumerate(ids):
            index.enter(game_id, 1000 + i // 3, names_for("toy", "active"))  # three games a millisecond
        newest_first = sorted(((1000 + i // 3, g) for i, g in enumerate(ids)), reverse=True)
        assert [g for _, g in index.window("all", None, 7)] == [g for _, g in newest_first[:7]]
        pages, after = [], None
        while window := index.window("status:active:game:toy", after, 4):
            pages += [g for _, g in window]
            after = window[-1]
        assert pages == [g for _, g in newest_first]
        assert index.position("g05") == (1001.0, "g05")

    def test_a_game_changes_status_indexes_and_keeps_the_others(self, store):
        index = GameIndex(store)
        index.enter("g1", 5, names_for("toy", "active"))
        index.enter("g1", 5, status_names("toy", "finished"))
        index.leave("g1", status_names("toy", "active"))
        assert [g for _, g in index.window("status:finished:game:toy", None, 5)] == ["g1"]
        assert index.window("status:active", None, 5) == []
        assert index.count("all") == index.count("game:toy") == 1

    def test_the_oldest_games_of_several_indexes_are_read_together(self, store):
        index = GameIndex(store)
        for i in range(6):
            index.enter(f"g{i}", 1000 + i, ["status:finished" if i % 2 else "status:aborted"])
        assert index.created_before(["status:finished", "status:aborted"], 1005, 3) == ["g0", "g1", "g2"]
        assert index.created_before(["status:finished"], 1004, 9) == ["g1", "g3"]

    def test_a_feed_s_head_is_its_last_number(self, store):
        assert store.feed_head("g1", "chatseq") == 0
        for text in ("hi", "there"):
            store.append_feed("g1", "chat:players", "chatseq", {"text": text}, keep=10)
        assert store.feed_head("g1", "chatseq") == 2 and store.ping()

    # -- a write's rate count rides in its append (issue 32) ------------------------------------------------------
    def charge(self, store, limits=(5, 9)):
        return Charge(tuple((store.rate_key(f"who{i}", 1), limit) for i, limit in enumerate(limits)), 90)

    def test_an_append_counts_its_charge_once(self, store):
        first = self.new_game(store)
        charge = self.charge(store)
        more = records(2, first[-1]["hash"])
        assert store.append("g1", 2, more, {}, charge=charge).status == "ok"
        assert charge.counts == (1, 1) and not charge.limited
        assert [int(store.redis.get(key)) for key, _ in charge.counters] == [1, 1]
        assert 0 < store.redis.ttl(charge.counters[0][0]) <= 90
        again = records(4, more[-1]["hash"])
        assert store.append("g1", 4, again, {}, charge=charge).status == "ok"  # counted already: not again
        assert [int(store.redis.get(key)) for key, _ in charge.counters] == [1, 1]

    def test_a_write_past_a_limit_writes_nothing(self, store):
        first = self.new_game(store)
        charge = self.charge(store, limits=(5, 2))
        store.redis.set(charge.counters[1][0], 2)
        appended = store.append("g1", 2, records(2, first[-1]["hash"]), {}, "idem", "answer", charge=charge)
        assert appended.status == "limited" and charge.limited and charge.counts == (1, 3)
        assert store.version("g1") == 2 and store.idempotent_answer("g1", "idem") is None

    def test_a_charge_counted_alone_is_not_counted_again_by_an_append(self, store):
        first = self.new_game(store)
        charge = store.count(self.charge(store))
        assert charge.counts == (1, 1)
        assert store.append("g1", 2, records(2, first[-1]["hash"]), {}, charge=charge).status == "ok"
        assert [int(store.redis.get(key)) for key, _ in charge.counters] == [1, 1]

    def test_an_append_on_another_head_at_the_same_version_is_a_conflict(self, store):
        first = self.new_game(store)
        store.set_meta("g1", head_hash=first[-1]["hash"])
        assert store.append("g1", 2, records(2, "f" * 64), {}, head_hash="f" * 64).status == "conflict"
        assert store.version("g1") == 2
        assert store.append("g1", 2, records(2, first[-1]["hash"]), {}, head_hash=first[-1]["hash"]).status == "ok"


class TestFakeRedisStore(StoreContract, OnFakeRedis):
    pass


class TestRealRedisStore(StoreContract, OnRealRedis):
    pass


class TestRedisClusterStore(StoreContract, OnRedisCluster):
    def test_the_store_s_shards_spread_over_the_cluster_s_primaries(self, store, redis_cluster):
        primaries = {redis_cluster.primary_port(store.shard_key(shard, "active")) for shard in range(16)}
        assert len(primaries) == 3  # sixteen tags land on every primary of three (checked, not assumed)


globals().update(on_every_backend(*CONTRACTS))
