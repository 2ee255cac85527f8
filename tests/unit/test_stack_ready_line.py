"""``make cluster``'s ready line names the Redis Cluster the stack started (issue 28: it was written before the stack
started, so it said "Redis Cluster (not started)")."""

from __future__ import annotations

from types import SimpleNamespace

from session_service.cli.clusterstack import ScaledStack
from session_service.cli.devstack import serve

CLUSTER_URL = "redis+cluster://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002"


class StartsOnPaper(ScaledStack):
    """A scaled stack whose start makes its cluster and one part that has exited, so ``serve`` returns at once;
    nothing is started or signalled."""

    def start(self) -> StartsOnPaper:
        self.cluster = SimpleNamespace(url=CLUSTER_URL)
        self.processes = {"worker0": SimpleNamespace(poll=lambda: 1, returncode=1)}
        return self

    def stop(self) -> None:
        self.stopped = True


def test_the_cluster_ready_line_names_the_redis_cluster_it_started(tmp_path, capsys):
    stack = StartsOnPaper(port=1, rules_port=2, redis_port=3, data_dir=tmp_path, log_dir=tmp_path)
    assert serve(stack) == 1  # its one part had exited
    ready = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("ready:"))
    assert f"Redis Cluster {CLUSTER_URL};" in ready and stack.stopped
