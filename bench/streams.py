"""Live streams: how many idle streams one box holds, what each costs, what they cost the command path, and how
fast an append reaches its watchers.

The streams are held by ``bench/stream_client.py``, one asyncio process (a socket per stream, no threads), so
the holder itself is cheap. Watched games are two-seat games created from the command path's seeded playouts,
so the driver can post their next command without reading anything; ten streams watch each game. In order:

1. command throughput with no stream open (the same replaying clients as the command path, ``level`` games);
2. 1,000 streams open; a driver posts commands on their games at a steady rate: delivery latency at 1,000;
3. streams up to ``streams`` (10,000): held (each still open after a keep-alive period), memory per stream
   (the session workers' RSS before and after, over the streams opened);
4. command throughput again, the streams idle (their games do not move), against step 1 and step 6;
5. the driver again over every watched game: delivery latency at ``streams``;
6. every stream closed, command throughput with none once more (the baseline is steps 1 and 6 together).

Latency is the event's receipt at the watcher minus its ``at`` (the server's clock as the command was
decided, just before the append; one machine, one clock).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import threading
import time
from typing import Any

import orjson

from deploy.stacks.dev import Stack

from bench import load
from bench.command_path import combine, replays, table_mix
from bench.procs import cpu_seconds, rss_bytes, worker_pids
from bench.report import Report, percentile

SECTION = "live streams"
WATCHERS_PER_GAME = 10


def raise_fd_limit() -> int:
    """Raise this process's soft limit on open files to the hard limit (the stack's processes inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


class Holder:
    """The stream-holding subprocess, driven over its stdin and stdout."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.stream_client"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def ask(self, **order: Any) -> dict[str, Any]:
        self.proc.stdin.write(orjson.dumps(order).decode() + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the stream holder exited")
        return orjson.loads(line)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class WatchedGame:
    """A game created from a seeded playout, whose next command a driver can post at any time."""

    def __init__(self, conn: load.Connection, replay: load.Replay, index: int):
        body = {"game": replay.game, "seats": [{"name": f"Watched {index}.{s}"} for s in range(replay.players)],
                "options": replay.options, "seed": replay.seed}
        status, raw = conn.request("POST", "/v1/games", orjson.dumps(body), {"Content-Type": "application/json"})
        if status != 201:
            raise RuntimeError(f"creating a watched game answered {status}: {raw[:300]!r}")
        game = orjson.loads(raw)
        self.id = game["id"]
        self.version = game["version"]
        self.auth = {s["seat"]: f"Bearer {s['token']}" for s in game["seats"]}
        self.pending = list(replay.commands)
        self.lock = threading.Lock()

    def post_next(self, conn: load.Connection) -> bool:
        with self.lock:
            if not self.pending:
                return False
            seat, command = self.pending.pop(0)
            body = b'{"command":' + command + b',"expected_version":' + str(self.version).encode() + b"}"
            status, raw = conn.request("POST", f"/v1/games/{self.id}/commands", body,
                                       {"Authorization": self.auth[seat], "Content-Type": "application/json"})
            if status != 200:
                self.pending = []
                return False
            self.version = orjson.loads(raw)["version"]
            return True


def drive(base: str, games: list[WatchedGame], rate_per_s: float, seconds: float, threads: int = 4) -> int:
    """Post the next command of the watched games in turn, at about ``rate_per_s`` in all, for ``seconds``."""
    posted = [0] * threads
    end = time.monotonic() + seconds

    def loop(i: int) -> None:
        conn = load.Connection(base)
        period = threads / rate_per_s
        turn = i
        next_at = time.monotonic()
        try:
            while time.monotonic() < end:
                game = games[turn % len(games)]
                turn += threads
                if game.post_next(conn):
                    posted[i] += 1
                next_at += period
                time.sleep(max(0.0, next_at - time.monotonic()))
        finally:
            conn.close()

    workers = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(seconds + 60)
    return sum(posted)


def settle(pids: list[int], timeout_s: float = 60) -> None:
    """Wait until these processes are nearly idle (under 5% of a core over a second)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        before = cpu_seconds(pids)
        time.sleep(1)
        if cpu_seconds(pids) - before < 0.05:
            return


def session_rss(stack: Stack) -> int:
    return sum(rss_bytes(pid) for pid in worker_pids(stack.processes["session"].pid))


