"""The Redis event store: one stream per game, appended only through one Lua script.

Keys of one game share the hash tag ``{game_id}`` so they land in one Redis Cluster slot:
``<prefix>:{id}:events`` (stream, entry id ``<version>-0``, field ``r`` = the record as JSON),
``<prefix>:{id}:meta`` (hash: type, seats, token hashes, seed, status, version, head hash …),
``<prefix>:{id}:snap`` (latest snapshot), ``<prefix>:{id}:cmds`` (idempotency field → answer), and what lives
beside the log: the chat feeds, the kept audit of an ended game and the keys other adapters of ``storage/`` keep in
the game's slot (the rematch offer, the watchers' counts, the joins per client): ``GAME_PARTS``, deleted together.

What is not a game's log has an adapter of its own beside this one, owning its keys and scripts (``players``,
``quotas``, ``rematch``, ``watchers``, ``leases``, ``stats``, ``claims``, ``index``): the use cases never hold a
Redis client.

What is not one game's is split into ``shards`` parts, ``<prefix>:{shard-K}:<part>``, a game belonging to shard
``crc32(id) % shards``: no key, and so no cluster slot, holds every game. The set of active games the sweeper
walks is one such part (``active``); the listing's indexes are others (``session_service/storage/index.py``).

Durability: with ``replicas`` > 0 every append is followed, on the same connection to the game's primary, by
``WAIT replicas replica_wait_ms``; ``Appended.replicated`` says whether a replica confirmed it (README:
"Durability"), and ``confirm`` asks again for a command already appended. An append whose reply is lost (the
connection dropped, the primary failed over) is sent again for up to ``retry_s``: the script's version check makes
a re-sent append land at most once, and a conflict whose first record carries this append's cause id is this
append, found in the log.

Every append PUBLISHes ``"<game id> <new version>"`` on ``<prefix>:appended`` (from the script, so the notice
follows the write or nothing): the one thing a session process listens to, whatever it watches (see hub.py).

Feeds besides a game's log are streams of the same shape (entry id ``<n>-0``, field ``r`` = JSON with ``"v": n``),
written by ``append_feed`` and announced on the same channel as ``"<owner>#<part> <n>"``: a game's chat
(``{id}:chat:players``, ``{id}:chat:spectators``, numbered together by ``{id}:chatseq``) and a player's notices
(``{p_…}:notices``). The hub watches such a *topic* (``"<owner>#<part>"``, see ``topic``) as it watches a game.
"""

from __future__ import annotations

import hashlib
import logging
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any, cast

import orjson
import redis
from redis import exceptions as rx
from redis.cluster import RedisCluster

from session_service.storage import redis_clients

log = logging.getLogger("mythos.store")

SNAPSHOT_IF_NEWER = """
local current = tonumber(redis.call("HGET", KEYS[1], "version") or "-1")
if tonumber(ARGV[1]) > current then
  redis.call("HSET", KEYS[1], "version", ARGV[1], "state", ARGV[2])
  return 1
end
return 0
"""
APPEND_FEED = """
if KEYS[3] and redis.call("EXISTS", KEYS[3]) == 0 then return 0 end
local n = redis.call("INCR", KEYS[1])
local record = '{"v":' .. n .. ',' .. string.sub(ARGV[1], 2)
redis.call("XADD", KEYS[2], "MAXLEN", "~", ARGV[2], tostring(n) .. "-0", "r", record)
if tonumber(ARGV[3]) > 0 then
  redis.call("EXPIRE", KEYS[1], ARGV[3])
  redis.call("EXPIRE", KEYS[2], ARGV[3])
end
redis.call("PUBLISH", ARGV[4], ARGV[5] .. " " .. tostring(n))
return n
"""
CONFIRM = """
-- KEYS: a game's idempotency hash. ARGV: a command's field. Writes the command's answer again as it is: replicated after
-- the command's own write, so a WAIT that follows says whether a replica has the command. 0: the field is not there.
local answer = redis.call("HGET", KEYS[1], ARGV[1])
if not answer then return 0 end
redis.call("HSET", KEYS[1], ARGV[1], answer)
return 1
"""
CREATE = -1  # the expected version that creates a game (its meta must not exist yet)
GAME_PARTS = ("events", "meta", "snap", "cmds", "chat:players", "chat:spectators", "chatseq", "watchers", "rematch",
              "joins", "audit", "projected")  # every key of one game: deleted together (retention)
