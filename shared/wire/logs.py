"""Logs a person can follow: one line per request and per job, readable by default, JSON with LOG_FORMAT=json.

Each request line carries a request id (the client's ``X-Request-Id`` when it is a short, safe token, else a
fresh one; answered back as ``X-Request-Id``), the route, the game id and seat when there are, the status and
the duration. What is logged is chosen field by field, never a body, a header or a query string: a seat token,
a player key, the seed of a game in progress or a hidden card never reaches a log (tests/unit/test_logs.py).
``LOG_LEVEL`` sets the level (INFO by default; the probes /healthz, /readyz and /metrics log at DEBUG).
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time
import uuid
from collections.abc import Iterable
from contextvars import ContextVar
from datetime import datetime, timezone
from typing import IO, Any

import orjson

HEADER = "X-Request-Id"
REQUEST_ID = re.compile(r"[A-Za-z0-9._:+=/-]{1,128}")  # nothing that could forge a line or a field
SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a game id worth writing down (the URL's may be anything)
PROBES = frozenset({"/healthz", "/readyz", "/metrics"})
log = logging.getLogger("mythos.request")
jobs_log = logging.getLogger("mythos.job")


# The id of the request being handled (set by the HTTP edge, shared/wire/edge.py, and the rules service's hop), for
# the lines logged meanwhile; a context variable, so each thread or greenlet has its own.
CURRENT_REQUEST_ID: ContextVar[str | None] = ContextVar("current_request_id", default=None)


def request_id() -> str | None:
    """The current request's id (None outside a request)."""
    return CURRENT_REQUEST_ID.get()


class _Context(logging.Filter):
    """Every line logged while a request is handled carries its request id."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id()
        return True


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = dict(getattr(record, "fields", None) or {})
    request_id = getattr(record, "request_id", None)
    if request_id and "request_id" not in fields:
        fields["request_id"] = request_id
    return fields


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the line's fields, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"ts": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
                "level": record.levelname, "logger": record.name, "msg": record.getMessage(), **_fields(record),
                "pid": record.process}
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


class TextFormatter(logging.Formatter):
    """``time [pid] LEVEL logger: message key=value …``: for a person reading a terminal (the fields the message
    already says are not repeated)."""

    SAID = frozenset({"event", "method", "route", "status", "job", "result"})

    def __init__(self) -> None:
        super().__init__("[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S %z")

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        text = super().formatMessage(record)
        fields = {k: v for k, v in _fields(record).items() if v is not None and k not in self.SAID}
        return text + "".join(f" {k}={v}" for k, v in fields.items()) if fields else text


def formatter() -> logging.Formatter:
    return JsonFormatter() if os.environ.get("LOG_FORMAT", "text").lower() == "json" else TextFormatter()


def configure(names: Iterable[str] = ("mythos",), stream: IO[str] | None = None) -> logging.Handler:
    """Send the named loggers' lines to ``stream`` (stderr) in LOG_FORMAT at LOG_LEVEL, in place of what they
    had (so calling it twice does not double lines)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter())
    handler.addFilter(_Context())
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    for name in names:
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if getattr(h, "_mythos", False)]:
            logger.removeHandler(old)
        handler._mythos = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.setLevel(level)
        logger.propagate = False
    return handler


def gunicorn_logconfig() -> dict[str, Any]:
    """gunicorn's own lines (start, stop, worker restarts) as JSON too when LOG_FORMAT=json (its
    ``logconfig_dict``); empty, so gunicorn's defaults, otherwise."""
    if os.environ.get("LOG_FORMAT", "text").lower() != "json":
        return {}
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    handler = {"class": "logging.StreamHandler", "formatter": "json"}
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"console": {**handler, "stream": "ext://sys.stdout"}, "error_console": {**handler, "stream": "ext://sys.stderr"}},
        "loggers": {"gunicorn.error": {"level": level, "handlers": ["error_console"], "propagate": False},
                    # our request lines replace gunicorn's access log, unless ACCESS_LOG asks for it
                    "gunicorn.access": {"level": level if os.environ.get("ACCESS_LOG") else "CRITICAL",
                                        "handlers": ["console"], "propagate": False}},
        "root": {"level": level, "handlers": []},
    }


def request_id_for(offered: str) -> str:
    """The id a request goes by: the client's ``X-Request-Id`` when it is a short, safe token, else a fresh one."""
    return offered if REQUEST_ID.fullmatch(offered) else uuid.uuid4().hex


def request_fields(rid: str, method: str, route: str, status: int, started: float) -> dict[str, Any]:
    """The fields every request line starts with (a service adds its own after them)."""
    return {"event": "request", "request_id": rid, "method": method, "route": route, "status": status,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1)}


def request_line(level: int, fields: dict[str, Any]) -> None:
    """Write one request's line (``request_fields`` and the service's own)."""
    log.log(level, "%s %s %s", fields["method"], fields["route"], fields["status"], extra={"fields": fields})


def job_line(kind: str, started: float, outcome: str, level: int = logging.INFO, **fields: Any) -> None:
    """The one line a worker job writes: its kind, ids, outcome and duration."""
    line = {"event": "job", "job": kind, **fields, "result": outcome,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1)}
    jobs_log.log(level, "job %s %s", kind, outcome, extra={"fields": line})
