"""The session service's app factory: the parts ``bootstrap`` wires, behind the API's views, hooks and error handlers."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import redis
from flask import Flask
from redis.exceptions import RedisClusterException
from werkzeug.middleware.proxy_fix import ProxyFix
from prometheus_client import Counter, Gauge
from prometheus_client.core import GaugeMetricFamily

from shared.wire import contract
from shared.wire.request_rules import say_request_rules
from shared.wire.edge import Cors, Edge
from shared.wire.flaskapp import make_api, ops_blueprint
from session_service import bootstrap
from session_service.config import Settings
from session_service.http import api, challenges_api, lobby_api, places_api, refusals, table_api, webclient
from session_service.http.ratelimit import RateLimit
from session_service.http.streaming import Streams
from session_service.storage import shards
from session_service.storage.stats import AiStats
from session_service.use_cases.tables import Tables



def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app of the environment's settings; ``config`` (a test's) overrides them by name and may hold Flask's own
    keys and the parts ``bootstrap`` takes (``REDIS``, ``RULES`` …)."""
    app = Flask("session_service")
    settings = app.extensions["settings"] = Settings.from_env(os.environ, **(config or {}))
    app.config.update(config or {})
    app.config["MAX_CONTENT_LENGTH"] = settings.max_content_length
    service = bootstrap.build(settings, config)
    tables = service.tables
    app.extensions["tables"] = tables
    app.extensions["players"] = service.players
    app.extensions["lobby"] = service.lobby
    app.extensions["chat"], app.extensions["rematches"] = service.chat, service.rematches
    app.extensions["standings"], app.extensions["matchmaker"] = service.standings, service.matchmaker
    app.extensions["challenges"] = service.challenges
    app.extensions["streams"] = Streams(service.hub, per_client=settings.streams_per_client,
                                        per_address=settings.streams_per_address, per_process=settings.streams_per_process)
    api_ = make_api(app, "Mythos Tables", "Play Lovecraftian card games over HTTP: games, seats, commands, views, events, "
                    "audits. Web pages of other origins may call it (CORS: any origin by default, `CORS_ORIGINS`), "
                    "authenticated by their bearer token, never by cookies; preflights are answered.")
    contract.register(api_.spec, tables.games)  # every game's commands, views, events, outcome; the streams' messages
    metrics = app.extensions["metrics"]
    commands = Counter("mythos_commands_total", "Commands by game and result", ["game", "result"], registry=metrics.registry)
    conflicts = Counter("mythos_append_conflicts_total", "Appends refused for a version conflict", registry=metrics.registry)

    def on_command(game: str, result: str) -> None:
        commands.labels(game, result).inc()
        if result == "conflict":
            conflicts.inc()

    tables.on_command = on_command
    _queue_gauges(tables, metrics.registry)
    metrics.registry.register(ShardReplicas(tables.store.redis))
    _stream_gauges(app.extensions["streams"], metrics.registry)
    api_.register_blueprint(api.blp)
    api_.register_blueprint(lobby_api.blp)
    api_.register_blueprint(table_api.blp)
    api_.register_blueprint(places_api.blp)
    api_.register_blueprint(challenges_api.blp)
    api_.register_blueprint(ops_blueprint(lambda: _readiness(tables)))
    say_request_rules(api_.spec.components.schemas)  # what the server enforces, where JSON Schema can say it
    contract.by_game(api_.spec.components.schemas, tables.games)  # a table's outcome by its game
    app.register_blueprint(webclient.blueprint())  # the web client at / (not in the OpenAPI document)
    limit = app.extensions["rate_limit"] = RateLimit(tables.store, settings.rate_limit_per_minute,
                                                     settings.rate_limit_per_address)
    app.wsgi_app = Edge(app, cors=Cors.parse(settings.cors_origins), json_only=True,  # type: ignore[method-assign]
                        routes=[api.command_route(tables, limit, settings.max_content_length, settings.require_replicated)],
                        admit=limit.admit, refusals=[refusals.answer])
    if settings.trusted_proxies:  # see session_service/http/clients.py; outermost, so the edge sees its address
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)  # type: ignore[method-assign]
    return app


def _readiness(tables: Tables) -> dict[str, bool]:
    try:
        redis_ok = tables.store.ping()
    except (redis.RedisError, RedisClusterException):
        redis_ok = False
    return {"redis": redis_ok, "rules": tables.rules.ready()}


def _queue_gauges(tables: Tables, registry: Any) -> None:
    depth = Gauge("mythos_queue_depth", "Jobs waiting in the AI/timer queue", registry=registry)
    ai_moves = Gauge("mythos_ai_moves", "AI moves made by workers", registry=registry)
    ai_seconds = Gauge("mythos_ai_move_seconds_total", "Time workers spent making AI moves", registry=registry)
    queue = getattr(tables.scheduler, "queue", None)

    stats = AiStats(tables.store)

    def stat(field: str) -> float:
        try:
            return stats.read(field)
        except redis.RedisError:
            return float("nan")

    depth.set_function(lambda: float(queue.count) if queue is not None else 0.0)
    ai_moves.set_function(lambda: stat("moves"))
    ai_seconds.set_function(lambda: stat("seconds"))


class ShardReplicas:
    """``mythos_redis_shard_replicas{primary, slots}``: the replicas up of each shard of the Redis Cluster, read at
    each scrape, and ``mythos_redis_shards_unreplicated``: how many have none (their acknowledgements say
    ``Mythos-Replicated: false`` until the supervisor or the orchestrator brings a replica back)."""

    def __init__(self, client: Any):
        self.client = client

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            found = shards.shards(self.client)
        except (redis.RedisError, RedisClusterException):
            return
        replicas = GaugeMetricFamily("mythos_redis_shard_replicas", "Replicas up of each Redis Cluster shard",
                                     labels=["primary", "slots"])
        for shard in found:
            replicas.add_metric([shard.primary, shard.slots], shard.replicas)
        yield replicas
        yield GaugeMetricFamily("mythos_redis_shards_unreplicated", "Redis Cluster shards with no replica up",
                                value=sum(1 for shard in found if shard.replicas == 0))


def _stream_gauges(streams: Streams, registry: Any) -> None:
    Gauge("mythos_streams_open", "Live streams open in this process", registry=registry).set_function(lambda: float(streams.open))
    notices = Gauge("mythos_stream_notices", "Append notices this process's hub has received", registry=registry)
    notices.set_function(lambda: float(streams.hub.figures["notices"]))


def main() -> None:
    """Run the session service with Flask's server (development only; deploy with gunicorn)."""
    create_app().run(host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8000")), threaded=True)
