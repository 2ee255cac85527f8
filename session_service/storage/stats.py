"""The workers' AI figures for /metrics, summed across workers in one hash (``<prefix>:{stats}:ai``)."""

from __future__ import annotations

from session_service.storage.store import EventStore


class AiStats:
    def __init__(self, store: EventStore):
        self._redis, self._key = store.redis, store.key("stats", "ai")

    def count_move(self, seconds: float, late: bool) -> None:
        """One more AI move chosen, taking ``seconds`` (``late``: it started too late to be due on time)."""
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.hincrbyfloat(self._key, "seconds", seconds)
            pipe.hincrby(self._key, "moves", 1)
            if late:
                pipe.hincrby(self._key, "late", 1)
            pipe.execute()

    def read(self, field: str) -> float:
        """``moves``, ``seconds`` or ``late`` so far (0 before any)."""
        return float(self._redis.hget(self._key, field) or 0)
