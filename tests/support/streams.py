"""A live-stream reader as a bot would write one: SSE or NDJSON, message by message, over ``requests``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
import requests


@dataclass(frozen=True)
class Msg:
    kind: str  # state, event, turn, end, keepalive, retry
    id: int | None = None
    data: Any = None


def parse_sse(block: str) -> Msg:
    if block.startswith(":"):
        return Msg("keepalive")
    fields = dict(line.split(": ", 1) for line in block.splitlines())
    if "retry" in fields and "event" not in fields:
        return Msg("retry", data={"retry_ms": int(fields["retry"])})
    return Msg(fields["event"], int(fields["id"]) if "id" in fields else None, orjson.loads(fields["data"]))


def parse_ndjson(line: str) -> Msg:
    if not line:
        return Msg("keepalive")
    raw = orjson.loads(line)
    return Msg(raw["type"], raw.get("id"), raw["data"])


class StreamReader:
    """One open stream; iterate it for its messages (keep-alives included) until the server closes it."""

    def __init__(self, base: str, game_id: str | None, token: str | None = None, *, after: int | None = None,
                 last_event_id: str | None = None, ndjson: bool = False, timeout_s: float = 30, path: str | None = None):
        # One stream a connection, closed with the stream: a connection left idle in requests' pool once a stream has
        # ended (a stopping server's) would keep the session process that ended it waiting (gunicorn's keepalive, 5 s).
        headers = {"Accept": "application/x-ndjson" if ndjson else "text/event-stream", "Connection": "close"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        params = {"after": after} if after is not None else {}
        self.ndjson = ndjson
        url = base + (path or f"/v1/games/{game_id}/events/stream")
        self.reply = requests.get(url, headers=headers, params=params,
                                  stream=True, timeout=timeout_s)

    def __iter__(self) -> Iterator[Msg]:
        separator, parse = (b"\n", parse_ndjson) if self.ndjson else (b"\n\n", parse_sse)
        buffer = b""
        for chunk in self.reply.iter_content(chunk_size=None):
            buffer += chunk
            while separator in buffer:
                block, buffer = buffer.split(separator, 1)
                yield parse(block.decode())
        assert buffer == b"", f"the stream closed mid-message: {buffer!r}"

    def close(self) -> None:
        self.reply.close()

    def __enter__(self) -> StreamReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
