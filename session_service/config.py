"""Configuration from the environment, with the defaults of the embedded stack."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from session_service.storage.redis_clients import is_cluster
from session_service.use_cases import retention


def read_token_secret(env: Mapping[str, str]) -> str:
    """``TOKEN_SECRET``, or the contents of the file ``TOKEN_SECRET_FILE`` names (without surrounding whitespace);
    "" when neither is set."""
    if env.get("TOKEN_SECRET"):
        return env["TOKEN_SECRET"]
    if env.get("TOKEN_SECRET_FILE"):
        with open(env["TOKEN_SECRET_FILE"], encoding="utf-8") as handle:
            return handle.read().strip()
    return ""


def from_env() -> dict[str, Any]:
    env = os.environ
    cluster = is_cluster(env.get("REDIS_URL", ""), env)
    return {
        "REDIS_URL": env.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "RQ_REDIS_URL": env.get("RQ_REDIS_URL") or env.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        # The rules service: its internal hop (tcp://host:port, rules_service/hop.py), or its public API (http://…).
        "RULES_URL": env.get("RULES_URL", "tcp://127.0.0.1:8002"),
        "KEY_PREFIX": env.get("KEY_PREFIX", "mt"),
        # Shards of what is not one game's (the listing's indexes, the active set): fixed for a deployment's life.
        "KEY_SHARDS": int(env.get("KEY_SHARDS", "16")),
        # Replicas that must confirm an append before its answer says Mythos-Replicated: true (README: Durability).
        "REPLICA_ACKS": int(env.get("REPLICA_ACKS", "1" if cluster else "0")),
        "REPLICA_WAIT_MS": int(env.get("REPLICA_WAIT_MS", "50")),
        # How long an append whose Redis primary is lost is sent again: longer than a failover takes.
        "APPEND_RETRY_S": float(env.get("APPEND_RETRY_S", "10")),
        "QUEUE_NAME": env.get("QUEUE_NAME", "mythos"),
        "SNAPSHOT_EVERY": int(env.get("SNAPSHOT_EVERY", "50")),
        "STATE_CACHE_SIZE": int(env.get("STATE_CACHE_SIZE", "2000")),
        "SSE_KEEPALIVE_S": float(env.get("SSE_KEEPALIVE_S", "10")),
        "STREAMS_PER_CLIENT": int(env.get("STREAMS_PER_CLIENT", "20")),
        "STREAMS_PER_ADDRESS": int(env.get("STREAMS_PER_ADDRESS", "100")),
        "STREAMS_PER_PROCESS": int(env.get("STREAMS_PER_PROCESS", "10000")),
        "REDIS_TIMEOUT_S": float(env.get("REDIS_TIMEOUT_S", "5")),
        "REDIS_POOL_SIZE": int(env.get("REDIS_POOL_SIZE", "64")),
        # Writes a minute per client (a seat whose token holds, else the address), and per address whatever tokens it
        # presents (session_service/http/ratelimit.py); 0 turns the limit off.
        "RATE_LIMIT_PER_MINUTE": int(env.get("RATE_LIMIT_PER_MINUTE", "1200")),
        "RATE_LIMIT_PER_ADDRESS": int(env.get("RATE_LIMIT_PER_ADDRESS", "6000")),
        # Origins whose pages may call the API: * (any, with a bearer token and no cookies), a comma-separated
        # list, or empty for none (shared/wire/edge.py).
        "CORS_ORIGINS": env.get("CORS_ORIGINS", "*"),
        # How many proxies in front of the service append to X-Forwarded-For (0: the peer is the client).
        "TRUSTED_PROXIES": int(env.get("TRUSTED_PROXIES", "0")),
        # Quotas per client on tables and AI work (session_service/use_cases/quotas.py; 0 turns one off).
        "OPEN_TABLES_PER_CLIENT": int(env.get("OPEN_TABLES_PER_CLIENT", "20")),
        "TABLES_PER_CLIENT_PER_HOUR": int(env.get("TABLES_PER_CLIENT_PER_HOUR", "120")),
        "AI_TABLES_PER_CLIENT_PER_HOUR": int(env.get("AI_TABLES_PER_CLIENT_PER_HOUR", "20")),
        "AI_CPU_SECONDS_PER_CLIENT_PER_HOUR": float(env.get("AI_CPU_SECONDS_PER_CLIENT_PER_HOUR", "1800")),
        # How the workers are shared (scheduler.Gate): each client's turns in RQ's queue or running at once.
        "AI_TURNS_AT_ONCE_PER_CLIENT": int(env.get("AI_TURNS_AT_ONCE_PER_CLIENT", "1")),
        # Multiplies the AI levels' think times and publication delays (shared/ai/levels.py): 1 in play; the test
        # stacks run the AI fast.
        "AI_TIME_SCALE": float(env.get("AI_TIME_SCALE", "1")),
        "PLAYERS_PER_CLIENT_PER_HOUR": int(env.get("PLAYERS_PER_CLIENT_PER_HOUR", "30")),
        "LOG_READS_PER_CLIENT_PER_MINUTE": int(env.get("LOG_READS_PER_CLIENT_PER_MINUTE", "20000")),
        "SEATS_PER_CLIENT": int(env.get("SEATS_PER_CLIENT", "10")),
        "JOINS_PER_TABLE_PER_CLIENT": int(env.get("JOINS_PER_TABLE_PER_CLIENT", "8")),
        # Around the table (session_service/use_cases/chat.py, rematch.py).
        "CHAT_MAX_CHARS": int(env.get("CHAT_MAX_CHARS", "280")),
        "CHAT_LINES_PER_MINUTE": int(env.get("CHAT_LINES_PER_MINUTE", "12")),
        "CHAT_KEPT": int(env.get("CHAT_KEPT", "500")),
        "REMATCH_OFFER_S": int(env.get("REMATCH_OFFER_S", "120")),
        "REMATCH_OFFERS_PER_TABLE": int(env.get("REMATCH_OFFERS_PER_TABLE", "3")),
        # Retention of ended games (session_service/use_cases/retention.py): export, then delete. On by default; 0 days
        # keeps every game, and an empty export directory deletes none.
        "RETENTION_DAYS": float(env.get("RETENTION_DAYS", str(retention.DEFAULT_DAYS))),
        "RETENTION_EXPORT_DIR": env.get("RETENTION_EXPORT_DIR", retention.DEFAULT_EXPORT_DIR),
        "RETENTION_EVERY_S": float(env.get("RETENTION_EVERY_S", "300")),
        "RETENTION_BATCH": int(env.get("RETENTION_BATCH", "100")),
        # The key of derived seat tokens and invites (lobby.derived): never in Redis; checked by bootstrap.build.
        "TOKEN_SECRET": read_token_secret(env),
        "MAX_CONTENT_LENGTH": int(env.get("MAX_CONTENT_LENGTH", str(64 * 1024))),
        "ALLOW_CLIENT_SEED": env.get("MYTHOS_ALLOW_CLIENT_SEED") == "1",
        # The AI level that takes over a resigned seat (the game's first level when it has no such level).
        "TAKEOVER_AI": env.get("TAKEOVER_AI", "medium"),
        # A table nobody the game waits on acted on for this long ends: aborted if it never filled, else abandoned.
        "IDLE_TABLE_S": int(env.get("IDLE_TABLE_S", str(7 * 86400))),
    }
