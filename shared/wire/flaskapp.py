"""What both Flask apps share: the OpenAPI document, JSON in and out, request metrics, ops routes."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import flask_smorest
import orjson
from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from shared.wire import schemas
from shared.wire.docs_page import docs_blueprint

ERRORS = {
    400: "request/malformed: not JSON, wrong types, unknown fields",
    401: "auth/missing_token or auth/bad_token",
    403: "auth/not_your_seat",
    404: "game/not_found",
    409: "game/version_conflict (details.current_version) or game/finished",
    413: "request/too_large",
    414: "request/too_large: the URL is longer than 4096 bytes",
    422: "rules/…: a legal request the rules refuse, the code naming the rule; or another code for a request the "
         "schema admits that the server refuses for a reason JSON Schema cannot say (player/cannot_mute_self, "
         "request/idempotency_key_reused)",
    429: "request/rate_limited (Retry-After: seconds until the window ends)",
    431: "request/too_large: a header field past 8190 bytes, or more than 100 headers (refused by the server itself)",
    503: "service/unavailable: a dependency is down; nothing was written (Retry-After: seconds); or, under "
         "REQUIRE_REPLICATED, service/unreplicated: the command was written but no replica confirmed it yet; resend "
         "it with the same Idempotency-Key",
}


# orjson rather than the standard library for bodies in and out: the stdlib encoder and decoder were about a
# tenth of each service's CPU per command (profiled with py-spy under `make bench`). Output keeps Flask's
# sorted keys, and dates and dataclasses still go through Flask's own ``default``.
JSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class FastJsonProvider(DefaultJSONProvider):
    """orjson where it can (anything it cannot encode, such as an int past 64 bits, goes to Flask's own)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if not kwargs:
            try:
                return orjson.dumps(obj, default=self.default, option=JSON_OPTIONS).decode()
            except TypeError:
                pass
        return super().dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return super().loads(s, **kwargs) if kwargs else orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        try:
            data = orjson.dumps(obj, default=self.default, option=JSON_OPTIONS | orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            return cast(Response, super().response(obj))
        # the provider is only ever made for a Flask app (make_api), whose response_class takes a body
        return cast(Flask, self._app).response_class(data, mimetype=self.mimetype)


class FastJsonParser(FlaskParser):
    """webargs' Flask parser, decoding bodies with orjson (webargs itself uses the stdlib's json)."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            if data and not exc.doc:  # bad UTF-8: invalid JSON, as webargs says, not an empty body
                raise json.JSONDecodeError(exc.msg, data.decode("utf-8", "replace"), exc.pos) from None
            raise


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with the orjson argument parser; both services build theirs from this."""

    ARGUMENTS_PARSER = FastJsonParser()


_View = TypeVar("_View", bound=Callable[..., Any])


def documented_errors(*statuses: int) -> Callable[[_View], _View]:
    """Document the API's error body for these statuses (and 400, 413, 414, 429, 431, 503, which any route may give)."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/ApiError"}}}
    responses = {str(s): {"description": ERRORS[s], "content": error} for s in sorted({*statuses, 400, 413, 414, 429, 431, 503})}
    decorate: Callable[[_View], _View] = Blueprint.doc(responses=responses)
    return decorate


OPENAPI_VERSION = "3.2.0"  # streams' messages as itemSchema; shared/wire/openapi.py renders 3.1 and 3.0 from it


def component2properties(self: Any, field: Any, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """apispec: a ``schemas.Component`` field is its component (null too where the field allows none)."""
    if not isinstance(field, schemas.Component):
        return {}
    target = {"$ref": f"#/components/schemas/{field.component}"}
    return {"anyOf": [target, {"type": "null"}]} if field.allow_none else target


class RequestMetrics:
    def __init__(self, registry: CollectorRegistry):
        self.registry = registry
        self.requests = Counter("http_requests_total", "HTTP requests by route and status", ["method", "route", "status"], registry=registry)
        self.latency = Histogram(
            "http_request_seconds", "HTTP request latency by route", ["method", "route"], registry=registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )

    def observe(self, method: str, route: str, status: int, started: float) -> None:
        """Count one answered request and its latency (since ``started``, a ``perf_counter`` reading)."""
        self.latency.labels(method, route).observe(time.perf_counter() - started)
        self.requests.labels(method, route, str(status)).inc()

    def exposition(self) -> Response:
        return Response(generate_latest(self.registry), mimetype=CONTENT_TYPE_LATEST)


class DefaultError(schemas.Error):
    """The API's error body as every operation's default response (schemas.Error itself is registered as ApiError)."""


class _Api(Api):
    """flask-smorest's Api, documenting the API's own error body (not flask-smorest's) as every operation's default,
    and answering no error itself: every exception reaches the edge (shared/wire/edge.py), which answers them all."""

    ERROR_SCHEMA = DefaultError

    def _register_error_handlers(self) -> None:
        pass


def make_api(app: Flask, title: str, description: str) -> Api:
    """Attach the OpenAPI document (/openapi.json, /docs) and a registry of request metrics to ``app``; the edge
    (shared/wire/edge.py) does the rest."""
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default config holds the key, set to None
        app.config["MAX_CONTENT_LENGTH"] = 256 * 1024
    app.json = FastJsonProvider(app)
    app.config.update(
        API_TITLE=title,
        API_VERSION="1",
        OPENAPI_VERSION=OPENAPI_VERSION,
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={"info": {"description": description}},
    )
    api = _Api(app)
    api.spec.components.security_scheme("seatToken", {"type": "http", "scheme": "bearer"})
    api.spec.components.schema("ApiError", schema=schemas.Error)
    api.ma_plugin.converter.add_attribute_function(component2properties)
    app.register_blueprint(docs_blueprint(title, api.spec.to_dict))
    app.extensions["metrics"] = RequestMetrics(CollectorRegistry())
    return api


def ops_blueprint(readiness: Callable[[], dict[str, bool]]) -> Blueprint:
    """/healthz (process up), /readyz (dependencies reachable), /metrics (Prometheus text; not with
    ``SERVE_METRICS=0``, which ``mythos run`` sets unless told otherwise: there the API's port is the only door).

    Started by ``mythos run``, both answer its run's nonce (``MYTHOS_RUN_ID``) as ``Mythos-Run``: the launcher
    waits for its own processes, never for another server that answers on the port (deploy/stacks/dev.py)."""
    blp = Blueprint("operations", __name__, description="Health, readiness and metrics")
    run = {"Mythos-Run": os.environ["MYTHOS_RUN_ID"]} if os.environ.get("MYTHOS_RUN_ID") else {}
    serve_metrics = os.environ.get("SERVE_METRICS", "1") != "0"

    @blp.route("/healthz")
    @blp.response(200, schemas.Health)
    @blp.doc(operationId="healthz")
    def healthz() -> tuple[dict[str, str], int, dict[str, str]]:
        """The process is up."""
        return {"status": "ok"}, 200, run

    @blp.route("/readyz")
    @blp.response(200, schemas.Health)
    @blp.alt_response(503, schema=schemas.Health, description="a dependency is unreachable")
    @blp.doc(operationId="readyz")
    def readyz() -> tuple[dict[str, Any], int, dict[str, str]]:
        """The process and every dependency it needs answer."""
        checks = readiness()
        ok = all(checks.values())
        return {"status": "ok" if ok else "unavailable", "checks": checks}, 200 if ok else 503, run

    if not serve_metrics:
        return blp

    @blp.route("/metrics")
    @blp.doc(operationId="metrics",
             responses={"200": {"description": "Prometheus text format", "content": {"text/plain": {"schema": {"type": "string"}}}}})
    def metrics() -> Response:
        """Request counts and latencies, commands, conflicts, queue depth, AI time (Prometheus text)."""
        from flask import current_app

        registered: RequestMetrics = current_app.extensions["metrics"]
        return registered.exposition()

    return blp
