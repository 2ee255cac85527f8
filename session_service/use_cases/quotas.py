"""Quotas per client on the work one cheap request buys: tables opened, and the AI moves they make the worker play.

``POST /v1/games`` costs one write of the rate limit, but an all-AI table then makes the worker decide and write
600–700 events (~390 KB) on its own. So each client (``http/clients.py``: the validated client; opening a table
has no game yet, so its address, or the outermost trusted proxy's view of it; a player key makes no other client,
since one request makes a player) gets, shared by every process:

- ``OPEN_TABLES_PER_CLIENT``: tables it opened that are not over yet (a table ends by play, resignation, abort,
  or retention ending it when idle: ``retention.py``), nor given up by it (every seat the creator held has resigned:
  a stranger who fills the open seats and moves first cannot hold the creator's quota until the idle rule ends it);
- ``TABLES_PER_CLIENT_PER_HOUR`` and ``AI_TABLES_PER_CLIENT_PER_HOUR`` (tables whose every seat is an AI);
- ``AI_CPU_SECONDS_PER_CLIENT_PER_HOUR``: the worker's CPU spent on the client's tables, AI moves and turn-timer
  moves alike (each costs the CPU its job took, at least ``MIN_MOVE_CHARGE_S`` for the rules service's and Redis'
  share). Counting moves did not bound the cost: a ``hard`` move costs a thousand ``random`` ones, and six ``hard``
  all-AI tables took 53 of 65 worker CPU-seconds. Past it, those seats wait, and the sweeper tries them again until
  the hour turns (the table is not refused: it was admitted). How the workers are shared between clients meanwhile
  is ``scheduler.Gate``.
- ``SEATS_PER_CLIENT``: tables not over where it took a seat by joining (``POST /join``), so one address cannot take
  the open seats of every public table and sit there (the lobby emptied another way than by aborting); a seat given
  back (leave, resign) no longer counts;
- ``JOINS_PER_TABLE_PER_CLIENT``: joins of one table (each join and leave is two records in its log for ever);
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

The counters are ``storage/quotas.py``'s (one cluster slot per client; each check-and-count one script). The game's
meta keeps the client's digest (``quota_client``) so the worker knows whom to bill, and whose turn it is
(``scheduler.Gate``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from session_service.use_cases.errors import RateLimited
from session_service.use_cases.meta import Meta, OVER
from session_service.storage.quotas import QuotaCounters
from session_service.storage.store import EventStore

HOUR_S = 3600
OPEN_GRACE_MS = 60_000  # an id in ``open`` with no meta yet may be a table being written right now
OPEN_READ_MAX = 500  # ids of ``open`` read to prune it, at most (a quota lowered below a client's count)
OPEN_RETRY_S = 60  # when a full ``open`` may have room: nobody knows when a game ends
MIN_MOVE_CHARGE_S = 0.005  # a server move's least cost: the rules service's decision and Redis' append, unseen here
META_FIELD = "quota_client"

MINUTE_S = 60


@dataclass(frozen=True)
class Limits:
    open_tables: int = 20
    tables_per_hour: int = 120
    ai_tables_per_hour: int = 20
    ai_cpu_seconds_per_hour: float = 1800.0  # half a core, on average over the hour
    players_per_hour: int = 30
    log_reads_per_minute: int = 20_000
    seats: int = 10
    joins_per_table: int = 8
    open_ttl_s: int = 30 * 24 * HOUR_S  # a client quiet for this long starts afresh

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Limits:
        return cls(open_tables=int(config.get("OPEN_TABLES_PER_CLIENT", cls.open_tables)),
                   tables_per_hour=int(config.get("TABLES_PER_CLIENT_PER_HOUR", cls.tables_per_hour)),
                   ai_tables_per_hour=int(config.get("AI_TABLES_PER_CLIENT_PER_HOUR", cls.ai_tables_per_hour)),
                   ai_cpu_seconds_per_hour=float(config.get("AI_CPU_SECONDS_PER_CLIENT_PER_HOUR",
                                                            cls.ai_cpu_seconds_per_hour)),
                   players_per_hour=int(config.get("PLAYERS_PER_CLIENT_PER_HOUR", cls.players_per_hour)),
                   log_reads_per_minute=int(config.get("LOG_READS_PER_CLIENT_PER_MINUTE", cls.log_reads_per_minute)),
                   seats=int(config.get("SEATS_PER_CLIENT", cls.seats)),
                   joins_per_table=int(config.get("JOINS_PER_TABLE_PER_CLIENT", cls.joins_per_table)))

    def limit(self, quota: str) -> float:
        return {"open_tables": self.open_tables, "tables_per_hour": self.tables_per_hour,
                "ai_tables_per_hour": self.ai_tables_per_hour, "ai_cpu_seconds_per_hour": self.ai_cpu_seconds_per_hour,
                "players_per_hour": self.players_per_hour, "log_reads_per_minute": self.log_reads_per_minute,
                "seats": self.seats, "joins_per_table": self.joins_per_table}[quota]


class Quotas:
    def __init__(self, store: EventStore, limits: Limits, clock: Any = time.time):
        self.store, self.limits, self.clock = store, limits, clock
        self.counters = QuotaCounters(store)

    # -- opening a table ------------------------------------------------------------------------------
    def admit(self, game_id: str, body: Mapping[str, Any], who: str | None = None, digest: str | None = None) -> dict[str, str]:
        """Count the table ``game_id`` (``body`` as ``POST /v1/games`` takes it) against the quotas of its client
        ``who`` (the address the HTTP edge saw; or ``digest``, a client's as a meta keeps it), or refuse it
        (``RateLimited``) with nothing counted. Answers the meta fields to write with the table. With no client (the
        server's own tables) there is no quota."""
        if who is None and digest is None:
            return {}
        digest = digest or client_digest(who or "")
        now = self.clock()
        hour = int(now // HOUR_S)
        all_ai = bool(body.get("seats")) and all(s.get("ai") for s in body["seats"])
        if self.limits.open_tables > 0:
            self._prune(digest, "open", now, self.limits.open_tables)
        verdict = self.counters.admit_table(
            digest, hour, game_id, all_ai=all_ai, now_ms=int(now * 1000), open_tables=self.limits.open_tables,
            tables_per_hour=self.limits.tables_per_hour, ai_tables_per_hour=self.limits.ai_tables_per_hour,
            counter_ttl_s=HOUR_S + 60, open_ttl_s=self.limits.open_ttl_s)
        if verdict != "ok":
            retry = OPEN_RETRY_S if verdict == "open_tables" else max(1, HOUR_S - int(now) % HOUR_S)
            raise self.refusal(verdict, retry)
        return {META_FIELD: digest}

    def _prune(self, digest: str, part: str, now: float, limit: int) -> None:
        """Drop from a full set of tables (``open``, ``seated``) the games that are over, given up by their creator
        (``open`` only: for ``seated`` nothing says which seat was the client's, so a seat given back is dropped
        when it is given back), or gone (retention, or a create that failed)."""
        held = self.counters.held(digest, part, OPEN_READ_MAX)
        if len(held) < limit:
            return
        ids = [game_id for game_id, _ in held]
        creators = part == "open"
        ended = [game_id for (game_id, score), raw in zip(held, self.store.metas(ids))
                 if (raw is None and score < now * 1000 - OPEN_GRACE_MS)
                 or (raw is not None and (raw["status"] in OVER or (creators and given_up(raw))))]
        self.counters.drop(digest, part, ended)

    def refusal(self, quota: str, retry_after_s: int) -> RateLimited:
        limit = self.limits.limit(quota)
        what = {"open_tables": f"more than {limit} tables open at once",
                "tables_per_hour": f"more than {limit} tables an hour",
                "ai_tables_per_hour": f"more than {limit} all-AI tables an hour",
                "players_per_hour": f"more than {limit} players an hour",
                "log_reads_per_minute": f"more than {limit} events of game logs read a minute",
                "seats": f"seats at more than {limit} tables at once",
                "joins_per_table": f"more than {limit} joins of one table"}[quota]
        return RateLimited(f"{what} from one client; try again later", {"quota": quota, "limit": limit},
                           retry_after_s=retry_after_s)

    # -- taking a seat ---------------------------------------------------------------------------------
    def admit_seat(self, game_id: str, who: str) -> None:
        """Count a seat the client ``who`` (its address) takes at ``game_id`` by joining, or refuse it (nothing
        counted); the join that follows gives it back (``seat_given_back``) if it is refused."""
        if self.limits.seats <= 0:
            return
        now = self.clock()
        digest = client_digest(who)
        self._prune(digest, "seated", now, self.limits.seats)
        if not self.counters.seat(digest, game_id, limit=self.limits.seats, now_ms=int(now * 1000),
                                  ttl_s=self.limits.open_ttl_s):
            raise self.refusal("seats", OPEN_RETRY_S)

    def admit_join(self, game_id: str, who: str) -> None:
        """Count one more join of ``game_id`` by the client ``who``, or refuse it: joining and leaving again and
        again would grow the table's log without end (kept in the game's slot, deleted with it)."""
        if self.limits.joins_per_table > 0 and not self.counters.join(game_id, client_digest(who),
                                                                        self.limits.joins_per_table):
            raise self.refusal("joins_per_table", HOUR_S)

    def seat_given_back(self, game_id: str, who: str) -> None:
        """The client ``who`` holds no seat at ``game_id`` any more (it left, resigned, or its join was refused)."""
        self.counters.drop(client_digest(who), "seated", [game_id])

    # -- chat ---------------------------------------------------------------------------------------------
    def admit_chat_line(self, writer: str, per_minute: int, quota: str = "chat_lines_per_minute") -> None:
        """Count one more chat line by ``writer`` (a player, or a seat token's client; or, for the ``quota``
        ``chat_lines_per_address``, the address all of them write from) this minute, or refuse it."""
        if per_minute <= 0:
            return
        now = self.clock()
        if not self.counters.spend(client_digest(writer), f"{quota}:{int(now // 60)}", per_minute, 120):
            raise RateLimited(f"more than {per_minute} chat lines a minute; wait a moment",
                              {"quota": quota, "limit": per_minute},
                              retry_after_s=max(1, 60 - int(now) % 60))

    # -- making a player --------------------------------------------------------------------------------
    def admit_player(self, who: str) -> None:
        """Count one more player made by the client ``who`` (its address), or refuse it with nothing counted."""
        if self.limits.players_per_hour <= 0:
            return
        now = self.clock()
        if not self.counters.spend(client_digest(who), f"players:{int(now // HOUR_S)}", self.limits.players_per_hour,
                                   HOUR_S + 60):
            raise self.refusal("players_per_hour", max(1, HOUR_S - int(now) % HOUR_S))

    # -- reading logs ------------------------------------------------------------------------------------
    def read(self, who: str, events: int) -> None:
        """Count ``events`` log events read for the client ``who``, or refuse (``RateLimited``, nothing counted)
        once its minute's allowance is spent. The read that crosses the allowance is served: a page is bounded."""
        if self.limits.log_reads_per_minute <= 0 or events <= 0:
            return
        now = self.clock()
        if not self.counters.spend_up_to(client_digest(who), f"reads:{int(now // MINUTE_S)}",
                                         self.limits.log_reads_per_minute, events, MINUTE_S + 60):
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
        if not self.counters.spend(digest, f"ai_tables:{int(now // HOUR_S)}", self.limits.ai_tables_per_hour,
                                   HOUR_S + 60):
            raise self.refusal("ai_tables_per_hour", max(1, HOUR_S - int(now) % HOUR_S))
        return True

    def refund_all_ai_start(self, meta: Meta) -> None:
        digest = meta.extra.get(META_FIELD)
        if digest:
            self.counters.refund(digest, f"ai_tables:{int(self.clock() // HOUR_S)}")

    # -- the worker's moves ---------------------------------------------------------------------------
    def ai_cpu_left(self, meta: Meta) -> bool:
        """May the worker play one more AI or timer move of ``meta``'s game now, within its client's CPU for this
        hour? A table opened by no client (or before quotas) is not billed."""
        digest = meta.extra.get(META_FIELD)
        if not digest or self.limits.ai_cpu_seconds_per_hour <= 0:
            return True
        return self.counters.used(digest, f"ai_cpu:{int(self.clock() // HOUR_S)}") < self.limits.ai_cpu_seconds_per_hour

    def charge_ai(self, meta: Meta, seconds: float) -> None:
        """Bill ``seconds`` of the worker's CPU (at least ``MIN_MOVE_CHARGE_S``) to ``meta``'s client."""
        digest = meta.extra.get(META_FIELD)
        if not digest or self.limits.ai_cpu_seconds_per_hour <= 0:
            return
        self.counters.add(digest, f"ai_cpu:{int(self.clock() // HOUR_S)}", max(seconds, MIN_MOVE_CHARGE_S), HOUR_S + 60)


def client_digest(who: str) -> str:
    """The key part of a client's quotas: Redis keeps no address in the clear."""
    return hashlib.sha256(who.encode()).hexdigest()[:24]


def given_up(raw: Mapping[str, str]) -> bool:
    """Has every seat the table's creator held resigned? (A table of a lobby's, which records them.) Then the table
    no longer counts against its creator's open tables, though it plays on."""
    held = orjson.loads(raw.get("creator_seats") or "[]")
    seats = orjson.loads(raw["seats"])
    return bool(held) and all(seats[i].get("resigned") for i in held if i < len(seats))
