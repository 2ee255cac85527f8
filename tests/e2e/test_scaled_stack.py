"""The scaled stack (``make cluster``) end to end: a Redis Cluster of three primaries and three replicas, the queue's
Redis with its replica and three Sentinels, two session and two rules processes behind HAProxy, two workers. Games
play to their end through the balancer with their commands spread over both session processes (two games in ``make
test``, every game in ``make soak``: tests/support/breadth.py); a session and a
rules process killed during a burst cost nothing; the loss of the Redis primary under a busy game costs a few seconds
of writes and no acknowledged command; the loss of the queue's primary, a few seconds of AI and timer moves and no
turn. Long versions of the same run in ``make soak`` (tests/soak/test_scaled_soak.py, test_queue_failover.py)."""

from __future__ import annotations

import io
import signal
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
import requests

from deploy.stacks.cluster import ScaledStack
from deploy.stacks.dev import free_port
from deploy.stacks.supervise import Supervisor
from session_service.rules_client import decide_fields
from shared import audit
from shared.games import GAMES
from shared.kernel import fold
from shared.wire import keys
from tests.support import hop_peer
from tests.support.breadth import cases
from tests.support.properties import random_playout
from tests.support.queue_failover import Tables, kill_queue_primary
from tests.support.scaled import (Player, healed, human_game, running_scaled_stack, store_of, until_ack_after,
                                  verified)
from tests.trust.helpers import Api, record_figures

pytestmark = pytest.mark.e2e
GAME_IDS = sorted(GAMES)
# The balancer's spread and the replicas do not depend on the game: two short games here, every game in the soak.
THROUGH_THE_BALANCER = cases(GAME_IDS, ["arkham-ritual", "pocket-madness"])


def until(probe, what: str, timeout_s: float):
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            if probe():
                return True
        except (OSError, requests.RequestException, redis.RedisError):
            pass
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def scaled() -> Iterator[ScaledStack]:
    yield from running_scaled_stack()


@pytest.fixture
def stack(scaled) -> Iterator[ScaledStack]:
    yield scaled
    healed(scaled)


@pytest.mark.parametrize("game_id", THROUGH_THE_BALANCER)
def test_a_game_plays_to_its_end_through_the_balancer_on_every_session_process(stack, game_id):
    game = GAMES[game_id]
    playout = random_playout(game, game.catalogue.min_players, seed=11)
    api = Api(stack.url)
    created = api.create(game_id, [{"name": f"Seat {i}"} for i in range(playout.players)], options=playout.options,
                         seed=(11).to_bytes(8, "big").hex())
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    version, served = created["version"], []
    for seat, command in playout.commands:
        reply = api.command(created["id"], tokens[seat], command, version)
        assert reply.status_code == 200, reply.text
        assert reply.headers["Mythos-Replicated"] == "true"  # each primary has its replica in sync
        served.append(reply.headers["X-Mythos-Server"])
        version = reply.json()["version"]
    assert api.get(f"/v1/games/{created['id']}").json()["status"] == "finished"
    assert set(served) == set(stack.session_names)
    moved = sum(a != b for a, b in zip(served, served[1:]))
    assert moved >= len(served) // 2, served  # round robin: consecutive commands land on different processes
    verified(api, store_of(stack), created["id"])
    record_figures("scaled", game=game_id, commands=len(served), consecutive_on_another_process=moved)


def test_a_session_and_a_rules_process_killed_during_a_burst_lose_and_duplicate_nothing(stack):
    players = [Player(Api(stack.url), human_game(Api(stack.url), g), seed=i) for i, g in enumerate(GAME_IDS * 2)]
    stop = threading.Event()
    with ThreadPoolExecutor(len(players)) as pool:
        running = [pool.submit(p.play, stop, 25) for p in players]
        time.sleep(1.0)
        stack.kill("session0")  # the whole gunicorn, master and workers: kill -9
        time.sleep(0.5)
        stack.kill("rules0")
        [f.result() for f in running]
    store = store_of(stack)
    for player in players:
        player.check(store)
    assert sum(len(p.acks) for p in players) > 0
    answered_by = {Api(stack.url).get("/healthz").headers["X-Mythos-Server"] for _ in range(6)}
    assert answered_by == {"session1"}  # the balancer routes around the dead process
    record_figures("scaled", fault="session and rules process killed (SIGKILL) during a burst",
                   commands=sum(len(p.acks) for p in players), retries=sum(p.retries for p in players))


