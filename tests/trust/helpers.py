"""Helpers for the trust suites: an API client with raw access, SSE reading, twin games, and measured figures."""

from __future__ import annotations

import json
from dataclasses import replace
import os
import random
import time
from collections.abc import Iterable
from typing import Any

import orjson
import redis
import requests

from shared.kernel.game import Game
from shared.kernel.table import Seating, Table
from shared.records import event_of
from tests.support.client import ApiClient

# Fields of a client event or game resource that are not knowledge about the game: ``hash``/``prev_hash``/
# ``head_hash`` commit to the full record (secret fields and a secret 64-bit cause id included), ``at`` is the
# server's clock and ``id``/``created_at``/``updated_at`` name the resource, ``watchers`` counts the streams people
# (here: this suite's own readers, closing one twin's a moment before the other's) hold open on a table. Everything
# else must be identical.
NOT_KNOWLEDGE = ("hash", "prev_hash", "head_hash", "at", "id", "created_at", "updated_at", "watchers")


def record_figures(suite: str, **numbers: Any) -> None:
    """Append measured figures to the file named by MYTHOS_FIGURES (docs/reliability.md is written from it)."""
    path = os.environ.get("MYTHOS_FIGURES")
    if path:
        with open(path, "a") as out:
            out.write(json.dumps({"suite": suite, "pid": os.getpid(), **numbers}) + "\n")


def masked(value: Any) -> Any:
    """``value`` with the fields of NOT_KNOWLEDGE blanked, recursively."""
    if isinstance(value, dict):
        return {k: ("*" if k in NOT_KNOWLEDGE else masked(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [masked(v) for v in value]
    return value


class Api(ApiClient):
    def headers(self, token: str | None, **extra: str) -> dict[str, str]:
        return {**({"Authorization": f"Bearer {token}"} if token else {}), **extra}

    def state(self, game_id: str, token: str | None) -> requests.Response:
        return self.get(f"/v1/games/{game_id}/state", token)

    def command(self, game_id: str, token: str | None, command: Any, expected_version: int | None = None,
                key: str | None = None) -> requests.Response:
        headers = self.headers(token, **({"Idempotency-Key": key} if key else {}))
        return self.http.post(f"{self.base}/v1/games/{game_id}/commands", headers=headers,
                              json={"command": command, "expected_version": expected_version}, timeout=30)

    def sse(self, game_id: str, token: str | None, after: int, until: int, timeout_s: float = 20) -> list[str]:
        """The raw SSE messages of a stream resumed after ``after``, read until the event with id ``until``."""
        headers = self.headers(token, **{"Last-Event-ID": str(after)})
        messages: list[str] = []
        deadline = time.monotonic() + timeout_s
        with self.http.get(f"{self.base}/v1/games/{game_id}/events/stream", headers=headers, stream=True,
                           timeout=timeout_s) as reply:
            assert reply.status_code == 200, reply.text
            buffer = ""
            for chunk in reply.iter_content(chunk_size=None, decode_unicode=True):
                buffer += chunk
                while "\n\n" in buffer:
                    message, buffer = buffer.split("\n\n", 1)
                    if message.startswith(":"):
                        if until <= after:  # a resume with nothing to replay: the stream just keeps alive
                            return messages
                        continue
                    messages.append(message)
                    ids = [line[4:] for line in message.splitlines() if line.startswith("id: ")]
                    if message.startswith("event: end") or ids == [str(until)]:
                        return messages
                if time.monotonic() > deadline:
                    break
        raise AssertionError(f"the stream of {game_id} did not reach {until}: {messages}")


def sse_json(message: str) -> tuple[str, Any]:
    """(event name, parsed data) of one SSE message, with the fields of NOT_KNOWLEDGE masked."""
    name, data, ident = "", None, None
    for line in message.splitlines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = orjson.loads(line[6:])
        elif line.startswith("id: "):
            ident = line[4:]
    return f"{name}#{ident}", masked(data)


def play_random(api: Api, game: dict[str, Any], rand: random.Random, steps: int) -> int:
    """Post ``steps`` random legal commands (random acting seat) over HTTP; the number actually posted."""
    tokens = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}
    posted = waited = 0
    while posted < steps and waited < 400:
        resource = api.get(f"/v1/games/{game['id']}").json()
        if resource["status"] != "active":
            break
        mine = [s for s in resource["to_act"] if s in tokens]
        if not mine:
            waited += 1
            time.sleep(0.025)  # an AI seat's move: the worker makes it
            continue
        seat = rand.choice(mine)
        state = api.state(game["id"], tokens[seat]).json()
        if not state["legal_commands"]:
            continue
        reply = api.command(game["id"], tokens[seat], rand.choice(state["legal_commands"]), state["version"])
        if reply.status_code == 409 and reply.json()["error"]["code"] == "game/version_conflict":
            waited += 1
            continue  # an AI seat moved first: read again
        assert reply.status_code == 200, reply.text
        posted += 1
    return posted


# -- twin games on a live stack -----------------------------------------------------------------------
def key(prefix: str, game_id: str, part: str) -> str:
    return f"{prefix}:{{{game_id}}}:{part}"


def stored_records(r: redis.Redis, prefix: str, game_id: str) -> list[dict[str, Any]]:
    return [orjson.loads(fields[b"r"]) for _, fields in r.xrange(key(prefix, game_id, "events"))]


def live_table(r: redis.Redis, prefix: str, game: Game, game_id: str) -> Table:
    """The table of a stored game (the game's full state inside), folded by the kernel from its log."""
    return Seating(game).fold(None, (event_of(record) for record in stored_records(r, prefix, game_id)))


def live_state(r: redis.Redis, prefix: str, game: Game, game_id: str) -> Any:
    """The full state of a stored game, folded by the kernel from its log."""
    return live_table(r, prefix, game, game_id).game


def fork(r: redis.Redis, prefix: str, game: Game, source_id: str, states: Iterable[Any]) -> list[str]:
    """New games that share ``source_id``'s log, meta and seat tokens, each at one of ``states``.

    Each copy gets a snapshot at the head version holding its state, so the session service (which has never
    seen the new id) loads that state instead of folding the log: a game whose hidden information is exactly
    the one given, served by the real services.
    """
    meta = r.hgetall(key(prefix, source_id, "meta"))
    entries = r.xrange(key(prefix, source_id, "events"))
    version = int(meta[b"version"])
    seating, table = Seating(game), live_table(r, prefix, game, source_id)
    ids = []
    for state in states:
        game_id = "g_twin" + os.urandom(6).hex()
        snapshot = orjson.dumps(seating.codec.encode(replace(table, game=state)))
        with r.pipeline(transaction=True) as pipe:
            pipe.hset(key(prefix, game_id, "snap"), mapping={"version": version, "state": snapshot})
            for entry_id, fields in entries:
                pipe.xadd(key(prefix, game_id, "events"), fields, id=entry_id)
            pipe.hset(key(prefix, game_id, "meta"), mapping=meta)
            pipe.execute()
        ids.append(game_id)
    return ids
