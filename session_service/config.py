"""The session service's configuration: one typed ``Settings``, read from the environment once and passed down.

Each value is stated once: here, or (a use case's limits) in the use case's own record, which parses its keys from
the same mapping (``Limits``, ``ChatLimits``, ``RematchLimits``, ``retention.Policy``). Nothing else reads
``os.environ`` for the service: an entry point calls ``Settings.from_env`` and hands the result to ``bootstrap``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shared.wire import keys
from session_service.storage.redis_clients import READ_TIMEOUT_S, QueueRedis, is_cluster
from session_service.use_cases import retention
from session_service.use_cases.challenges import ChallengeLimits
from session_service.use_cases.chat import ChatLimits
from session_service.use_cases.live import MAX_KEEPALIVE_S
from session_service.use_cases.positions import CACHE_SIZE, SNAPSHOT_EVERY
from session_service.use_cases.quotas import Limits
from session_service.use_cases.matchmaker import SeekLimits
from session_service.use_cases.rematch import RematchLimits

LIMITS = ("quotas", "chat", "rematch", "retention", "seeks", "challenges")  # the fields parsed by the use cases' own records


def read_token_secret(env: Mapping[str, str]) -> str:
    """``TOKEN_SECRET``, or the contents of the file ``TOKEN_SECRET_FILE`` names; "" when neither is set."""
    return keys.read_secret(env, "TOKEN_SECRET")


@dataclass(frozen=True)
class Settings:
    """Each field is read from the variable of its name in capitals (``snapshot_every``: ``SNAPSHOT_EVERY``)."""

    redis_url: str = "redis://127.0.0.1:6379/0"
    rq_redis_url: str = ""  # "": REDIS_URL's
    # The queue's Redis through its Sentinels (host:port,…), by the name they know its primary by: then RQ_REDIS_URL
    # gives only the credentials and database, and a failover of the queue's primary is followed (issue 47).
    queue_sentinels: str = ""
    queue_sentinel_master: str = "mythos-queue"
    # The rules service: its internal hop (tcp://host:port, rules_service/hop.py), or its public API (http://…).
    rules_url: str = "tcp://127.0.0.1:8002"
    key_prefix: str = "mt"
    # Shards of what is not one game's (the listing's indexes, the active set): fixed for a deployment's life.
    key_shards: int = 16
    # Replicas that must confirm an append before its answer says Mythos-Replicated: true (README: Durability);
    # the environment's default: 1 on a Redis Cluster.
    replica_acks: int = 0
    replica_wait_ms: int = 50
    # Strict durability: a command no replica confirmed is answered 503 service/unreplicated (Retry-After), not 200
    # with Mythos-Replicated: false; needs REPLICA_ACKS >= 1 (bootstrap.checked_durability). README: Durability.
    require_replicated: bool = False
    # How long an append whose Redis primary is lost is sent again: longer than a failover takes.
    append_retry_s: float = 10.0
    queue_name: str = "mythos"
    snapshot_every: int = SNAPSHOT_EVERY
    state_cache_size: int = CACHE_SIZE
    sse_keepalive_s: float = 10.0  # as asked; ``keepalive_s`` is what the streams use
    streams_per_client: int = 20
    streams_per_address: int = 100
    streams_per_process: int = 10_000
    # How long the service's Redis client waits for a reply, and for a free connection of its pool: past it the call
    # fails (a request is answered 503). Live streams never wait on a reply (the hub's pub/sub wait is the keep-alive).
    redis_timeout_s: float = READ_TIMEOUT_S
    redis_pool_size: int = 64
    # Writes a minute per client (a seat whose token holds, else the address), and per address whatever tokens it
    # presents (session_service/http/ratelimit.py); 0 turns the limit off.
    rate_limit_per_minute: int = 1200
    rate_limit_per_address: int = 6000
    # Origins whose pages may call the API: * (any, with a bearer token and no cookies), a comma-separated
    # list, or empty for none (shared/wire/edge.py).
    cors_origins: str = "*"
    # How many proxies in front of the service append to X-Forwarded-For (0: the peer is the client).
    trusted_proxies: int = 0
    # How the workers are shared (scheduler.Gate): each client's turns in RQ's queue or running at once.
    ai_turns_at_once_per_client: int = 1
    # Multiplies the AI levels' think times and publication delays (shared/ai/levels.py): 1 in play; the test
    # stacks run the AI fast.
    ai_time_scale: float = 1.0
    # The key of derived seat tokens and invites (lobby.derived): never in Redis; checked by bootstrap.build.
    # Read from TOKEN_SECRET, or the file TOKEN_SECRET_FILE names.
    token_secret: str = ""
    # The key the internal hop's clients prove (shared/wire/hop_frame.py), the rules service's too: never in Redis.
    # Read from HOP_SECRET, or the file HOP_SECRET_FILE names; checked by bootstrap where the process decides.
    hop_secret: str = ""
    max_content_length: int = 64 * 1024
    allow_client_seed: bool = False  # MYTHOS_ALLOW_CLIENT_SEED=1
    # The AI level that takes over a resigned seat (the game's first level when it has no such level).
    takeover_ai: str = "medium"
    # A table nobody the game waits on acted on for this long ends: aborted if it never filled, else abandoned.
    idle_table_s: int = 7 * 86400
    sweep_every_s: float = 20.0  # the worker's sweep of turns left pending (worker/jobs.py)
    # The use cases' limits, each parsed by its own record (its keys and defaults are there).
    quotas: Limits = field(default_factory=Limits)
    chat: ChatLimits = field(default_factory=ChatLimits)
    rematch: RematchLimits = field(default_factory=RematchLimits)
    retention: retention.Policy = field(default_factory=lambda: retention.Policy.from_config({}))
    # Read models from the logs (use_cases/projector.py) and quick play (use_cases/matchmaker.py, its own limits):
    # the projector and the matchmaker run in every worker.
    projections: bool = True
    leaderboard_min_games: int = 3
    seeks: SeekLimits = field(default_factory=SeekLimits)
    # Challenges (use_cases/challenges.py, its own limits): their lapses are found by the matchmaker's round.
    challenges: ChallengeLimits = field(default_factory=ChallengeLimits)

    @property
    def keepalive_s(self) -> float:
        """The streams' keep-alive period: as asked, never more than API.md's bound."""
        return min(self.sse_keepalive_s, MAX_KEEPALIVE_S)

    @property
    def queue_redis_url(self) -> str:
        return self.rq_redis_url or self.redis_url

    @property
    def queue_redis(self) -> QueueRedis:
        """Where the job queue's Redis is (``redis_clients.queue_client`` connects to it)."""
        return QueueRedis(self.queue_redis_url, self.queue_sentinels, self.queue_sentinel_master)

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ, **overrides: Any) -> Settings:
        """The settings of ``env`` (strings), then ``overrides`` (a test's or an embedding's, typed or strings)."""
        named = {"REPLICA_ACKS": "1" if is_cluster(env.get("REDIS_URL", ""), env) else "0", **env,
                 "TOKEN_SECRET": read_token_secret(env), "HOP_SECRET": keys.read_secret(env, "HOP_SECRET"),
                 "ALLOW_CLIENT_SEED": env.get("MYTHOS_ALLOW_CLIENT_SEED", "")}
        return cls.from_config({**named, **overrides})

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Settings:
        """The settings a mapping keyed by the variables' names gives, the defaults for the rest."""
        given: dict[str, Any] = {}
        for spec in dataclasses.fields(cls):
            if spec.name in LIMITS or spec.name.upper() not in config:
                continue
            given[spec.name] = parsed(config[spec.name.upper()], type(getattr(DEFAULTS, spec.name)))
        return cls(**given, quotas=Limits.from_config(config), chat=ChatLimits.from_config(config),
                   rematch=RematchLimits.from_config(config), retention=retention.Policy.from_config(config),
                   seeks=SeekLimits.from_config(config), challenges=ChallengeLimits.from_config(config))


def parsed(value: Any, kind: type) -> Any:
    """``value`` as a setting of ``kind``: a string from the environment, or a value already typed."""
    if kind is bool:
        return value is True or str(value).lower() in ("1", "true", "yes")
    return kind(value)


DEFAULTS = Settings()
