"""The players' keys: who a player is, which player a key belongs to, its tables and its mutes.

Each player's keys share its own hash tag, so a Redis Cluster spreads them: ``<prefix>:{p_…}:player`` (hash: name,
bot, created_at, and its challenge settings ``accept_challenges`` and ``auto_key_hash``), ``<prefix>:{pk-<key
hash>}:key`` (the player id; keys are never stored in the clear), ``<prefix>:{p_…}:games`` (the player's tables,
scored by creation time in ms), ``<prefix>:{p_…}:live`` (the same, less the tables seen over) and
``<prefix>:{p_…}:mutes`` (the players whose chat lines it does not read). Its notices are a feed of the event store's
(``<prefix>:{p_…}:notices``, numbered by ``noticeseq``).
"""

from __future__ import annotations

from session_service.storage.store import EventStore

MUTE_IF_ROOM = """
if redis.call("SISMEMBER", KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call("SCARD", KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call("SADD", KEYS[1], ARGV[1])
return 1
"""


class PlayerRecords:
    def __init__(self, store: EventStore):
        self._redis, self._prefix = store.redis, store.prefix
        self._mute = store.redis.register_script(MUTE_IF_ROOM)

    def _key(self, player_id: str, part: str) -> str:
        return f"{self._prefix}:{{{player_id}}}:{part}"

    def _key_of(self, key_hash: str) -> str:
        return f"{self._prefix}:{{pk-{key_hash[:40]}}}:key"

    def put(self, player_id: str, key_hash: str, fields: dict[str, str]) -> None:
        """A new player, and the hash of its key pointing at it."""
        self._redis.hset(self._key(player_id, "player"), mapping=fields)
        self._redis.set(self._key_of(key_hash), player_id)

    def fields(self, player_id: str) -> dict[str, str] | None:
        raw = self._redis.hgetall(self._key(player_id, "player"))
        return {k.decode(): v.decode() for k, v in raw.items()} if raw else None

    def bot_flags(self, player_ids: list[str]) -> list[bool | None]:
        """Whether each player is a bot account (None: no such player), in one round trip."""
        with self._redis.pipeline(transaction=False) as pipe:
            for player_id in player_ids:
                pipe.hmget(self._key(player_id, "player"), ["bot", "created_at"])
            answers = pipe.execute()
        return [None if created is None else bool(bot) for bot, created in answers]

    def set_fields(self, player_id: str, fields: dict[str, str]) -> None:
        """Change fields of a player that exists (its settings: ``accept_challenges``, ``auto_key_hash``)."""
        self._redis.hset(self._key(player_id, "player"), mapping=fields)

    def player_of(self, key_hash: str) -> str | None:
        raw = self._redis.get(self._key_of(key_hash))
        return None if raw is None else str(raw.decode())

    # -- mutes --------------------------------------------------------------------------------------------
    def mute(self, player_id: str, other: str, most: int) -> bool:
        """Add ``other`` to the player's mutes unless it holds ``most`` others already (False: refused)."""
        return bool(self._mute(keys=[self._key(player_id, "mutes")], args=[other, most]))

    def unmute(self, player_id: str, other: str) -> None:
        self._redis.srem(self._key(player_id, "mutes"), other)

    def muted(self, player_id: str) -> frozenset[str]:
        return frozenset(m.decode() for m in self._redis.smembers(self._key(player_id, "mutes")))

    def mutes(self, player_id: str, other: str) -> bool:
        """Whether the player muted ``other`` (one look-up, not the whole set)."""
        return bool(self._redis.sismember(self._key(player_id, "mutes"), other))

    # -- the player's tables ------------------------------------------------------------------------
    def remember_game(self, player_id: str, game_id: str, created_ms: int) -> None:
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self._key(player_id, "games"), {game_id: created_ms})
            pipe.zadd(self._key(player_id, "live"), {game_id: created_ms})
            pipe.execute()

    def live_ids(self, player_id: str, limit: int, offset: int = 0) -> list[str]:
        key = self._key(player_id, "live")
        return [g.decode() for g in self._redis.zrevrange(key, offset, offset + limit - 1)]

    def forget_over(self, player_id: str, game_ids: list[str]) -> None:
        if game_ids:
            self._redis.zrem(self._key(player_id, "live"), *game_ids)

    def forget_game(self, player_id: str, game_id: str) -> None:
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self._key(player_id, "games"), game_id)
            pipe.zrem(self._key(player_id, "live"), game_id)
            pipe.execute()

    def game_ids(self, player_id: str, limit: int, before: str | None = None) -> list[str]:
        """The player's tables, newest first; ``before``: a game id from the previous page."""
        key = self._key(player_id, "games")
        start = 0
        if before is not None:
            rank = self._redis.zrevrank(key, before)
            start = 0 if rank is None else rank + 1
        return [g.decode() for g in self._redis.zrevrange(key, start, start + limit - 1)]
