"""The Redis side of the read models built from the logs (``use_cases/projector.py``): the feed of ended games and
the ratings, leaderboards and histories folded from them. This module owns these keys and their scripts.

- The feed: ``<prefix>:{shard-K}:ended`` (a stream per shard of the store, entry ``{g: game id}``), read by the
  consumer group ``projector``: the subscription's checkpoint is the group's (what was delivered, what was
  acknowledged); an entry is acknowledged and deleted once its game is projected, and one a dead consumer held
  is claimed by another after ``CLAIM_IDLE_MS``.
- A game type's ratings, all in its own slot ``{lb:<game>}`` so one script changes them together: ``:ledger``
  (the rated games, a sorted set scored by the end's time in ms, so its order is ``shared.ratings.ORDER``),
  ``:results`` (game id → the result it was rated with), ``:ratings`` (entry → rating JSON) and ``:board:<pool>``
  (entries with enough games, by ordinal).
- A player's history: ``{p_…}:history`` (game id → end ms) and ``{p_…}:historyrows`` (game id → its line).
- ``{<game id>}:projected``: the game is projected (a part of the game, deleted with it; retention waits for it).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from redis import exceptions as rx

from session_service.storage.store import EventStore

GROUP = "projector"
CLAIM_IDLE_MS = 30_000
CLAIM_EVERY_S = 10.0  # how often a projector looks for entries a dead one left
POOLS = ("humans", "bots")

COMMIT = """
-- KEYS: ledger, results, ratings, board:humans, board:bots. ARGV: expected count, expected last member, replace
-- (1/0), n, then n games (game id, end ms, result), then per rating: entry, rating json, ordinal, pool index
-- (1/2), qualifies
if redis.call("ZCARD", KEYS[1]) ~= tonumber(ARGV[1]) then return "moved" end
local last = redis.call("ZRANGE", KEYS[1], -1, -1)[1] or ""
if last ~= ARGV[2] then return "moved" end
local games_end = 4 + 3 * tonumber(ARGV[4])
for i = 5, games_end, 3 do
  if redis.call("ZSCORE", KEYS[1], ARGV[i]) then return "duplicate" end
end
if ARGV[3] == "1" then redis.call("DEL", KEYS[3], KEYS[4], KEYS[5]) end  -- every rating of the type follows
for i = 5, games_end, 3 do
  redis.call("ZADD", KEYS[1], ARGV[i + 1], ARGV[i])
  redis.call("HSET", KEYS[2], ARGV[i], ARGV[i + 2])
end
for i = games_end + 1, #ARGV, 5 do
  redis.call("HSET", KEYS[3], ARGV[i], ARGV[i + 1])
  local board = KEYS[3 + tonumber(ARGV[i + 3])]
  if ARGV[i + 4] == "1" then redis.call("ZADD", board, ARGV[i + 2], ARGV[i]) else redis.call("ZREM", board, ARGV[i]) end