def test_losing_the_redis_primary_of_a_busy_game_loses_no_acknowledged_command(stack):
    api, store = Api(stack.url), store_of(stack)
    cluster = stack.cluster
    first = human_game(api, GAME_IDS[0])
    primary = cluster.primary_port(store.key(first["id"], "events"))
    replica = cluster.replica_of(primary)
    games = [first]
    while len(games) < 3:  # three busy games on that primary
        created = human_game(api, GAME_IDS[len(games) % len(GAME_IDS)])
        if cluster.primary_port(store.key(created["id"], "events")) == primary:
            games.append(created)
    players = [Player(Api(stack.url), g, seed=i) for i, g in enumerate(games)]
    stop = threading.Event()
    with ThreadPoolExecutor(len(players)) as pool:
        running = [pool.submit(p.play, stop) for p in players]
        # Kill once every game is under way, not after a fixed time: on a quiet machine the short games could all
        # end within 1.5 s, and then no write was left to resume (CI saw exactly that).
        deadline = time.monotonic() + 30
        while not all(len(p.acks) >= 3 for p in players):
            assert time.monotonic() < deadline, [len(p.acks) for p in players]
            time.sleep(0.02)
        killed_at = time.monotonic()
        cluster.kill(primary)
        resumed = until_ack_after(players, killed_at, 45)
        time.sleep(1.0)
        stop.set()
        [f.result() for f in running]
    assert cluster.primary_port(store.key(first["id"], "events")) == replica  # the replica took over
    for player in players:
        player.check(store)
    acked_before = [a for p in players for a in p.acks if a["at"] < killed_at]
    assert acked_before and all(a["replicated"] == "true" for a in acked_before)
    acks = [a for p in players for a in p.acks]
    times = sorted(a["at"] for a in acks)
    longest_gap = max(b - a for a, b in zip(times, times[1:]) if b > killed_at)
    record_figures("scaled", fault="Redis primary killed (SIGKILL) under busy games", write_outage_s=round(resumed - killed_at, 2),
                   longest_gap_between_acks_s=round(longest_gap, 2),
                   acks=len(acks), acks_lost=0, retries=sum(p.retries for p in players),
                   unreplicated_after_failover=sum(a["replicated"] == "false" for a in acks))


def test_an_answer_says_whether_a_replica_has_the_command_and_those_that_say_so_survive_the_primary(stack):
    """The durability contract (README, Durability): Mythos-Replicated: true means a replica confirmed the write
    (WAIT on the append's own connection), and such a command survives the loss of its primary. A replica that
    lags (paused here) makes the answers say false, and what they acknowledged may be lost with the primary."""
    api, store, cluster = Api(stack.url), store_of(stack), stack.cluster
    player = Player(Api(stack.url), human_game(api, "rites-of-cthulhu"), seed=5)
    primary = cluster.primary_port(store.key(player.created["id"], "events"))
    replica = cluster.replica_of(primary)
    never = threading.Event()
    player.play(never, 5)
    cluster.kill(replica, signal.SIGSTOP)
    try:
        player.play(never, 5)
        cluster.kill(primary)
    finally:
        cluster.kill(replica, signal.SIGCONT)
    paused = player.acks[5:]
    assert [a["replicated"] for a in player.acks[:5]] == ["true"] * 5 and paused
    assert all(a["replicated"] == "false" for a in paused)  # applied on the primary alone, and said so
    player.play(never, 5)  # through the failover: the replica takes over with what it had
    assert cluster.primary_port(store.key(player.created["id"], "events")) == replica
    logged = {r["v"]: r["hash"] for r in verified(api, store, player.created["id"])}
    confirmed = [e for a in player.acks if a["replicated"] == "true" for e in a["events"]]
    assert confirmed and all(logged.get(e["version"]) == e["hash"] for e in confirmed)
    unconfirmed = [e for a in paused for e in a["events"]]
    record_figures("scaled", fault="Redis primary killed while its replica lagged (SIGSTOP)",
                   confirmed_acks_lost=0, unconfirmed_events=len(unconfirmed),
                   unconfirmed_events_lost=sum(logged.get(e["version"]) != e["hash"] for e in unconfirmed))


