"""Who watches a table: the live streams open on it that hold no seat, counted across every session process.

Each process counts its own spectator streams of a game with the game (``storage/watchers.py``), so a table's count
is one read in the game's slot, and a page of the listing reads them all in one pipeline. A process that dies
without taking its counts back stops counting when its lease runs out: the lease its stream caps keep
(``http/streaming.py`` renews it while the process serves streams, ``storage/leases.py``), whose answers ``Leases``
remembers for a while, so counting costs no extra round trip in the common case.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from session_service.storage.leases import StreamLeases
from session_service.storage.store import EventStore
from session_service.storage.watchers import WatcherCounts


class Leases:
    """Which session processes hold a current stream lease, each answer remembered for ``recheck_s``."""

    def __init__(self, store: EventStore, recheck_s: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.recheck_s, self.clock = recheck_s, clock
        self.store = StreamLeases(store)
        self._known: dict[str, tuple[bool, float]] = {}  # process → (alive, known until)

    def alive(self, processes: Iterable[str]) -> dict[str, bool]:
        now = self.clock()
        wanted = set(processes)
        stale = sorted(p for p in wanted if (known := self._known.get(p)) is None or known[1] < now)
        if stale:
            for process, alive in self.store.alive(stale).items():
                self._known[process] = (alive, now + self.recheck_s)
        return {p: self._known[p][0] for p in wanted}


class Watchers:
    def __init__(self, store: EventStore, leases: Leases):
        self.store, self.leases = WatcherCounts(store), leases

    def opened(self, game_id: str, process: str) -> None:
        self.store.count(game_id, process, 1)

    def closed(self, game_id: str, process: str) -> None:
        self.store.count(game_id, process, -1)

    def counts(self, game_ids: Sequence[str]) -> list[int]:
        """How many spectator streams are open on each game, on processes still alive (one round trip, and one
        more now and then to learn which processes are)."""
        per_game = self.store.counts(list(game_ids))
        alive = self.leases.alive({p for counts in per_game for p in counts})
        return [sum(n for p, n in counts.items() if alive[p] and n > 0) for counts in per_game]
