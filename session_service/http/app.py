"""The session service's app factory: wires the store, the rules client, the job queue and the API."""

from __future__ import annotations

import hashlib
import logging
import math
import os
import time
from collections.abc import Mapping
from typing import Any

import redis
from flask import Flask, Response, g, jsonify, request
from flask.typing import ResponseReturnValue
from redis.exceptions import RedisClusterException
from werkzeug.middleware.proxy_fix import ProxyFix
from prometheus_client import Counter, Gauge

from shared.games import GAMES
from shared.wire.errors import ApiError, body
from shared.wire import logs
from shared.wire.flaskapp import make_api, ops_blueprint
from session_service.http import api, clients, lobby_api, webclient
from session_service.storage import redis_clients
from session_service.config import from_env
from session_service.use_cases.errors import Refused, UnsupportedMediaType, http_status
from session_service.use_cases.lobby import Lobby
from session_service.use_cases.players import Players
from session_service.hub import Hub
from session_service.worker.jobs import RqScheduler, make_queue
from session_service.rules_client import HttpRules
from session_service.use_cases.quotas import Limits, Quotas
from session_service.storage.store import EventStore
from session_service.http.streaming import Streams
from session_service.use_cases.meta import Meta, plausible_id
from session_service.use_cases.tables import Scheduler, Tables


log = logging.getLogger("mythos.session")
COMMAND_ENDPOINT = "games.post_command"  # api.post_command, whose view reads the meta the rate limit read
WINDOW_S = 60  # the rate limit's window
clock = time.time  # the wall clock the rate windows are cut from (tests start each test at a window's start)


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
        scheduler = RqScheduler(make_queue(rq_client, config.get("QUEUE_NAME", "mythos")), store)
    return Tables(
        store=store,
        rules=config.get("RULES") or HttpRules(config["RULES_URL"]),
        games=config.get("GAMES", GAMES),
        scheduler=scheduler or Scheduler(),
        snapshot_every=config.get("SNAPSHOT_EVERY", 50),
        cache_size=config.get("STATE_CACHE_SIZE", 2000),
        allow_client_seed=config.get("ALLOW_CLIENT_SEED", False),
        quotas=Quotas(store, Limits.from_config(config)),
    )


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask("session_service")
    app.config.update(from_env())
    app.config.update(config or {})
    tables = build_tables(app.config)
    app.extensions["tables"] = tables
    app.extensions["players"] = players = Players(tables.store)
    app.extensions["lobby"] = Lobby(tables, players, app.config.get("TAKEOVER_AI", "medium"))
    hub = Hub(tables.store, recheck_s=min(app.config.get("SSE_KEEPALIVE_S", 10), api.MAX_KEEPALIVE_S))
    app.extensions["streams"] = Streams(hub, per_client=app.config.get("STREAMS_PER_CLIENT", 20),
                                        per_process=app.config.get("STREAMS_PER_PROCESS", 10_000))
    api_ = make_api(app, "Mythos Tables", "Play Lovecraftian card games over HTTP: games, seats, commands, views, events, audits.")
    _request_lines(app, tables)
    metrics = app.extensions["metrics"]
    commands = Counter("mythos_commands_total", "Commands by game and result", ["game", "result"], registry=metrics.registry)
    conflicts = Counter("mythos_append_conflicts_total", "Appends refused for a version conflict", registry=metrics.registry)

    def on_command(game: str, result: str) -> None:
        commands.labels(game, result).inc()
        if result == "conflict":
            conflicts.inc()

    tables.on_command = on_command
    _queue_gauges(tables, metrics.registry)
    _stream_gauges(app.extensions["streams"], metrics.registry)
    _json_bodies_only(app)
    _rate_limit(app, tables)
    _refusals(app)
    _storage_errors(app)
    api_.register_blueprint(api.blp)
    api_.register_blueprint(lobby_api.blp)
    api_.register_blueprint(ops_blueprint(lambda: _readiness(tables)))
    app.register_blueprint(webclient.blueprint())  # the web client at / (not in the OpenAPI document)
    from session_service.http.lean import LeanCommand  # it reuses this module's rate limit

    app.wsgi_app = LeanCommand(app, app.wsgi_app)  # type: ignore[method-assign]  # Flask's way
    if app.config.get("TRUSTED_PROXIES"):  # see session_service/http/clients.py; outermost, so both paths see its address
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["TRUSTED_PROXIES"])  # type: ignore[method-assign]
    return app


def _readiness(tables: Tables) -> dict[str, bool]:
    try:
        redis_ok = redis_clients.ping(tables.store.redis)
    except (redis.RedisError, RedisClusterException):
        redis_ok = False
    return {"redis": redis_ok, "rules": tables.rules.ready()}


def _request_lines(app: Flask, tables: Tables) -> None:
    """One log line per request (shared/wire/logs.py), with the seat the request acted or read as: noted by the
    views where the token is resolved (``g.log_seat``), so logging costs no lookup and never sees the token."""
    logs.install(app, lambda: {"seat": g.get("log_seat")})


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


def _stream_gauges(streams: Streams, registry: Any) -> None:
    Gauge("mythos_streams_open", "Live streams open in this process", registry=registry).set_function(lambda: float(streams.open))
    notices = Gauge("mythos_stream_notices", "Append notices this process's hub has received", registry=registry)
    notices.set_function(lambda: float(streams.hub.figures["notices"]))


