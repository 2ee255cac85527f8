"""The rest of an AI seat's turn, chosen with its first command and published with it
(``<prefix>:{<game>}:planned:<seat>``: the versions of those commands, kept until a little after the turn is due), so
the turn jobs the table schedules as each lands know they have nothing to choose (``worker/jobs.py``, ``_turn``)."""

from __future__ import annotations

from collections.abc import Iterable

from session_service.storage.store import EventStore


class PlannedTurns:
    def __init__(self, store: EventStore):
        self._redis, self._store = store.redis, store

    def _key(self, game_id: str, seat: int) -> str:
        return self._store.key(game_id, f"planned:{seat}")

    def mark(self, game_id: str, seat: int, versions: Iterable[int], ttl_s: float) -> None:
        self._redis.set(self._key(game_id, seat), ",".join(map(str, versions)), ex=max(1, int(ttl_s)))

    def holds(self, game_id: str, seat: int, version: int) -> bool:
        """Is the seat's command at ``version`` one of a turn already chosen?"""
        raw = self._redis.get(self._key(game_id, seat))
        return raw is not None and version in {int(v) for v in raw.split(b",")}

    def drop(self, game_id: str, seat: int) -> None:
        self._redis.delete(self._key(game_id, seat))
