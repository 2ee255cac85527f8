"""The contracts of the storage adapters beside the event store (``session_service/storage/``), each run on the
three backends by ``test_store_contract.py`` (in one file, so that one Redis Cluster serves them all)."""

from __future__ import annotations

import threading

import pytest

from session_service.storage.claims import CreateClaims
from session_service.storage.leases import StreamLeases, Turns
from session_service.storage.planned import PlannedTurns
from session_service.storage.players import PlayerRecords
from session_service.storage.quotas import QuotaCounters
from session_service.storage.rematch import RematchOffers
from session_service.storage.stats import AiStats
from session_service.storage.store import EventStore
from session_service.storage.watchers import WatcherCounts


class AdapterContract:
    @pytest.fixture
    def store(self, client, prefix):
        return EventStore(client, prefix, shards=4)


class PlayerRecordsContract(AdapterContract):
    @pytest.fixture
    def players(self, store):
        return PlayerRecords(store)

    def test_a_player_is_found_by_id_and_by_its_key_hash(self, players):
        players.put("p_1", "ab" * 32, {"name": "Ann", "bot": "", "created_at": "2026-01-01T00:00:00.000Z"})
        assert players.fields("p_1") == {"name": "Ann", "bot": "", "created_at": "2026-01-01T00:00:00.000Z"}
        assert players.player_of("ab" * 32) == "p_1"
        assert players.fields("p_2") is None and players.player_of("cd" * 32) is None

    def test_mutes_stop_at_the_limit_and_a_repeated_mute_is_no_more(self, players):
        assert players.mute("p_1", "p_a", 2) and players.mute("p_1", "p_b", 2)
        assert not players.mute("p_1", "p_c", 2)
        assert players.mute("p_1", "p_a", 2)
        players.unmute("p_1", "p_b")
        assert players.muted("p_1") == {"p_a"} and players.muted("p_2") == frozenset()
        assert players.mutes("p_1", "p_a") and not players.mutes("p_1", "p_b") and not players.mutes("p_2", "p_a")

    def test_the_player_s_tables_page_newest_first_and_are_forgotten(self, players):
        for i in range(5):
            players.remember_game("p_1", f"g{i}", 1000 + i)
        assert players.game_ids("p_1", 2) == ["g4", "g3"]
        assert players.game_ids("p_1", 2, before="g3") == ["g2", "g1"]
        players.forget_over("p_1", ["g4"])
        assert players.live_ids("p_1", 2) == ["g3", "g2"] and players.live_ids("p_1", 2, offset=3) == ["g0"]
        players.forget_game("p_1", "g3")
        assert players.game_ids("p_1", 10) == ["g4", "g2", "g1", "g0"] and players.live_ids("p_1", 1) == ["g2"]


