"""The use cases' refusals (``use_cases.errors``) at the HTTP edge: each one's status, and the handler that answers
it with the API's error body."""

from __future__ import annotations

from flask import Flask, jsonify
from flask.typing import ResponseReturnValue

from shared.wire.errors import body
from session_service.use_cases.errors import (BadRequest, BadToken, Finished, GameFull, GameStarted,
                                              IdempotencyKeyReused, InviteRequired, MissingToken, NoRematch, NotCreator,
                                              NotFinished, NotFound, NotInvited, NotYourSeat, RateLimited, Refused,
                                              Unavailable, UnsupportedMediaType, VersionConflict)

# A subclass takes its base's status.
HTTP_STATUS: dict[type[Refused], int] = {
    BadRequest: 400,
    MissingToken: 401,
    BadToken: 401,
    NotYourSeat: 403,
    InviteRequired: 403,
    NotCreator: 403,
    NotInvited: 403,
    NotFound: 404,
    VersionConflict: 409,
    Finished: 409,
    NotFinished: 409,
    NoRematch: 409,
    GameFull: 409,
    GameStarted: 409,
    UnsupportedMediaType: 415,
    IdempotencyKeyReused: 422,
    RateLimited: 429,
    Unavailable: 503,
}


def http_status(refusal: Refused) -> int:
    for kind in type(refusal).__mro__:
        if kind in HTTP_STATUS:
            return HTTP_STATUS[kind]
    return 400


def install(app: Flask) -> None:
    """The use cases' refusals leave as the API's error body with their HTTP status."""

    @app.errorhandler(Refused)
    def refused(exc: Refused) -> ResponseReturnValue:
        reply = jsonify(body(exc.code, exc.message, exc.details))
        if exc.retry_after_s is not None:
            reply.headers["Retry-After"] = str(exc.retry_after_s)
        return reply, http_status(exc)
