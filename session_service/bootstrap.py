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
from shared.wire import keys
from session_service.config import Settings
from session_service.hub import Hub
from session_service.rules_client import rules_client
from session_service.scheduler import Gate, RqScheduler, make_queue
from session_service.storage import redis_clients
from session_service.storage.projections import EndedFeed
from session_service.storage.store import EventStore
from session_service.use_cases.challenges import Challenges
from session_service.use_cases.chat import Chat
from session_service.use_cases.lobby import Lobby
from session_service.use_cases.matchmaker import Matchmaker
from session_service.use_cases.players import Players
from session_service.use_cases.projector import Projector
from session_service.use_cases.quotas import Quotas
from session_service.use_cases.rematch import Rematches
from session_service.use_cases.standings import Standings
from session_service.use_cases.ports import RulesPort, Scheduler
from session_service.use_cases.tables import Tables


BadTokenSecret = keys.BadSecret  # the session service will not start without a key of its own (nor the hop's)


class BadDurability(ValueError):
    """``REQUIRE_REPLICATED=1`` on a deployment that waits for no replica: no command could ever be answered."""


def checked_durability(settings: Settings) -> None:
    """Strict durability asks a replica to confirm every command, so it needs replicas to wait for."""
    if settings.require_replicated and settings.replica_acks < 1:
        raise BadDurability("REQUIRE_REPLICATED=1 answers a command only once a Redis replica confirms it, and "
                            "REPLICA_ACKS is 0 (no replica is waited for): set REPLICA_ACKS=1 on a Redis with replicas "
                            "(a Redis Cluster: README, Durability), or unset REQUIRE_REPLICATED")


def token_secret(settings: Settings) -> bytes:
    """The server's key for seat tokens and invites of retried requests (``lobby.derived``): it must be set, random,
    and not the deployment files' placeholder, since whoever holds it and a copy of Redis holds those seats."""
    return keys.checked("TOKEN_SECRET", settings.token_secret, "every session process", "Seat tokens and invites of "
                        "retried requests are derived with it, and Redis never holds it (README, Configuration).")


def hop_secret(settings: Settings) -> bytes:
    """The key the session processes and workers prove to the rules service's internal hop (shared/wire/hop_frame.py)."""
    return keys.checked("HOP_SECRET", settings.hop_secret, "the rules service, every session process and every "
                        "worker", "Only a holder of it may ask the rules service's internal hop for a decision "
                        "(docs/operations.md, The internal hop).")


@dataclass(frozen=True, slots=True)
class Service:
    """One process's session service: the use cases over one store, and the hub that wakes its live streams."""

    tables: Tables
    players: Players
    lobby: Lobby
    hub: Hub
    chat: Chat
    rematches: Rematches
    projector: Projector
    standings: Standings
    matchmaker: Matchmaker
    challenges: Challenges


def build(settings: Settings, parts: Mapping[str, Any] | None = None, serves_clients: bool = True,
          decides: bool = True) -> Service:
    """The use cases wired from ``settings``; the hub starts its reader only when a stream first waits. A process that
    ``serves_clients`` (the HTTP app) derives tokens, and refuses to start without its key (``token_secret``);
    the worker's lobby only ends idle tables, and is not given the key; one that never ``decides`` (``build_tables``)."""
    if serves_clients:
        checked_durability(settings)
    tables = build_tables(settings, parts, decides)
    players = Players(tables.store)
    tables.bots_among = players.bots_among
    secret = token_secret(settings) if serves_clients else None
    if settings.projections:
        tables.on_end = EndedFeed(tables.store).add  # the projector's subscription (use_cases/projector.py)
    min_games = settings.leaderboard_min_games
    return Service(tables=tables, players=players, lobby=Lobby(tables, players, settings.takeover_ai, secret),
                   hub=Hub(tables.store, recheck_s=settings.keepalive_s),
                   chat=Chat(players, tables.quotas, settings.chat),
                   rematches=Rematches(tables, players, settings.rematch),
                   projector=Projector(tables, players, min_games), standings=Standings(tables, players, min_games),
                   matchmaker=Matchmaker(tables, players, settings.seeks, settings.takeover_ai),
                   challenges=Challenges(tables, players, settings.challenges, settings.takeover_ai))


def build_tables(settings: Settings, parts: Mapping[str, Any] | None = None, decides: bool = True) -> Tables:
    """Tables wired from ``settings``: Redis store, rules client, RQ scheduler (unless ``parts`` gives others). A
    process that never ``decides`` (retention, the rules-in-use report) is not given the hop's secret, nor asks for it."""
    parts = parts or {}
    client = parts.get("REDIS") or redis_clients.connect(settings.redis_url, read_timeout_s=settings.redis_timeout_s,
                                                           pool_size=settings.redis_pool_size)
    store = EventStore(client, settings.key_prefix, shards=settings.key_shards, replicas=settings.replica_acks,
                       replica_wait_ms=settings.replica_wait_ms, retry_s=settings.append_retry_s)
    if "SCHEDULER" in parts:
        scheduler = parts["SCHEDULER"]
    else:
        rq_client = parts.get("RQ_REDIS") or redis_clients.queue_client(settings.queue_redis)
        queue = make_queue(rq_client, settings.queue_name)
        scheduler = RqScheduler(queue, store, Gate(rq_client, queue.name, settings.ai_turns_at_once_per_client))
    return Tables(
        store=store,
        rules=parts.get("RULES") or _rules(settings, decides),
        games=parts.get("GAMES", GAMES),
        scheduler=scheduler or Scheduler(),
        snapshot_every=settings.snapshot_every,
        cache_size=settings.state_cache_size,
        allow_client_seed=settings.allow_client_seed,
        quotas=Quotas(store, settings.quotas),
    )


def _rules(settings: Settings, decides: bool) -> RulesPort:
    """The rules client ``RULES_URL`` names; the internal hop's is given the hop's secret (``hop_secret``) where
    the process decides (without it, the hop refuses its connections: nothing is decided)."""
    url = settings.rules_url
    return rules_client(url, secret=hop_secret(settings) if decides and url.startswith("tcp://") else b"")
