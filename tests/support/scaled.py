"""The scaled stack (``deploy.stacks.cluster``) for tests, and a client that plays through its faults:
shared by tests/e2e/test_scaled_stack.py (make test) and tests/soak/test_scaled_soak.py (make soak)."""

from __future__ import annotations

import random
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from deploy.stacks.cluster import ScaledStack
from deploy.stacks.dev import free_port
from session_service.storage import redis_clients
from session_service.storage.store import EventStore
from shared.games import GAMES
from tests.support.queue_failover import queue_back
from tests.trust.helpers import Api, record_figures

ANSWERED = (200, 409, 422)  # anything else (502 from the balancer, 503 from a service) is retried


def running_scaled_stack() -> Iterator[ScaledStack]:
    """A scaled stack of its own (one gunicorn worker per process), stopped and removed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="mythos-scaled-"))
    prefix = f"mt-scaled-{uuid.uuid4().hex[:8]}"
    live = ScaledStack(port=free_port(), rules_port=free_port(), redis_port=free_port(), data_dir=tmp, key_prefix=prefix,
                       queue=prefix, log_dir=tmp,
                       extra_env={"SESSION_WORKERS": "1", "RULES_WORKERS": "1", "RATE_LIMIT_PER_MINUTE": "1000000",
                                  "MYTHOS_ALLOW_CLIENT_SEED": "1", "SSE_KEEPALIVE_S": "1",
                                  # a replica in sync on a loaded 2-core host may take past the default 50 ms to
                                  # confirm (a run at load 8 answered one command false); what a test says of a
                                  # replica that is there must not depend on the host's load
                                  "REPLICA_WAIT_MS": "500"})
    try:
        live.start()
        record_figures("scaled", cluster_formed_s=round(live.cluster.formed_in_s, 2))
        yield live
    except RuntimeError:
        for log in sorted(tmp.glob("*.log")):
            print(log.name, log.read_text()[-2000:])
        raise
    finally:
        for name in list(live.processes):
            live.kill(name)
        live.cluster.cleanup() if live.cluster else None
        shutil.rmtree(tmp, ignore_errors=True)


def healed(scaled: ScaledStack) -> None:
    """Every part of the stack running again, whatever a test broke."""
    for name in scaled.rules_names + scaled.session_names:
        if scaled.processes[name].poll() is not None:
            (scaled.start_rules if name.startswith("rules") else scaled.start_session)(name, scaled.backend_ports[name])
    for port, proc in list(scaled.cluster.processes.items()):
        if proc.poll() is not None:
            scaled.cluster.start_node(port)  # it rejoins as a replica of whoever took over its slots
    queue_back(scaled)
    scaled._wait(lambda: all(scaled.serving(n) for n in scaled.session_names) and scaled.cluster.healthy() and scaled.routed(),
                 "the stack to heal", 60)


def store_of(stack: ScaledStack) -> EventStore:
    return EventStore(redis_clients.connect(stack.cluster.url), stack.key_prefix)


def until_answered(call, deadline_s: float = 60) -> requests.Response:
    """What a careful client does: send again (same Idempotency-Key) until the service answers."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        try:
            reply = call()
            if reply.status_code in ANSWERED or reply.status_code < 300:
                return reply
        except requests.RequestException:
            pass
        time.sleep(0.05)
    raise AssertionError("the service did not answer within the deadline")


def verified(api: Api, store: EventStore, game_id: str) -> list[dict[str, Any]]:
    """The log is contiguous and its audit holds (the re-decision too, once the game is over)."""
    records = store.records(game_id)
    assert [r["v"] for r in records] == list(range(1, len(records) + 1))
    report = until_answered(lambda: api.get(f"/v1/games/{game_id}/audit")).json()
    assert report["chain_ok"] and report["events"] == len(records), report
    if report["replay_ok"] is not None:
        assert report["replay_ok"] and report["seed_ok"], report
    return records


@dataclass
class Player:
    """A client playing one game's human seats with idempotent retries, keeping every answer it got."""

    api: Api
    created: dict[str, Any]
    seed: int
    acks: list[dict[str, Any]] = field(default_factory=list)  # every 200: its events, when, and its durability
    retries: int = 0
    moves: int = 0  # numbers each move's Idempotency-Key

    def play(self, stop: threading.Event, moves: int = 10_000) -> None:
        rand, gid = random.Random(self.seed), self.created["id"]
        tokens = {s["seat"]: s["token"] for s in self.created["seats"]}
        for _ in range(moves):
            if stop.is_set():
                return
            self.moves += 1
            n = self.moves
            resource = until_answered(lambda: self.api.get(f"/v1/games/{gid}")).json()
            if resource["status"] != "active":
                return
            seat = rand.choice(resource["to_act"])
            state = until_answered(lambda: self.api.state(gid, tokens[seat])).json()
            command = rand.choice(state["legal_commands"])
            attempts = []

            def post():
                attempts.append(time.monotonic())
                return self.api.command(gid, tokens[seat], command, state["version"], key=f"move-{n}")

            reply = until_answered(post)
            self.retries += len(attempts) - 1
            if reply.status_code == 200:
                self.acks.append({"sent": attempts[-1], "at": time.monotonic(), "events": reply.json()["events"],
                                  "replicated": reply.headers.get("Mythos-Replicated")})

    def check(self, store: EventStore) -> None:
        """Every acknowledged event is in the log as acknowledged, and no command was applied twice."""
        records = verified(self.api, store, self.created["id"])
        by_version = {r["v"]: r for r in records}
        for ack in self.acks:
            for event in ack["events"]:
                assert by_version[event["version"]]["hash"] == event["hash"], "an acknowledged event is missing"
        acked = sorted({e["version"] for ack in self.acks for e in ack["events"]})  # a retry gets the first answer again
        by_seat = sorted(r["v"] for r in records if r["cause"]["by"] == "seat")
        assert acked == by_seat, "a command applied but never acknowledged, or applied twice"


def human_game(api: Api, game_id: str) -> dict[str, Any]:
    return api.create(game_id, [{"name": f"Seat {i}"} for i in range(GAMES[game_id].catalogue.min_players)])


def until_ack_after(players: list[Player], moment: float, timeout_s: float) -> float:
    """When a command sent after ``moment`` was first acknowledged: writes resumed. (A command sent before
    may be acknowledged after it, its append carried through the failover by the session service.)"""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        after = [a["at"] for p in players for a in p.acks if a["sent"] > moment]
        if after:
            return min(after)
        time.sleep(0.05)
    raise AssertionError("writes did not resume after the primary was lost")