def measure(report: Report, stack: Stack, streams: int, level: int, warmup_s: float, measure_s: float,
            drive_s: float, rate_per_s: float, hold_s: float = 12.0, seeds: int = 8) -> None:
    details: dict[str, Any] = report.details.setdefault(SECTION, {})
    first = min(1000, streams)
    mix = [(kind, players) for kind, players in table_mix() if players == 2]
    pool = replays(mix, seeds)
    stack_pids = [p.pid for p in stack.processes.values()]

    def commands(label: str) -> load.LoadResult:
        clients = [load.ReplayClient(stack.url, i, pool[mix[i % len(mix)]]) for i in range(level)]
        result = load.run(clients, warmup_s, measure_s, lambda: cpu_seconds(stack_pids))
        details[f"commands, {label}"] = result.to_json()
        return result

    def latencies(label: str, games: list[WatchedGame]) -> list[float]:
        holder.ask(op="report")  # drop whatever came before
        posted = drive(stack.url, games, rate_per_s, drive_s)
        time.sleep(1.0)
        got = holder.ask(op="report")
        details[f"delivery, {label}"] = {"commands": posted, "deliveries": len(got["latencies_ms"]),
                                         "p50_ms": percentile(got["latencies_ms"], 50), "p99_ms": percentile(got["latencies_ms"], 99)}
        return got["latencies_ms"]

    conn = load.Connection(stack.url)
    flat = [r for kind in mix for r in pool[kind]]
    watched = [WatchedGame(conn, flat[i % len(flat)], i) for i in range(max(1, streams // WATCHERS_PER_GAME))]
    conn.close()
    details["watched_games"] = len(watched)
    none_before = commands("no streams (before)")
    holder = Holder()
    try:
        rss_before = session_rss(stack)
        opened = holder.ask(op="open", port=stack.port,
                            targets=[[f"/v1/games/{g.id}/events/stream", None, WATCHERS_PER_GAME] for g in watched[:first // WATCHERS_PER_GAME]])
        details["open, first"] = opened
        at_first = latencies(f"{first:,} streams", watched[:first // WATCHERS_PER_GAME])
        more = holder.ask(op="open", port=stack.port,
                          targets=[[f"/v1/games/{g.id}/events/stream", None, WATCHERS_PER_GAME] for g in watched[first // WATCHERS_PER_GAME:]])
        details["open, rest"] = more
        time.sleep(hold_s)  # by default past a keep-alive period: every stream still open has had one
        held = holder.ask(op="report")
        rss_after = session_rss(stack)
        details["held"] = {k: v for k, v in held.items() if k != "latencies_ms"}
        details["session_rss_bytes"] = {"before": rss_before, "after": rss_after}
        with_idle = commands(f"{streams:,} idle streams")
        at_all = latencies(f"{streams:,} streams", watched)
        details["holder_rss_bytes"] = holder.ask(op="report")["rss_bytes"]
        holder.ask(op="close")
    finally:
        holder.stop()
    settle(stack_pids)  # the workers have closed every stream
    none_after = commands("no streams (after)")
    baseline = combine([none_before, none_after])
    report.compare(SECTION, "idle streams held open", held["open"], "streams", streams, "wanted", f">= {streams:,}",
                   lambda r: r >= 1, note=f"{held['keepalives']:,} keep-alives received; {held['closed']} closed")
    report.figure(SECTION, "session memory per idle stream", (rss_after - rss_before) / max(1, held["open"]) / 1024, "KiB",
                  note=f"workers' RSS {rss_before / 2**20:.0f} -> {rss_after / 2**20:.0f} MiB; "
                       f"the holder: {details['holder_rss_bytes'] / 2**20:.0f} MiB for all of them")
    report.compare(SECTION, f"{level} games: commands/s with {streams:,} idle streams", with_idle.rate, "/s", baseline.rate,
                   "with none", ">= 0.8x", lambda r: r >= 0.8)
    report.compare(SECTION, f"{level} games: p99 with {streams:,} idle streams", with_idle.p99, "ms", baseline.p99, "with none")
    report.compare(SECTION, f"{level} games: server CPU per command with {streams:,} idle streams", with_idle.cpu_ms_per_write,
                   "ms", baseline.cpu_ms_per_write, "with none")
    for count, got in ((first, at_first), (streams, at_all)) if streams > first else ((first, at_first),):
        report.figure(SECTION, f"delivery p50 at {count:,} streams", percentile(got, 50), "ms", note=f"{len(got):,} deliveries")
        if count == first:
            report.compare(SECTION, f"delivery p99 at {count:,} streams", percentile(got, 99), "ms", 100, "target ms",
                           "<= 100 ms", lambda r: r <= 1)
        else:
            report.figure(SECTION, f"delivery p99 at {count:,} streams", percentile(got, 99), "ms")