def test_the_queue_s_primary_killed_ai_seats_and_timers_resume_and_no_turn_is_lost(stack):
    """Issue 47: RQ's Redis was a single point (its loss stopped every AI seat and timer). Now a primary, a replica and
    three Sentinels: kill -9 of the primary under AI tables and turn timers, the Sentinels promote the replica, the
    services follow them there, and what the queue forgot meanwhile the worker sweeps back as soon as it reaches the
    queue again. Every table moves on, AI and timers alike, its chain and audit whole."""
    api = Api(stack.url)
    tables = Tables.opened(api, ai=6, timed=2)
    figures = kill_queue_primary(stack, tables)
    print(f"queue's primary {figures['killed']} killed: AI moves stopped {figures['ai_gap_s']} s, timers "
          f"{figures['timer_gap_s']} s; {figures['promoted']} promoted")
    assert figures["promoted"] != figures["killed"]
    store = store_of(stack)
    for game_id in tables.ai + tables.timed:  # still in play (an audit would race the next move): the log read once
        records = store.records(game_id)
        assert [r["v"] for r in records] == list(range(1, len(records) + 1))
        assert audit.first_broken_link(records) is None
    record_figures("scaled", fault="queue's Redis primary killed (SIGKILL) under 6 AI tables and 2 timed ones",
                   ai_moves_stopped_s=figures["ai_gap_s"], timer_moves_stopped_s=figures["timer_gap_s"])


@pytest.fixture
def strict(stack) -> Iterator[str]:
    """One more session process on the stack, with REQUIRE_REPLICATED=1: its own address (not behind the balancer)."""
    port = free_port()
    stack.start_session("strict", port, {"REQUIRE_REPLICATED": "1"})
    try:
        until(lambda: stack.ours(f"http://127.0.0.1:{port}/readyz"), "the strict session process", 60)
        yield f"http://127.0.0.1:{port}"
    finally:
        stack.kill("strict")
        del stack.processes["strict"], stack.specs["strict"]  # not a part the supervision test starts again


def next_move(api: Api, game_id: str, tokens: dict[int, str]) -> tuple[str, dict, int]:
    """A seat the game waits on: its token, a legal command of its, and the version it is played at."""
    seat = api.get(f"/v1/games/{game_id}").json()["to_act"][0]
    state = api.state(game_id, tokens[seat]).json()
    return tokens[seat], state["legal_commands"][0], state["version"]


