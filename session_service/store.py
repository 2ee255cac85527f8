"""The Redis event store: one stream per game, appended only through one Lua script.

Keys of one game share the hash tag ``{game_id}`` so they land in one Redis Cluster slot:
``<prefix>:{id}:events`` (stream, entry id ``<version>-0``, field ``r`` = the record as JSON),
``<prefix>:{id}:meta`` (hash: type, seats, token hashes, seed, status, version, head hash …),
``<prefix>:{id}:snap`` (latest snapshot), ``<prefix>:{id}:cmds`` (idempotency field → answer).
``<prefix>:games`` is a sorted set of game ids by creation time, for listing.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

import orjson
import redis

SNAPSHOT_IF_NEWER = """
local current = tonumber(redis.call("HGET", KEYS[1], "version") or "-1")
if tonumber(ARGV[1]) > current then
  redis.call("HSET", KEYS[1], "version", ARGV[1], "state", ARGV[2])
  return 1
end
return 0
"""


@dataclass(frozen=True, slots=True)
class Appended:
    status: str  # ok | conflict | duplicate | missing
    version: int = 0
    prior: str | None = None


class EventStore:
    def __init__(self, client: redis.Redis, prefix: str = "mt"):
        self.redis = client
        self.prefix = prefix
        self._append = client.register_script(resources.files("session_service").joinpath("append.lua").read_text())
        self._snapshot = client.register_script(SNAPSHOT_IF_NEWER)

    # -- keys -------------------------------------------------------------------------------------
    def key(self, game_id: str, part: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:{part}"

    @property
    def index_key(self) -> str:
        return f"{self.prefix}:games"

    # -- writing ----------------------------------------------------------------------------------
    def create(self, game_id: str, meta: dict[str, str], records: list[dict[str, Any]], created_ms: int) -> Appended:
        """Write a new game's meta and its setup records in one transaction."""
        meta_key = self.key(game_id, "meta")
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(meta_key, mapping={**meta, "version": "0"})
            self._append(
                keys=[self.key(game_id, "events"), meta_key, self.key(game_id, "cmds")],
                args=[0, "", "", 0, *(orjson.dumps(r) for r in records)],
                client=pipe,
            )
            result = pipe.execute()[-1]
        self.redis.zadd(self.index_key, {game_id: created_ms})
        return _appended(result)

    def append(
        self,
        game_id: str,
        expected_version: int,
        records: list[dict[str, Any]],
        meta: dict[str, str],
        idempotency_field: str = "",
        answer: str = "",
    ) -> Appended:
        """Append ``records`` if the game is at ``expected_version`` and the idempotency field is new."""
        flat = [x for pair in meta.items() for x in pair]
        result = self._append(
            keys=[self.key(game_id, "events"), self.key(game_id, "meta"), self.key(game_id, "cmds")],
            args=[expected_version, idempotency_field, answer, len(meta), *flat, *(orjson.dumps(r) for r in records)],
        )
        return _appended(result)

    def save_snapshot(self, game_id: str, version: int, state: bytes) -> None:
        self._snapshot(keys=[self.key(game_id, "snap")], args=[version, state])

    def set_meta(self, game_id: str, **fields: str) -> None:
        self.redis.hset(self.key(game_id, "meta"), mapping=fields)

    # -- reading ----------------------------------------------------------------------------------
    def meta(self, game_id: str) -> dict[str, str] | None:
        return _meta(self.redis.hgetall(self.key(game_id, "meta")))

    def count_and_meta(self, counter: str, ttl_s: int, game_id: str | None) -> tuple[int, dict[str, str] | None]:
        """Count one more in ``counter`` (expiring in ``ttl_s``) and, given a game, read its meta: one round trip."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.incr(counter).expire(counter, ttl_s)
            if game_id is not None:
                pipe.hgetall(self.key(game_id, "meta"))
            replies = pipe.execute()
        return replies[0], (_meta(replies[2]) if game_id is not None else None)

    def version(self, game_id: str) -> int | None:
        raw = self.redis.hget(self.key(game_id, "meta"), "version")
        return None if raw is None else int(raw)

    def records(self, game_id: str, after: int = 0, until: int | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        """Records with ``after < version <= until``, oldest first."""
        end = "+" if until is None else f"{until}-0"
        entries = self.redis.xrange(self.key(game_id, "events"), f"({after}-0" if after else "-", end, count=limit)
        return [orjson.loads(fields[b"r"]) for _, fields in entries]

    def wait_records(self, game_id: str, after: int, block_ms: int) -> list[dict[str, Any]]:
        """Records after ``after``, waiting up to ``block_ms`` for the first one (XREAD BLOCK)."""
        reply = self.redis.xread({self.key(game_id, "events"): f"{after}-0"}, block=block_ms, count=500)
        return [orjson.loads(fields[b"r"]) for _, entries in reply for _, fields in entries]

    def snapshot(self, game_id: str) -> tuple[int, bytes] | None:
        raw = self.redis.hmget(self.key(game_id, "snap"), "version", "state")
        return None if raw[0] is None else (int(raw[0]), raw[1])

    def idempotent_answer(self, game_id: str, field: str) -> str | None:
        raw = self.redis.hget(self.key(game_id, "cmds"), field)
        return None if raw is None else raw.decode()

    @property
    def active_key(self) -> str:
        return f"{self.prefix}:active"

    def mark_active(self, game_id: str) -> None:
        self.redis.sadd(self.active_key, game_id)

    def mark_finished(self, game_id: str) -> None:
        self.redis.srem(self.active_key, game_id)

    def active_ids(self) -> list[str]:
        return sorted(g.decode() for g in self.redis.smembers(self.active_key))

    def game_ids(self, after: str | None, limit: int) -> list[str]:
        """Game ids newest first, starting after the cursor id."""
        start = 0
        if after:
            rank = self.redis.zrevrank(self.index_key, after)
            start = 0 if rank is None else rank + 1
        return [g.decode() for g in self.redis.zrevrange(self.index_key, start, start + limit - 1)]


def _meta(raw: dict[bytes, bytes]) -> dict[str, str] | None:
    return {k.decode(): v.decode() for k, v in raw.items()} if raw else None


def _appended(result: list[bytes]) -> Appended:
    status, value = result[0].decode(), result[1].decode()
    if status == "duplicate":
        return Appended(status, prior=value)
    return Appended(status, version=int(value))
