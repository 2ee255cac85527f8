"""The nemesis: faults of whole hosts, each held longer than the cluster's node timeout (2 s,
deploy/redis-cluster.conf) so that Redis Cluster fails over, then healed; after each, the time until the deployment
is whole again (every node up and agreeing, every shard replicated, every session process in the balancer's
rotation) is measured, and the next fault waits for it.

- ``partition(host)``: the host's link down: its clients and processes on one side, everyone else on the other.
- ``kill_host(host)``: ``kill -9`` of every process on the host, its link down meanwhile (a machine that is off
  answers nothing), then the host boots: its Redis nodes from their own files, then its services.
- ``isolate_primary_host()``: the partition of the host that holds the most primaries (after earlier failovers
  that may be two of the three), ties broken by the most games in play.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from tests.partitions.clients import History
from tests.partitions.hosts import SERVICE_HOSTS, Deployment, until
from tests.partitions.network import Network

HOLD_S = 10.0  # five node timeouts
HEAL_WITHIN_S = 120.0


@dataclass
class Fault:
    kind: str
    host: str
    started: float
    ended: float = 0.0  # the link up again (and the host booted, for a kill)
    whole: float = 0.0  # every shard replicated and every host in rotation again
    primaries_before: dict[str, str] = field(default_factory=dict)
    primaries_after: dict[str, str] = field(default_factory=dict)
    queue_before: str = ""  # the host of the queue's primary
    queue_after: str = ""
    processes_killed: int = 0

    @property
    def healed_in_s(self) -> float:
        return self.whole - self.ended


@dataclass
class Nemesis:
    net: Network
    deployment: Deployment
    history: History
    faults: list[Fault] = field(default_factory=list)
    hold_s: float = HOLD_S

    def begin(self, kind: str, host: str) -> Fault:
        fault = Fault(kind, host, time.monotonic(), primaries_before=self.deployment.primaries(),
                      queue_before=self.deployment.queue_primary())
        self.faults.append(fault)
        return fault

    def whole_again(self, fault: Fault) -> None:
        until(self.deployment.healed, f"the deployment whole again after {fault.kind} of {fault.host}", HEAL_WITHIN_S)
        fault.whole = time.monotonic()
        fault.primaries_after = self.deployment.primaries()
        fault.queue_after = self.deployment.queue_primary()
        exited = self.deployment.exited()
        assert not exited, f"parts exited by themselves during {fault.kind} of {fault.host}: {exited}"

    def partition(self, host: str, kind: str = "partition") -> Fault:
        fault = self.begin(kind, host)
        self.net.cut(host)
        time.sleep(self.hold_s)
        self.net.mend(host)
        fault.ended = time.monotonic()
        self.whole_again(fault)
        return fault

    def kill_host(self, host: str) -> Fault:
        fault = self.begin("host killed", host)
        fault.processes_killed = self.deployment.kill_host(host)
        self.net.cut(host)
        time.sleep(self.hold_s)
        self.net.mend(host)
        self.deployment.start_host(host)
        fault.ended = time.monotonic()
        self.whole_again(fault)
        return fault

    def isolate_primary_host(self) -> Fault:
        return self.partition(self.busiest_primary_host(), "primary's host isolated")

    def busiest_primary_host(self) -> str:
        held = Counter(self.deployment.primaries().values())
        with self.history.lock:
            playing = [g.id for g in self.history.games.values() if not g.finished]
        games = Counter(self.deployment.primary_host(gid, SERVICE_HOSTS[0]) for gid in playing[:60])
        return max(SERVICE_HOSTS, key=lambda h: (held[h], games[h]))
