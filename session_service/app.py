"""The session service's app factory: wires the store, the rules client, the job queue and the API."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping
from typing import Any

import redis
from flask import Flask, g, jsonify, request
from prometheus_client import Counter, Gauge

from shared.games import GAMES
from shared.wire.errors import ApiError, body
from shared.wire.flaskapp import make_api, ops_blueprint
from session_service import api
from session_service.config import from_env
from session_service.jobs import RqScheduler, make_queue
from session_service.rules_client import HttpRules
from session_service.store import EventStore
from session_service.tables import Scheduler, Tables, plausible_id


COMMAND_ENDPOINT = "games.post_command"  # api.post_command, whose view reads the meta the rate limit read


def build_tables(config: Mapping[str, Any]) -> Tables:
    """Tables wired from ``config``: Redis store, rules client, RQ scheduler (unless given others)."""
    client = config.get("REDIS") or redis.Redis.from_url(config["REDIS_URL"])
    store = EventStore(client, config.get("KEY_PREFIX", "mt"))
    if "SCHEDULER" in config:
        scheduler = config["SCHEDULER"]
    else:
        rq_client = config.get("RQ_REDIS") or redis.Redis.from_url(config["RQ_REDIS_URL"])
        scheduler = RqScheduler(make_queue(rq_client, config.get("QUEUE_NAME", "mythos")), store)
    return Tables(
        store=store,
        rules=config.get("RULES") or HttpRules(config["RULES_URL"]),
        games=config.get("GAMES", GAMES),
        scheduler=scheduler or Scheduler(),
        snapshot_every=config.get("SNAPSHOT_EVERY", 50),
        cache_size=config.get("STATE_CACHE_SIZE", 2000),
        allow_client_seed=config.get("ALLOW_CLIENT_SEED", False),
    )


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask("session_service")
    app.config.update(from_env())
    app.config.update(config or {})
    tables = build_tables(app.config)
    app.extensions["tables"] = tables
    api_ = make_api(app, "Mythos Tables", "Play Lovecraftian card games over HTTP: games, seats, commands, views, events, audits.")
    metrics = app.extensions["metrics"]
    commands = Counter("mythos_commands_total", "Commands by game and result", ["game", "result"], registry=metrics.registry)
    conflicts = Counter("mythos_append_conflicts_total", "Appends refused for a version conflict", registry=metrics.registry)

    def on_command(game: str, result: str) -> None:
        commands.labels(game, result).inc()
        if result == "conflict":
            conflicts.inc()

    tables.on_command = on_command
    _queue_gauges(tables, metrics.registry)
    _rate_limit(app, tables)
    _storage_errors(app)
    api_.register_blueprint(api.blp)
    api_.register_blueprint(ops_blueprint(lambda: _readiness(tables)))
    return app


def _readiness(tables: Tables) -> dict[str, bool]:
    try:
        redis_ok = bool(tables.store.redis.ping())
    except redis.RedisError:
        redis_ok = False
    return {"redis": redis_ok, "rules": tables.rules.ready()}


def _queue_gauges(tables: Tables, registry: Any) -> None:
    depth = Gauge("mythos_queue_depth", "Jobs waiting in the AI/timer queue", registry=registry)
    ai_moves = Gauge("mythos_ai_moves", "AI moves made by workers", registry=registry)
    ai_seconds = Gauge("mythos_ai_move_seconds_total", "Time workers spent making AI moves", registry=registry)
    queue = getattr(tables.scheduler, "queue", None)

    def stat(field: str) -> float:
        try:
            return float(tables.store.redis.hget(tables.store.key("stats", "ai"), field) or 0)
        except redis.RedisError:
            return float("nan")

    depth.set_function(lambda: float(queue.count) if queue is not None else 0.0)
    ai_moves.set_function(lambda: stat("moves"))
    ai_seconds.set_function(lambda: stat("seconds"))


def _rate_limit(app: Flask, tables: Tables) -> None:
    """A fixed one-minute window per client (seat token, else address) on writes, counted in Redis.

    A command reads its game's meta first thing, so the count goes in the same round trip as that read (the
    view takes the meta from ``g.meta_read``): the limit costs a command no round trip of its own."""
    limit = app.config.get("RATE_LIMIT_PER_MINUTE", 0)

    @app.before_request
    def check_rate():
        if not limit or request.method != "POST":
            return None
        who = hashlib.sha256((request.headers.get("Authorization") or request.remote_addr or "-").encode()).hexdigest()[:24]
        key = tables.store.key("rate", f"{who}:{int(time.time() // 60)}")
        game_id = (request.view_args or {}).get("game_id") if request.endpoint == COMMAND_ENDPOINT else None
        if game_id is not None and not plausible_id(game_id):
            game_id = None
        try:
            count, meta = tables.store.count_and_meta(key, 90, game_id)
        except redis.RedisError:
            return None  # the command itself will report that Redis is down
        if count > limit:
            raise ApiError(429, "request/rate_limited", f"more than {limit} writes a minute; slow down", {"limit_per_minute": limit})
        if game_id is not None:
            g.meta_read = (game_id, meta)
        return None


def _storage_errors(app: Flask) -> None:
    @app.errorhandler(redis.RedisError)
    def redis_down(exc: redis.RedisError):
        message = "storage is unavailable right now; try again shortly (resending with the same Idempotency-Key is safe)"
        return jsonify(body("service/unavailable", message)), 503


def main() -> None:
    """Run the session service with Flask's server (development only; deploy with gunicorn)."""
    create_app().run(host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8000")), threaded=True)
