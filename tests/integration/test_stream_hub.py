"""The stream hub and the stream limits against a real Redis: notices wake watches, a missed notice loses no
event, one watch follows several games, and the per-client cap counts across processes until a dead one's
lease runs out."""

from __future__ import annotations

import time

import pytest

from session_service.hub import Closed, Hub
from session_service.storage.store import EventStore
from session_service.http.streaming import Streams
from shared.records import GENESIS
from shared.wire.errors import ApiError
from tests.integration.test_store_contract import records


@pytest.fixture
def store(real_redis, prefix) -> EventStore:
    return EventStore(real_redis, prefix)


def new_game(store: EventStore, game_id: str) -> list[dict]:
    first = records(0, GENESIS, cause="setup")
    store.create(game_id, {"game": "toy", "status": "active"}, first)
    return first


def collect(watch, until_version: dict[str, int], timeout_s: float = 10) -> dict[str, list[int]]:
    """The versions a watch is handed, per game, until each game reaches ``until_version``."""
    got: dict[str, list[int]] = {g: [] for g in until_version}
    deadline = time.monotonic() + timeout_s
    while any(not got[g] or got[g][-1] < v for g, v in until_version.items()):
        assert time.monotonic() < deadline, got
        for game_id, part in watch.next(0.5):
            got[game_id] += [r["v"] for r in part]
    return got


def settled(hub: Hub, timeout_s: float = 10) -> int:
    """The hub's fetch count once it is subscribed, has nothing due and has fetched nothing for 0.3 s."""
    deadline, last = time.monotonic() + timeout_s, -1
    while True:
        assert time.monotonic() < deadline, hub.figures
        now = hub.figures["fetches"]
        if now == last and hub.figures["resubscribed"] >= 1 and hub._due.empty():
            return now
        last = now
        time.sleep(0.3)


def test_an_append_reaches_every_watch_of_its_game_once_in_order_with_one_read(store):
    first = new_game(store, "g1")
    hub = Hub(store, recheck_s=30)
    watches = [hub.watch({"g1": 2}) for _ in range(50)]
    fetches = settled(hub)  # the catch-up reads of the new watches are done, on a slow machine too
    store.append("g1", 2, records(2, first[-1]["hash"], n=3), {})
    for watch in watches:
        assert collect(watch, {"g1": 5}) == {"g1": [3, 4, 5]}
    assert hub.figures["fetches"] - fetches == 1  # one XRANGE for the fifty of them
    hub.shutdown()


def test_a_watch_from_an_older_version_is_handed_the_backlog_first(store):
    first = new_game(store, "g1")
    store.append("g1", 2, records(2, first[-1]["hash"], n=3), {})
    hub = Hub(store, recheck_s=30)
    assert collect(hub.watch({"g1": 1}), {"g1": 5}) == {"g1": [2, 3, 4, 5]}
    hub.shutdown()


def test_a_watch_that_begins_while_a_read_is_under_way_is_handed_no_gap(store):
    """The read for a game starts from the lowest cursor of the watches it knows; a watch from an older version
    that begins while that read is in flight must not be handed its later records as if they followed on (CI
    once saw a resumed stream skip two events this way)."""
    first = new_game(store, "g1")
    batch = records(2, first[-1]["hash"], n=4)  # versions 3..6
    store.append("g1", 2, batch, {})
    hub = Hub(store, recheck_s=30)
    ahead = hub.watch({"g1": 4})
    assert collect(ahead, {"g1": 6}) == {"g1": [5, 6]}
    late: list = []
    real = store.records_after

    def read_then_a_watch_begins(cursors, limit=None):
        found = real(cursors, limit)
        if not late:
            late.append(hub.watch({"g1": 2}))  # begins after the cursors were taken, before the hand-over
        return found

    store.records_after = read_then_a_watch_begins
    store.append("g1", 6, records(6, batch[-1]["hash"], n=1), {})  # version 7
    assert collect(ahead, {"g1": 7}) == {"g1": [7]}
    store.records_after = real
    assert collect(late[0], {"g1": 7}) == {"g1": [3, 4, 5, 6, 7]}
    hub.shutdown()


def test_one_watch_follows_several_games(store):
    a, b = new_game(store, "ga"), new_game(store, "gb")
    hub = Hub(store, recheck_s=30)
    watch = hub.watch({"ga": 2, "gb": 2})
    store.append("gb", 2, records(2, b[-1]["hash"], n=1), {})
    store.append("ga", 2, records(2, a[-1]["hash"], n=2), {})
    assert collect(watch, {"ga": 4, "gb": 3}) == {"ga": [3, 4], "gb": [3]}
    hub.shutdown()


