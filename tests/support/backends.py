"""The three Redis backends every storage contract runs on: fakeredis (fast), a real Redis (the truth) and a real
three-primary Redis Cluster (what a scaled deployment runs). ``on_every_backend(Contract)`` makes the three test
classes of a contract class, for a test module's globals."""

from __future__ import annotations

from typing import Any

import pytest


class OnFakeRedis:
    @pytest.fixture
    def client(self, fake_redis: Any) -> Any:
        return fake_redis


class OnRealRedis:
    @pytest.fixture
    def client(self, real_redis: Any) -> Any:
        return real_redis


class OnRedisCluster:
    @pytest.fixture
    def client(self, cluster_redis: Any) -> Any:
        return cluster_redis


BACKENDS = {"FakeRedis": OnFakeRedis, "RealRedis": OnRealRedis, "RedisCluster": OnRedisCluster}


def on_every_backend(*contracts: type) -> dict[str, type]:
    """``Test<Contract>On<Backend>`` for each contract and backend (``Contract`` names lose their ``Contract``)."""
    made = {}
    for contract in contracts:
        name = contract.__name__.removesuffix("Contract")
        for backend_name, backend in BACKENDS.items():
            test_name = f"Test{name}On{backend_name}"
            made[test_name] = type(test_name, (contract, backend), {"__module__": contract.__module__})
    return made
