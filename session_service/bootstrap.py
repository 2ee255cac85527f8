"""The composition root: the session service's parts wired from configuration, in one place, for every entry point
(the Flask app factory, the RQ worker, the ``mythos`` command). Nothing is created at import time.

``config`` is the dict of ``config.from_env`` (or a test's): ``REDIS``, ``RQ_REDIS``, ``RULES``, ``GAMES`` and
``SCHEDULER`` put in objects of a test's own instead of the ones the URLs would make (``SCHEDULER: None`` schedules
nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.games import GAMES
from session_service.hub import Hub
from session_service.rules_client import rules_client
from session_service.scheduler import Gate, RqScheduler, make_queue
from session_service.storage import redis_clients
from session_service.storage.store import EventStore
from session_service.use_cases.chat import Chat, ChatLimits
from session_service.use_cases.live import MAX_KEEPALIVE_S
from session_service.use_cases.lobby import Lobby
from session_service.use_cases.players import Players
from session_service.use_cases.quotas import Limits, Quotas
from session_service.use_cases.rematch import RematchLimits, Rematches
from session_service.use_cases.tables import Scheduler, Tables


MIN_TOKEN_SECRET = 32  # characters of TOKEN_SECRET at least (64 hex characters: `openssl rand -hex 32`)
PLACEHOLDER = "change-me"  # what the Kubernetes base's Secret holds until an overlay replaces it


class BadTokenSecret(RuntimeError):
    """The session service will not start without a key of its own for the tokens it derives."""


def token_secret(config: Mapping[str, Any]) -> bytes:
    """The server's key for seat tokens and invites of retried requests (``lobby.derived``): it must be set, long
    enough, and not the deployment files' placeholder, since whoever holds it and a copy of Redis holds those seats."""
    secret = str(config.get("TOKEN_SECRET") or "")
    if len(secret) < MIN_TOKEN_SECRET or secret.startswith(PLACEHOLDER):
        raise BadTokenSecret(
            f"TOKEN_SECRET (or a file named by TOKEN_SECRET_FILE) must hold at least {MIN_TOKEN_SECRET} random characters "
            "(e.g. `openssl rand -hex 32`), the same in every session process: seat tokens and invites of retried "
            "requests are derived with it, and Redis never holds it (README, Configuration)")
    return secret.encode()


@dataclass(frozen=True, slots=True)
class Service:
    """One process's session service: the use cases over one store, and the hub that wakes its live streams."""

    tables: Tables
    players: Players
    lobby: Lobby
    hub: Hub
    chat: Chat
    rematches: Rematches


def build(config: Mapping[str, Any], serves_clients: bool = True) -> Service:
    """The use cases wired from ``config``; the hub starts its reader only when a stream first waits. A process that
    ``serves_clients`` (the HTTP app) derives tokens, and refuses to start without its key (``token_secret``);
    the worker's lobby only ends idle tables, and is not given the key."""
    tables = build_tables(config)
    players = Players(tables.store)
    secret = token_secret(config) if serves_clients else None
    return Service(tables=tables, players=players, lobby=Lobby(tables, players, config.get("TAKEOVER_AI", "medium"), secret),
                   hub=Hub(tables.store, recheck_s=min(config.get("SSE_KEEPALIVE_S", 10), MAX_KEEPALIVE_S)),
                   chat=Chat(players, tables.quotas, ChatLimits.from_config(config)),
                   rematches=Rematches(tables, players, RematchLimits.from_config(config)))


def build_tables(config: Mapping[str, Any]) -> Tables:
    """Tables wired from ``config``: Redis store, rules client, RQ scheduler (unless given others)."""
    client = config.get("REDIS") or redis_clients.connect(config["REDIS_URL"], pool_size=config.get("REDIS_POOL_SIZE", 64))
    store = EventStore(client, config.get("KEY_PREFIX", "mt"), shards=config.get("KEY_SHARDS", 16),
                       replicas=config.get("REPLICA_ACKS", 0), replica_wait_ms=config.get("REPLICA_WAIT_MS", 50),
                       retry_s=config.get("APPEND_RETRY_S", 10.0))
    if "SCHEDULER" in config:
        scheduler = config["SCHEDULER"]
    else:
        rq_client = config.get("RQ_REDIS") or redis_clients.queue_client(config["RQ_REDIS_URL"])
        queue = make_queue(rq_client, config.get("QUEUE_NAME", "mythos"))
        scheduler = RqScheduler(queue, store, Gate(rq_client, queue.name, config.get("AI_TURNS_AT_ONCE_PER_CLIENT", 1)))
    return Tables(
        store=store,
        rules=config.get("RULES") or rules_client(config["RULES_URL"]),
        games=config.get("GAMES", GAMES),
        scheduler=scheduler or Scheduler(),
        snapshot_every=config.get("SNAPSHOT_EVERY", 50),
        cache_size=config.get("STATE_CACHE_SIZE", 2000),
        allow_client_seed=config.get("ALLOW_CLIENT_SEED", False),
        quotas=Quotas(store, Limits.from_config(config)),
    )
