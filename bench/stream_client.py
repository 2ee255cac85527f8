"""A cheap holder of many live streams for the bench: one asyncio process, one socket per stream, no threads.

Driven by JSON lines on stdin, each answered by one JSON line on stdout:

- ``{"op": "open", "port": P, "targets": [[path, token or null, count], ...]}`` opens ``count`` SSE streams on
  each path and answers once each has sent its first message (``opened``, ``failed`` with the first reasons).
- ``{"op": "report"}`` answers the streams open and closed so far, the keep-alives seen, and the delivery
  latency of each event received since the last report: its receipt time minus the event's own ``at`` (the
  server's clock when the command was decided, just before its append; the same machine's clock).
- ``{"op": "close"}`` closes every stream.
"""

from __future__ import annotations

import asyncio
import resource
import sys
import time
from datetime import datetime
from typing import Any

import orjson

OPENING_AT_ONCE = 200


class Holder:
    def __init__(self) -> None:
        self.tasks: list[asyncio.Task] = []
        self.writers: list[asyncio.StreamWriter] = []
        self.open = 0
        self.closed = 0
        self.keepalives = 0
        self.latencies_ms: list[float] = []

    async def open_streams(self, port: int, targets: list[list[Any]]) -> dict[str, Any]:
        gate = asyncio.Semaphore(OPENING_AT_ONCE)
        started = time.monotonic()
        waits = []
        for path, token, count in targets:
            for _ in range(count):
                ready: asyncio.Future = asyncio.get_running_loop().create_future()
                self.tasks.append(asyncio.create_task(self.hold(port, path, token, ready, gate)))
                waits.append(ready)
        results = await asyncio.gather(*waits)
        failed = [r for r in results if r is not True]
        return {"opened": len(results) - len(failed), "failed": len(failed), "reasons": failed[:3],
                "seconds": round(time.monotonic() - started, 2)}

    async def hold(self, port: int, path: str, token: str | None, ready: asyncio.Future, gate: asyncio.Semaphore) -> None:
        try:
            async with gate:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 60)
                auth = f"Authorization: Bearer {token}\r\n" if token else ""
                writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n{auth}\r\n".encode())
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
                if not head.startswith(b"HTTP/1.1 200"):
                    body = await asyncio.wait_for(reader.read(2000), 10)
                    ready.set_result(head.split(b"\r\n", 1)[0].decode() + " " + body.decode(errors="replace")[:300])
                    writer.close()
                    return
                buffer = b""
                while b"\n\n" not in buffer:
                    chunk = await asyncio.wait_for(reader.read(65536), 60)
                    if not chunk:
                        raise ConnectionError("closed before its first message")
                    buffer += chunk
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError) as exc:
            if not ready.done():
                ready.set_result(repr(exc))
            return
        self.writers.append(writer)
        self.open += 1
        ready.set_result(True)
        _, buffer = buffer.split(b"\n\n", 1)
        try:
            while True:
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self.take(block)
                chunk = await reader.read(65536)
                if not chunk:
                    break
                buffer += chunk
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self.open -= 1
            self.closed += 1

    def take(self, block: bytes) -> None:
        if b": keep-alive" in block:
            self.keepalives += 1
        elif b"event: event" in block:
            at = block.index(b'"at":"') + 6
            stamp = datetime.fromisoformat(block[at:block.index(b'"', at)].decode().replace("Z", "+00:00")).timestamp()
            self.latencies_ms.append((time.time() - stamp) * 1000)

    def report(self) -> dict[str, Any]:
        latencies, self.latencies_ms = self.latencies_ms, []
        return {"open": self.open, "closed": self.closed, "keepalives": self.keepalives, "latencies_ms": latencies,
                "rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}

    async def close(self) -> dict[str, Any]:
        for writer in self.writers:
            writer.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks, self.writers = [], []
        return {"open": self.open}


async def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    holder = Holder()
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        order = orjson.loads(line)
        if order["op"] == "open":
            answer = await holder.open_streams(order["port"], order["targets"])
        elif order["op"] == "report":
            answer = holder.report()
        elif order["op"] == "close":
            answer = await holder.close()
        else:
            answer = {"error": f"unknown op {order['op']}"}
        sys.stdout.write(orjson.dumps(answer).decode() + "\n")
        sys.stdout.flush()
    await holder.close()


if __name__ == "__main__":
    asyncio.run(main())