def test_in_strict_mode_an_unconfirmed_command_is_a_retryable_503_and_a_retry_writes_it_once(stack, strict):
    """REQUIRE_REPLICATED (README, Durability): a command no replica confirmed is answered 503 service/unreplicated
    with Retry-After, not 200 with Mythos-Replicated: false (which a process without the setting still answers). The
    same command resent with its Idempotency-Key is found, not applied again, and answered 200 (true) once a replica
    has it; if the primary was lost before any replica had it, the resent command is written then, once."""
    cluster, store = stack.cluster, store_of(stack)
    api, lenient = Api(strict), Api(f"http://127.0.0.1:{stack.backend_ports['session0']}")
    created = human_game(api, "rise-of-cthulhu")
    game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    primary = cluster.primary_port(store.key(game_id, "events"))
    replica = cluster.replica_of(primary)

    def sent(key: str, move: tuple[str, dict, int], client: Api = api) -> requests.Response:
        return client.command(game_id, move[0], move[1], move[2], key=key)

    first = sent("m1", next_move(api, game_id, tokens))
    assert first.status_code == 200 and first.headers["Mythos-Replicated"] == "true"
    cluster.kill(replica, signal.SIGSTOP)
    try:
        second = next_move(api, game_id, tokens)
        refused = sent("m2", second)
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "service/unreplicated", refused.text
        assert int(refused.headers["Retry-After"]) >= 1
        written = store.version(game_id)
        assert written > second[2]  # applied on the primary: the game goes on from it
        assert sent("m2", second).status_code == 503 and store.version(game_id) == written  # found, not written again
        third = sent("m3", next_move(api, game_id, tokens), lenient)  # a process without the setting: as before
        assert third.status_code == 200 and third.headers["Mythos-Replicated"] == "false"
    finally:
        cluster.kill(replica, signal.SIGCONT)
    retried: list[requests.Response] = []
    until(lambda: retried.append(sent("m2", second)) or retried[-1].status_code == 200, "a replica to confirm m2", 30)
    assert retried[-1].headers["Mythos-Replicated"] == "true"
    logged = {r["v"]: r for r in store.records(game_id)}
    assert all(logged[e["version"]]["hash"] == e["hash"] for e in retried[-1].json()["events"])

    # Now the primary is lost before any replica has the command: the paused replica's link is cut first (bytes the
    # primary sent it before would still reach it from its socket once it goes on).
    cluster.kill(replica, signal.SIGSTOP)
    try:
        cluster.client(primary).execute_command("CLIENT", "KILL", "TYPE", "replica")
        fourth = next_move(api, game_id, tokens)
        assert sent("m4", fourth).status_code == 503
        cluster.kill(primary)
    finally:
        cluster.kill(replica, signal.SIGCONT)
    until(lambda: cluster.primary_port(store.key(game_id, "events")) == replica, "the replica to take over", 30)
    assert store.version(game_id) == fourth[2]  # m4 went with the primary
    cluster.start_node(primary)  # back as the new primary's replica, so a retry can be confirmed
    answers = []
    until(lambda: answers.append(sent("m4", fourth)) or answers[-1].status_code == 200, "m4 written and confirmed", 60)
    assert answers[-1].headers["Mythos-Replicated"] == "true"
    commands = {r["cause"]["id"] for r in store.records(game_id) if r["cause"]["by"] == "seat"}
    assert len(commands) == 4 and store.version(game_id) == answers[-1].json()["version"]  # m1-m4, each once
    print(f"strict: m4 resent {len(answers)} times after the failover ({[a.status_code for a in answers]}), written once")
    record_figures("scaled", fault="strict durability: replica paused, then the primary lost",
                   unreplicated_503s=2 + sum(a.status_code == 503 for a in answers), commands_written=4)


def test_the_balancer_s_hop_frontend_answers_no_one_without_the_secret_nor_a_kept_name_from_another_peer(stack):
    """Issue 41, M1, through HAProxy's hop frontend: a connection that has not proved the hop's secret gets one
    refusal and is closed; a name one peer was given, sent by another peer on a connection to the same rules
    process, is answered exactly as a name nobody was given, with nothing of the position in it."""
    secret = keys.read_secret(stack.env(), "HOP_SECRET").encode()
    game = GAMES["pocket-madness"]
    state = fold(game, game.start(2, {}, b"seed")[1])
    command = game.decider.legal_commands(state, sorted(game.decider.to_act(state))[0])[0]
    decide = {"op": "decide", **decide_fields(game, command.to_wire(), sorted(game.decider.to_act(state))[0], b"e")}
    for port in (stack.hop_port, *stack.hop_ports.values()):  # the balancer's frontend, and each process's own
        with socket.create_connection(("127.0.0.1", port), timeout=10) as stranger:
            hop_peer.read(stranger)  # the challenge, from whichever rules process the balancer chose
            hop_peer.send(stranger, {**decide, "state": game.codec.encode(state)})
            assert hop_peer.read(stranger)["body"]["error"]["code"] == "hop/unauthenticated"
            assert stranger.recv(10) == b""
    with hop_peer.connected(stack.hop_port, secret, peer="1" * 32) as mine:
        hop_peer.send(mine, {**decide, "state": game.codec.encode(state)})
        name = hop_peer.read(mine)["body"]["kept"]
    for _ in range(20):  # the balancer spreads connections: one to the same rules process soon comes
        with hop_peer.connected(stack.hop_port, secret, peer="2" * 32) as other:
            hop_peer.send(other, {**decide, "state": game.codec.encode(state)})
            if hop_peer.read(other)["body"]["kept"].partition(".")[0] != name.partition(".")[0]:
                continue
            hop_peer.send(other, {**decide, "kept": name}, {**decide, "kept": name.partition(".")[0] + "." + "0" * 32})
            stolen, never_given = hop_peer.read(other), hop_peer.read(other)
            break
    else:
        raise AssertionError("no connection through the balancer reached the rules process that keeps the name")
    assert stolen == never_given and stolen["status"] == 404 and stolen["body"]["error"]["code"] == "position/unknown"