# Errors after which an append may or may not have landed, or may land if sent again (a new primary, a slot
# moved, a node loading its data): send it again, the version check decides.
AMBIGUOUS = (rx.ConnectionError, rx.TimeoutError, rx.ClusterDownError, rx.MovedError, rx.AskError,
             rx.TryAgainError, rx.ReadOnlyError, rx.MasterDownError, rx.SlotNotCoveredError)


@dataclass(frozen=True, slots=True)
class Appended:
    status: str  # ok | conflict | duplicate | missing | limited
    version: int = 0
    prior: str | None = None
    replicated: bool | None = None  # a replica confirmed the write (None: not asked, or not known)


@dataclass(slots=True)
class Charge:
    """One write, to be counted against rate counters (``(key, limit)``, each expiring ``ttl_s`` after its first
    count): by the append script, in the same round trip as the write, where the counters share its node (one
    Redis); else on its own (``EventStore.count``: on Redis Cluster, or when no append runs). Counted once."""

    counters: tuple[tuple[str, int], ...]
    ttl_s: int
    counts: tuple[int, ...] | None = None  # each counter's count once counted

    @property
    def limited(self) -> bool:
        """Did the write take a counter past its limit? (Then nothing of it was written.)"""
        return self.counts is not None and any(n > limit for n, (_, limit) in zip(self.counts, self.counters))


