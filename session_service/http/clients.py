"""Who is asking, from the request: one answer for the write rate limit, the per-client stream caps and the lobby's
quotas, which the edge passes to the use cases (``who``).

A client is the seat whose token it presents, when that token holds for the game it asks about (one token is one
client however its header is spelled: the scheme in any case, spaces around the token); otherwise it is its
network address. A token that does not hold never makes a client of its own, so made-up headers buy no fresh
budget. The address is the peer's, unless the operator declares ``TRUSTED_PROXIES`` (how many proxies in front of
the service append to ``X-Forwarded-For``, default none): then it is the address the outermost trusted proxy saw
(werkzeug's ProxyFix, installed by the app factory). With none trusted, ``X-Forwarded-For`` is ignored, since any
client can write it.
"""

from __future__ import annotations

import hashlib

from flask import current_app, request

from shared.wire.errors import ApiError
from session_service.use_cases.lobby import Caller
from session_service.use_cases.meta import Meta, seat_holding
from session_service.use_cases.players import Players, is_player_key


def bearer() -> str | None:
    """The request's seat token (``Authorization: Bearer <token>``); None without the header; 401 for another shape."""
    return bearer_of(request.headers.get("Authorization"))


def bearer_of(header: str | None) -> str | None:
    """``bearer`` of an ``Authorization`` header's value (None: no such header)."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "auth/bad_token", "use 'Authorization: Bearer <seat token>'")
    return token.strip()


def presented_token() -> str | None:
    """The token the request presents, unchecked; None without one or for a header of another shape."""
    try:
        return bearer()
    except ApiError:
        return None


def token_client(token: str) -> str:
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]


def address_client(address: str | None = None) -> str:
    """The client of a network address (by default the request's: the peer's, or ProxyFix's)."""
    return "addr:" + ((request.remote_addr if address is None else address) or "-")


def client(meta: Meta | None, token: str | None = None, address: str | None = None) -> str:
    """Who is asking about the game of ``meta`` (None: no game, or none found): the seat of ``token`` (by default
    the request's own) if it holds there, else the address (by default the request's)."""
    token = presented_token() if token is None else token
    if token is not None and meta is not None and seat_holding(meta, token) is not None:
        return token_client(token)
    return address_client(address)


def who(meta: Meta | None = None) -> Caller:
    """The caller, for the lobby: its player (a player key's), its key, its client identity (for retries and limits)
    and its address (for the quotas)."""
    token = bearer()
    if is_player_key(token):
        players: Players = current_app.extensions["players"]
        player = players.by_key(token)
        return Caller(f"player:{player.id}", player, token, address_client())
    return Caller(client(meta, token) if token else address_client(), address=address_client())
