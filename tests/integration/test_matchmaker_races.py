"""Quick play under concurrency, on a real Redis and on a Redis Cluster: several matchmakers, each over its own
connection as separate processes have, run their rounds while seeks keep arriving (each matched at once by the
request that makes it); and a player's seeks made at once in several processes. The module's "Safety" ruling
(session_service/use_cases/matchmaker.py): ``CLAIM`` takes a group out of its pool all or none, so no seek is seated
twice, and a player has one open seek, so it never sits at two tables."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from session_service.storage import redis_clients
from session_service.use_cases.errors import RateLimited
from session_service.use_cases.matchmaker import Matchmaker, pool_name
from session_service.use_cases.players import Player
from tests.support.lobby import toy_app
from tests.support.quick_play import matched

MATCHMAKERS = 3
PAIRS, RANGES = 40, 12  # seekers of a two-seat table; of a table of three or four (never seated with the others)
LATE = 4  # one seek in LATE arrives while the rounds run; the others wait in the pool before they start
POOL = pool_name("toy", "humans", False)
DEADLINE_S = 8.0


def body_of(i: int) -> dict[str, Any]:
    """The i-th seeker's seek: the three-to-four ones spread among the two-seat ones, oldest first."""
    return {"game": "toy", "min_seats": 3, "max_seats": 4} if i % 4 == 3 and i // 4 < RANGES else {"game": "toy", "seats": 2}


@pytest.fixture(params=["redis", "cluster"])
def connections(request: pytest.FixtureRequest, prefix: str) -> Iterator[list[Any]]:
    """``MATCHMAKERS`` + 1 clients of one server (the first one's fixture deletes the test's keys after it)."""
    first = request.getfixturevalue("real_redis" if request.param == "redis" else "cluster_redis")
    url = request.getfixturevalue("redis_url") if request.param == "redis" else request.getfixturevalue("redis_cluster").url
    others = [redis_clients.connect(url) for _ in range(MATCHMAKERS)]
    yield [first, *others]
    for client in others:
        client.close()


