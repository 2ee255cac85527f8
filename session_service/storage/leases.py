"""Leases: who may count what for how long, across processes.

- The live streams open per client (``<prefix>:streams:<client>``: process → count), which only processes holding
  a current lease (``<prefix>:streamproc:<process>``, renewed while the process serves streams) count: a process
  that dies without taking its streams back stops counting when its lease runs out.
- A turn at a periodic job (``<prefix>:<job>:lock``, held for its period): one process of many runs each round.
"""

from __future__ import annotations

from session_service.storage.store import EventStore

KEPT_S = 24 * 3600  # a client's stream counts no process touched for a day are forgotten


class StreamLeases:
    def __init__(self, store: EventStore):
        self._redis, self._prefix = store.redis, store.prefix

    def _streams(self, client: str) -> str:
        return f"{self._prefix}:streams:{client}"

    def _process(self, process: str) -> str:
        return f"{self._prefix}:streamproc:{process}"

    def open(self, clients: list[str], process: str) -> list[dict[str, int]]:
        """Count one more stream of each of ``clients`` on ``process``; answers every process's count for each (one
        round trip). The caller weighs them by whose lease is current, and takes its own back past a cap."""
        with self._redis.pipeline(transaction=False) as pipe:
            for client in clients:
                key = self._streams(client)
                pipe.hincrby(key, process, 1).expire(key, KEPT_S).hgetall(key)
            replies = pipe.execute()
        return [{k.decode(): int(v) for k, v in counts.items()} for counts in replies[2::3]]

    def close(self, client: str, process: str) -> None:
        """One stream of ``client`` fewer on ``process``."""
        key = self._streams(client)
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, process, -1).expire(key, KEPT_S)
            left = pipe.execute()[0]
        if left <= 0:
            self._redis.hdel(key, process)

    def forget(self, client: str, processes: list[str]) -> None:
        """Drop the counts of processes whose lease ran out (they died without taking their streams back)."""
        self._redis.hdel(self._streams(client), *processes)

    def renew(self, process: str, ttl_s: int) -> None:
        self._redis.set(self._process(process), "1", ex=ttl_s)

    def alive(self, processes: list[str]) -> dict[str, bool]:
        """Which of these processes hold a current lease (one round trip)."""
        with self._redis.pipeline(transaction=False) as pipe:
            for process in processes:
                pipe.exists(self._process(process))
            return dict(zip(processes, map(bool, pipe.execute())))


class Turns:
    def __init__(self, store: EventStore):
        self._redis, self._prefix = store.redis, store.prefix

    def take(self, job: str, period_s: int) -> bool:
        """This process's turn at ``job`` for ``period_s`` (False: another took it within the period)."""
        return bool(self._redis.set(f"{self._prefix}:{job}:lock", "1", nx=True, ex=max(1, period_s)))
