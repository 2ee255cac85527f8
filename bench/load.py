"""A closed-loop HTTP load generator: N client threads, each on its own keep-alive connection.

Each client repeats one *op*, a timed write: for the real stack its game's next command (from a playout
computed before the timing, so no reads are needed), for the echo baseline a two-hop POST. Only writes that
start and end inside the measuring window count, after a warm-up; throughput is counted writes over the
window's length.
"""

from __future__ import annotations

import http.client
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
    """The baseline's op: one two-hop POST of a command-sized body, nothing else."""

    body = orjson.dumps({"command": {"type": "play_card", "card": "c17", "target": 2}, "expected_version": 42})
    headers = {"Content-Type": "application/json"}

    def __init__(self, base: str, index: int):
        self.conn = Connection(base)

    def prepare(self) -> None:
        self.conn.request("POST", "/echo", self.body, self.headers)

    def op(self) -> Sample | None:
        start = time.perf_counter()
        status, _ = self.conn.request("POST", "/echo", self.body, self.headers)
        return Sample(start, time.perf_counter(), status)


@dataclass(frozen=True)
class Replay:
    """A seeded random playout computed in process before the timing: the server, given the same seed,
    produces the same events, so these commands are legal in this order and nothing need be read."""

    game: str
    players: int
    options: dict[str, Any]
    seed: str  # hex, as POST /v1/games takes it
    commands: tuple[tuple[int, bytes], ...]  # (seat, the command as JSON)


class ReplayClient:
    """Plays one game at a time through the public API, holding every seat (all human), posting commands only.

    Each game is created with its replay's seed; then each op posts the replay's next command with
    ``expected_version`` (the version the previous answer gave) and an ``Idempotency-Key``, as a careful
    client does. When the replay is done the game is over, and the next op creates the next game (not a
    sample). A command the server refuses is counted in ``unexpected`` and ends that game early.
    """

    def __init__(self, base: str, index: int, replays: list[Replay]):
        self.conn = Connection(base)
        self.replays = replays
        self.index = index
        self.next_replay = index  # clients of the same game start on different seeds
        self.commands = 0
        self.games_started = 0
        self.games_finished = 0
        self.unexpected: Counter[str] = Counter()

    def prepare(self) -> None:
        self.new_game()

    def new_game(self) -> None:
        replay = self.replays[self.next_replay % len(self.replays)]
        self.next_replay += 1
        body = {"game": replay.game, "seats": [{"name": f"Bench {self.index}.{s}"} for s in range(replay.players)],
                "options": replay.options, "seed": replay.seed}
        status, raw = self.conn.request("POST", "/v1/games", orjson.dumps(body), {"Content-Type": "application/json"})
        if status != 201:
            raise RuntimeError(f"creating a {replay.game} game answered {status}: {raw[:300]!r}")
        game = orjson.loads(raw)
        self.path = f"/v1/games/{game['id']}/commands"
        self.auth = {s["seat"]: f"Bearer {s['token']}" for s in game["seats"]}
        self.version = game["version"]
        self.pending = iter(replay.commands)
        self.games_started += 1

    def op(self) -> Sample | None:
        step = next(self.pending, None)
        if step is None:
            self.games_finished += 1
            self.new_game()
            return None
        seat, command = step
        self.commands += 1
        body = b'{"command":' + command + b',"expected_version":' + str(self.version).encode() + b"}"
        headers = {"Authorization": self.auth[seat], "Content-Type": "application/json",
                   "Idempotency-Key": f"bench-{self.version}"}
        start = time.perf_counter()
        status, raw = self.conn.request("POST", self.path, body, headers)
        end = time.perf_counter()
        if status == 200:
            self.version = orjson.loads(raw)["version"]
        else:
            self.unexpected[f"{status} {orjson.loads(raw).get('error', {}).get('code', '?') if raw[:1] == b'{' else '?'}"] += 1
            self.pending = iter(())
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
