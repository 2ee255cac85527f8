"""The use cases' refusals (``use_cases.errors``) and storage failures at the HTTP edge: each one's status and the
API's error body."""

from __future__ import annotations

import logging
from typing import Any

import redis
from redis.exceptions import RedisClusterException

from shared.wire.errors import body
from session_service.use_cases.errors import (BadRequest, BadToken, ChallengeClosed, Finished, GameFull, GameStarted,
                                              IdempotencyKeyReused, InviteRequired, MissingToken, NoRematch, NotCreator,
                                              NotFinished, NotFound, NotInvited, NotYourChallenge, NotYourSeat,
                                              RateLimited, Refused, Unavailable, Unprocessable, Unreplicated,
                                              VersionConflict)

log = logging.getLogger("mythos.session")
# A subclass takes its base's status.
HTTP_STATUS: dict[type[Refused], int] = {
    BadRequest: 400,
    MissingToken: 401,
    BadToken: 401,
    NotYourSeat: 403,
    InviteRequired: 403,
    NotCreator: 403,
    NotInvited: 403,
    NotYourChallenge: 403,
    NotFound: 404,
    VersionConflict: 409,
    Finished: 409,
    NotFinished: 409,
    NoRematch: 409,
    GameFull: 409,
    GameStarted: 409,
    ChallengeClosed: 409,
    IdempotencyKeyReused: 422,
    Unprocessable: 422,
    RateLimited: 429,
    Unavailable: 503,
    Unreplicated: 503,
}


def http_status(refusal: Refused) -> int:
    for kind in type(refusal).__mro__:
        if kind in HTTP_STATUS:
            return HTTP_STATUS[kind]
    return 400


def answer(exc: Exception) -> tuple[int, dict[str, Any], dict[str, str]] | None:
    """The answer to a use case's refusal (the API's error body with its status), or to a storage failure (503:
    nothing was written); None for anything else. The edge's mapping (shared/wire/edge.py)."""
    if isinstance(exc, Refused):
        headers = {"Retry-After": str(exc.retry_after_s)} if exc.retry_after_s is not None else {}
        return http_status(exc), body(exc.code, exc.message, exc.details), headers
    if isinstance(exc, (redis.RedisError, RedisClusterException)):
        log.warning("storage error: %r", exc)
        message = "storage is unavailable right now; try again shortly (resending with the same Idempotency-Key is safe)"
        return 503, body("service/unavailable", message), {"Retry-After": "2"}
    return None
