"""Retention on the real stack: the worker process reads RETENTION_* from its environment and its own sweep
exports each ended game, then removes it (issue 16). The policy's cases are in tests/integration/test_retention.py;
this is the wiring, with a retention period of a fraction of a second so a game just played is already old."""

from __future__ import annotations

import shutil
import tempfile
import time
import uuid
from pathlib import Path

import orjson
import pytest
import requests

from deploy.stacks.dev import Stack, free_port
from shared.audit import verify_export
from shared.games import GAMES
from tests.support.redis_server import delete_prefix, external_url

pytestmark = pytest.mark.e2e
GAME = "arkham-ritual"  # the shortest all-AI game (~84 events)
LIVENESS_S = 120  # a liveness bound, not a timing: the worker sweeps every second here


@pytest.fixture
def retaining_stack():
    tmp = Path(tempfile.mkdtemp(prefix="mythos-retention-"))
    prefix = f"mt-ret-{uuid.uuid4().hex[:8]}"
    live = Stack(port=free_port(), rules_port=free_port(), redis_url=external_url(), redis_port=free_port(),
                 data_dir=tmp, key_prefix=prefix, queue=prefix, log_dir=tmp,
                 extra_env={"SESSION_WORKERS": "1", "RULES_WORKERS": "1", "SWEEP_EVERY_S": "1",
                            "RETENTION_DAYS": "0.00001", "RETENTION_EVERY_S": "1", "RETENTION_EXPORT_DIR": str(tmp / "exports")})
    try:
        live.start()
        yield live, tmp / "exports"
    finally:
        live.stop()
        if external_url():
            from session_service.storage import redis_clients

            delete_prefix(redis_clients.connect(external_url()), prefix)
        shutil.rmtree(tmp, ignore_errors=True)


def test_the_worker_exports_then_removes_an_ended_game_and_leaves_a_human_one(retaining_stack):
    stack, exports = retaining_stack
    seats = [{"name": f"Bot {i}", "ai": "random"} for i in range(GAMES[GAME].catalogue.min_players)]
    bots = requests.post(stack.url + "/v1/games", json={"game": GAME, "seats": seats}, timeout=30).json()
    people = requests.post(stack.url + "/v1/games", json={"game": GAME, "seats": [{"name": f"P{i}"} for i in range(len(seats))]},
                           timeout=30).json()
    commitment, head = bots["seed_commitment"], None
    deadline = time.monotonic() + LIVENESS_S
    while time.monotonic() < deadline:
        reply = requests.get(f"{stack.url}/v1/games/{bots['id']}", timeout=30)
        if reply.status_code == 404:
            break
        if reply.json()["status"] == "finished":
            head = reply.json()["head_hash"]
        time.sleep(0.5)
    assert reply.status_code == 404, "the ended game was not retired"
    export = orjson.loads((exports / f"{bots['id']}.json").read_bytes())
    report = verify_export(export, GAMES, commitment=commitment, head=head)
    assert report["ok"], report["problems"]
    assert requests.get(f"{stack.url}/v1/games/{people['id']}", timeout=30).json()["status"] == "active"
    assert sorted(p.stem for p in exports.glob("*.json")) == [bots["id"]]
