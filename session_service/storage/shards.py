"""Which shards of a Redis Cluster have a replica up, for /metrics (issue 47: after one primary's loss its shard ran
without a replica, unseen, and 52% of later acknowledgements said ``Mythos-Replicated: false``). A shard is a primary
that serves slots; its replicas are the nodes that follow it and are neither failing nor cut off."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from redis.cluster import RedisCluster


@dataclass(frozen=True, order=True)
class Shard:
    primary: str  # host:port
    slots: str  # "0-5460", ranges joined by commas
    replicas: int  # replicas up


def shards(client: Any) -> list[Shard]:
    """The cluster's shards as one node sees them (CLUSTER NODES); none for a single Redis."""
    if not isinstance(client, RedisCluster):
        return []
    nodes: dict[str, dict[str, Any]] = client.cluster_nodes()

    def up(node: dict[str, Any]) -> bool:
        return "fail" not in node["flags"] and bool(node["connected"])

    following = Counter(n["master_id"] for n in nodes.values() if "slave" in n["flags"] and up(n))
    return sorted(Shard(address, ",".join("-".join(r) for r in node["slots"]), following[node["node_id"]])
                  for address, node in nodes.items() if "master" in node["flags"] and node["slots"] and up(node))
