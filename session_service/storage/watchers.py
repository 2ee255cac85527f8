"""Each session process's count of the spectator streams open on a game, kept with the game
(``<prefix>:{id}:watchers``: the process → its count; deleted with the game), so a table's count is one HGETALL in
the game's slot and a page of the listing reads them all in one pipeline."""

from __future__ import annotations

from session_service.storage.store import EventStore

KEPT_S = 24 * 3600  # a count no process touched for a day is forgotten


class WatcherCounts:
    def __init__(self, store: EventStore):
        self._redis, self._store = store.redis, store

    def count(self, game_id: str, process: str, delta: int) -> None:
        """One more (``delta`` 1) or one less (-1) spectator stream of ``game_id`` on ``process``."""
        key = self._store.key(game_id, "watchers")
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, process, delta).expire(key, KEPT_S)
            left = pipe.execute()[0]
        if left <= 0:
            self._redis.hdel(key, process)

    def counts(self, game_ids: list[str]) -> list[dict[str, int]]:
        """Each game's spectator streams per process (one pipelined round trip)."""
        with self._redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hgetall(self._store.key(game_id, "watchers"))
            return [{k.decode(): int(v) for k, v in raw.items()} for raw in pipe.execute()]
