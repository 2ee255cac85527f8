"""The API's error family: every error leaves as ``{"error": {"code", "message", "details"}}``.

``ApiError`` carries a status and a stable namespaced code. Rule violations, malformed commands and finished
games from the kernel are mapped here too, so both services answer with one shape and never a bare 500.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from shared.kernel import RuleViolation
from shared.kernel.game import GameOver
from shared.wire.commands import MalformedCommand

log = logging.getLogger("mythos.errors")


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, details: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details or {}
        self.headers = headers or {}  # e.g. Retry-After on a 429 or 503


def malformed(message: str, **details: Any) -> ApiError:
    return ApiError(400, "request/malformed", message, details)


def not_found(message: str = "there is no game with that id") -> ApiError:
    return ApiError(404, "game/not_found", message)


def version_conflict(current: int) -> ApiError:
    return ApiError(409, "game/version_conflict", "the game has moved on: read the state and try again", {"current_version": current})


def finished() -> ApiError:
    return ApiError(409, "game/finished", "the game is over: no more commands are accepted")


def unavailable(what: str) -> ApiError:
    return ApiError(503, "service/unavailable", f"{what} is unavailable right now; nothing was written, try again shortly")


HTTP_CODES = {
    400: "request/malformed",
    404: "request/not_found",
    405: "request/method_not_allowed",
    413: "request/too_large",
    415: "request/malformed",
    422: "request/malformed",
    429: "request/rate_limited",
}


def body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def refusal(exc: Exception) -> tuple[int, dict[str, Any], dict[str, str]] | None:
    """The status, error body and headers an exception of the API's own families answers, else None."""
    if isinstance(exc, ApiError):
        return exc.status, body(exc.code, exc.message, exc.details), exc.headers
    if isinstance(exc, RuleViolation):
        return 422, body(exc.code, exc.message, exc.details), {}
    if isinstance(exc, MalformedCommand):
        return 400, body("request/malformed", exc.message, exc.details), {}
    if isinstance(exc, GameOver):
        return refusal(finished())
    return None


def install_error_handlers(app: Flask) -> None:
    """One handler per family, mapping each to the API's error body."""

    @app.errorhandler(ApiError)
    @app.errorhandler(RuleViolation)
    @app.errorhandler(MalformedCommand)
    @app.errorhandler(GameOver)
    def refused(exc: Exception) -> ResponseReturnValue:
        answer = refusal(exc)
        assert answer is not None  # registered for the four families refusal() maps, and no other
        status, error, headers = answer
        return jsonify(error), status, headers

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> ResponseReturnValue:
        status = exc.code or 500
        details: dict[str, Any] = {}
        messages = getattr(exc, "data", {}).get("messages") if isinstance(getattr(exc, "data", None), dict) else None
        if messages:  # webargs: the request body or query did not match its schema
            status, details = 400, {"fields": messages}
        code = HTTP_CODES.get(status, "request/malformed" if status < 500 else "service/unavailable")
        message = "the request does not match the API" if messages else (exc.description or exc.name)
        return jsonify(body(code, message, details)), status

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> ResponseReturnValue:
        log.exception("unexpected error")
        return jsonify(body("service/internal", "something went wrong on our side; the request may not have completed")), 500
