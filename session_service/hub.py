"""One reader per process that learns of appends and hands the new records to the streams watching those games.

A waiting stream costs a ``Watch`` here (a queue and a cursor per game): no thread and no Redis connection of
its own. The hub holds one pub/sub connection, on which the append script announces each append
(``"<game id> <version>"``, see append.lua), and one reader that fetches what is new: one XRANGE per game per
batch of notices, shared by every watch of that game in the process, all in one pipelined round trip.

A stream may watch feeds besides game logs the same way (a game's chat, a player's notices: topics
``"<owner>#<part>"``, see ``store.py``), announced on the same channel.

Notices are a wake-up, never the truth: a notice missed while the pub/sub connection was down (or on any
other path) costs latency, not an event, because the reader re-reads the versions of every watched game
whenever the subscription is (re)confirmed and at least every ``recheck_s``. Both loops are threads; under
gunicorn's gevent worker (monkey-patched) they are greenlets, and the queues and locks cooperate.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterable
from typing import Any

import redis

from session_service.storage.store import EventStore

log = logging.getLogger("mythos.hub")
EVERY = object()  # in the due queue: re-read the versions of every watched game
CLOSED = object()  # in a watch's inbox: the hub is shutting down
PAGE = 1000  # records fetched per game per round; a longer backlog is handed over in pages


class Closed(Exception):
    """The process is shutting down: the stream should tell its client to reconnect elsewhere."""


class Watch:
    """What one stream watches: some games and, for each, the last version it has been handed."""

    def __init__(self, hub: Hub, cursors: dict[str, int]):
        self.hub = hub
        self.cursors = dict(cursors)  # written by the hub's reader only
        self._inbox: queue.Queue[Any] = queue.Queue()

    def next(self, timeout_s: float) -> list[tuple[str, list[dict[str, Any]]]]:
        """The batches ``(game id, records)`` handed over since the last call, oldest first, waiting up to
        ``timeout_s`` for the first; [] when nothing came. Raises ``Closed`` when the process shuts down."""
        try:
            first = self._inbox.get(timeout=timeout_s)
        except queue.Empty:
            return []
        batches = [first]
        while True:
            try:
                batches.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        if any(b is CLOSED for b in batches):
            raise Closed()
        return batches

    def close(self) -> None:
        self.hub.unwatch(self)

    def _deliver(self, game_id: str, since: int, records: list[dict[str, Any]]) -> bool:
        """Hand over the records past this watch's cursor, read from version ``since`` on. False when the watch
        is behind ``since`` (it began after the read's cursors were taken): handing it these would skip the
        versions between, so it gets nothing now and the hub reads again from its cursor."""
        cursor = self.cursors[game_id]
        if cursor < since:
            return False
        fresh = [r for r in records if r["v"] > cursor]
        if fresh:
            self.cursors[game_id] = fresh[-1]["v"]
            self._inbox.put((game_id, fresh))
        return True

    def _close(self) -> None:
        self._inbox.put(CLOSED)


class Hub:
    def __init__(self, store: EventStore, recheck_s: float = 10.0, subscriber: redis.Redis | None = None):
        self.store = store
        self.recheck_s = recheck_s
        self._subscriber = subscriber or store.redis  # the pub/sub connection is taken from this client's pool
        self._watches: dict[str, set[Watch]] = {}
        self._lock = threading.Lock()
        self._due: queue.Queue[Any] = queue.Queue()
        self._started = False
        self.closing = False
        self.figures = {"notices": 0, "fetches": 0, "rechecks": 0, "resubscribed": 0}

    # -- streams ------------------------------------------------------------------------------------
    def watch(self, cursors: dict[str, int]) -> Watch:
        """Start handing over the records after each game's cursor: first whatever is there already, then each
        append as it is announced. Raises ``Closed`` once the process is shutting down."""
        if self.closing:
            raise Closed()
        self._start()
        watch = Watch(self, cursors)
        with self._lock:
            for game_id in cursors:
                self._watches.setdefault(game_id, set()).add(watch)
        for game_id in cursors:
            self._due.put((game_id, None))  # the catch-up read: whatever was appended before the watch began
        return watch

    def unwatch(self, watch: Watch) -> None:
        with self._lock:
            for game_id in watch.cursors:
                watchers = self._watches.get(game_id)
                if watchers is not None:
                    watchers.discard(watch)
                    if not watchers:
                        del self._watches[game_id]

    @property
    def watching(self) -> int:
        """Streams watching (a stream of several games counts once)."""
        with self._lock:
            return len({w for ws in self._watches.values() for w in ws})

    def shutdown(self) -> None:
        """Close every watch (their streams tell their clients to reconnect elsewhere) and refuse new ones."""
        self.closing = True
        with self._lock:
            watches = {w for ws in self._watches.values() for w in ws}
        for watch in watches:
            watch._close()

    def _start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._listen, name="hub-listen", daemon=True).start()
        threading.Thread(target=self._read, name="hub-read", daemon=True).start()

    # -- the pub/sub listener -------------------------------------------------------------------------
    def _listen(self) -> None:
        """Turn notices of watched games into due reads. The wait on the socket is bounded by ``recheck_s``,
        after which a PING proves the connection alive (a dead one raises, and the loop subscribes afresh)."""
        pause = 0.1
        while not self.closing:
            pubsub = self._subscriber.pubsub()
            try:
                pubsub.subscribe(self.store.notice_channel)
                while not self.closing:
                    message = pubsub.get_message(timeout=self.recheck_s)
                    if message is None:
                        pubsub.ping()
                        continue
                    pause = 0.1
                    if message["type"] == "subscribe":
                        # (re)subscribed: whatever was announced while we were not listening is read now
                        self.figures["resubscribed"] += 1
                        self._due.put(EVERY)
                    elif message["type"] == "message":
                        self._notice(message["data"])
            except Exception as exc:  # noqa: BLE001 - the listener must outlive any failure of its connection
                if self.closing:
                    return
                log.warning("stream notices: %r; subscribing again in %.1fs (watched games are re-read then)", exc, pause)
                time.sleep(pause)
                pause = min(pause * 2, self.recheck_s)
            finally:
                try:
                    pubsub.close()
                except Exception:  # noqa: BLE001 - closing a broken connection may fail in many ways
                    pass

    def _notice(self, data: bytes) -> None:
        self.figures["notices"] += 1
        game_id, _, version = data.decode().partition(" ")
        if game_id in self._watches:
            self._due.put((game_id, int(version)))

    # -- the reader ---------------------------------------------------------------------------------
    def _read(self) -> None:
        """Take every due game at once, read each one's new records once, hand them to its watches."""
        next_recheck = time.monotonic() + self.recheck_s
        while not self.closing:
            try:
                first = self._due.get(timeout=max(0.0, next_recheck - time.monotonic()))
            except queue.Empty:
                first = EVERY
            due = [first]
            while True:
                try:
                    due.append(self._due.get_nowait())
                except queue.Empty:
                    break
            try:
                if EVERY in due or time.monotonic() >= next_recheck:
                    next_recheck = time.monotonic() + self.recheck_s
                    games = self._behind(list(self._watches))
                    self.figures["rechecks"] += 1  # counted once its read is back: what it read is what it found
                else:
                    games = self._lagging(item for item in due if item is not EVERY)
                if games:
                    self._fetch(games)
            except redis.RedisError as exc:
                log.warning("stream reads: %s; every watched game is re-read in %.0fs", exc, self.recheck_s)
                time.sleep(min(1.0, self.recheck_s))
            except Exception:  # noqa: BLE001 - the reader must outlive any one bad record; it says so once
                log.exception("stream reader: unexpected error; every watched game is re-read in %.0fs", self.recheck_s)
                time.sleep(min(1.0, self.recheck_s))

    def _lowest(self, game_id: str) -> int | None:
        with self._lock:
            watchers = list(self._watches.get(game_id, ()))
        return min((w.cursors[game_id] for w in watchers), default=None)

    def _lagging(self, items: Iterable[tuple[str, int | None]]) -> set[str]:
        """Games some watch has not been handed up to the announced version (None: unknown, read anyway)."""
        games = set()
        for game_id, version in items:
            lowest = self._lowest(game_id)
            if lowest is not None and (version is None or version > lowest):
                games.add(game_id)
        return games

    def _behind(self, game_ids: list[str]) -> set[str]:
        """Of these watched games, those whose stored version is past some watch's cursor (one round trip)."""
        if not game_ids:
            return set()
        versions = self.store.versions(game_ids)
        return self._lagging((g, v) for g, v in zip(game_ids, versions) if v is not None)

    def _fetch(self, games: set[str]) -> None:
        cursors = {g: c for g in games if (c := self._lowest(g)) is not None}
        if not cursors:
            return
        self.figures["fetches"] += 1
        found = self.store.records_after(cursors, limit=PAGE)
        for game_id, records in found.items():
            if not records:
                continue
            with self._lock:
                watchers = list(self._watches.get(game_id, ()))
            behind = [watch for watch in watchers if not watch._deliver(game_id, cursors[game_id], records)]
            if behind or len(records) == PAGE:
                self._due.put((game_id, None))  # a late watch, or a long backlog: read again in the next round
