"""The API's error family: every error leaves as ``{"error": {"code", "message", "details"}}``.

``ApiError`` carries a status and a stable namespaced code. Rule violations, malformed commands and finished
games from the kernel are mapped here too, so both services answer with one shape and never a bare 500.
"""

from __future__ import annotations

from typing import Any

from werkzeug.exceptions import HTTPException, MethodNotAllowed

from shared.kernel import RuleViolation
from shared.kernel.game import GameOver
from shared.wire.commands import MalformedCommand


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


def validation_refusal(messages: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
    """The answer to a body or query that does not match its schema (``messages``: marshmallow's, by location)."""
    return 400, body("request/malformed", "the request does not match the API", {"fields": messages}), {}


def http_refusal(exc: HTTPException) -> tuple[int, dict[str, Any], dict[str, str]]:
    """The answer to one of HTTP's own refusals (werkzeug's: no such route or method, a body too large, …) and to a
    body or query webargs found not to match its schema."""
    status = exc.code or 500
    data = getattr(exc, "data", None)
    messages = data.get("messages") if isinstance(data, dict) else None
    if messages:  # webargs: the request body or query did not match its schema
        return validation_refusal(messages)
    code = HTTP_CODES.get(status, "request/malformed" if status < 500 else "service/unavailable")
    headers = {"Allow": ", ".join(exc.valid_methods)} if isinstance(exc, MethodNotAllowed) and exc.valid_methods else {}
    return status, body(code, exc.description or exc.name), headers
