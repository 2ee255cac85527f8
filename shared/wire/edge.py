"""The HTTP edge of both services: every cross-cutting concern of an answer, once, in one WSGI middleware.

``Edge`` wraps a Flask app's WSGI callable, so every request passes through it, whoever answers it. In order:

1. **Request id**: the client's ``X-Request-Id`` when it is a short, safe token, else a fresh one; answered back,
   and set for the lines logged while the request is handled (``logs.CURRENT_REQUEST_ID``).
2. **CORS** (``Cors``): a preflight is answered here; every answer to an allowed origin says so.
3. **Guards**: a URL past ``MAX_URL_BYTES`` (414); for a service that takes only JSON, a body of another type
   (415); then the service's own admission (the session service's write rate limit).
4. **Dispatch**: a ``Route`` of the edge's own when one matches (a hot route skips Flask's routing, not a
   concern: it answers through steps 5 and 6 like any other), else Flask.
5. **Errors**: whatever the handler raised becomes the API's error body (``errors``; the service's own mappings
   first), and a 500 is logged with its traceback. Flask's own error handling is off: exceptions reach here.
6. **The answer's headers and record**: ``X-Content-Type-Options``, the HTML page's policy, ``Retry-After`` on a
   429 or 503 that does not say, what the request noted (the rate-limit headers), CORS; the request metrics and
   the one log line.

Flask tells the edge which of its rules matched (``note_route``, its one hook); a view notes what the log line
should say (``note``: the seat). tests/unit/test_edge.py checks each concern on both services and every route.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from flask import Flask, request
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from shared.wire import logs
from shared.wire.errors import ApiError, body as error_body, http_refusal, refusal
from shared.wire.flaskapp import JSON_OPTIONS, RequestMetrics

log = logging.getLogger("mythos.errors")
KEY = "mythos.exchange"  # where the edge keeps a request's Exchange in its WSGI environ
UNMATCHED = "unmatched"
MAX_URL_BYTES = 4096
# When to try again after a refusal that does not say (the rate limit's 429 gives its own window's end): a
# dependency that is down (503) is usually back within seconds; an unexplained 429 waits out a whole window.
RETRY_AFTER_S = {429: 60, 503: 2}
# The only HTML is /docs (shared/wire/docs_page.py), which loads its script and style from the app itself.
HTML_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
               "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
ANSWER_OPTIONS = JSON_OPTIONS | orjson.OPT_APPEND_NEWLINE  # what the apps' JSON provider writes (flaskapp.py)
StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
Refusal = tuple[int, dict[str, Any], dict[str, str]]  # status, error body, headers
Mapping_ = Callable[[Exception], Refusal | None]  # an exception the service knows, as the answer it stands for


@dataclass(slots=True)
class Exchange:
    """One request as the edge handles it, and what its handling notes for the answer."""

    environ: dict[str, Any]
    rid: str
    started: float
    route: str = UNMATCHED  # the rule that matched, as metrics and the log line name it
    game_id: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)  # the log line's own fields (the session's seat)
    headers: dict[str, str] = field(default_factory=dict)  # headers the answer carries besides its own
    # Called once the handler is done, before the answer: may raise a refusal that replaces it (the session
    # service's rate limit settles a write it could not count before the handler).
    settle: Callable[[], None] | None = None
    charge: Any = None  # the rate limit's charge of a write, while it is pending (session_service/http/ratelimit.py)

    @property
    def method(self) -> str:
        return str(self.environ.get("REQUEST_METHOD", "GET"))

    @property
    def path(self) -> str:
        return str(self.environ.get("PATH_INFO", ""))

    @property
    def address(self) -> str:
        """The peer's address (or, behind trusted proxies, the one ProxyFix took from X-Forwarded-For)."""
        return str(self.environ.get("REMOTE_ADDR") or "-")

    def header(self, name: str) -> str | None:
        value = self.environ.get("HTTP_" + name.upper().replace("-", "_"))
        return None if value is None else str(value)


def exchange() -> Exchange:
    """The current request's exchange (inside a Flask view)."""
    found: Exchange = request.environ[KEY]
    return found


def note(**fields: Any) -> None:
    """Fields the current request's log line should carry (a view's: the seat it acted or read as)."""
    exchange().fields.update(fields)


@dataclass(frozen=True)
class Route:
    """A hot route the edge serves without Flask's routing: ``handler(exchange, *groups of pattern)`` answers
    ``(status, body, headers)``, or None to leave the request to Flask (nothing done yet); it raises a refusal as a
    view does. ``rule`` is the Flask rule it stands for, for metrics and the log line."""

    method: str
    pattern: re.Pattern[str]
    rule: str
    handler: Callable[..., tuple[int, Any, dict[str, str]] | None]


