"""The test and development clusters start whatever else the machine is doing: a node's ports are chosen where the
kernel does not hand out ports on its own, and a node that still loses its port to another process is started
again on a fresh one; a cluster that cannot start stops the nodes it started."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from deploy.stacks import rediscluster
from deploy.stacks.rediscluster import RedisClusterNodes, ephemeral_low, node_port


def test_a_nodes_port_and_its_bus_port_lie_below_the_kernels_ephemeral_range():
    # An outgoing connection takes its local port from that range; a node's port in it, free when checked, could be
    # taken before the node bound it (a bench run failed so: "bind: Address already in use" on the bus port).
    low = ephemeral_low()
    for _ in range(200):
        port = node_port()
        assert 1024 <= port and port + 10000 < low, (port, low)


def test_a_node_whose_port_was_taken_before_it_bound_starts_on_another(tmp_path: Path, monkeypatch):
    taken = node_port()
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", taken + 10000))  # its bus port, taken after the check, as a connection would
    squatter.listen()
    picks = iter([taken])
    monkeypatch.setattr(rediscluster, "node_port", lambda: next(picks, None) or node_port())
    nodes = RedisClusterNodes(tmp_path, primaries=1, replicas_per_primary=0, log_dir=tmp_path)
    try:
        nodes.start()
        assert nodes.ports[0] != taken and nodes.healthy()
        assert "Address already in use" in (tmp_path / f"redis-{taken}.log").read_text()
    finally:
        squatter.close()
        nodes.cleanup()


def test_a_cluster_that_fails_to_start_leaves_no_node_running(tmp_path: Path):
    # A bench run whose fourth node failed left its first three running for the rest of the session.
    taken = node_port()
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", taken + 10000))
    squatter.listen()
    nodes = RedisClusterNodes(tmp_path, primaries=2, replicas_per_primary=0, ports=[node_port(), taken])
    try:
        with pytest.raises(RuntimeError, match="a process exited"):
            nodes.start()
        assert len(nodes.processes) == 2 and nodes.running() == []
    finally:
        squatter.close()
        nodes.cleanup()
