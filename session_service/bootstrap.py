"""The composition root: the session service's parts wired from configuration, in one place, for every entry point
(the Flask app factory, the RQ worker, the ``mythos`` command). Nothing is created at import time.

``settings`` are ``config.Settings``; ``parts`` (a test's) may hold ``REDIS``, ``RQ_REDIS``, ``RULES``, ``GAMES`` and
``SCHEDULER``: objects of its own instead of the ones the settings' URLs would make (``SCHEDULER: None`` schedules
nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.games import GAMES
from session_service.config import Settings
from session_service.hub import Hub
from session_service.rules_client import rules_client
from session_service.scheduler import Gate, RqScheduler, make_queue
from session_service.storage import redis_clients
from session_service.storage.store import EventStore
from session_service.use_cases.chat import Chat
from session_service.use_cases.lobby import Lobby
from session_service.use_cases.players import Players
from session_service.use_cases.quotas import Quotas
from session_service.use_cases.rematch import Rematches
from session_service.use_cases.ports import Scheduler
from session_service.use_cases.tables import Tables


MIN_TOKEN_SECRET = 32  # characters of TOKEN_SECRET at least (64 hex characters: `openssl rand -hex 32`)
PLACEHOLDER = "change-me"  # what the Kubernetes base's Secret holds until an overlay replaces it


class BadTokenSecret(RuntimeError):
    """The session service will not start without a key of its own for the tokens it derives."""


def token_secret(settings: Settings) -> bytes:
    """The server's key for seat tokens and invites of retried requests (``lobby.derived``): it must be set, long
    enough, and not the deployment files' placeholder, since whoever holds it and a copy of Redis holds those seats."""
    secret = settings.token_secret
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


def build(settings: Settings, parts: Mapping[str, Any] | None = None, serves_clients: bool = True) -> Service:
    """The use cases wired from ``settings``; the hub starts its reader only when a stream first waits. A process that
    ``serves_clients`` (the HTTP app) derives tokens, and refuses to start without its key (``token_secret``);
    the worker's lobby only ends idle tables, and is not given the key."""
    tables = build_tables(settings, parts)
    players = Players(tables.store)
    secret = token_secret(settings) if serves_clients else None
    return Service(tables=tables, players=players, lobby=Lobby(tables, players, settings.takeover_ai, secret),
                   hub=Hub(tables.store, recheck_s=settings.keepalive_s),
                   chat=Chat(players, tables.quotas, settings.chat),
                   rematches=Rematches(tables, players, settings.rematch))


def build_tables(settings: Settings, parts: Mapping[str, Any] | None = None) -> Tables:
    """Tables wired from ``settings``: Redis store, rules client, RQ scheduler (unless ``parts`` gives others)."""
    parts = parts or {}
    client = parts.get("REDIS") or redis_clients.connect(settings.redis_url, pool_size=settings.redis_pool_size)
    store = EventStore(client, settings.key_prefix, shards=settings.key_shards, replicas=settings.replica_acks,
                       replica_wait_ms=settings.replica_wait_ms, retry_s=settings.append_retry_s)
    if "SCHEDULER" in parts:
        scheduler = parts["SCHEDULER"]
    else:
        rq_client = parts.get("RQ_REDIS") or redis_clients.queue_client(settings.queue_redis_url)
        queue = make_queue(rq_client, settings.queue_name)
        scheduler = RqScheduler(queue, store, Gate(rq_client, queue.name, settings.ai_turns_at_once_per_client))
    return Tables(
        store=store,
        rules=parts.get("RULES") or rules_client(settings.rules_url),
        games=parts.get("GAMES", GAMES),
        scheduler=scheduler or Scheduler(),
        snapshot_every=settings.snapshot_every,
        cache_size=settings.state_cache_size,
        allow_client_seed=settings.allow_client_seed,
        quotas=Quotas(store, settings.quotas),
    )