@dataclass(frozen=True)
class Cors:
    """Who may call the API from a page of another origin: ``*`` (any, with a bearer token and no cookies: the
    API never answers ``Access-Control-Allow-Credentials``), a list of origins, or none."""

    origins: frozenset[str] | None  # None: any origin; empty: none
    METHODS = "GET, POST, PATCH, DELETE, OPTIONS"  # PATCH /v1/me, DELETE a seek or a challenge
    HEADERS = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-Id"
    EXPOSED = ("Location, Mythos-Replicated, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, "
               "X-Request-Id")
    MAX_AGE_S = "600"

    @classmethod
    def parse(cls, setting: str) -> Cors:
        """``CORS_ORIGINS``: ``*``, or origins separated by commas (``https://a.example, https://b.example``), or
        empty for none."""
        if setting.strip() == "*":
            return cls(None)
        return cls(frozenset(o.strip().rstrip("/") for o in setting.split(",") if o.strip()))

    def allows(self, origin: str) -> str | None:
        """The ``Access-Control-Allow-Origin`` value for ``origin``, or None when it may not call."""
        if self.origins is None:
            return "*"
        return origin if origin in self.origins else None

    def answer_headers(self, origin: str | None) -> list[tuple[str, str]]:
        if not origin or (allowed := self.allows(origin)) is None:
            return [] if self.origins is None else [("Vary", "Origin")]
        vary = [] if self.origins is None else [("Vary", "Origin")]
        return [("Access-Control-Allow-Origin", allowed), ("Access-Control-Expose-Headers", self.EXPOSED), *vary]

    def preflight_headers(self, origin: str) -> list[tuple[str, str]]:
        allowed = self.allows(origin)
        vary = [] if self.origins is None else [("Vary", "Origin")]
        if allowed is None:
            return vary
        return [("Access-Control-Allow-Origin", allowed), ("Access-Control-Allow-Methods", self.METHODS),
                ("Access-Control-Allow-Headers", self.HEADERS), ("Access-Control-Max-Age", self.MAX_AGE_S), *vary]