class EventStore:
    def __init__(self, client: Any, prefix: str = "mt", *, shards: int = 16, replicas: int = 0,
                 replica_wait_ms: int = 50, retry_s: float = 10.0):
        self.redis = client
        self.prefix = prefix
        self.shards = shards
        self.replicas, self.replica_wait_ms, self.retry_s = replicas, replica_wait_ms, retry_s
        self._append_lua = resources.files("session_service.storage").joinpath("append.lua").read_text()
        self._append_sha = hashlib.sha1(self._append_lua.encode()).hexdigest()
        self._snapshot = client.register_script(SNAPSHOT_IF_NEWER)
        self._append_feed = client.register_script(APPEND_FEED)

    @property
    def cluster(self) -> bool:
        return isinstance(self.redis, RedisCluster)

    def ping(self) -> bool:
        """Can this store reach its Redis (on a cluster: any one node)?"""
        return redis_clients.ping(self.redis)

    # -- keys -------------------------------------------------------------------------------------
    def key(self, game_id: str, part: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:{part}"

    def topic_key(self, topic: str) -> str:
        """The stream a watched topic reads: a game's log (``<game id>``) or a feed (``<owner>#<part>``)."""
        owner, _, part = topic.partition("#")
        return self.key(owner, part or "events")

    def shard_of(self, game_id: str) -> int:
        return zlib.crc32(game_id.encode()) % self.shards

    def shard_key(self, shard: int, part: str) -> str:
        return f"{self.prefix}:{{shard-{shard}}}:{part}"

    def rate_key(self, who: str, window: int) -> str:
        """A rate-limit counter: each client's in a slot of its own, so no one key counts every request."""
        return f"{self.prefix}:rate:{{{who}}}:{window}"

    @property
    def notice_channel(self) -> str:
        return f"{self.prefix}:appended"

    # -- writing ----------------------------------------------------------------------------------
    def create(self, game_id: str, meta: dict[str, str], records: list[dict[str, Any]]) -> Appended:
        """Write a new game's meta and its setup records, all or nothing (one script call)."""
        return self.append(game_id, CREATE, records, meta)

    def append(
        self,
        game_id: str,
        expected_version: int,
        records: list[dict[str, Any]],
        meta: dict[str, str],
        idempotency_field: str = "",
        answer: str = "",
        head_hash: str = "",
        charge: Charge | None = None,
    ) -> Appended:
        """Append ``records`` if the game is at ``expected_version`` (and ``head_hash``, when given) and the
        idempotency field is new; count ``charge`` first, and append nothing if it is past a limit ("limited")."""
        if charge is not None and charge.counts is None and self.cluster:
            self.count(charge)  # the counters live in other slots than the game: a round trip of their own
        if charge is not None and charge.limited:
            return Appended("limited")
        folded = charge if charge is not None and charge.counts is None else None
        keys = [self.key(game_id, "events"), self.key(game_id, "meta"), self.key(game_id, "cmds")]
        flat = [x for pair in meta.items() for x in pair]
        tail = [len(meta), *flat, *(orjson.dumps(r) for r in records)]
        head = [expected_version, idempotency_field, answer, self.notice_channel, game_id, head_hash]
        counters = folded.counters if folded is not None else ()
        deadline, pause = time.monotonic() + self.retry_s, 0.05
        while True:
            try:
                reply, acked = self._run_append([*keys, *(key for key, _ in counters)],
                                                [*head, folded.ttl_s if folded else 0, *(n for _, n in counters), *tail])
                break
            except AMBIGUOUS:
                if time.monotonic() + pause > deadline:
                    raise
                log.warning("append to %s got no answer; sending it again", game_id, exc_info=True)
                time.sleep(pause)
                pause = min(pause * 2, 0.5)
                self._refresh_topology()
                # Sent again without the counters: the first try may have counted it, and a count past the limit
                # now must not refuse a write that landed then.
                counters = ()
        if folded is not None:
            folded.counts = tuple(int(n) for n in reply[2:]) if counters else ()
            if folded.limited:
                return Appended("limited")
        appended = _appended(reply, acked if self.replicas else None, self.replicas)
        if appended.status == "conflict" and self._is_ours(game_id, max(expected_version, 0), records):
            # A reply lost, then the re-sent append found its own records in the log.
            return Appended("ok", version=max(expected_version, 0) + len(records))
        return appended

    def _run_append(self, keys: list[str], args: list[Any]) -> tuple[list[bytes], int]:
        """The script, and WAIT when replicas are asked for, pipelined on one connection to the game's primary
        (WAIT counts the writes of its own connection, so it must follow the script on the same one)."""
        node = self._primary_for(keys[0])
        if not self.replicas:  # the script alone: sent as one command, without a pipeline's own work
            try:
                return node.evalsha(self._append_sha, len(keys), *keys, *args), 0
            except rx.NoScriptError:
                node.script_load(self._append_lua)  # a new primary, or a restarted one, has an empty script cache
                return node.evalsha(self._append_sha, len(keys), *keys, *args), 0
        for _ in range(2):
            with node.pipeline(transaction=False) as pipe:
                pipe.evalsha(self._append_sha, len(keys), *keys, *args)
                if self.replicas:
                    pipe.execute_command("WAIT", self.replicas, self.replica_wait_ms)
                replies = pipe.execute(raise_on_error=False)
            if isinstance(replies[0], rx.NoScriptError):
                node.script_load(self._append_lua)  # a new primary, or a restarted one, has an empty script cache
                continue
            if isinstance(replies[0], Exception):
                raise replies[0]
            return replies[0], (replies[1] if self.replicas and isinstance(replies[1], int) else 0)
        raise rx.NoScriptError("the append script could not be loaded")

    def confirm(self, game_id: str, field: str) -> bool:
        """Does a replica have the command the idempotency ``field`` names, already in the game's log (a retry of a
        command whose append no replica confirmed)? A WAIT on a connection that wrote nothing says only how many
        replicas are connected, so the answer is written again first, on the same connection to the game's primary
        (``CONFIRM``); the replica that acknowledges it has the command too (one stream, in order)."""
        node, wanted = self._primary_for(self.key(game_id, "cmds")), max(self.replicas, 1)
        with node.pipeline(transaction=False) as pipe:
            pipe.eval(CONFIRM, 1, self.key(game_id, "cmds"), field)
            pipe.execute_command("WAIT", wanted, self.replica_wait_ms)
            found, acked = pipe.execute()
        return bool(found) and int(acked) >= wanted

    def _primary_for(self, key: str) -> redis.Redis:
        if not self.cluster:
            return cast(redis.Redis, self.redis)
        node = self.redis.get_node_from_key(key)
        if node is None:
            raise rx.SlotNotCoveredError(f"no primary serves the slot of {key}")
        return cast(redis.Redis, self.redis.get_redis_connection(node))

    def _refresh_topology(self) -> None:
        if self.cluster:
            try:
                self.redis.nodes_manager.initialize()
            except (rx.RedisError, rx.RedisClusterException):
                pass  # no node reachable yet: the next attempt tries again

    def _is_ours(self, game_id: str, after: int, records: list[dict[str, Any]]) -> bool:
        logged = self.records(game_id, after=after, until=after + 1)
        return bool(logged) and logged[0]["cause"]["id"] == records[0]["cause"]["id"]

    def save_snapshot(self, game_id: str, version: int, state: bytes) -> None:
        self._snapshot(keys=[self.key(game_id, "snap")], args=[version, state])

    def delete_game(self, game_id: str) -> int:
        """Delete every key of one game (one DEL: they share a slot). Retention's, after the game was exported."""
        return int(self.redis.delete(*(self.key(game_id, part) for part in GAME_PARTS)))

    def keep_audit(self, game_id: str, report: bytes) -> None:
        """Keep an ended game's audit report (it cannot change: the log is closed), for ``kept_audit``."""
        self.redis.set(self.key(game_id, "audit"), report)

    def kept_audit(self, game_id: str) -> bytes | None:
        kept: bytes | None = self.redis.get(self.key(game_id, "audit"))
        return kept

    def append_feed(self, owner: str, part: str, counter: str, record: dict[str, Any], *, keep: int, ttl_s: int = 0,
                    requires: str | None = None) -> int:
        """Append ``record`` to the feed ``<owner>#<part>`` numbered by ``owner``'s ``counter`` (at most ``keep``
        entries kept, about; ``ttl_s``: the feed expires when quiet that long), and announce it; ``requires``: a
        part of ``owner`` that must exist (the game's meta). The record's number, or 0 when ``requires`` is gone."""
        keys = [self.key(owner, counter), self.key(owner, part)] + ([self.key(owner, requires)] if requires else [])
        return int(self._append_feed(keys=keys, args=[orjson.dumps(record), keep, ttl_s, self.notice_channel,
                                                      topic(owner, part)]))

    def feed_head(self, owner: str, counter: str) -> int:
        """The number of the last record of ``owner``'s feeds numbered by ``counter`` (0: none yet)."""
        return int(self.redis.get(self.key(owner, counter)) or 0)

    def feed(self, owner: str, part: str, after: int = 0, limit: int | None = None, newest: bool = False) -> list[dict[str, Any]]:
        """The feed's records after ``after``, oldest first (``newest``: the last ``limit`` of them)."""
        key = self.key(owner, part)
        if newest:
            entries = list(reversed(self.redis.xrevrange(key, "+", f"({after}-0" if after else "-", count=limit)))
        else:
            entries = self.redis.xrange(key, f"({after}-0" if after else "-", "+", count=limit)
        return [orjson.loads(fields[b"r"]) for _, fields in entries]

    def set_meta(self, game_id: str, **fields: str) -> None:
        self.redis.hset(self.key(game_id, "meta"), mapping=fields)

    # -- reading ----------------------------------------------------------------------------------
    def meta(self, game_id: str) -> dict[str, str] | None:
        return _meta(self.redis.hgetall(self.key(game_id, "meta")))

    def metas(self, game_ids: list[str]) -> list[dict[str, str] | None]:
        """Several games' metas in one pipeline (on a cluster: one round per node)."""
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hgetall(self.key(game_id, "meta"))
            return [_meta(raw) for raw in pipe.execute()]

    def count(self, charge: Charge) -> Charge:
        """Count ``charge`` on its own (one pipelined round trip; on a cluster, one per node of its counters)."""
        if charge.counts is None:
            with self.redis.pipeline(transaction=False) as pipe:
                for key, _ in charge.counters:
                    pipe.incr(key).expire(key, charge.ttl_s)
                replies = pipe.execute()
            charge.counts = tuple(replies[0::2])
        return charge

    def version(self, game_id: str) -> int | None:
        raw = self.redis.hget(self.key(game_id, "meta"), "version")
        return None if raw is None else int(raw)

    def records(self, game_id: str, after: int = 0, until: int | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        """Records with ``after < version <= until``, oldest first."""
        end = "+" if until is None else f"{until}-0"
        entries = self.redis.xrange(self.key(game_id, "events"), f"({after}-0" if after else "-", end, count=limit)
        return [orjson.loads(fields[b"r"]) for _, fields in entries]

    def versions(self, game_ids: list[str]) -> list[int | None]:
        """The current version of each game, or the last number of each feed topic (None: no such game, or an empty
        feed), in one pipelined round trip."""
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                if "#" in game_id:
                    pipe.xrevrange(self.topic_key(game_id), "+", "-", count=1)
                else:
                    pipe.hget(self.key(game_id, "meta"), "version")
            return [_head(raw) for raw in pipe.execute()]

    def records_after(self, cursors: dict[str, int], limit: int | None = None) -> dict[str, list[dict[str, Any]]]:
        """Each game's (or feed topic's) records after its cursor (at most ``limit`` each): one XRANGE per game, all
        in one pipelined round trip."""
        games = list(cursors)
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id in games:
                after = cursors[game_id]
                pipe.xrange(self.topic_key(game_id), f"({after}-0" if after else "-", "+", count=limit)
            replies = pipe.execute()
        return {game_id: [orjson.loads(fields[b"r"]) for _, fields in entries] for game_id, entries in zip(games, replies)}

    def snapshot(self, game_id: str) -> tuple[int, bytes] | None:
        raw = self.redis.hmget(self.key(game_id, "snap"), "version", "state")
        return None if raw[0] is None else (int(raw[0]), raw[1])

    def idempotent_answer(self, game_id: str, field: str) -> str | None:
        raw = self.redis.hget(self.key(game_id, "cmds"), field)
        return None if raw is None else raw.decode()

    # -- the active games the sweeper walks -------------------------------------------------------
    def active_key(self, game_id: str) -> str:
        return self.shard_key(self.shard_of(game_id), "active")

    def mark_active(self, game_id: str) -> None:
        self.redis.sadd(self.active_key(game_id), game_id)

    def mark_finished(self, game_id: str) -> None:
        self.redis.srem(self.active_key(game_id), game_id)

    def active_ids(self) -> Iterator[str]:
        """Every active game, a shard at a time and a few hundred per round trip (SSCAN), never all at once."""
        for shard in range(self.shards):
            for game_id in self.redis.sscan_iter(self.shard_key(shard, "active"), count=500):
                yield game_id.decode()


def topic(owner: str, part: str) -> str:
    """The name a feed is watched and announced by (``hub.py``)."""
    return f"{owner}#{part}"


def _head(raw: Any) -> int | None:
    """A version (HGET) or a feed's last entry (XREVRANGE … COUNT 1) as a number; None for nothing."""
    if isinstance(raw, list):
        return int(raw[0][0].split(b"-")[0]) if raw else None
    return None if raw is None else int(raw)


def _meta(raw: dict[bytes, bytes]) -> dict[str, str] | None:
    return {k.decode(): v.decode() for k, v in raw.items()} if raw else None


def _appended(result: list[bytes], acked: int | None, wanted: int) -> Appended:
    status, value = result[0].decode(), result[1].decode()
    if status == "duplicate":
        return Appended(status, prior=value)
    return Appended(status, version=int(value), replicated=None if acked is None or status != "ok" else acked >= wanted)
