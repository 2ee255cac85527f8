"""``make cluster``'s ready line names the Redis Cluster the stack started (issue 28: it was written before the stack
started, so it said "Redis Cluster (not started)")."""

from __future__ import annotations

import signal
from types import SimpleNamespace

from deploy.stacks.cluster import ScaledStack
from deploy.stacks.dev import Stopping, serve

CLUSTER_URL = "redis+cluster://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002"


class StartsOnPaper(ScaledStack):
    """A scaled stack whose start makes its cluster, and which is stopped (as by Ctrl-C) the first time its
    supervisor looks at its parts, so ``serve`` returns at once; nothing is started or signalled."""

    def start(self) -> StartsOnPaper:
        self.cluster = SimpleNamespace(url=CLUSTER_URL, processes={})
        return self

    def parts(self):
        raise Stopping(signal.SIGINT)

    def stop(self) -> None:
        self.stopped = True


def test_the_cluster_ready_line_names_the_redis_cluster_it_started(tmp_path, capsys):
    stack = StartsOnPaper(port=1, rules_port=2, redis_port=3, data_dir=tmp_path, log_dir=tmp_path)
    assert serve(stack) == 0  # stopped by its signal
    ready = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("ready:"))
    assert f"Redis Cluster {CLUSTER_URL};" in ready and stack.stopped
