"""Configuration from the environment, with the defaults of the embedded stack."""

from __future__ import annotations

import os
from typing import Any


def from_env() -> dict[str, Any]:
    env = os.environ
    return {
        "REDIS_URL": env.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "RQ_REDIS_URL": env.get("RQ_REDIS_URL") or env.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "RULES_URL": env.get("RULES_URL", "http://127.0.0.1:8001"),
        "KEY_PREFIX": env.get("KEY_PREFIX", "mt"),
        "QUEUE_NAME": env.get("QUEUE_NAME", "mythos"),
        "SNAPSHOT_EVERY": int(env.get("SNAPSHOT_EVERY", "50")),
        "STATE_CACHE_SIZE": int(env.get("STATE_CACHE_SIZE", "2000")),
        "SSE_KEEPALIVE_S": float(env.get("SSE_KEEPALIVE_S", "10")),
        "RATE_LIMIT_PER_MINUTE": int(env.get("RATE_LIMIT_PER_MINUTE", "1200")),
        "MAX_CONTENT_LENGTH": int(env.get("MAX_CONTENT_LENGTH", str(64 * 1024))),
        "ALLOW_CLIENT_SEED": env.get("MYTHOS_ALLOW_CLIENT_SEED") == "1",
    }
