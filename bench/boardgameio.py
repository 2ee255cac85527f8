"""The peer: Mythos Tables' command path beside boardgame.io, the server a user might pick instead (issue 20).

boardgame.io 0.50.2 (pinned with its lock in ``bench/peer/``; the bench runs ``npm ci`` there itself when
``node_modules`` is missing or older than the lock, and needs no network after) serves Follow Suit
(``bench/peer/game.js``), a small two-player hidden-hand card game with a ``playerView``: every move is checked
on the server and each seat's view is redacted, as in our games. Two servers run, one keeping matches in memory
(its default), one in its FlatFile store (node-persist files in the run's temporary folder, on the same disk
as our Redis's) and one in PostgreSQL (``bgio-postgres``, on a private Debian PostgreSQL with fsync and
synchronous commits on: ``bench/postgres.py``), the peer with a real database. ``bench/peer/load.js`` drives them
as boardgame.io's own client does: matches created through the Lobby API, each seat on its own socket.io
connection, moves as its transport sends them, counting only moves seen applied. The Mythos side is the command
path's client (``bench.load.ReplayClient``).

Beside them runs the **floor**: the command path's two hops as plain WSGI callables doing nothing (no Flask, no
Redis, no rules; ``bench.echo.bare_front`` and ``bare_back`` under the same gunicorn settings), driven as the
echo is: the yardstick of the edge's cost (issue 32: a command's server CPU at most twice the floor's per op).

At each level, ``rounds`` times: Mythos, the floor, then boardgame.io in memory, FlatFile and PostgreSQL, back to
back with the same warm-up and window, the load generator on the same two cores for all. Server CPU is user+system
time from ``/proc`` over the window (every process of our stack: Redis, both services, the worker; the peer's one
Node process, and PostgreSQL's processes for that store), divided by the moves or commands counted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import requests

from deploy.stacks.dev import Stack, free_port

from bench import load, postgres
from bench.command_path import combine, replays, table_mix
from bench.procs import EchoPair, cpu_seconds
from bench.report import Report

SECTION = "peer"
PEER = Path(__file__).resolve().parent / "peer"
STORES = {"memory": "boardgame.io in-memory", "flatfile": "boardgame.io FlatFile", "postgres": "boardgame.io PostgreSQL"}
COUNTS = ("accepted", "refused", "unanswered", "games_started", "games_finished")


def unavailable() -> str | None:
    """Why the peer cannot run here, or None: it needs Node.js and npm on PATH."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not on PATH (install Node.js 18 or later with npm to measure boardgame.io)"
    return None


def install() -> str | None:
    """``npm ci`` into bench/peer unless its node_modules is already as the lock says; why not, or None."""
    marker = PEER / "node_modules" / ".package-lock.json"  # npm writes it last, as the install completes
    if marker.exists() and marker.stat().st_mtime >= (PEER / "package-lock.json").stat().st_mtime:
        return None
    print(f"[bench] peer: npm ci in {PEER} (boardgame.io and its pins, from the lock)", flush=True)
    try:
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PEER, check=True, capture_output=True, text=True,
                       timeout=600)
    except subprocess.CalledProcessError as exc:
        said = (exc.stderr or exc.stdout or "").strip().splitlines()
        return f"npm ci in {PEER} failed ({said[-1] if said else f'exit {exc.returncode}'})"
    except subprocess.TimeoutExpired:
        return f"npm ci in {PEER} took more than 10 minutes"
    return None


def versions() -> dict[str, str]:
    """What npm installed, from the lock: boardgame.io, the packages pinned beside it, and the socket.io its
    server runs on (koa-socket-2's own copy, not the newer one boardgame.io also depends on)."""
    lock = json.loads((PEER / "package-lock.json").read_text())["packages"]
    found = {name: lock[f"node_modules/{name}"]["version"]
             for name in ("boardgame.io", "bgio-postgres", "koa-compose", "node-persist", "pg", "sequelize", "socket.io-client")}
    found["socket.io (server)"] = lock["node_modules/koa-socket-2/node_modules/socket.io"]["version"]
    return found


def node_version() -> str:
    return subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=30).stdout.strip()


