"""REQUIRE_REPLICATED answers a command only once a replica confirms it (README, Durability), so it needs replicas to
wait for: a session service with it and REPLICA_ACKS=0 would answer every command 503, and refuses to start instead
(its behaviour on a real Redis Cluster: tests/e2e/test_scaled_stack.py)."""

from __future__ import annotations

import pytest

from session_service import bootstrap
from session_service.config import Settings
from tests.support.stack import make_session_app


def test_strict_durability_is_read_from_the_environment_and_off_by_default():
    assert Settings.from_env({}).require_replicated is False
    assert Settings.from_env({"REQUIRE_REPLICATED": "1"}).require_replicated is True


def test_the_session_service_refuses_strict_durability_without_replicas_to_wait_for():
    with pytest.raises(bootstrap.BadDurability, match="REPLICA_ACKS"):
        bootstrap.checked_durability(Settings.from_env({"REQUIRE_REPLICATED": "1", "REPLICA_ACKS": "0"}))
    bootstrap.checked_durability(Settings.from_env({"REQUIRE_REPLICATED": "1", "REPLICA_ACKS": "1"}))
    on_a_cluster = Settings.from_env({"REQUIRE_REPLICATED": "1", "REDIS_URL": "redis+cluster://127.0.0.1:7000"})
    bootstrap.checked_durability(on_a_cluster)  # REPLICA_ACKS defaults to 1 there


def test_the_app_does_not_start_with_it(fake_redis, prefix):
    with pytest.raises(bootstrap.BadDurability):
        make_session_app(fake_redis, prefix, {}, REQUIRE_REPLICATED=True, REPLICA_ACKS=0)
