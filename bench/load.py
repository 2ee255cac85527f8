"""A closed-loop HTTP load generator: N client threads, each on its own keep-alive connection.

Each client repeats one *op*: a read, then a timed write. For the real stack the read is the seat's state
(its version and legal commands) and the write posts one of those commands; for the echo baseline the read
is one hop and the write two hops. Only writes that start and end inside the measuring window count, after a
warm-up; throughput is counted writes over the window's length.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson

from bench.report import percentile


class Connection:
    """One keep-alive HTTP/1.1 connection; reconnects once when the server has closed it."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                reply = self.conn.getresponse()
                return reply.status, reply.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


@dataclass
class Sample:
    start: float
    end: float
    status: int


class EchoClient:
    """The baseline's op: ``reads`` one-hop reads on average (as many as the game clients needed per command),
    then a two-hop write of a command-sized body."""

    body = orjson.dumps({"command": {"type": "play_card", "card": "c17", "target": 2}, "expected_version": 42})
    headers = {"Content-Type": "application/json"}

    def __init__(self, base: str, index: int, reads: float = 1.0):
        self.conn = Connection(base)
        self.reads = reads
        self.rand = random.Random(index)

    def prepare(self) -> None:
        self.conn.request("GET", "/read")

    def op(self) -> Sample | None:
        whole, part = divmod(self.reads, 1)
        for _ in range(int(whole) + (self.rand.random() < part)):
            self.conn.request("GET", "/read")
        start = time.perf_counter()
        status, _ = self.conn.request("POST", "/echo", self.body, self.headers)
        return Sample(start, time.perf_counter(), status)


class GameClient:
    """Plays one game at a time through the public API, holding every seat; starts a new game when one ends."""

    def __init__(self, base: str, index: int, games: list[tuple[str, int]]):
        self.conn = Connection(base)
        self.kind, self.players = games[index % len(games)]
        self.rand = random.Random(index)
        self.index = index
        self.reads = 0
        self.commands = 0
        self.games_started = 0
        self.unexpected: Counter[str] = Counter()

    def prepare(self) -> None:
        self.new_game()

    def new_game(self) -> None:
        body = {"game": self.kind, "seats": [{"name": f"Bench {self.index}.{s}"} for s in range(self.players)]}
        status, raw = self.conn.request("POST", "/v1/games", orjson.dumps(body), {"Content-Type": "application/json"})
        if status != 201:
            raise RuntimeError(f"creating a {self.kind} game answered {status}: {raw[:300]!r}")
        game = orjson.loads(raw)
        self.game_id = game["id"]
        self.tokens = {s["seat"]: s["token"] for s in game["seats"]}
        self.seat = (game["to_act"] or [0])[0]
        self.sent = 0
        self.games_started += 1

    def state(self, seat: int) -> dict[str, Any]:
        self.reads += 1
        status, raw = self.conn.request("GET", f"/v1/games/{self.game_id}/state",
                                        headers={"Authorization": f"Bearer {self.tokens[seat]}"})
        if status != 200:
            raise RuntimeError(f"reading the state answered {status}: {raw[:300]!r}")
        return orjson.loads(raw)

    def op(self) -> Sample | None:
        state = self.state(self.seat)
        if state["status"] == "finished":
            self.new_game()
            return None
        others = [s for s in state["to_act"] if s != self.seat]
        self.rand.shuffle(others)
        while not (self.seat in state["to_act"] and state["legal_commands"]):
            if not others:
                raise RuntimeError(f"{self.kind} {self.game_id}: no seat to act has a legal command")
            self.seat = others.pop()
            state = self.state(self.seat)
        command = self.rand.choice(state["legal_commands"])
        body = orjson.dumps({"command": command, "expected_version": state["version"]})
        self.sent += 1
        self.commands += 1
        headers = {"Authorization": f"Bearer {self.tokens[self.seat]}", "Content-Type": "application/json",
                   "Idempotency-Key": f"bench-{self.sent}"}
        start = time.perf_counter()
        status, raw = self.conn.request("POST", f"/v1/games/{self.game_id}/commands", body, headers)
        end = time.perf_counter()
        if status != 200:
            self.unexpected[f"{status} {orjson.loads(raw).get('error', {}).get('code', '?') if raw[:1] == b'{' else '?'}"] += 1
        return Sample(start, end, status)


@dataclass
class LoadResult:
    concurrency: int
    seconds: float
    writes: int
    latencies_ms: list[float] = field(repr=False)
    statuses: Counter[int]
    cpu_s: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.writes / self.seconds

    @property
    def cpu_ms_per_write(self) -> float:
        return float("nan") if self.cpu_s is None or not self.writes else self.cpu_s * 1000 / self.writes

    @property
    def p50(self) -> float:
        return percentile(self.latencies_ms, 50)

    @property
    def p99(self) -> float:
        return percentile(self.latencies_ms, 99)

    def to_json(self) -> dict[str, Any]:
        return {"concurrency": self.concurrency, "seconds": round(self.seconds, 3), "writes": self.writes,
                "rate_per_s": round(self.rate, 1), "p50_ms": round(self.p50, 2), "p99_ms": round(self.p99, 2),
                "server_cpu_ms_per_write": round(self.cpu_ms_per_write, 3),
                "statuses": {str(k): v for k, v in self.statuses.items()}, **self.extra}


def run(clients: list[Any], warmup_s: float, measure_s: float, cpu: Callable[[], float] | None = None) -> LoadResult:
    """Run every client's op in a loop on its own thread; count what falls inside the window after warm-up.

    ``cpu``, when given, reads the CPU seconds the servers have used so far; it is read as the window opens
    and closes, for the CPU each write cost them (a figure that contention from other work hardly moves).
    """
    samples: list[list[Sample]] = [[] for _ in clients]
    failures: list[BaseException] = []
    stop = threading.Event()
    ready = threading.Barrier(len(clients) + 1)

    def loop(i: int) -> None:
        client = clients[i]
        try:
            client.prepare()
        except BaseException as exc:  # noqa: BLE001 - reported after the run
            failures.append(exc)
            ready.abort()
            return
        try:
            ready.wait()
        except threading.BrokenBarrierError:
            return
        try:
            while not stop.is_set():
                sample = client.op()
                if sample is not None:
                    samples[i].append(sample)
        except BaseException as exc:  # noqa: BLE001
            failures.append(exc)
            stop.set()

    threads = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(len(clients))]
    for t in threads:
        t.start()
    try:
        ready.wait(timeout=300)
    except threading.BrokenBarrierError:
        pass
    begin = time.perf_counter() + warmup_s
    end = begin + measure_s
    while time.perf_counter() < begin and not stop.is_set():
        time.sleep(0.01)
    cpu_begin = cpu() if cpu else 0.0
    while time.perf_counter() < end and not stop.is_set():
        time.sleep(0.01)
    cpu_used = cpu() - cpu_begin if cpu else None
    stop.set()
    for t in threads:
        t.join(120)
    for client in clients:
        client.conn.close()
    if failures:
        raise RuntimeError(f"a load client failed: {failures[0]!r}") from failures[0]
    inside = [s for per in samples for s in per if begin <= s.start and s.end <= end]
    ok = [s for s in inside if s.status == 200]
    return LoadResult(len(clients), end - begin, len(ok), [(s.end - s.start) * 1000 for s in ok],
                      Counter(s.status for s in inside), cpu_s=cpu_used)
