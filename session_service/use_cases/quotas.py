"""Quotas per client on the work one cheap request buys: tables opened, and the AI moves they make the worker play.

``POST /v1/games`` costs one write of the rate limit, but an all-AI table then makes the worker decide and write
600–700 events (~390 KB) on its own. So each client (``http/clients.py``: the validated client; opening a table
has no game yet, so its address, or the outermost trusted proxy's view of it; a player key makes no other client,
since one request makes a player) gets, shared by every process:

- ``OPEN_TABLES_PER_CLIENT``: tables it opened that are not over yet (a table ends by play, resignation, abort,
  or retention ending it when idle: ``retention.py``);
- ``TABLES_PER_CLIENT_PER_HOUR`` and ``AI_TABLES_PER_CLIENT_PER_HOUR`` (tables whose every seat is an AI);
- ``AI_CPU_SECONDS_PER_CLIENT_PER_HOUR``: the worker's CPU spent on the client's tables, AI moves and turn-timer
  moves alike (each costs the CPU its job took, at least ``MIN_MOVE_CHARGE_S`` for the rules service's and Redis'
  share). Counting moves did not bound the cost: a ``hard`` move costs a thousand ``random`` ones, and six ``hard``
  all-AI tables took 53 of 65 worker CPU-seconds. Past it, those seats wait, and the sweeper tries them again until
  the hour turns (the table is not refused: it was admitted). How the workers are shared between clients meanwhile
  is ``worker/fairness.py``.
- ``PLAYERS_PER_CLIENT_PER_HOUR``: players it makes (``POST /v1/players``): each is kept for ever, and one request
  makes one, so within the write rate limit alone one address made 72,000 an hour.
- ``LOG_READS_PER_CLIENT_PER_MINUTE``: events of games' logs read or folded for the client (its address): the
  pages of ``/events``, a stream's replay of what came before its resume point, ``/state?at=N`` (folded from the
  start), ``/audit`` and ``/export``. Reads are not writes, so the write rate limit never bounded them: one client
  resumed a finished game's stream from 0 again and again and pulled 193 MB in 10 s. Past it, 429 with
  ``Retry-After`` (the minute's end); a live stream's new events cost nothing (one read serves every watcher).

0 turns a quota off. A table past a quota is refused before anything of it is written, with 429
``request/rate_limited``, ``details: {quota, limit}`` and ``Retry-After``; a refused table counts nothing, and an
idempotent retry of a table admitted already (the lobby's ``Idempotency-Key``: the same game id) is admitted again
without counting. (A table
admitted whose own write then fails, Redis going away, stays counted for its hour; its ``open`` entry goes a minute
later.) Filling a waiting table's open seats with AIs (the lobby's ``start``) so that no person is left at it makes
an all-AI table, counted against ``AI_TABLES_PER_CLIENT_PER_HOUR`` of the table's client (``admit_all_ai_start``):
past it the ``start`` is refused like a create.

Keys: ``<prefix>:quota:{<client digest>}:<part>``, one cluster slot per client, so one script checks and counts
them all at once: ``open`` (sorted set of the client's game ids by creation ms, pruned of games that are over or
gone when it is full), ``tables:<hour>``, ``ai_tables:<hour>``, ``ai_cpu:<hour>`` (seconds), ``players:<hour>``,
``reads:<minute>`` (counters that expire with their period). The game's meta keeps the client's digest
(``quota_client``) so the worker knows whom to bill, and whose turn it is (``scheduler.Gate``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from session_service.use_cases.errors import RateLimited
from session_service.use_cases.meta import Meta, OVER
from session_service.storage.store import EventStore

HOUR_S = 3600
OPEN_GRACE_MS = 60_000  # an id in ``open`` with no meta yet may be a table being written right now
OPEN_READ_MAX = 500  # ids of ``open`` read to prune it, at most (a quota lowered below a client's count)
OPEN_RETRY_S = 60  # when a full ``open`` may have room: nobody knows when a game ends
MIN_MOVE_CHARGE_S = 0.005  # a server move's least cost: the rules service's decision and Redis' append, unseen here
META_FIELD = "quota_client"

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
MINUTE_S = 60

SPEND = """
local used = tonumber(redis.call("GET", KEYS[1]) or "0")
if used >= tonumber(ARGV[1]) then return 0 end
redis.call("INCR", KEYS[1])
redis.call("EXPIRE", KEYS[1], ARGV[2])
return 1
"""


@dataclass(frozen=True)
class Limits:
    open_tables: int = 20
    tables_per_hour: int = 120
    ai_tables_per_hour: int = 20
    ai_cpu_seconds_per_hour: float = 1800.0  # half a core, on average over the hour
    players_per_hour: int = 30
    log_reads_per_minute: int = 20_000
    open_ttl_s: int = 30 * 24 * HOUR_S  # a client quiet for this long starts afresh

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Limits:
        return cls(open_tables=int(config.get("OPEN_TABLES_PER_CLIENT", cls.open_tables)),
                   tables_per_hour=int(config.get("TABLES_PER_CLIENT_PER_HOUR", cls.tables_per_hour)),
                   ai_tables_per_hour=int(config.get("AI_TABLES_PER_CLIENT_PER_HOUR", cls.ai_tables_per_hour)),
                   ai_cpu_seconds_per_hour=float(config.get("AI_CPU_SECONDS_PER_CLIENT_PER_HOUR",
                                                            cls.ai_cpu_seconds_per_hour)),
                   players_per_hour=int(config.get("PLAYERS_PER_CLIENT_PER_HOUR", cls.players_per_hour)),
                   log_reads_per_minute=int(config.get("LOG_READS_PER_CLIENT_PER_MINUTE", cls.log_reads_per_minute)))

    def limit(self, quota: str) -> float:
        return {"open_tables": self.open_tables, "tables_per_hour": self.tables_per_hour,
                "ai_tables_per_hour": self.ai_tables_per_hour, "ai_cpu_seconds_per_hour": self.ai_cpu_seconds_per_hour,
                "players_per_hour": self.players_per_hour, "log_reads_per_minute": self.log_reads_per_minute}[quota]


class Quotas:
    def __init__(self, store: EventStore, limits: Limits, clock: Any = time.time):
        self.store, self.limits, self.clock = store, limits, clock
        self._admit = store.redis.register_script(ADMIT)
        self._spend = store.redis.register_script(SPEND)
        self._read = store.redis.register_script(READ)

    def key(self, digest: str, part: str) -> str:
        return f"{self.store.prefix}:quota:{{{digest}}}:{part}"

    # -- opening a table ------------------------------------------------------------------------------
    def admit(self, game_id: str, body: Mapping[str, Any], who: str | None = None) -> dict[str, str]:
        """Count the table ``game_id`` (``body`` as ``POST /v1/games`` takes it) against the quotas of its client
        ``who`` (the address the HTTP edge saw), or refuse it (``RateLimited``) with nothing counted. Answers the
        meta fields to write with the table. With no client (the server's own tables) there is no quota."""
        if who is None:
            return {}
        digest = hashlib.sha256(who.encode()).hexdigest()[:24]  # Redis keeps no address in the clear
        now = self.clock()
        hour = int(now // HOUR_S)
        keys = [self.key(digest, "open"), self.key(digest, f"tables:{hour}"), self.key(digest, f"ai_tables:{hour}")]
        all_ai = bool(body.get("seats")) and all(s.get("ai") for s in body["seats"])
        if self.limits.open_tables > 0:
            self._prune(keys[0], now)
        args = [self.limits.open_tables, self.limits.tables_per_hour, self.limits.ai_tables_per_hour, int(all_ai),
                game_id, int(now * 1000), HOUR_S + 60, self.limits.open_ttl_s]
        verdict = self._admit(keys=keys, args=args)
        verdict = verdict.decode() if isinstance(verdict, bytes) else verdict
        if verdict != "ok":
            retry = OPEN_RETRY_S if verdict == "open_tables" else max(1, HOUR_S - int(now) % HOUR_S)
            raise self.refusal(verdict, retry)
        return {META_FIELD: digest}

    def _prune(self, key: str, now: float) -> None:
        """Drop from a full ``open`` the games that are over, or gone (retention, or a create that failed)."""
        held = self.store.redis.zrange(key, 0, OPEN_READ_MAX - 1, withscores=True)
        if len(held) < self.limits.open_tables:
            return
        ids = [member.decode() for member, _ in held]
        ended = [game_id for (game_id, (_, score)), raw in zip(zip(ids, held), self.store.metas(ids))
                 if (raw is None and score < now * 1000 - OPEN_GRACE_MS) or (raw is not None and raw["status"] in OVER)]
        if ended:
            self.store.redis.zrem(key, *ended)

    def refusal(self, quota: str, retry_after_s: int) -> RateLimited:
        limit = self.limits.limit(quota)
        what = {"open_tables": f"more than {limit} tables open at once",
                "tables_per_hour": f"more than {limit} tables an hour",
                "ai_tables_per_hour": f"more than {limit} all-AI tables an hour",
                "players_per_hour": f"more than {limit} players an hour",
                "log_reads_per_minute": f"more than {limit} events of game logs read a minute"}[quota]
        return RateLimited(f"{what} from one client; try again later", {"quota": quota, "limit": limit},
                           retry_after_s=retry_after_s)

    # -- making a player --------------------------------------------------------------------------------
    def admit_player(self, who: str) -> None:
        """Count one more player made by the client ``who`` (its address), or refuse it with nothing counted."""
        if self.limits.players_per_hour <= 0:
            return
        now = self.clock()
        digest = hashlib.sha256(who.encode()).hexdigest()[:24]
        key = self.key(digest, f"players:{int(now // HOUR_S)}")
        if not self._spend(keys=[key], args=[self.limits.players_per_hour, HOUR_S + 60]):
            raise self.refusal("players_per_hour", max(1, HOUR_S - int(now) % HOUR_S))

    # -- reading logs ------------------------------------------------------------------------------------
    def read(self, who: str, events: int) -> None:
        """Count ``events`` log events read for the client ``who``, or refuse (``RateLimited``, nothing counted)
        once its minute's allowance is spent. The read that crosses the allowance is served: a page is bounded."""
        if self.limits.log_reads_per_minute <= 0 or events <= 0:
            return
        now = self.clock()
        digest = hashlib.sha256(who.encode()).hexdigest()[:24]
        key = self.key(digest, f"reads:{int(now // MINUTE_S)}")
        if not self._read(keys=[key], args=[self.limits.log_reads_per_minute, events, MINUTE_S + 60]):
            raise self.refusal("log_reads_per_minute", max(1, MINUTE_S - int(now) % MINUTE_S))

    # -- all-AI tables made by start ----------------------------------------------------------------------
    def admit_all_ai_start(self, meta: Meta) -> bool:
        """Count one more all-AI table for ``meta``'s client, whose ``start`` fills every open seat with an AI and
        leaves no person at it; refused (``RateLimited``, nothing counted) past ``AI_TABLES_PER_CLIENT_PER_HOUR``.
        True when counted (``refund_all_ai_start`` undoes it if the start then fails)."""
        digest = meta.extra.get(META_FIELD)
        if not digest or self.limits.ai_tables_per_hour <= 0:
            return False
        now = self.clock()
        if not self._spend(keys=[self.key(digest, f"ai_tables:{int(now // HOUR_S)}")],
                           args=[self.limits.ai_tables_per_hour, HOUR_S + 60]):
            raise self.refusal("ai_tables_per_hour", max(1, HOUR_S - int(now) % HOUR_S))
        return True

    def refund_all_ai_start(self, meta: Meta) -> None:
        digest = meta.extra.get(META_FIELD)
        if digest:
            self.store.redis.decr(self.key(digest, f"ai_tables:{int(self.clock() // HOUR_S)}"))

    # -- the worker's moves ---------------------------------------------------------------------------
    def ai_cpu_left(self, meta: Meta) -> bool:
        """May the worker play one more AI or timer move of ``meta``'s game now, within its client's CPU for this
        hour? A table opened by no client (or before quotas) is not billed."""
        digest = meta.extra.get(META_FIELD)
        if not digest or self.limits.ai_cpu_seconds_per_hour <= 0:
            return True
        used = self.store.redis.get(self.key(digest, f"ai_cpu:{int(self.clock() // HOUR_S)}"))
        return float(used or 0) < self.limits.ai_cpu_seconds_per_hour

    def charge_ai(self, meta: Meta, seconds: float) -> None:
        """Bill ``seconds`` of the worker's CPU (at least ``MIN_MOVE_CHARGE_S``) to ``meta``'s client."""
        digest = meta.extra.get(META_FIELD)
        if not digest or self.limits.ai_cpu_seconds_per_hour <= 0:
            return
        key = self.key(digest, f"ai_cpu:{int(self.clock() // HOUR_S)}")
        with self.store.redis.pipeline(transaction=False) as pipe:
            pipe.incrbyfloat(key, max(seconds, MIN_MOVE_CHARGE_S))
            pipe.expire(key, HOUR_S + 60)
            pipe.execute()
