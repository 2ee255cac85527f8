"""The write rate limit: a fixed one-minute window of writes per client, counted in Redis so every process shares
it. Installed on the app as hooks (``install``); the lean command route (``lean.py``) runs the same functions."""

from __future__ import annotations

import hashlib
import math
import time

import redis
from flask import Flask, Response, g, request

from shared.wire.errors import ApiError
from session_service.http import clients
from session_service.use_cases.meta import Meta, plausible_id
from session_service.use_cases.tables import Tables

COMMAND_ENDPOINT = "games.post_command"  # api.post_command, whose view reads the meta the rate limit read
WINDOW_S = 60  # the rate limit's window
clock = time.time  # the wall clock the rate windows are cut from (tests start each test at a window's start)

Rate = tuple[int, int, int]  # the limit, the client's count in this window, seconds until the window ends


def count_write(tables: Tables, limit: int, game_id: str | None, token: str | None,
                address: str | None = None) -> tuple[Rate, Meta | None] | None:
    """Count one write against its client's window (``install``): the rate, and the meta of ``game_id`` read
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


def install(app: Flask, tables: Tables) -> None:
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


def _bucket(tables: Tables, who: str, window: float) -> str:
    """The Redis counter of ``who``'s writes in the current window (hashed: Redis keeps no address in the clear)."""
    return tables.store.rate_key(hashlib.sha256(who.encode()).hexdigest()[:24], int(window))
