"""The game listing's secondary indexes: which games to show for ``GET /v1/games?status=…&game=…``.

Each filter the listing offers has an index, a set of game ids ordered by creation time: ``all``,
``game:<type>``, ``status:<status>`` and ``status:<status>:game:<type>``. A listing reads one index a page at a
time, so its work is bounded by the page, never by the number of stored games. Each index is split over the
store's shards (``<prefix>:{shard-K}:idx:<name>``, a sorted set scored by creation time in ms), so no one key or
Redis Cluster slot holds every game; a page reads each shard's top in one pipeline and merges them.

The game's meta is the truth and an index only a superset of it. A game enters the indexes of a status before
the write that gives it that status and leaves its old status's indexes after that write, best effort: a write
whose index update is lost (a crash between the two, a node failing over) leaves an index with one game too
many, never one too few, and the listing shows only games whose meta matches the filter. Since a game only
moves forward through STATUS_ORDER, a reader that finds a game listed under a status it has left drops that
entry (read repair). More listings (per player, say) are more names from ``names_for``: the rules stay the same.

A private table is never listed, so it is kept in indexes of its own, the same names after ``private:``: many
private tables cannot crowd the public ones out of a page (issue 33: sixty private waiting tables left
``?status=waiting&limit=10`` with no game and a cursor). Retention reads both (``retention.py``); a private table
met in a public index (written before they were apart) is moved by the reader that meets it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

import redis

from session_service.storage.store import EventStore

log = logging.getLogger("mythos.index")

# A game's status only moves forward in this order (finished and aborted are both ends): an index entry for a
# status the game has moved past can never be right again, so a reader may drop it.
STATUS_ORDER = {"waiting": 0, "active": 1, "finished": 2, "aborted": 2}
DANGLING_AFTER_MS = 10 * 60 * 1000  # an entry whose game never got written (a create that failed half way)

Position = tuple[float, str]  # (creation ms, game id): the listing's order, newest first


PRIVATE = "private:"


def names_for(game: str, status: str, private: bool = False) -> list[str]:
    """Every index a game of type ``game`` with ``status`` belongs to (``private``: a private table's own)."""
    return [PRIVATE + name if private else name for name in ["all", f"game:{game}", *status_names(game, status)]]


def status_names(game: str, status: str, private: bool = False) -> list[str]:
    """The indexes a game enters and leaves as its status changes."""
    return [PRIVATE + name if private else name for name in [f"status:{status}", f"status:{status}:game:{game}"]]


def name_for(status: str | None, game: str | None) -> str:
    """The one index that answers a listing with these filters."""
    if status and game:
        return f"status:{status}:game:{game}"
    return f"status:{status}" if status else f"game:{game}" if game else "all"


def moved_past(status: str, listed_under: str) -> bool:
    return STATUS_ORDER.get(status, 0) > STATUS_ORDER.get(listed_under, 0)


class GameIndex:
    def __init__(self, store: EventStore):
        self.store = store

    def key(self, shard: int, name: str) -> str:
        return self.store.shard_key(shard, f"idx:{name}")

    def enter(self, game_id: str, created_ms: int, names: Iterable[str]) -> None:
        """Add the game to ``names`` (before the write that makes them true)."""
        shard = self.store.shard_of(game_id)
        with self.store.redis.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.zadd(self.key(shard, name), {game_id: created_ms})
            pipe.execute()

    def leave(self, game_id: str, names: Iterable[str]) -> None:
        """Drop the game from ``names`` (after the write that made them false). Best effort: a lost update
        leaves an entry the listing filters out and read repair drops."""
        shard = self.store.shard_of(game_id)
        try:
            with self.store.redis.pipeline(transaction=False) as pipe:
                for name in names:
                    pipe.zrem(self.key(shard, name), game_id)
                pipe.execute()
        except redis.RedisError:
            log.warning("could not drop %s from %s; listings filter it out meanwhile", game_id, list(names), exc_info=True)

    def forget(self, game_id: str, game: str) -> None:
        """Drop a game from every index (a deleted game: retention, a benchmark's own)."""
        self.leave(game_id, sorted({name for status in STATUS_ORDER for private in (False, True)
                                    for name in names_for(game, status, private)}))

    def position(self, game_id: str) -> Position | None:
        """Where a game stands in every listing (None: not listed)."""
        score = self.store.redis.zscore(self.key(self.store.shard_of(game_id), "all"), game_id)
        return None if score is None else (score, game_id)

    def window(self, name: str, after: Position | None, count: int) -> list[Position]:
        """The ``count`` newest entries of index ``name`` older than ``after``: each shard's top in one pipeline."""
        shards = range(self.store.shards)
        with self.store.redis.pipeline(transaction=False) as pipe:
            for shard in shards:
                key = self.key(shard, name)
                if after is None:
                    pipe.zrevrangebyscore(key, "+inf", "-inf", start=0, num=count, withscores=True)
                else:
                    pipe.zrevrangebyscore(key, f"({after[0]!r}", "-inf", start=0, num=count, withscores=True)
                    pipe.zrangebyscore(key, after[0], after[0], withscores=True)  # same ms: ordered by id
            replies = pipe.execute()
        found = [(score, member.decode()) for reply in replies for member, score in reply]
        if after is not None:
            found = [p for p in found if p[0] < after[0] or p[1] < after[1]]
        return sorted(found, reverse=True)[:count]

    def created_before(self, names: list[str], cutoff_ms: int, batch: int) -> list[str]:
        """The ``batch`` oldest games of any of ``names`` created before ``cutoff_ms``, oldest first (one pipeline)."""
        with self.store.redis.pipeline(transaction=False) as pipe:
            for name in names:
                for shard in range(self.store.shards):
                    pipe.zrangebyscore(self.key(shard, name), "-inf", cutoff_ms, start=0, num=batch, withscores=True)
            replies = pipe.execute()
        return [game_id for _, game_id in sorted({(score, m.decode()) for reply in replies for m, score in reply})[:batch]]

    def move_private(self, name: str, position: Position) -> None:
        """A private table met in the public index ``name`` (written before they were apart): into its own."""
        self.enter(position[1], int(position[0]), [PRIVATE + name])
        self.drop(name, position[1])

    def drop(self, name: str, game_id: str) -> None:
        """Read repair: an entry the game can never match again."""
        try:
            self.store.redis.zrem(self.key(self.store.shard_of(game_id), name), game_id)
        except redis.RedisError:
            pass  # the next reader tries again

    def stale(self, name: str, position: Position, meta: dict[str, str] | None, now_ms: float | None = None) -> bool:
        """Is this entry one the listing may drop? Its game is gone for good, or has left the entry's status."""
        if meta is None:
            return position[0] < (now_ms or time.time() * 1000) - DANGLING_AFTER_MS
        name = name.removeprefix(PRIVATE)
        listed_under = name.split(":")[1] if name.startswith("status:") else None
        return listed_under is not None and moved_past(meta["status"], listed_under)

    def count(self, name: str = "all") -> int:
        with self.store.redis.pipeline(transaction=False) as pipe:
            for shard in range(self.store.shards):
                pipe.zcard(self.key(shard, name))
            return sum(pipe.execute())
