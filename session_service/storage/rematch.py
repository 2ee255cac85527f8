"""A finished table's rematch offer: one JSON value kept with the game (``<prefix>:{id}:rematch``, a day; deleted
with the game), changed by compare-and-set so two answers at once never lose one."""

from __future__ import annotations

from session_service.storage.store import EventStore

SWAP = """
if redis.call("EXISTS", KEYS[2]) == 0 then return -1 end
local current = redis.call("GET", KEYS[1]) or ""
if current ~= ARGV[1] then return 0 end
redis.call("SET", KEYS[1], ARGV[2], "EX", ARGV[3])
return 1
"""


class RematchOffers:
    def __init__(self, store: EventStore):
        self._redis, self._store = store.redis, store
        self._swap = store.redis.register_script(SWAP)

    def read(self, game_id: str) -> bytes | None:
        """The offer as stored (None: none was made)."""
        raw: bytes | None = self._redis.get(self._store.key(game_id, "rematch"))
        return raw

    def swap(self, game_id: str, before: bytes, after: bytes, ttl_s: int) -> bool | None:
        """Replace the offer with ``after`` if it is still ``before`` (b"": none yet): True done, False changed
        meanwhile, None when the game is gone."""
        done = self._swap(keys=[self._store.key(game_id, "rematch"), self._store.key(game_id, "meta")],
                          args=[before, after, ttl_s])
        return None if done == -1 else bool(done)
