"""The rules service's hottest route without Flask: ``POST /v1/decide`` with a plainly valid body.

Every command a player posts costs one decide on this hop. Under Flask and flask-smorest a decide cost the
server several times the decision itself (request context, URL matching, the parser, four after-request hooks;
docs/performance.md, issue 20). ``LeanDecide`` wraps the Flask app's WSGI callable: a request that is plainly
the session service's kind (``POST /v1/decide``, no query string, a JSON body within ``MAX_CONTENT_LENGTH`` that
``plainly_valid_decide`` accepts) is decided here and answered as Flask would answer it: the same status,
body bytes, ``Content-Type``, ``X-Request-Id``, ``X-Content-Type-Options`` (and ``Retry-After`` where Flask adds
it), the same request metrics and the same log line. A refusal of the API's own families (``errors.refusal``:
a rule violation, a malformed or oversized position, …) is answered here too, once, as the error handlers
answer it. Everything else goes to Flask whole, body included: any other request, an unexpected exception
(Flask decides again, a decide being pure, and answers its 500), an answer past ``MAX_ANSWER_BYTES`` (Flask's
413) or one orjson cannot write (tests/unit/test_rules_lean.py compares both paths byte for byte)."""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

import orjson
from flask import Flask
from werkzeug.http import HTTP_STATUS_CODES

from rules_service import decisions
from shared.wire import logs
from shared.wire.errors import refusal
from shared.wire.flaskapp import JSON_OPTIONS, RETRY_AFTER_S, RequestMetrics

PATH = "/v1/decide"  # the route's one path, and its rule as Flask names it in metrics and logs
ANSWER_OPTIONS = JSON_OPTIONS | orjson.OPT_APPEND_NEWLINE  # what the app's JSON provider writes (flaskapp.py)
StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class LeanDecide:
    """WSGI middleware: a plainly valid decide answered without Flask; anything else passed on to ``wsgi``."""

    def __init__(self, app: Flask, wsgi: WsgiApp):
        self.wsgi = wsgi
        self.games = app.extensions["games"]
        self.bounds = app.config["POSITION_BOUNDS"]
        self.max_answer = app.config["MAX_ANSWER_BYTES"]
        self.max_body = app.config["MAX_CONTENT_LENGTH"]
        self.metrics: RequestMetrics = app.extensions["metrics"]

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if (environ.get("PATH_INFO") != PATH or environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING")
                or environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() != "application/json"):
            return self.wsgi(environ, start_response)
        length = environ.get("CONTENT_LENGTH") or ""
        if not (length.isdigit() and 0 < int(length) <= self.max_body):  # no length (chunked), empty, or too long
            return self.wsgi(environ, start_response)
        started = time.perf_counter()
        data = environ["wsgi.input"].read(int(length))
        rid = logs.request_id_for(environ.get("HTTP_X_REQUEST_ID", ""))
        bound = logs.LEAN_REQUEST_ID.set(rid)  # lines logged meanwhile carry it, as in Flask's dispatch
        try:
            answered = self.answer(data) if len(data) == int(length) else None
        finally:
            logs.LEAN_REQUEST_ID.reset(bound)
        if answered is None:
            environ["wsgi.input"] = io.BytesIO(data)  # Flask reads the body afresh
            return self.wsgi(environ, start_response)
        status, answer, headers, error = answered
        head = [("Content-Type", "application/json"), ("Content-Length", str(len(answer))), *headers.items(),
                ("X-Request-Id", rid), ("X-Content-Type-Options", "nosniff")]
        if status in RETRY_AFTER_S and "Retry-After" not in headers:
            head.append(("Retry-After", str(RETRY_AFTER_S[status])))
        start_response(f"{status} {HTTP_STATUS_CODES[status].upper()}", head)
        self.metrics.observe("POST", PATH, status, started)
        if logs.log.isEnabledFor(logging.INFO):
            fields = logs.request_fields(rid, "POST", PATH, status, started)
            if error is not None:
                fields["error"] = error
            logs.request_line(logging.INFO, fields)
        return [answer]

    def answer(self, data: bytes) -> tuple[int, bytes, dict[str, str], str | None] | None:
        """The status, body bytes (as the app's JSON provider writes them), headers and error code of the answer,
        or None: let Flask answer."""
        body = decisions.plainly_valid_decide(data)
        if body is None:
            return None
        try:
            try:
                answer = orjson.dumps(decisions.decision(body, self.games, self.bounds), option=ANSWER_OPTIONS)
            except Exception as exc:
                refused = refusal(exc)
                if refused is None:
                    return None
                status, error, headers = refused
                return status, orjson.dumps(error, option=ANSWER_OPTIONS), headers, error["error"]["code"]
        except Exception:  # orjson could not write it: Flask's provider falls back to the standard library
            return None
        return (200, answer, {}, None) if len(answer) <= self.max_answer else None