end
return "ok"
"""


def consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class EndedFeed:
    """The durable subscription of ended games (module docstring)."""

    def __init__(self, store: EventStore):
        self.store = store
        self._groups: set[int] = set()
        self._claimed_at = -CLAIM_EVERY_S

    def key(self, shard: int) -> str:
        return self.store.shard_key(shard, "ended")

    def add(self, game_id: str) -> bool:
        """Say ``game_id`` has ended (more than once is harmless: the projector counts a game once); False when
        Redis could not be reached (the game stays in the sweeper's active set, which says it again)."""
        shard = self.store.shard_of(game_id)
        try:
            self._group(shard)
            self.store.redis.xadd(self.key(shard), {"g": game_id})
        except rx.RedisError:
            return False
        return True

    def _group(self, shard: int) -> None:
        if shard in self._groups:
            return
        try:
            self.store.redis.xgroup_create(self.key(shard), GROUP, id="0", mkstream=True)
        except rx.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
        self._groups.add(shard)

    def read(self, consumer: str, count: int = 100, claim_idle_ms: int = CLAIM_IDLE_MS,
             block_ms: int = 0) -> list[tuple[int, str, str]]:
        """Up to ``count`` entries per shard for ``consumer``: those a dead consumer left (idle past
        ``claim_idle_ms``; looked for every ``CLAIM_EVERY_S``, or always when that is 0), then new ones, waiting up
        to ``block_ms`` for one (one blocking read of every shard on one Redis; on a cluster, the shards whose
        stream holds entries are read in turn, without waiting: they live in different slots, and an idle look is
        one pipelined XLEN). Each is ``(shard, entry id, game id)``."""
        shards = range(self.store.shards)
        for shard in shards:
            self._group(shard)
        found: list[tuple[int, str, str]] = []
        now = time.monotonic()
        if claim_idle_ms == 0 or now - self._claimed_at >= CLAIM_EVERY_S:
            self._claimed_at = now
            with self.store.redis.pipeline(transaction=False) as pipe:
                for shard in shards:
                    pipe.xautoclaim(self.key(shard), GROUP, consumer, claim_idle_ms, "0-0", count=count)
                for shard, claimed in zip(shards, pipe.execute()):
                    found += [(shard, entry_id.decode(), fields[b"g"].decode()) for entry_id, fields in claimed[1] if fields]
        shard_of = {self.key(shard).encode(): shard for shard in shards}
        if self.store.cluster:  # only the shards holding entries (XLEN, pipelined: a round trip per node)
            with self.store.redis.pipeline(transaction=False) as pipe:
                for key in shard_of:
                    pipe.xlen(key)
                busy = [key for key, n in zip(shard_of, pipe.execute()) if n]
            fresh = [r for key in busy for r in self.store.redis.xreadgroup(GROUP, consumer, {key: ">"}, count=count)]
        else:
            fresh = self.store.redis.xreadgroup(GROUP, consumer, {key: ">" for key in shard_of}, count=count,
                                                block=None if found or not block_ms else block_ms) or []
        found += [(shard_of[key], entry_id.decode(), fields[b"g"].decode())
                  for key, batch in fresh for entry_id, fields in batch if fields]
        return found

    def ack(self, entries: Iterable[tuple[int, str]]) -> None:
        """Acknowledge and delete these ``(shard, entry id)`` entries, in one pipeline."""
        by_shard: dict[int, list[str]] = {}
        for shard, entry_id in entries:
            by_shard.setdefault(shard, []).append(entry_id)
        if by_shard:
            with self.store.redis.pipeline(transaction=False) as pipe:
                for shard, ids in by_shard.items():
                    pipe.xack(self.key(shard), GROUP, *ids).xdel(self.key(shard), *ids)
                pipe.execute()

    def pending(self) -> int:
        """Entries not yet acknowledged, in every shard (delivered or not): the projector's backlog."""
        total = 0
        for shard in range(self.store.shards):
            total += int(self.store.redis.xlen(self.key(shard)))
        return total


class ReadModels:
    """Ratings, leaderboards and histories (module docstring)."""

    def __init__(self, store: EventStore):
        self.store = store
        self._commit = store.redis.register_script(COMMIT)

    def _game_key(self, game: str, part: str) -> str:
        return f"{self.store.prefix}:{{lb:{game}}}:{part}"

    def _keys(self, game: str) -> list[str]:
        return [self._game_key(game, part) for part in ("ledger", "results", "ratings", *(f"board:{p}" for p in POOLS))]

    # -- ratings ---------------------------------------------------------------------------------------
    def ledger_head(self, game: str) -> tuple[int, str, float]:
        """How many games are rated, the last in order and its end ms ("" and 0 for none)."""
        key = self._game_key(game, "ledger")
        with self.store.redis.pipeline(transaction=False) as pipe:
            pipe.zcard(key).zrange(key, -1, -1, withscores=True)
            count, last = pipe.execute()
        return int(count), last[0][0].decode() if last else "", float(last[0][1]) if last else 0.0

    def ratings(self, game: str, entries: Iterable[str]) -> dict[str, bytes]:
        wanted = list(entries)
        raw = self.store.redis.hmget(self._game_key(game, "ratings"), wanted) if wanted else []
        return {entry: value for entry, value in zip(wanted, raw) if value is not None}

    def results(self, game: str) -> dict[str, bytes]:
        """Every result a game type was rated with, by game id (for a refold: bounded by that type's rated games)."""
        return {k.decode(): v for k, v in self.store.redis.hgetall(self._game_key(game, "results")).items()}

    def commit(self, game: str, games: Iterable[tuple[str, int, bytes]], expected: tuple[int, str],
               ratings: Mapping[str, tuple[bytes, float, str, bool]], replace: bool = False) -> str:
        """Rate ``games`` (game id, end ms, result JSON) at once, all or nothing: ``moved`` (another projector rated
        one since ``expected``, the ledger's count and last game: read again), ``duplicate`` (one is rated
        already: read again), or ``ok``. ``ratings``: entry → (rating JSON, ordinal, pool, on the board), each
        entry's after the last of ``games``; ``replace``: these are every rating of the game type."""
        rows = list(games)
        args: list[Any] = [expected[0], expected[1], "1" if replace else "0", len(rows)]
        for game_id, ended_ms, result in rows:
            args += [game_id, ended_ms, result]
        for entry, (raw, ordinal, pool, shown) in ratings.items():
            args += [entry, raw, repr(ordinal), POOLS.index(pool) + 1, "1" if shown else "0"]
        return str(self._commit(keys=self._keys(game), args=args).decode())

    def clear(self, game: str) -> None:
        self.store.redis.delete(*self._keys(game))

    def board(self, game: str, pool: str, offset: int, limit: int) -> list[tuple[str, bytes]]:
        """A page of the leaderboard, best first: (entry, rating JSON)."""
        entries = [e.decode() for e in self.store.redis.zrevrange(self._game_key(game, f"board:{pool}"), offset, offset + limit - 1)]
        raw = self.store.redis.hmget(self._game_key(game, "ratings"), entries) if entries else []
        return [(entry, value) for entry, value in zip(entries, raw) if value is not None]

    def board_size(self, game: str, pool: str) -> int:
        return int(self.store.redis.zcard(self._game_key(game, f"board:{pool}")))

    def player_ratings(self, games: Iterable[str], entry: str) -> dict[str, bytes]:
        """An entry's rating in each game type it has one (one pipelined round trip)."""
        names = list(games)
        with self.store.redis.pipeline(transaction=False) as pipe:
            for game in names:
                pipe.hget(self._game_key(game, "ratings"), entry)
            return {game: raw for game, raw in zip(names, pipe.execute()) if raw is not None}

    def dump(self, games: Iterable[str], players: Iterable[str]) -> dict[str, Any]:
        """Every read model of these game types and players, as plain values (what a rebuild must give again)."""
        out: dict[str, Any] = {}
        for game in games:
            ledger, results, ratings, *boards = self._keys(game)
            out[ledger] = self.store.redis.zrange(ledger, 0, -1, withscores=True)
            out[results] = sorted(self.store.redis.hgetall(results).items())
            out[ratings] = sorted(self.store.redis.hgetall(ratings).items())
            for board in boards:
                out[board] = self.store.redis.zrange(board, 0, -1, withscores=True)
        for player in sorted(set(players)):
            out[self._player_key(player, "history")] = self.store.redis.zrange(self._player_key(player, "history"), 0, -1, withscores=True)
            out[self._player_key(player, "historyrows")] = sorted(self.store.redis.hgetall(self._player_key(player, "historyrows")).items())
        return out

    # -- histories -------------------------------------------------------------------------------------
    def _player_key(self, player: str, part: str) -> str:
        return f"{self.store.prefix}:{{{player}}}:{part}"

    def add_history(self, rows: Iterable[tuple[Iterable[str], str, int, Mapping[str, Any]]],
                    projected: Iterable[str] = ()) -> None:
        """Each game's line in its players' histories (``rows``: players, game id, end ms, line), then each game of
        ``projected`` marked projected, in one pipeline (idempotent: the same game id again changes nothing)."""
        with self.store.redis.pipeline(transaction=False) as pipe:
            for players, game_id, ended_ms, line in rows:
                raw = orjson.dumps(line, option=orjson.OPT_SORT_KEYS)
                for player in players:
                    pipe.zadd(self._player_key(player, "history"), {game_id: ended_ms})
                    pipe.hset(self._player_key(player, "historyrows"), game_id, raw)
            for game_id in projected:
                pipe.set(self.store.key(game_id, "projected"), "1")
            pipe.execute()

    def clear_history(self, players: Iterable[str]) -> None:
        for player in players:
            self.store.redis.delete(self._player_key(player, "history"), self._player_key(player, "historyrows"))

    def history(self, player: str, offset: int, limit: int) -> list[dict[str, Any]]:
        """A page of the player's games, newest first."""
        ids = self.store.redis.zrevrange(self._player_key(player, "history"), offset, offset + limit - 1)
        rows = self.store.redis.hmget(self._player_key(player, "historyrows"), ids) if ids else []
        return [orjson.loads(row) for row in rows if row is not None]

    def history_size(self, player: str) -> int:
        return int(self.store.redis.zcard(self._player_key(player, "history")))

    # -- a game's own mark ------------------------------------------------------------------------------
    def projected_many(self, game_ids: list[str]) -> dict[str, bool]:
        with self.store.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.exists(self.store.key(game_id, "projected"))
            return {game_id: bool(n) for game_id, n in zip(game_ids, pipe.execute())}

    def projected(self, game_id: str) -> bool:
        return bool(self.store.redis.exists(self.store.key(game_id, "projected")))