class Edge:
    """WSGI middleware holding the concerns above for ``app`` (see the module's docstring)."""

    def __init__(self, app: Flask, *, cors: Cors, routes: Sequence[Route] = (), json_only: bool = False,
                 admit: Callable[[Exchange], None] | None = None, refusals: Sequence[Mapping_] = ()):
        self.app, self.wsgi = app, app.wsgi_app
        self.cors, self.routes, self.json_only, self.admit = cors, tuple(routes), json_only, admit
        self.refusals = (*refusals, refusal)
        self.metrics: RequestMetrics = app.extensions["metrics"]
        # Exceptions reach the edge, which answers them all one way: Flask answers none itself.
        app.config.update(TRAP_HTTP_EXCEPTIONS=True, PROPAGATE_EXCEPTIONS=True)
        app.before_request(note_route)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        ex = environ[KEY] = Exchange(environ, logs.request_id_for(environ.get("HTTP_X_REQUEST_ID", "")), started)
        bound = logs.CURRENT_REQUEST_ID.set(ex.rid)
        try:
            origin = environ.get("HTTP_ORIGIN")
            if ex.method == "OPTIONS" and origin and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in environ:
                return self._send(ex, start_response, "204 No Content", self.cors.preflight_headers(origin), [], 204)
            try:
                status, head, body = self._handle(ex, start_response)
            except Exception as exc:  # noqa: BLE001 - every failure is answered, with the API's error body
                status, head, body = self._failed(ex, exc)
            return self._send(ex, start_response, status, head, body, int(status.split(" ", 1)[0]))
        finally:
            logs.CURRENT_REQUEST_ID.reset(bound)

    def _handle(self, ex: Exchange, start_response: StartResponse) -> tuple[str, list[tuple[str, str]], Iterable[bytes]]:
        if len(ex.path) + len(ex.environ.get("QUERY_STRING", "")) + 1 > MAX_URL_BYTES:
            raise ApiError(414, "request/too_large", f"the URL is longer than {MAX_URL_BYTES} bytes")
        if self.json_only and ex.method in ("POST", "PUT", "PATCH") and ex.environ.get("CONTENT_LENGTH") not in (None, "", "0"):
            kind = str(ex.environ.get("CONTENT_TYPE", "")).partition(";")[0].strip().lower()
            if kind != "application/json" and not (kind.startswith("application/") and kind.endswith("+json")):
                raise ApiError(415, "request/unsupported_media_type", "send JSON bodies with 'Content-Type: application/json'")
        if self.admit is not None:
            self.admit(ex)
        for route in self.routes:
            if route.method == ex.method and (match := route.pattern.fullmatch(ex.path)):
                ex.route = route.rule
                answered = route.handler(ex, *match.groups())
                if answered is not None:
                    self._settle(ex)
                    status, value, headers = answered
                    data = value if isinstance(value, bytes) else orjson.dumps(value, option=ANSWER_OPTIONS)
                    head = [("Content-Type", "application/json"), ("Content-Length", str(len(data))), *headers.items()]
                    return _status_line(status), head, [data]
        captured: list[Any] = []

        def start(status: str, head: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
            captured.append((status, head))
            return _no_write

        body = self.wsgi(ex.environ, start)
        try:
            self._settle(ex)
        except Exception:
            close = getattr(body, "close", None)
            if close is not None:
                close()
            raise
        status, head = captured[-1]
        return status, list(head), body

    def _settle(self, ex: Exchange) -> None:
        settle, ex.settle = ex.settle, None
        if settle is not None:
            settle()

    def _failed(self, ex: Exchange, exc: Exception) -> tuple[str, list[tuple[str, str]], Iterable[bytes]]:
        """The answer to an exception: the service's and the API's refusals, HTTP's own, or a 500."""
        if isinstance(exc, HTTPException) and exc.code is not None and exc.code < 400:  # a redirect of the routing
            response = exc.get_response(ex.environ)
            return response.status, list(response.headers.items()), [response.get_data()]
        try:
            self._settle(ex)  # a refused write is counted too; past the limit its answer is the 429
        except Exception as limited:  # noqa: BLE001
            exc = limited
        answer = next((found for mapping in self.refusals if (found := mapping(exc)) is not None), None)
        if answer is None and isinstance(exc, HTTPException):
            answer = http_refusal(exc)
        if answer is None:
            log.exception("unexpected error on %s %s", ex.method, ex.path, exc_info=exc)
            answer = 500, error_body("service/internal", "something went wrong on our side; the request may not have "
                                     "completed"), {}
        status, error, headers = answer
        ex.fields["error"] = error["error"]["code"]
        data = orjson.dumps(error, option=ANSWER_OPTIONS)
        return (_status_line(status), [("Content-Type", "application/json"), ("Content-Length", str(len(data))),
                                       *headers.items()], [data])

    def _send(self, ex: Exchange, start_response: StartResponse, status: str, head: list[tuple[str, str]],
              body: Iterable[bytes], code: int) -> Iterable[bytes]:
        names = {name.lower() for name, _ in head}
        head.extend((k, v) for k, v in ex.headers.items() if k.lower() not in names)
        head.append(("X-Request-Id", ex.rid))
        head.append(("X-Content-Type-Options", "nosniff"))  # a JSON body is never run as a script or a page
        if code in RETRY_AFTER_S and "retry-after" not in names and "Retry-After" not in ex.headers:
            head.append(("Retry-After", str(RETRY_AFTER_S[code])))
        kind = next((v for k, v in head if k.lower() == "content-type"), "")
        if kind.startswith("text/html"):
            head.append(("Content-Security-Policy", HTML_POLICY))
        if ex.method != "OPTIONS" or code != 204:
            head.extend(self.cors.answer_headers(ex.environ.get("HTTP_ORIGIN")))
        start_response(status, head)
        streamed = ex.route.endswith("/stream")
        if not streamed:  # a stream's lifetime is not a latency
            self.metrics.observe(ex.method, ex.route, code, ex.started)
        self._log(ex, code)
        return body

    def _log(self, ex: Exchange, code: int) -> None:
        level = logging.DEBUG if ex.path in logs.PROBES or ex.method == "OPTIONS" else logging.INFO
        if not logs.log.isEnabledFor(level):
            return
        fields = logs.request_fields(ex.rid, ex.method, ex.route, code, ex.started)
        if ex.game_id is not None and logs.SAFE_ID.fullmatch(ex.game_id):
            fields["game_id"] = ex.game_id
        fields.update(ex.fields)
        logs.request_line(level, fields)


def note_route() -> None:
    """Flask's one hook for the edge: which rule matched, and the game it names, for metrics and the log line."""
    ex: Exchange | None = request.environ.get(KEY)
    if ex is not None and request.url_rule is not None:
        ex.route = request.url_rule.rule
        game_id = (request.view_args or {}).get("game_id")
        ex.game_id = game_id if isinstance(game_id, str) else None


def _status_line(status: int) -> str:
    return f"{status} {HTTP_STATUS_CODES.get(status, 'UNKNOWN').upper()}"


def _no_write(data: bytes) -> None:  # the WSGI write callable: the apps here return their bodies
    raise AssertionError("write() is not used")