class Silent(EventStore):
    notice_channel = "nobody-listens"  # this store's appends announce nothing to the hub


def test_records_appended_without_a_notice_arrive_by_the_periodic_recheck(store):
    first = new_game(store, "g1")
    hub = Hub(store, recheck_s=0.5)
    watch = hub.watch({"g1": 2})
    settled(hub)  # its catch-up read is done: nothing but a recheck reads the game again
    rechecks = hub.figures["rechecks"]  # a recheck counted here read the versions before the append below
    Silent(store.redis, store.prefix).append("g1", 2, records(2, first[-1]["hash"], n=2), {})
    assert collect(watch, {"g1": 4}) == {"g1": [3, 4]}
    assert hub.figures["rechecks"] > rechecks
    hub.shutdown()


def test_a_killed_pubsub_connection_is_resubscribed_and_loses_no_event(store):
    first = new_game(store, "g1")
    hub = Hub(store, recheck_s=30)  # no periodic recheck within the test: only the resubscription can save it
    watch = hub.watch({"g1": 2})
    deadline = time.monotonic() + 5
    while hub.figures["resubscribed"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    store.redis.client_kill_filter(_type="pubsub")
    store.append("g1", 2, records(2, first[-1]["hash"], n=2), {})  # maybe announced to nobody
    assert collect(watch, {"g1": 4}) == {"g1": [3, 4]}  # within 10 s, so not by the 30 s recheck
    hub.shutdown()


def test_shutdown_closes_every_watch_and_refuses_new_ones(store):
    new_game(store, "g1")
    hub = Hub(store, recheck_s=30)
    watch = hub.watch({"g1": 2})
    hub.shutdown()
    with pytest.raises(Closed):
        watch.next(5)
    with pytest.raises(Closed):
        hub.watch({"g1": 2})


def test_the_per_client_cap_counts_across_processes_and_forgets_a_dead_process(store):
    one = Streams(Hub(store, recheck_s=0.5), per_client=3)
    two = Streams(Hub(store, recheck_s=0.5), per_client=3)
    now = [0.0]
    two.leases.clock = lambda: now[0]  # when what it learnt of others' leases goes stale: the test's to say
    keys = [one.admit("token-a"), one.admit("token-a"), two.admit("token-a")]
    with pytest.raises(ApiError) as refused:
        two.admit("token-a")
    assert refused.value.status == 429 and refused.value.headers["Retry-After"]
    two.admit("token-b")  # another client is counted apart
    two.release(keys[2])
    keys[2] = two.admit("token-a")  # a closed stream gives its place back
    # the first process dies without releasing: once its lease (3 keep-alive periods) runs out, its two go
    one.shutdown()
    one._renewer.join(10)  # a renewal under way when it shut down would otherwise set the lease again below
    assert not one._renewer.is_alive()
    store.redis.delete(one.counts._process(one.process))  # as its lease running out would
    now[0] += 0.6  # what the others knew of its lease is kept for a keep-alive period (0.5 s), then asked again
    two.admit("token-a")
    two.admit("token-a")
    with pytest.raises(ApiError):
        two.admit("token-a")
    two.shutdown()


def test_the_process_ceiling_answers_503_with_retry_after(store):
    streams = Streams(Hub(store, recheck_s=5), per_client=100, per_process=2)
    streams.admit("a"), streams.admit("b")
    with pytest.raises(ApiError) as refused:
        streams.admit("c")
    assert refused.value.status == 503 and refused.value.code == "service/unavailable"
    assert int(refused.value.headers["Retry-After"]) > 0
    streams.shutdown()


def test_tokens_do_not_multiply_what_one_address_may_hold(store):
    """Issue 33, item 5: 5 tables x 7 seat tokens held 700 streams from one address against a cap of 20. Each
    stream now counts against its address too, whatever token it presents."""
    streams = Streams(Hub(store, recheck_s=5), per_client=2, per_address=3)
    held = [streams.admit(f"token-{i}", "192.0.2.7") for i in range(3)]
    with pytest.raises(ApiError) as refused:
        streams.admit("token-9", "192.0.2.7")
    assert refused.value.status == 429 and refused.value.details == {"streams_per_address": 3}
    streams.admit("token-9", "198.51.100.1")  # another address has its own
    streams.release(held[0])
    streams.admit("token-9", "192.0.2.7")  # a closed stream gives the address its place back
    streams.shutdown()
