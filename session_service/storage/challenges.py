"""The Redis side of challenges (``use_cases/challenges.py``). This module owns these keys and their scripts; each
script touches one key, so every one works on a Redis Cluster as on one Redis.

- A challenge: ``{c_…}:challenge``, a hash: ``body`` (what it asks, as JSON, never changed), ``status`` (``open``
  until one answer wins: ``accepted``, ``declined``, ``withdrawn`` or ``expired``), ``game`` (the table, once
  accepted) and ``expires_ms``; kept ``KEPT_S`` past its lapse, so a late answer reads what became of it. ``PUT``
  writes it once: a retried request's second attempt (same id) changes nothing.
  ``ANSWER`` moves it out of ``open`` once: of two answers at once (two accepts, an accept and a withdrawal) one wins,
  and the other reads the winner's status.
- A player's open challenges: ``{p_…}:chout`` (made by it) and ``{p_…}:chin`` (made to it), sorted sets of
  challenge id → lapse in ms. ``ADMIT`` adds one unless the set holds ``limit`` unlapsed ones already; an answered one
  is dropped by whoever answered it (and skipped on reading until then).
- ``{shard-K}:challenges:due``: the open challenges of one shard by lapse, where the workers' round finds those
  that lapsed.

A challenge's ``Idempotency-Key`` is claimed as a table's is, by ``claims.py`` (kind ``challenge``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from session_service.storage.store import EventStore

KEPT_S = 24 * 3600  # how long a challenge is kept past its lapse (answered or not)
GRACE_MS = 60_000  # a player's sets outlive their newest member's lapse by this much

ADMIT = """
-- KEYS: a player's set. ARGV: now (ms), limit, challenge id, its lapse (ms), grace (ms). 1: added (or there
-- already), 0: full.
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", ARGV[1])
if redis.call("ZSCORE", KEYS[1], ARGV[3]) then return 1 end
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call("ZADD", KEYS[1], ARGV[4], ARGV[3])
redis.call("PEXPIREAT", KEYS[1], tonumber(ARGV[4]) + tonumber(ARGV[5]))
return 1
"""

ANSWER = """
-- KEYS: the challenge. ARGV: the status asked for, now (ms), the table (accepted). Answers {won, status, table}:
-- won 1 when this call moved it out of open (to what was asked, or to expired if it had lapsed); nil: no such one.
local status = redis.call("HGET", KEYS[1], "status")
if not status then return false end
local game = redis.call("HGET", KEYS[1], "game") or ""
if status ~= "open" then return {0, status, game} end
local lapsed = tonumber(ARGV[2]) >= tonumber(redis.call("HGET", KEYS[1], "expires_ms"))
if ARGV[1] == "expired" and not lapsed then return {0, status, game} end
local to = lapsed and "expired" or ARGV[1]
game = (to == "accepted") and ARGV[3] or ""
redis.call("HSET", KEYS[1], "status", to, "game", game)
return {1, to, game}
"""

PUT = """
-- KEYS: the challenge. ARGV: its body (JSON), its lapse (ms), how long it is kept past it (ms). 1: written; 0: it is
-- there already (a retried request's, written by its first attempt), left as it is.
if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("HSET", KEYS[1], "body", ARGV[1], "status", "open", "game", "", "expires_ms", ARGV[2])
redis.call("PEXPIREAT", KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]))
return 1
"""

REOPEN = """
-- KEYS: the challenge. ARGV: the table its accept chose. Back to open, if that accept is still the answer.
if redis.call("HGET", KEYS[1], "status") ~= "accepted" or redis.call("HGET", KEYS[1], "game") ~= ARGV[1] then return 0 end
redis.call("HSET", KEYS[1], "status", "open", "game", "")
return 1
"""


class ChallengeRecords:
    def __init__(self, store: EventStore):
        self.store, self._redis = store, store.redis
        self._admit = store.redis.register_script(ADMIT)
        self._answer = store.redis.register_script(ANSWER)
        self._put = store.redis.register_script(PUT)
        self._reopen = store.redis.register_script(REOPEN)

    def _key(self, challenge_id: str) -> str:
        return self.store.key(challenge_id, "challenge")

    def _set(self, player_id: str, side: str) -> str:
        return f"{self.store.prefix}:{{{player_id}}}:ch{side}"

    def _due(self, shard: int) -> str:
        return self.store.shard_key(shard, "challenges:due")

    # -- writing ---------------------------------------------------------------------------------------
    def admit(self, player_id: str, side: str, challenge_id: str, now_ms: int, expires_ms: int, limit: int) -> bool:
        """Count the challenge among the player's open ones on ``side`` (``out``: made, ``in``: received), unless it
        has ``limit`` of them already (False)."""
        return bool(self._admit(keys=[self._set(player_id, side)], args=[now_ms, limit, challenge_id, expires_ms, GRACE_MS]))

    def put(self, body: dict[str, Any]) -> bool:
        """Enter a new challenge among the due ones, then write it (open); False, with nothing changed, if it is
        there already (``PUT``: of two attempts of one request, one writes it). In that order, a process that dies
        between the two leaves a due entry with no challenge, which the workers' round drops, never a challenge
        whose lapse nobody is told of; ``nx``: a retry's later lapse does not move the first attempt's."""
        expires_ms = int(body["expires_ms"])
        self._redis.zadd(self._due(self.store.shard_of(body["id"])), {body["id"]: expires_ms}, nx=True)
        return bool(self._put(keys=[self._key(body["id"])], args=[orjson.dumps(body), expires_ms, KEPT_S * 1000]))

    def answer(self, challenge_id: str, status: str, now_ms: int, game: str = "") -> tuple[bool, str, str] | None:
        """Move the challenge out of ``open`` (``ANSWER``): (won, its status now, its table); None: no such one."""
        found = self._answer(keys=[self._key(challenge_id)], args=[status, now_ms, game])
        if not found:
            return None
        won, now, table = found
        return bool(won), now.decode() if isinstance(now, bytes) else str(now), table.decode() if isinstance(table, bytes) else str(table)

    def reopen(self, challenge_id: str, game: str) -> bool:
        """Undo an accept whose table could not be opened (the challenge is open again)."""
        return bool(self._reopen(keys=[self._key(challenge_id)], args=[game]))

    def forget(self, body: dict[str, Any]) -> None:
        """Drop an answered challenge from its players' open ones and the due ones (the challenge itself is kept)."""
        challenge_id = body["id"]
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self._set(body["challenger"]["player"], "out"), challenge_id)
            pipe.zrem(self._set(body["challenged"]["player"], "in"), challenge_id)
            pipe.zrem(self._due(self.store.shard_of(challenge_id)), challenge_id)
            pipe.execute()

    def undue(self, challenge_id: str) -> None:
        """Drop from the due ones a challenge no longer kept."""
        self._redis.zrem(self._due(self.store.shard_of(challenge_id)), challenge_id)

    def unadmit(self, player_id: str, side: str, challenge_id: str) -> None:
        self._redis.zrem(self._set(player_id, side), challenge_id)

    def delete(self, body: dict[str, Any]) -> None:
        """Take back a challenge refused before anyone was told of it: nothing of it is left."""
        self.forget(body)
        self._redis.delete(self._key(body["id"]))

    # -- reading ---------------------------------------------------------------------------------------
    def get(self, challenge_id: str) -> dict[str, Any] | None:
        """The challenge: its body, with ``status`` and ``table`` (None: no such one, or no longer kept)."""
        return self.many([challenge_id])[0]

    def many(self, challenge_ids: Iterable[str]) -> list[dict[str, Any] | None]:
        ids = list(challenge_ids)
        if not ids:
            return []
        with self._redis.pipeline(transaction=False) as pipe:
            for challenge_id in ids:
                pipe.hmget(self._key(challenge_id), ["body", "status", "game"])
            found = pipe.execute()
        return [None if raw is None else {**orjson.loads(raw), "status": status.decode(), "table": game.decode() or None}
                for raw, status, game in found]

    def open_ids(self, player_id: str, side: str, now_ms: int) -> list[str]:
        """The player's challenges on ``side`` that have not lapsed, oldest first (answered ones may be among them)."""
        found = self._redis.zrangebyscore(self._set(player_id, side), f"({now_ms}", "+inf")
        return [c.decode() for c in found]

    def due(self, now_ms: int, count: int) -> list[str]:
        """Up to ``count`` challenges per shard whose lapse has come."""
        with self._redis.pipeline(transaction=False) as pipe:
            for shard in range(self.store.shards):
                pipe.zrangebyscore(self._due(shard), "-inf", now_ms, start=0, num=count)
            return [c.decode() for found in pipe.execute() for c in found]
