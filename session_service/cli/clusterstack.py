"""The scaled stack on one machine (``make cluster``): what a horizontally scaled deployment runs, on loopback.

A Redis Cluster of three primaries and three replicas (the event logs), a plain Redis for RQ, two rules
processes and two session processes (each a gunicorn of its own), two workers, and HAProxy in front: the
public API on one port exactly as ``make run`` serves it, and the rules service behind internal frontends: its
HTTP API, and its hop (TCP, rules_service/hop.py), which the session processes and workers use. Every part is started from the project's own files
(``deploy/``), with devstack's pieces.
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

from session_service.cli.devstack import DEPLOY, Stack, free_port, serve
from session_service.cli.rediscluster import RedisClusterNodes

NODE = "node-"  # a cluster node's name among the parts: node-<port>
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

    @property
    def session_names(self) -> list[str]:
        return [f"session{i}" for i in range(self.sessions)]

    @property
    def rules_names(self) -> list[str]:
        return [f"rules{i}" for i in range(self.rules_processes)]

    def env(self) -> dict[str, str]:
        return {**super().env(), "SERVE_METRICS": os.environ.get("SERVE_METRICS", "1"),  # the balancer closes /metrics
                "REDIS_URL": self.cluster.url if self.cluster else "",
                "RQ_REDIS_URL": self.effective_redis_url, "TRUSTED_PROXIES": "1", **self.extra_env}  # HAProxy

    def start(self) -> ScaledStack:
        self.check_ports()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        haproxy = haproxy_binary()
        self.cluster = RedisClusterNodes(self.data_dir / "cluster", self.primaries, self.replicas_per_primary,
                                         log_dir=self.log_dir).start()
        self.start_redis()  # the queue's own plain Redis
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
        return self

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
    print("starting the scaled stack: Redis Cluster (3 primaries, 3 replicas), a Redis for RQ, 2 rules, 2 session, "
          "2 workers, HAProxy …", flush=True)
    here.mkdir(parents=True, exist_ok=True)
    sys.exit(serve(stack))
