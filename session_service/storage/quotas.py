"""The quota counters' keys and scripts (the policy is ``use_cases/quotas.py``'s).

Keys: ``<prefix>:quota:{<client digest>}:<part>``, one cluster slot per client, so one script checks and counts
them all at once: ``open`` and ``seated`` (sorted sets of game ids by creation ms), and counters that expire with
their hour or minute (``tables:<hour>``, ``ai_tables:<hour>``, ``ai_cpu:<hour>``, ``players:<hour>``,
``chat:<minute>``, ``reads:<minute>``). The joins of one table are counted with the table (``<prefix>:{id}:joins``,
per client digest). Every check-and-count is one script: two requests at once never both pass a limit of one.
"""

from __future__ import annotations

from session_service.storage.store import EventStore

ADMIT = """
if redis.call("ZSCORE", KEYS[1], ARGV[5]) then return "ok" end  -- a retry of a table admitted already
local function over(key, limit)
  return tonumber(limit) > 0 and tonumber(redis.call("GET", key) or "0") >= tonumber(limit)
end
if tonumber(ARGV[1]) > 0 and redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[1]) then return "open_tables" end
if over(KEYS[2], ARGV[2]) then return "tables_per_hour" end
if ARGV[4] == "1" and over(KEYS[3], ARGV[3]) then return "ai_tables_per_hour" end
redis.call("ZADD", KEYS[1], ARGV[6], ARGV[5])
redis.call("EXPIRE", KEYS[1], ARGV[8])
redis.call("INCR", KEYS[2])
redis.call("EXPIRE", KEYS[2], ARGV[7])
if ARGV[4] == "1" then
  redis.call("INCR", KEYS[3])
  redis.call("EXPIRE", KEYS[3], ARGV[7])
end
return "ok"
"""

READ = """
local used = tonumber(redis.call("GET", KEYS[1]) or "0")
if used >= tonumber(ARGV[1]) then return 0 end
redis.call("INCRBY", KEYS[1], ARGV[2])
redis.call("EXPIRE", KEYS[1], ARGV[3])
return 1
"""
SEAT = """
if redis.call("ZSCORE", KEYS[1], ARGV[2]) then return 1 end  -- a retried join of a table counted already
if tonumber(ARGV[1]) > 0 and redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call("ZADD", KEYS[1], ARGV[3], ARGV[2])
redis.call("EXPIRE", KEYS[1], ARGV[4])
return 1
"""

JOIN = """
local done = tonumber(redis.call("HGET", KEYS[1], ARGV[1]) or "0")
if tonumber(ARGV[2]) > 0 and done >= tonumber(ARGV[2]) then return 0 end
redis.call("HINCRBY", KEYS[1], ARGV[1], 1)
return 1
"""

SPEND = """
local used = tonumber(redis.call("GET", KEYS[1]) or "0")
if used >= tonumber(ARGV[1]) then return 0 end
redis.call("INCR", KEYS[1])
redis.call("EXPIRE", KEYS[1], ARGV[2])
return 1
"""



class QuotaCounters:
    def __init__(self, store: EventStore):
        self._redis, self._prefix, self._store = store.redis, store.prefix, store
        self._admit = store.redis.register_script(ADMIT)
        self._spend = store.redis.register_script(SPEND)
        self._read = store.redis.register_script(READ)
        self._seat = store.redis.register_script(SEAT)
        self._join = store.redis.register_script(JOIN)

    def _key(self, digest: str, part: str) -> str:
        return f"{self._prefix}:quota:{{{digest}}}:{part}"

    def admit_table(self, digest: str, hour: int, game_id: str, *, all_ai: bool, now_ms: int, open_tables: int,
                    tables_per_hour: int, ai_tables_per_hour: int, counter_ttl_s: int, open_ttl_s: int) -> str:
        """Count a table against its client's open tables and its hour's tables (and all-AI tables), or answer the
        quota it is past ("ok": counted, or counted already by an earlier try)."""
        keys = [self._key(digest, "open"), self._key(digest, f"tables:{hour}"), self._key(digest, f"ai_tables:{hour}")]
        args = [open_tables, tables_per_hour, ai_tables_per_hour, int(all_ai), game_id, now_ms, counter_ttl_s, open_ttl_s]
        verdict = self._admit(keys=keys, args=args)
        return str(verdict.decode() if isinstance(verdict, bytes) else verdict)

    def held(self, digest: str, part: str, most: int) -> list[tuple[str, float]]:
        """The first ``most`` games of a set (``open``, ``seated``) with their creation ms."""
        return [(m.decode(), score) for m, score in self._redis.zrange(self._key(digest, part), 0, most - 1, withscores=True)]

    def drop(self, digest: str, part: str, game_ids: list[str]) -> None:
        if game_ids:
            self._redis.zrem(self._key(digest, part), *game_ids)

    def seat(self, digest: str, game_id: str, *, limit: int, now_ms: int, ttl_s: int) -> bool:
        """Add ``game_id`` to the client's ``seated`` unless it holds ``limit`` already (a retry is counted once)."""
        return bool(self._seat(keys=[self._key(digest, "seated")], args=[limit, game_id, now_ms, ttl_s]))

    def join(self, game_id: str, digest: str, limit: int) -> bool:
        """Count one more join of ``game_id`` by the client, unless it joined ``limit`` times already."""
        return bool(self._join(keys=[self._store.key(game_id, "joins")], args=[digest, limit]))

    def spend(self, digest: str, part: str, limit: int, ttl_s: int) -> bool:
        """Count one more of a counter below ``limit`` (False, nothing counted, once it is there)."""
        return bool(self._spend(keys=[self._key(digest, part)], args=[limit, ttl_s]))

    def spend_up_to(self, digest: str, part: str, limit: int, amount: int, ttl_s: int) -> bool:
        """Count ``amount`` more while the counter is below ``limit`` (the count that crosses it is let through)."""
        return bool(self._read(keys=[self._key(digest, part)], args=[limit, amount, ttl_s]))

    def refund(self, digest: str, part: str) -> None:
        self._redis.decr(self._key(digest, part))

    def used(self, digest: str, part: str) -> float:
        return float(self._redis.get(self._key(digest, part)) or 0)

    def add(self, digest: str, part: str, amount: float, ttl_s: int) -> None:
        key = self._key(digest, part)
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.incrbyfloat(key, amount)
            pipe.expire(key, ttl_s)
            pipe.execute()
