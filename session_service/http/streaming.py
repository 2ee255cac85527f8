"""The HTTP edge of live streams: SSE or NDJSON framing, the limits that protect a process, and shutdown.

The use cases (``Tables.stream``) yield ``Message`` data; this module turns them into bytes on the wire, counts
open streams per client and per process, and ends every stream with a reconnect hint when the process is
told to stop, so its clients resume on another process without a gap (SSE ``retry:``; NDJSON a ``retry``
line). A client going away or a shutdown is one log line, never a traceback.
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
import secrets
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import orjson
import redis
from flask import Response, request

from shared.wire.errors import ApiError
from session_service.hub import Closed, Hub
from session_service.storage.leases import StreamLeases
from session_service.use_cases.live import Message
from session_service.use_cases.watchers import Leases, Watchers

log = logging.getLogger("mythos.streams")
SSE = "text/event-stream"
NDJSON = "application/x-ndjson"
JSONL = "application/jsonl"  # JSON Lines: the same lines as NDJSON, under the name OpenAPI 3.2 uses
FRAMINGS = [SSE, NDJSON, JSONL]  # what a stream's Accept chooses among (SSE by default)


def stream_response(sse_item: str, line_item: str) -> dict[str, object]:
    """A stream's 200 response for the OpenAPI document: each framing's items as ``itemSchema`` (OpenAPI 3.2),
    no schema for the whole body (a generator would read a body that never ends as one JSON value)."""
    def item(name: str) -> dict[str, object]:
        return {"itemSchema": {"$ref": f"#/components/schemas/{name}"}}

    return {"description": f"the stream: SSE by default ({sse_item} per event), one JSON object per line with `Accept: "
                           f"{NDJSON}` or `{JSONL}` ({line_item} per line)",
            "content": {SSE: item(sse_item), NDJSON: item(line_item), JSONL: item(line_item)}}


def sse(message: Message) -> bytes:
    """One SSE message: ``id`` (the version) on state and event messages; a keep-alive is a comment."""
    if message.kind == "keepalive":
        return b": keep-alive\n\n"
    head = f"id: {message.id}\n" if message.id is not None else ""
    return f"{head}event: {message.kind}\ndata: ".encode() + orjson.dumps(message.data) + b"\n\n"


def ndjson(message: Message) -> bytes:
    """One NDJSON line ``{"type", "id"?, "data"}``; a keep-alive is an empty line."""
    if message.kind == "keepalive":
        return b"\n"
    line = {"type": message.kind, "data": message.data}
    if message.id is not None:
        line["id"] = message.id
    return orjson.dumps(line) + b"\n"


def reconnect_hint(framing: str, retry_ms: int) -> bytes:
    if framing == SSE:
        return f"retry: {retry_ms}\n\n".encode()
    return orjson.dumps({"type": "retry", "data": {"retry_ms": retry_ms}}) + b"\n"


@dataclass
class Streams:
    """This process's open streams: the per-client cap (counted in Redis, across every process), the process's
    own ceiling, and the shutdown of them all."""

    hub: Hub
    per_client: int = 20
    per_address: int = 100
    per_process: int = 10_000
    retry_after_s: int = 5
    process: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}")
    _open: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _leasing: bool = False
    _renewer: threading.Thread | None = None  # renews the lease until the hub closes (then it ends by itself)

    @property
    def open(self) -> int:
        return sum(self._open.values())

    def admit(self, client: str, address: str | None = None) -> tuple[str, ...]:
        """Count one more stream for ``client`` (a seat token or an address) and for its ``address`` (whatever
        token it presents: tokens never multiply what one address may hold, issue 33), or refuse it: 429 past the
        per-client or per-address cap, 503 past the process's ceiling or once it is shutting down. Returns the
        keys it was counted under, for ``release``. Two clients admitted at the same instant on two processes may
        both pass: a cap, not a ledger."""
        caps = [(_key(client), self.per_client, "client")]
        if address is not None and self.per_address:
            caps.append((_key("all:" + address), self.per_address, "address"))
        retry = {"Retry-After": str(self.retry_after_s)}
        if self.hub.closing:
            raise ApiError(503, "service/unavailable", "this process is shutting down; reconnect", headers=retry)
        if self.open >= self.per_process:
            raise ApiError(503, "service/unavailable", "this process holds as many streams as it may; try again shortly",
                           {"streams_per_process": self.per_process}, headers=retry)
        self._lease()
        keys = tuple(key for key, _, _ in caps)
        counted = self.counts.open(list(keys), self.process)
        with self._lock:
            self._open[keys[0]] += 1
        for (key, cap, per), counts in zip(caps, counted):
            if sum(n for p, n in counts.items() if self._alive(key, p)) > cap:
                self.release(keys)
                raise ApiError(429, "request/rate_limited", f"at most {cap} open streams per {per}; close one first",
                               {f"streams_per_{per}": cap}, headers=retry)
        return keys

    def __post_init__(self) -> None:
        self.leases = Leases(self.hub.store, self.hub.recheck_s)  # other processes' leases, remembered a while
        self.counts = StreamLeases(self.hub.store)

    def _alive(self, client: str, process: str) -> bool:
        """Does ``process`` hold a current lease? Known answers are kept for a keep-alive period, so admitting a
        stream costs one round trip (the count) in the common case."""
        if process == self.process:
            return True
        alive = self.leases.alive([process])[process]
        if not alive:
            self.counts.forget(client, [process])
        return alive

    def release(self, keys: tuple[str, ...]) -> None:
        with self._lock:
            self._open[keys[0]] -= 1
            if self._open[keys[0]] <= 0:
                del self._open[keys[0]]
        try:
            for key in keys:
                self.counts.close(key, self.process)
        except redis.RedisError as exc:  # the count goes with the process's lease if it cannot be taken back now
            log.warning("could not uncount a closed stream: %s", exc)

    def _lease(self) -> None:
        """Keep this process's lease on its stream counts alive (renewed each keep-alive period, lasting three):
        the counts of a process that dies stop counting when its lease runs out."""
        if self._leasing:
            return
        ttl = max(1, int(3 * self.hub.recheck_s + 0.999))
        self._leasing = True
        self.counts.renew(self.process, ttl)

        def renew() -> None:
            while True:
                time.sleep(self.hub.recheck_s)
                if self.hub.closing:
                    return
                try:
                    self.counts.renew(self.process, ttl)
                except redis.RedisError as exc:
                    log.warning("could not renew the stream lease: %s", exc)

        self._renewer = threading.Thread(target=renew, name="streams-lease", daemon=True)
        self._renewer.start()

    def shutdown(self) -> None:
        """Refuse new streams and end the open ones with a reconnect hint."""
        self.hub.shutdown()

    def respond(self, messages: Iterator[Message], client: str, framing: str, label: str,
                watching: tuple[Watchers, str] | None = None) -> Response:
        """The streaming response for ``messages``, counted against ``client`` and the request's address until it
        closes; ``watching``: the game a spectator's stream watches, counted among its watchers meanwhile
        (``use_cases/watchers.py``)."""
        key = self.admit(client, request.remote_addr or "-")
        if watching is not None:
            try:
                watching[0].opened(watching[1], self.process)
            except BaseException:
                self.release(key)
                raise
        frame = sse if framing == SSE else ndjson
        return Response(self._body(messages, frame, framing, key, label, watching), mimetype=framing,
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    def _body(self, messages: Iterator[Message], frame: Callable[[Message], bytes], framing: str, key: tuple[str, ...],
              label: str, watching: tuple[Watchers, str] | None) -> Iterator[bytes]:
        started, how = time.monotonic(), "client gone"
        try:
            try:
                events: list[bytes] = []
                for message in messages:
                    # a batch's events go out with its turn in one write (the turn follows them at once)
                    events.append(frame(message))
                    if message.kind != "event":
                        yield b"".join(events)
                        events = []
                how = "ended"
            except Closed:
                how = "shutdown"
                yield reconnect_hint(framing, random.randint(500, 3000))  # spread the reconnects over a few seconds
            except redis.RedisError as exc:
                how = f"storage error ({exc.__class__.__name__})"
                yield reconnect_hint(framing, random.randint(1000, 5000))
            except Exception:
                how = "failed"
                raise
        finally:
            close = getattr(messages, "close", None)
            if close is not None:
                close()  # the use case's own cleanup (its watch) now, not whenever the generator is collected
            self.release(key)
            if watching is not None:
                try:
                    watching[0].closed(watching[1], self.process)
                except redis.RedisError as exc:  # the count goes with the process's lease if it cannot be taken back now
                    log.warning("could not uncount a watcher: %s", exc)
            log.info("stream %s closed: %s after %.1fs", label, how, time.monotonic() - started)


def _key(client: str) -> str:
    """A client's stream count in Redis, hashed: Redis keeps no token or address in the clear."""
    return hashlib.sha256(client.encode()).hexdigest()[:24]