class QuotaCountersContract(AdapterContract):
    @pytest.fixture
    def quotas(self, store):
        return QuotaCounters(store)

    def admit(self, quotas, game_id, all_ai=False, open_tables=2, per_hour=3, ai_per_hour=1):
        return quotas.admit_table("d1", 7, game_id, all_ai=all_ai, now_ms=1000, open_tables=open_tables,
                                  tables_per_hour=per_hour, ai_tables_per_hour=ai_per_hour, counter_ttl_s=60,
                                  open_ttl_s=60)

    def test_a_table_is_admitted_once_and_refused_past_each_limit(self, quotas):
        assert self.admit(quotas, "g1", all_ai=True) == "ok"
        assert self.admit(quotas, "g1", all_ai=True) == "ok"  # a retry: not counted again
        assert self.admit(quotas, "g2", all_ai=True) == "ai_tables_per_hour"
        assert self.admit(quotas, "g2") == "ok"
        assert self.admit(quotas, "g3") == "open_tables"
        assert [g for g, _ in quotas.held("d1", "open", 10)] == ["g1", "g2"]
        assert quotas.used("d1", "tables:7") == 2 and quotas.used("d1", "ai_tables:7") == 1
        quotas.drop("d1", "open", ["g1"])
        assert self.admit(quotas, "g3") == "ok" and self.admit(quotas, "g4", open_tables=9) == "tables_per_hour"

    def test_seats_and_joins_stop_at_their_limits(self, quotas):
        assert quotas.seat("d1", "g1", limit=1, now_ms=5, ttl_s=60) and quotas.seat("d1", "g1", limit=1, now_ms=5, ttl_s=60)
        assert not quotas.seat("d1", "g2", limit=1, now_ms=5, ttl_s=60)
        assert quotas.held("d1", "seated", 10) == [("g1", 5.0)]
        assert quotas.join("g1", "d1", 2) and quotas.join("g1", "d1", 2) and not quotas.join("g1", "d1", 2)
        assert quotas.join("g1", "d2", 2)

    def test_counters_spend_to_their_limit_even_when_spent_at_once(self, quotas):
        passed = []
        threads = [threading.Thread(target=lambda: passed.append(quotas.spend("d1", "chat:1", 3, 60))) for _ in range(8)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert sorted(passed) == [False] * 5 + [True] * 3
        quotas.refund("d1", "chat:1")
        assert quotas.used("d1", "chat:1") == 2
        assert quotas.spend_up_to("d1", "reads:1", 10, 25, 60) and not quotas.spend_up_to("d1", "reads:1", 10, 1, 60)
        quotas.add("d1", "ai_cpu:1", 0.25, 60)
        quotas.add("d1", "ai_cpu:1", 0.5, 60)
        assert quotas.used("d1", "ai_cpu:1") == pytest.approx(0.75) and quotas.used("d1", "ai_cpu:2") == 0


class RematchOffersContract(AdapterContract):
    def test_an_offer_is_compared_and_set_and_needs_its_game(self, store):
        offers = RematchOffers(store)
        assert offers.swap("g1", b"", b"one", 60) is None  # no such game
        store.set_meta("g1", status="finished")
        assert offers.read("g1") is None
        assert offers.swap("g1", b"", b"one", 60) is True
        assert offers.swap("g1", b"", b"two", 60) is False  # changed meanwhile
        assert offers.swap("g1", b"one", b"two", 60) is True and offers.read("g1") == b"two"


class WatcherCountsContract(AdapterContract):
    def test_each_game_counts_its_watchers_per_process(self, store):
        watchers = WatcherCounts(store)
        for game_id, process, delta in [("g1", "a", 1), ("g1", "a", 1), ("g1", "b", 1), ("g1", "b", -1), ("g2", "a", 1)]:
            watchers.count(game_id, process, delta)
        assert watchers.counts(["g1", "g2", "g3"]) == [{"a": 2}, {"a": 1}, {}]


class StreamLeasesContract(AdapterContract):
    def test_streams_are_counted_per_client_and_process_and_leases_run_out(self, store):
        leases = StreamLeases(store)
        leases.open(["c1"], "a")
        assert leases.open(["c1", "c2"], "b") == [{"a": 1, "b": 1}, {"b": 1}]
        leases.close("c1", "b")
        leases.forget("c1", ["a"])
        assert leases.open(["c1"], "b") == [{"b": 1}]
        leases.renew("a", 60)
        assert leases.alive(["a", "b"]) == {"a": True, "b": False}

    def test_one_process_takes_each_turn_of_a_job(self, store):
        turns = Turns(store)
        assert turns.take("retention", 60) and not turns.take("retention", 60) and turns.take("other", 60)


class AiStatsContract(AdapterContract):
    def test_moves_add_up(self, store):
        stats = AiStats(store)
        stats.count_move(0.5, late=False)
        stats.count_move(0.25, late=True)
        assert (stats.read("moves"), stats.read("seconds"), stats.read("late")) == (2, 0.75, 1)


class PlannedTurnsContract(AdapterContract):
    def test_a_turns_planned_versions_are_held_for_their_seat_until_dropped(self, store):
        planned = PlannedTurns(store)
        planned.mark("g_1", 0, [5, 7], 60)
        assert planned.holds("g_1", 0, 5) and planned.holds("g_1", 0, 7)
        assert not planned.holds("g_1", 0, 6) and not planned.holds("g_1", 1, 5) and not planned.holds("g_2", 0, 5)
        planned.drop("g_1", 0)
        assert not planned.holds("g_1", 0, 5)


class CreateClaimsContract(AdapterContract):
    def test_the_first_claim_holds_until_it_is_released(self, store):
        claims = CreateClaims(store)
        assert claims.claim("c" * 64, "k" * 64, b"first", 60) == (True, None)
        assert claims.claim("c" * 64, "k" * 64, b"second", 60) == (False, b"first")
        assert claims.claim("d" * 64, "k" * 64, b"other client", 60) == (True, None)
        claims.release("c" * 64, "k" * 64)
        assert claims.claim("c" * 64, "k" * 64, b"third", 60) == (True, None)
        assert CreateClaims(store, "challenge").claim("c" * 64, "k" * 64, b"a challenge", 60) == (True, None), \
            "a challenge's claims are apart from a table's: one key sent to both is two requests"


CONTRACTS = (PlayerRecordsContract, QuotaCountersContract, RematchOffersContract, WatcherCountsContract,
             StreamLeasesContract, AiStatsContract, PlannedTurnsContract, CreateClaimsContract)