class PeerServer:
    """``node bench/peer/server.js``: boardgame.io's Server (Lobby API and socket.io on one port) in one process."""

    def __init__(self, tmp: Path, store: str, database: postgres.Postgres | None = None):
        self.tmp, self.store, self.port, self.database = tmp, store, free_port(), database
        self.process: subprocess.Popen | None = None

    @property
    def pids(self) -> list[int]:
        """The processes whose CPU is the peer's: its Node server, and its database's when it has one."""
        assert self.process is not None
        return [self.process.pid] + ([self.database.pid] if self.database is not None else [])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> PeerServer:
        command = ["node", "server.js", "--port", str(self.port), "--store", self.store]
        if self.store == "flatfile":
            # A fresh folder each start: a server stopped in the middle of a write leaves a file node-persist
            # refuses to read ("does not look like a valid storage file"), and the next round's server died on it.
            shutil.rmtree(self.tmp / "peer-flatfile", ignore_errors=True)
            command += ["--dir", str(self.tmp / "peer-flatfile")]
        if self.database is not None:
            command += ["--db", self.database.url]
        log = open(self.tmp / f"peer-{self.store}.log", "ab")
        # NODE_ENV=production, as one deploys it: boardgame.io then leaves out its per-action info logging.
        self.process = subprocess.Popen(command, cwd=PEER, env={**os.environ, "NODE_ENV": "production"}, stdout=log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the {self.store} peer exited with {self.process.returncode}; see {log.name}")
            try:
                if requests.get(self.url + "/games", timeout=2).json() == ["follow-suit"]:
                    return self
            except (requests.RequestException, ValueError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the {self.store} peer did not start; see {log.name}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)


def run(server: PeerServer, matches: int, warmup_s: float, measure_s: float, tmp: Path) -> load.LoadResult:
    """One round of ``node bench/peer/load.js`` against a peer server; the server's CPU is read from /proc as
    the client announces the window opening and closing."""
    pids = server.pids
    errors = open(tmp / "peer-load.log", "ab")
    client = subprocess.Popen(["node", "load.js", "--url", server.url, "--matches", str(matches),
                               "--warmup", str(warmup_s), "--measure", str(measure_s)],
                              cwd=PEER, stdout=subprocess.PIPE, stderr=errors, text=True)
    watchdog = threading.Timer(warmup_s + measure_s + 180, client.kill)  # load.js gives up on a match after 60 s
    watchdog.start()
    cpu_begin = cpu_used = None
    result: dict[str, Any] | None = None
    try:
        for line in client.stdout:
            if line.startswith("window open"):
                cpu_begin = cpu_seconds(pids)
            elif line.startswith("window close"):
                cpu_used = cpu_seconds(pids) - cpu_begin
            elif line.startswith("{"):
                result = json.loads(line)
        client.wait(60)
    finally:
        watchdog.cancel()
    if client.returncode != 0 or result is None or cpu_used is None:
        raise RuntimeError(f"the peer's load client failed ({client.returncode}); see {errors.name}")
    return load.LoadResult(matches, result["seconds"], result["moves"], result["latencies_ms"], Counter(), cpu_used,
                           extra={name: result[name] for name in COUNTS})


def added(results: list[load.LoadResult]) -> load.LoadResult:
    """Rounds of the peer added up, its counts too."""
    total = combine(results)
    total.extra = {name: sum(r.extra[name] for r in results) for name in COUNTS}
    return total


def peer_round(servers: dict[str, PeerServer], store: str, level: int, warmup_s: float, measure_s: float,
               tmp: Path) -> load.LoadResult:
    """One round of the peer, on a server started afresh if it died: boardgame.io's FlatFile store (node-persist)
    can write a file it then cannot read under load, and its server exits (seen on a quiet machine, where it
    makes the most moves). A round whose server dies is run once more on a fresh one."""
    for attempt in (1, 2):
        if servers[store].process.poll() is not None:
            servers[store].stop()
            servers[store] = PeerServer(tmp, store, servers[store].database).start()
        try:
            return run(servers[store], level, warmup_s, measure_s, tmp)
        except RuntimeError:
            if attempt == 2 or servers[store].process.poll() is None:
                raise
    raise AssertionError("unreachable")


def measure(report: Report, stack: Stack, tmp: Path, levels: list[int], warmup_s: float, measure_s: float,
            rounds: int = 1, seeds: int = 8) -> None:
    """At each level, ``rounds`` times: Mythos replaying seeded games, the floor, then each peer store."""
    details: dict[str, Any] = report.details.setdefault(SECTION, {"levels": {}})
    details.update(versions=versions(), node=node_version(), game="follow-suit (bench/peer/game.js)")
    mix = table_mix()
    pool = replays(mix, seeds)
    stack_pids = [p.pid for p in stack.processes.values()]
    servers: dict[str, PeerServer] = {}
    floor, database = EchoPair(tmp, bare=True), None
    stores = list(STORES)
    why = postgres.unavailable()
    if why is not None:
        stores.remove("postgres")
        report.notes.append(f"boardgame.io PostgreSQL not measured: {why}")
    try:
        # Everything starts side by side (each waits on processes of its own): the database, then its peer.
        with ThreadPoolExecutor(len(stores) + 1) as starting:
            waits = [starting.submit(floor.start)]
            if "postgres" in stores:
                database = postgres.Postgres()
                waits.append(starting.submit(lambda: PeerServer(tmp, "postgres", database.start()).start()))
            waits += [starting.submit(PeerServer(tmp, store).start) for store in stores if store != "postgres"]
        failed = []
        for wait in waits:
            try:
                started = wait.result()
            except (RuntimeError, OSError, subprocess.SubprocessError) as exc:  # what did start is stopped below
                failed.append(exc)
                continue
            if isinstance(started, PeerServer):
                servers[started.store] = started
        if failed:
            raise failed[0]
        if database is not None:
            details["postgres"] = database.settings()
        floor_pids = [p.pid for p in floor.processes.values()]
        for level in levels:
            ours, floors, theirs, clients = [], [], {store: [] for store in stores}, []
            for _ in range(rounds):
                players = [load.ReplayClient(stack.url, i, pool[mix[i % len(mix)]]) for i in range(level)]
                ours.append(load.run(players, warmup_s, measure_s, lambda: cpu_seconds(stack_pids)))
                clients.extend(players)
                floors.append(load.run([load.EchoClient(floor.url, i) for i in range(level)], warmup_s, measure_s,
                                       lambda: cpu_seconds(floor_pids)))
                for store in stores:
                    theirs[store].append(peer_round(servers, store, level, warmup_s, measure_s, tmp))
            mythos = combine(ours)
            mythos.extra = {"unexpected": dict(sum((c.unexpected for c in clients), start=Counter()))}
            peer, bare = {store: added(results) for store, results in theirs.items()}, combine(floors)
            details["levels"][str(level)] = {"rounds": rounds, "mythos": mythos.to_json(), "floor": bare.to_json(),
                                             **{STORES[store]: result.to_json() for store, result in peer.items()}}
            judge(report, level, mythos, peer)
            bound(report, level, mythos, bare, peer["memory"])
    finally:
        floor.stop()
        for server in servers.values():
            server.stop()
        if database is not None:
            database.stop()


def judge(report: Report, level: int, mythos: load.LoadResult, peer: dict[str, load.LoadResult]) -> None:
    """The issue's targets against the peers with a store (issue 32): throughput >= 1.0x FlatFile and >= 2.5x
    PostgreSQL at every level, p99 at 100 games <= 1.5x FlatFile's; the other figures beside them."""
    name = f"{level} game{'s' if level > 1 else ''}"
    problems = []
    failed = sum(mythos.statuses.values()) - mythos.writes
    if failed:
        problems.append(f"{failed} Mythos writes not 200: {mythos.extra['unexpected']}")
    for store, result in peer.items():
        lost = {count: result.extra[count] for count in ("refused", "unanswered") if result.extra[count]}
        if lost:
            problems.append(f"{STORES[store]} moves not applied: {lost}")
    note = "; ".join(problems)
    flatfile = peer["flatfile"]
    report.compare(SECTION, f"{name}: commands/s vs FlatFile", mythos.rate, "/s", flatfile.rate,
                   "FlatFile moves/s", ">= 1.0x", lambda r: r >= 1.0, note=note)
    if "postgres" in peer:
        report.compare(SECTION, f"{name}: commands/s vs PostgreSQL", mythos.rate, "/s", peer["postgres"].rate,
                       "PostgreSQL moves/s", ">= 2.5x", lambda r: r >= 2.5, note=note)
    report.compare(SECTION, f"{name}: p99 vs FlatFile", mythos.p99, "ms", flatfile.p99, "FlatFile p99",
                   *(("<= 1.5x", lambda r: r <= 1.5) if level >= 100 else ()))
    for store, result in peer.items():
        label = STORES[store].removeprefix("boardgame.io ")
        if store != "flatfile":
            report.compare(SECTION, f"{name}: p99 vs {label}", mythos.p99, "ms", result.p99, f"{label} p99")
        report.compare(SECTION, f"{name}: server CPU per command vs {label}", mythos.cpu_ms_per_write, "ms",
                       result.cpu_ms_per_write, f"{label} CPU/move",
                       note="all our server processes (Redis, both services, worker) against the peer's (Node, its database)")


def bound(report: Report, level: int, mythos: load.LoadResult, floor: load.LoadResult, memory: load.LoadResult) -> None:
    """The floor beside the targets: what a command's CPU is above the two bare hops (the target: at most 2x), and
    the in-memory peer's throughput beside the floor's own (no target: a store that forgets on restart)."""
    name = f"{level} game{'s' if level > 1 else ''}"
    report.compare(SECTION, f"{name}: server CPU per command vs the floor's", mythos.cpu_ms_per_write, "ms",
                   floor.cpu_ms_per_write, "floor CPU/op", "<= 2x", lambda r: r <= 2,
                   note="the floor: the two hops as bare WSGI callables under the same gunicorn settings")
    report.compare(SECTION, f"{name}: commands/s vs in-memory", mythos.rate, "/s", memory.rate, "in-memory moves/s",
                   note="no target: boardgame.io's in-memory store forgets every match on a restart")
    report.compare(SECTION, f"{name}: floor (two bare hops) ops/s vs in-memory", floor.rate, "/s", memory.rate,
                   "in-memory moves/s", note="no target: the most any command through two hops could reach")