Rate = tuple[int, int, int]  # the limit, the client's count in this window, seconds until the window ends


def count_write(tables: Tables, limit: int, game_id: str | None, token: str | None,
                address: str | None = None) -> tuple[Rate, Meta | None] | None:
    """Count one write against its client's window (``_rate_limit``): the rate, and the meta of ``game_id`` read
    in the same round trip (None: no game id, or no such game); None when Redis is down (the request itself
    will report it). ``address``: the peer's (by default the request's)."""
    window = clock() / WINDOW_S
    counted = clients.token_client(token) if token is not None else clients.address_client(address)
    try:
        count, raw = tables.store.count_and_meta(_bucket(tables, counted, window), WINDOW_S + 30, game_id)
        meta = tables.meta_of(game_id, raw) if game_id is not None and raw is not None else None
        who = clients.client(meta, token, address) if token is not None else counted
        if who != counted:  # a token of no seat here: the address pays for it
            count = tables.store.recount(_bucket(tables, counted, window), _bucket(tables, who, window), WINDOW_S + 30)
    except redis.RedisError:
        return None
    return (limit, count, max(1, math.ceil(WINDOW_S * (1 - window % 1)))), meta


def over_limit(rate: Rate) -> ApiError | None:
    """The 429 for a write past its client's limit, else None."""
    limit, count, _ = rate
    if count <= limit:
        return None
    return ApiError(429, "request/rate_limited", f"more than {limit} writes a minute; slow down", {"limit_per_minute": limit},
                    headers={"Retry-After": str(WINDOW_S - int(clock()) % WINDOW_S)})


def rate_headers_of(rate: Rate, status: int) -> dict[str, str]:
    """The RateLimit-* headers of an answer (and its Retry-After, for a 429)."""
    limit, count, reset = rate
    headers = {"RateLimit-Limit": str(limit), "RateLimit-Remaining": str(max(0, limit - count)), "RateLimit-Reset": str(reset)}
    if status == 429:
        headers["Retry-After"] = str(reset)
    return headers


def _rate_limit(app: Flask, tables: Tables) -> None:
    """A fixed one-minute window of writes per client (``clients.client``: a seat whose token holds, else the
    address), counted in Redis so every process shares it; every write answers RateLimit-* headers.

    A command reads its game's meta first thing, so the count goes in the same round trip as that read (the
    view takes the meta from ``g.meta_read``): it is counted against the token it presents, and only when the
    meta shows that token holds no seat there is it moved to the address, in a second round trip."""
    limit = app.config.get("RATE_LIMIT_PER_MINUTE", 0)

    @app.before_request
    def check_rate() -> None:
        if not limit or request.method != "POST":
            return None
        game_id = (request.view_args or {}).get("game_id") if request.endpoint == COMMAND_ENDPOINT else None
        if game_id is not None and not plausible_id(game_id):
            game_id = None
        counted = count_write(tables, limit, game_id, clients.presented_token() if game_id is not None else None)
        if counted is None:
            return None  # Redis is down: the request itself will report it
        g.rate, meta = counted
        refused = over_limit(g.rate)
        if refused is not None:
            raise refused
        if game_id is not None:
            g.meta_read = (game_id, meta)
        return None

    @app.after_request
    def rate_headers(response: Response) -> Response:
        rate = g.get("rate")
        if rate is not None:
            response.headers.update(rate_headers_of(rate, response.status_code))
        return response


def _json_bodies_only(app: Flask) -> None:
    """A body sent as anything but JSON is refused by name (415), not read as an empty request."""

    @app.before_request
    def check_media_type() -> None:
        if request.method in ("POST", "PUT", "PATCH") and request.content_length and not request.is_json:
            raise UnsupportedMediaType()


def _bucket(tables: Tables, who: str, window: float) -> str:
    """The Redis counter of ``who``'s writes in the current window (hashed: Redis keeps no address in the clear)."""
    return tables.store.rate_key(hashlib.sha256(who.encode()).hexdigest()[:24], int(window))


def _refusals(app: Flask) -> None:
    """The use cases' refusals (``errors.Refused``) leave as the API's error body with their HTTP status."""

    @app.errorhandler(Refused)
    def refused(exc: Refused) -> ResponseReturnValue:
        reply = jsonify(body(exc.code, exc.message, exc.details))
        if exc.retry_after_s is not None:
            reply.headers["Retry-After"] = str(exc.retry_after_s)
        return reply, http_status(exc)


def _storage_errors(app: Flask) -> None:
    @app.errorhandler(redis.RedisError)
    @app.errorhandler(RedisClusterException)
    def redis_down(exc: Exception) -> ResponseReturnValue:
        log.warning("storage error on %s %s: %r", request.method, request.path, exc)
        message = "storage is unavailable right now; try again shortly (resending with the same Idempotency-Key is safe)"
        return jsonify(body("service/unavailable", message)), 503, {"Retry-After": "2"}


def main() -> None:
    """Run the session service with Flask's server (development only; deploy with gunicorn)."""
    create_app().run(host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8000")), threaded=True)