def unreplicated(stack: ScaledStack) -> dict[str, float]:
    """The shards /metrics says have no replica up (``primary`` -> 0), from a session process directly, as
    Prometheus scrapes it."""
    text = requests.get(f"http://127.0.0.1:{stack.backend_ports['session0']}/metrics", timeout=10).text
    found = {}
    for line in text.splitlines():
        if line.startswith("mythos_redis_shard_replicas{"):
            labels, value = line.rsplit(" ", 1)
            if float(value) == 0:
                found[labels.split('primary="', 1)[1].split('"', 1)[0]] = float(value)
    return found


def test_under_supervision_every_part_killed_comes_back_and_every_shard_is_replicated_again(stack):
    """What ``mythos cluster`` does (deploy.stacks.dev.serve's supervisor): kill -9 of a Redis node, a session, rules or
    worker process, HAProxy, the queue's primary or a Sentinel, and the part is started again; a node rejoins, so
    every shard has its replica, and the queue's Redis its replica and its three Sentinels."""
    cluster = stack.cluster
    primaries = [p for p in cluster.running() if cluster.client(p).info("replication")["role"] == "master"]
    primary, another = primaries[0], primaries[1]  # the earlier tests' failovers moved the roles around
    replica = cluster.replica_of(primary)
    cluster.kill(replica)  # before the supervisor looks: the metrics name the shard left without a replica
    assert until(lambda: f"127.0.0.1:{primary}" in unreplicated(stack), "the shard reported unreplicated", 30)
    said, stop = io.StringIO(), threading.Event()
    supervisor = Supervisor(stack, out=said)
    ticking = threading.Thread(target=lambda: [supervisor.tick() for _ in iter(lambda: stop.wait(0.2), True)], daemon=True)
    ticking.start()
    try:
        assert until(lambda: cluster.healthy(), "the replica back and in sync", 60)
        before = {name: proc.pid for name, proc in stack.parts().items()}
        cluster.kill(another)
        killed = ("session0", "rules0", "worker0", "balancer", stack.queue_primary(), "redis-sentinel0")
        for name in killed:
            stack.kill(name)
        assert until(lambda: all(p.poll() is None and p.pid != before.get(n) for n, p in stack.parts().items()
                                 if n in (*killed, f"node-{another}")),
                     "every part running again", 60)
        assert until(lambda: cluster.healthy() and stack.routed() and not unreplicated(stack), "every shard replicated", 60)
        assert until(stack.queue_watched, "the queue's Redis replicated and watched again", 60)
    finally:
        stop.set()
        ticking.join(5)
    lines = said.getvalue()
    assert f"node-{replica} exited (killed by SIGKILL)" in lines and "balancer is running again" in lines, lines
    game = Api(stack.url).create("rise-of-cthulhu", [{"name": "Bot A", "ai": "random"}, {"name": "Bot B", "ai": "random"}])
    assert Api(stack.url).wait_finished(game["id"], timeout_s=120)["status"] == "finished"  # play goes on, AI too
