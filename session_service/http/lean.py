"""The session service's hottest route without Flask's dispatch: ``POST /v1/games/<id>/commands``, plainly put.

Under Flask and flask-smorest a command paid for a request context, URL matching, five before-request and four
after-request hooks and the decorators' wrappers, about a fifth of the session service's CPU per command
(docs/performance.md, issue 20). ``LeanCommand`` wraps the Flask app's WSGI callable (inside ProxyFix, so the
address is the one Flask would see) and plays a command that is plainly the common kind itself:

- ``POST /v1/games/<id>/commands``, an id of letters, digits, ``_`` and ``-`` (64 at most), no query string;
- a body sent as ``application/json`` with a Content-Length within ``MAX_CONTENT_LENGTH`` that
  ``api.plainly_valid_command`` accepts (what ``schemas.CommandRequest`` loads as it is);
- an ``Authorization: Bearer <token>`` header, and an ``Idempotency-Key`` of 1 to 128 characters or none.

Anything else goes to Flask whole, before anything is counted or read. A command taken here runs the same
steps in the same order, with the same functions, as the hooks and the view: the write is counted and the
meta read in one round trip (``ratelimit.count_write``; 429 past the limit), the caller's seat is resolved
(``Tables.seat_of``, ``api.commanding``), the command is played (``api.play``). Its answer carries what
Flask's would: the body bytes of the app's JSON provider, ``Mythos-Replicated``, the RateLimit-* headers,
``X-Request-Id`` and ``X-Content-Type-Options``, with the same metrics and log line (and the lines logged
meanwhile carry the request id, ``logs.LEAN_REQUEST_ID``). Once the write was counted there is no going
back to Flask's dispatch, so a refusal or failure is answered by Flask's own error handlers and after-request
hooks in a request context of its own (``answer_in_flask``), as if raised from the view: every error body,
status and header is Flask's. tests/unit/test_session_lean.py plays the same games through both paths and
compares the answers, the log lines and the metrics; it also fails when a hook is added that this path does
not know of.
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

import orjson
from flask import Flask, Response, g

from session_service.http import api, clients
from session_service.http.ratelimit import count_write, over_limit, rate_headers_of
from shared.wire import logs
from shared.wire.errors import ApiError, not_found
from shared.wire.flaskapp import JSON_OPTIONS, RequestMetrics

COMMAND_PATH = re.compile(r"/v1/games/([A-Za-z0-9_-]{1,64})/commands")
ROUTE = "/v1/games/<game_id>/commands"  # the route's rule, as Flask names it in metrics and logs
ANSWER_OPTIONS = JSON_OPTIONS | orjson.OPT_APPEND_NEWLINE  # what the app's JSON provider writes (flaskapp.py)
# The hooks this path stands in for, by name (shared/wire/flaskapp.py, shared/wire/logs.py, app.py, ratelimit.py): a
# hook added to the app is one this path would skip, so the test that reads these fails until it is added here.
BEFORE_HOOKS = ("url_length", "start_timer", "assign_id", "check_media_type", "check_rate")
AFTER_HOOKS = ("standard_headers", "count", "log_request", "rate_headers")
StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class Played:
    """What the hooks would have kept in ``g`` for one request."""

    def __init__(self, rid: str, started: float):
        self.rid, self.started = rid, started
        self.rate: tuple[int, int, int] | None = None
        self.seat: int | None = None
        self.seated = False  # whether the seat was resolved (``g.log_seat`` is set only then)


class LeanCommand:
    """WSGI middleware: a plainly put command played without Flask's dispatch; anything else passed on to ``wsgi``."""

    def __init__(self, app: Flask, wsgi: WsgiApp):
        self.app, self.wsgi = app, wsgi
        self.tables = app.extensions["tables"]
        self.limit = app.config.get("RATE_LIMIT_PER_MINUTE", 0)
        self.max_body = app.config["MAX_CONTENT_LENGTH"]
        self.metrics: RequestMetrics = app.extensions["metrics"]

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        plain = self.plain(environ)
        if plain is None:
            return self.wsgi(environ, start_response)
        game_id, token, key, length = plain
        data = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(data)  # whoever answers in the end reads the body afresh
        body = api.plainly_valid_command(data) if len(data) == length else None
        if body is None:
            return self.wsgi(environ, start_response)
        played = Played(logs.request_id_for(environ.get("HTTP_X_REQUEST_ID", "")), started)
        bound = logs.LEAN_REQUEST_ID.set(played.rid)  # lines logged meanwhile carry it, as in Flask's dispatch
        try:
            return self.respond(environ, start_response, played, game_id, token, key, body)
        finally:
            logs.LEAN_REQUEST_ID.reset(bound)

    def respond(self, environ: dict[str, Any], start_response: StartResponse, played: Played, game_id: str, token: str,
                key: str | None, body: dict[str, Any]) -> Iterable[bytes]:
        try:
            result, headers = self.play(played, game_id, token, key, body, environ.get("REMOTE_ADDR") or "")
        except Exception as exc:  # a refusal or a failure, answered by Flask's own handlers and hooks
            return self.answer_in_flask(environ, start_response, played, exc)
        try:
            answer = orjson.dumps(result, option=ANSWER_OPTIONS)
        except TypeError:  # not for orjson (the app's provider then uses the standard library): Flask answers
            return self.answer_in_flask(environ, start_response, played, (result, headers))
        head = [("Content-Type", "application/json"), ("Content-Length", str(len(answer))), *headers.items()]
        if played.rate is not None:
            head.extend(rate_headers_of(played.rate, 200).items())
        head.extend([("X-Request-Id", played.rid), ("X-Content-Type-Options", "nosniff")])
        start_response("200 OK", head)
        self.metrics.observe("POST", ROUTE, 200, played.started)
        if logs.log.isEnabledFor(logging.INFO):
            fields = logs.request_fields(played.rid, "POST", ROUTE, 200, played.started)
            fields.update(game_id=game_id, seat=played.seat)
            logs.request_line(logging.INFO, fields)
        return [answer]

    def plain(self, environ: dict[str, Any]) -> tuple[str, str, str | None, int] | None:
        """The game id, token, idempotency key and body length of a plainly put command, else None."""
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING"):
            return None
        match = COMMAND_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() != "application/json":
            return None
        length = environ.get("CONTENT_LENGTH") or ""
        if not (length.isdigit() and 0 < int(length) <= self.max_body):  # no length (chunked), empty, or too long
            return None
        try:
            token = clients.bearer_of(environ.get("HTTP_AUTHORIZATION"))
        except ApiError:
            return None
        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        if token is None or (key is not None and not api.plausible_idempotency_key(key)):
            return None
        return match.group(1), token, key, int(length)

    def play(self, played: Played, game_id: str, token: str, key: str | None, body: dict[str, Any],
             address: str) -> tuple[dict[str, Any], dict[str, str]]:
        """The steps of ``check_rate`` and ``post_command``, in their order."""
        counted = count_write(self.tables, self.limit, game_id, token, address) if self.limit else None
        if counted is not None:
            played.rate, meta = counted
            refused = over_limit(played.rate)
            if refused is not None:
                raise refused
        else:
            meta = self.tables.meta(game_id)
        if meta is None:
            raise not_found()
        played.seat = self.tables.seat_of(meta, token)
        played.seated = True
        return api.play(self.tables, game_id, api.commanding(played.seat), body, key, meta)

    def answer_in_flask(self, environ: dict[str, Any], start_response: StartResponse, played: Played,
                        outcome: Exception | tuple[dict[str, Any], dict[str, str]]) -> Iterable[bytes]:
        """Answer as Flask would have: an exception the view raised (by its error handler) or the view's answer (a
        result and its headers), then the after-request hooks, with what the before-request hooks and the view
        would have kept in ``g``."""
        app = self.app
        with app.request_context(environ):
            g.request_id, g.log_started, g.started = played.rid, played.started, played.started
            if played.rate is not None:
                g.rate = played.rate
            if played.seated:
                g.log_seat = played.seat
            if isinstance(outcome, Exception):
                returned = app.handle_user_exception(outcome)
            else:
                returned = (app.json.response(outcome[0]), 200, outcome[1])
            response: Response = app.process_response(app.make_response(returned))
            return response(environ, start_response)