def test_matchmakers_racing_over_one_store_seat_every_seeker_once(connections: list[Any], prefix: str) -> None:
    apps = [toy_app(client, prefix, KEY_SHARDS=2) for client in connections]
    ticks = itertools.count(int(time.time() * 1000))  # one clock for every process, a millisecond a reading
    for app in apps:
        app.extensions["matchmaker"].clock = lambda: next(ticks) / 1000
    seeder, *makers = (app.extensions["matchmaker"] for app in apps)
    seeder.match = lambda pool, fresh=None: 0  # its seeks wait for the rounds: a process that has not matched yet
    players = apps[0].extensions["players"]
    seekers = [(*players.make(f"P{i}", bot=False), body_of(i)) for i in range(PAIRS + RANGES)]
    assert sum(body.get("seats") == 2 for *_, body in seekers) == PAIRS
    cut = len(seekers) - len(seekers) // LATE
    early, late = seekers[:cut], seekers[cut:]
    seek_of = {player.id: seeder.seek(player, key, body, None)["id"] for player, key, body in early}
    assert seeder.pools.size(POOL) == len(early)

    arrived, failures, deadline = threading.Event(), list[Exception](), time.monotonic() + DEADLINE_S
    start = threading.Barrier(MATCHMAKERS + 2)

    def rounds(maker: Matchmaker) -> None:
        start.wait()
        try:  # until every seek arrived and what is left can make no table (fewer than three), or the deadline
            while not (arrived.is_set() and maker.pools.size(POOL) < 3) and time.monotonic() < deadline:
                maker.match_all()
        except Exception as exc:  # noqa: BLE001 - told to the test below
            failures.append(exc)

    def arrivals(share: list[tuple[Player, str, dict[str, Any]]]) -> None:
        start.wait()
        try:
            for n, (player, key, body) in enumerate(share):
                seek_of[player.id] = makers[n % MATCHMAKERS].seek(player, key, body, None)["id"]
        except Exception as exc:  # noqa: BLE001 - told to the test below
            failures.append(exc)

    threads = [threading.Thread(target=rounds, args=(m,)) for m in makers]
    threads += [threading.Thread(target=arrivals, args=(late[i::2],)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads[MATCHMAKERS:]:
        thread.join(DEADLINE_S)
    arrived.set()
    for thread in threads:
        thread.join(DEADLINE_S)
    assert not failures, failures
    assert time.monotonic() < deadline, "the rounds did not settle in time"
    while makers[0].match_all():  # what the last arrivals left for a round (normally nothing)
        pass

    client = apps[0].test_client()
    told = {player.id: matched(players, player.id) for player, *_ in seekers}
    tables: dict[str, list[str | None]] = {}
    for player, *_ in seekers:
        assert len(told[player.id]) <= 1, f"{player.id} was told matched {len(told[player.id])} times"
        assert players.game_ids(player.id, 10) == [n["game"] for n in told[player.id]], "one table per seeker"
        for notice in told[player.id]:
            assert notice["seek"] == seek_of[player.id]
            seats = tables.setdefault(notice["game"], [s["player"] for s in client.get(f"/v1/games/{notice['game']}").json["seats"]])
            assert seats[notice["seat"]] == player.id, "the seat its notice names is its own"
    pair = {player.id: body.get("seats") == 2 for player, _, body in seekers}
    for game_id, seats in tables.items():
        assert len(set(seats)) == len(seats), f"a player twice at {game_id}: {seats}"
        assert len({pair[p] for p in seats}) == 1 and len(seats) in ((2,) if pair[seats[0]] else (3, 4)), seats
    waiting = {s["player"]: s["id"] for s in makers[0].pools.oldest(POOL, 1000)}
    for player, *_ in seekers:
        assert bool(told[player.id]) != (player.id in waiting), f"{player.id}: seated and waiting, or neither"
        assert makers[0].pools.owned(player.id) == ({seek_of[player.id]: POOL} if player.id in waiting else {})
        assert waiting.get(player.id, seek_of[player.id]) == seek_of[player.id]
    assert sum(len(seats) == 2 for seats in tables.values()) == PAIRS // 2, "every two-seat seeker seated"
    assert not any(pair[p] for p in waiting) and len(waiting) < 3, "what waits can make no table"


TWO_SEATS = {"game": "toy", "seats": 2}


def test_a_players_seek_made_while_its_other_seek_is_being_written_is_refused(connections: list[Any], prefix: str) -> None:
    """Forced, not left to the threads' timing: a second seek of the player runs whole, in another process, between
    the first one's look at the player's open seeks and its write. One is open; the player sits at one table."""
    first, second = (toy_app(client, prefix).extensions["matchmaker"] for client in connections[:2])
    players = first.players
    ada, key = players.make("Ada", bot=False)
    add, answers = first.pools.add, list[object]()

    def add_after_the_other(pool: str, seek: dict[str, Any], owners: list[str]) -> None:
        try:
            answers.append(second.seek(ada, key, TWO_SEATS, None))
        except RateLimited as refused:
            answers.append(refused)
        add(pool, seek, owners)

    first.pools.add = add_after_the_other  # type: ignore[method-assign]
    answers.append(first.seek(ada, key, TWO_SEATS, None))
    first.pools.add = add  # type: ignore[method-assign]
    for name in ("Bo", "Cy"):  # two more seekers: a partner for each of Ada's open seeks, were there two
        first.seek(*players.make(name, bot=False), TWO_SEATS, None)
    assert len(players.game_ids(ada.id, 10)) == 1 == len(matched(players, ada.id)), "Ada at one table"
    assert [type(a) for a in answers] == [RateLimited, dict], answers
    assert "one at a time" in str(answers[0])


def test_a_players_seeks_sent_at_once_to_several_processes_open_one(connections: list[Any], prefix: str) -> None:
    """Left to the threads' timing (the forced test above is the proof): each player sends its seek to every
    process at once, and is seated by the next round (so that no seek of its is matched, and no longer open, before
    the others are answered): one is accepted, and each player sits at one table."""
    makers = [toy_app(client, prefix).extensions["matchmaker"] for client in connections]
    for maker in makers:
        maker.match = lambda pool, fresh=None: 0  # type: ignore[method-assign]
    players = makers[0].players
    start, accepted = threading.Barrier(len(makers)), list[str]()

    def seek(maker: Matchmaker, player: Player, key: str) -> None:
        start.wait()
        try:
            accepted.append(maker.seek(player, key, TWO_SEATS, None)["id"])
        except RateLimited:
            pass

    seekers = [players.make(f"P{i}", bot=False) for i in range(8)]
    for player, key in seekers:
        accepted.clear()
        threads = [threading.Thread(target=seek, args=(maker, player, key)) for maker in makers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(DEADLINE_S)
        assert len(accepted) == 1, f"{player.id}: {len(accepted)} seeks accepted"
    del makers[0].match  # its own again
    assert makers[0].match_all() == len(seekers) // 2
    for player, _ in seekers:
        assert len(players.game_ids(player.id, 10)) == 1 == len(matched(players, player.id))
