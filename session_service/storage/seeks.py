"""The Redis side of quick play (``use_cases/matchmaker.py``): the pools of open seeks. This module owns these keys
and their script.

- A pool (a game, the seekers' pool ``humans`` or ``bots``, rated or casual) lives in one slot
  ``{seeks:<game>:<pool>:<rated|casual>}``: ``:queue`` (seek id → made at, ms: oldest first) and ``:seeks`` (seek id →
  the seek as JSON). ``CLAIM`` takes a group of seeks out of it all or none: two matchmakers (any session process,
  any worker) that chose overlapping groups cannot both win, so no seek is matched twice.
- A player's seeks: ``{p_…}:seeks`` (seek id → its pool); an address's: ``{seekaddr-<digest>}:seeks`` (same).
- ``{p_…}:seekalive``: set while the player's stream is open (renewed by it, expiring ``lapse_s`` after it was last
  seen): a seek of a player without it has lapsed.
- ``{p_…}:seeking``: set while a request of the player makes a seek (``hold``), from its count of the player's open
  seeks to its write, so that two at once cannot both count the same few and both add one. It expires after
  ``HOLD_S`` should that request's process die holding it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from session_service.storage.store import EventStore

HOLD_S = 10  # far longer than a seek's count and write take (a few round trips)

CLAIM = """
-- KEYS: queue, seeks. ARGV: seek ids. Every one of them out of the pool, or none (answers their JSON, or nil).
local found = {}
for i = 1, #ARGV do
  local raw = redis.call("HGET", KEYS[2], ARGV[i])
  if not raw then return false end
  found[i] = raw
end
for i = 1, #ARGV do
  redis.call("ZREM", KEYS[1], ARGV[i])
  redis.call("HDEL", KEYS[2], ARGV[i])
end
return found
"""


class SeekPools:
    def __init__(self, store: EventStore):
        self.store = store
        self._claim = store.redis.register_script(CLAIM)

    def _pool_key(self, pool: str, part: str) -> str:
        return f"{self.store.prefix}:{{seeks:{pool}}}:{part}"

    def _owner_key(self, owner: str) -> str:
        return f"{self.store.prefix}:{{{owner}}}:seeks"

    def _alive_key(self, player: str) -> str:
        return f"{self.store.prefix}:{{{player}}}:seekalive"

    def _hold_key(self, player: str) -> str:
        return f"{self.store.prefix}:{{{player}}}:seeking"

    # -- writing ---------------------------------------------------------------------------------------
    def hold(self, player: str) -> bool:
        """Take the player's turn to make a seek (False: another request of its has it now)."""
        return bool(self.store.redis.set(self._hold_key(player), "1", nx=True, ex=HOLD_S))

    def release(self, player: str) -> None:
        self.store.redis.delete(self._hold_key(player))

    def add(self, pool: str, seek: dict[str, Any], owners: Iterable[str]) -> None:
        """Put ``seek`` in ``pool`` and on the lists of its ``owners`` (its player, its address)."""
        with self.store.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._pool_key(pool, "seeks"), seek["id"], orjson.dumps(seek))
            pipe.zadd(self._pool_key(pool, "queue"), {seek["id"]: seek["made_ms"]})
            for owner in owners:
                pipe.hset(self._owner_key(owner), seek["id"], pool)
            pipe.execute()

    def claim(self, pool: str, seek_ids: list[str]) -> list[dict[str, Any]] | None:
        """Take these seeks out of ``pool`` together (None: one of them is gone, and none was taken)."""
        found = self._claim(keys=[self._pool_key(pool, "queue"), self._pool_key(pool, "seeks")], args=seek_ids)
        return None if not found else [orjson.loads(raw) for raw in found]

    def forget(self, owners: Iterable[str], seek_ids: Iterable[str]) -> None:
        """Drop seeks from their owners' lists (matched, withdrawn or lapsed)."""
        ids = list(seek_ids)
        if ids:
            with self.store.redis.pipeline(transaction=False) as pipe:
                for owner in owners:
                    pipe.hdel(self._owner_key(owner), *ids)
                pipe.execute()

    # -- reading ---------------------------------------------------------------------------------------
    def oldest(self, pool: str, count: int) -> list[dict[str, Any]]:
        """The pool's oldest ``count`` seeks, oldest first."""
        ids = self.store.redis.zrange(self._pool_key(pool, "queue"), 0, count - 1)
        raw = self.store.redis.hmget(self._pool_key(pool, "seeks"), ids) if ids else []
        return [orjson.loads(r) for r in raw if r is not None]

    def size(self, pool: str) -> int:
        return int(self.store.redis.zcard(self._pool_key(pool, "queue")))

    def sizes(self, pools: list[str]) -> list[int]:
        """Each pool's open seeks, in one pipeline (on a cluster, a round trip per node)."""
        with self.store.redis.pipeline(transaction=False) as pipe:
            for pool in pools:
                pipe.zcard(self._pool_key(pool, "queue"))
            return [int(n) for n in pipe.execute()]

    def owned(self, owner: str) -> dict[str, str]:
        """An owner's seeks (seek id → pool) that are still in their pools (the others are dropped from its list)."""
        listed = {k.decode(): v.decode() for k, v in self.store.redis.hgetall(self._owner_key(owner)).items()}
        if not listed:
            return {}
        with self.store.redis.pipeline(transaction=False) as pipe:
            for seek_id, pool in listed.items():
                pipe.hexists(self._pool_key(pool, "seeks"), seek_id)
            present = pipe.execute()
        gone = [seek_id for seek_id, here in zip(listed, present) if not here]
        self.forget([owner], gone)
        return {seek_id: pool for seek_id, pool in listed.items() if seek_id not in gone}

    def get(self, pool: str, seek_id: str) -> dict[str, Any] | None:
        raw = self.store.redis.hget(self._pool_key(pool, "seeks"), seek_id)
        return None if raw is None else dict(orjson.loads(raw))

    # -- liveness --------------------------------------------------------------------------------------
    def renew(self, player: str, lapse_s: int) -> None:
        self.store.redis.set(self._alive_key(player), "1", ex=max(1, lapse_s))

    def alive(self, players: list[str]) -> list[bool]:
        with self.store.redis.pipeline(transaction=False) as pipe:
            for player in players:
                pipe.exists(self._alive_key(player))
            return [bool(n) for n in pipe.execute()]
