"""The public HTTP API (the contract in API.md): thin views over ``Tables``."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, g, request, stream_with_context

from shared.wire import schemas
from shared.wire.catalog import catalog
from shared.wire.errors import ApiError, malformed
from shared.wire.flaskapp import Blueprint, documented_errors
from session_service.tables import Meta, Tables

blp = Blueprint("games", __name__, url_prefix="/v1", description="Games, seats, commands, views, events and audits")
SEAT = [{"seatToken": []}, {}]
# One message of the stream (OpenAPI 3.0: the schema of a text/event-stream response describes each message).
SSE_MESSAGE = {
    "type": "object",
    "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": ["state", "event", "end"]},
        "id": {"type": "string", "description": "the event's version (absent on the state and end messages)"},
        "data": {"type": "string", "description": "JSON: the caller's state, one event as in GET /events, or {}"},
    },
}
IDEMPOTENCY = {"in": "header", "name": "Idempotency-Key", "schema": {"type": "string", "maxLength": 128}, "required": False}


def tables() -> Tables:
    return current_app.extensions["tables"]


def bearer() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "auth/bad_token", "use 'Authorization: Bearer <seat token>'")
    return token.strip()


def caller(game_id: str, asked_seat: int | None = None) -> tuple[Meta, int | None]:
    """The game and the caller's seat (None for a spectator); a seat may only ask for itself."""
    read = g.pop("meta_read", None)  # the rate limit's round trip read it already (app.py)
    meta = tables().meta_of(game_id, read[1]) if read is not None and read[0] == game_id else tables().meta(game_id)
    seat = tables().seat_of(meta, bearer())
    if asked_seat is not None and asked_seat != seat:
        raise ApiError(403, "auth/not_your_seat", "a token reads and acts for its own seat only")
    return meta, seat


@blp.route("/catalog")
@blp.response(200, schemas.Catalog)
def get_catalog():
    return catalog(tables().games)


@blp.route("/games", methods=["POST"])
@blp.arguments(schemas.CreateGame())
@blp.response(201, schemas.GameResource)
@documented_errors(422)
def create_game(body):
    return tables().create(body)


@blp.route("/games")
@blp.arguments(schemas.GamesQuery(), location="query")
@blp.response(200, schemas.GamePage)
def list_games(query):
    return tables().page(query.get("status"), query.get("game"), query.get("cursor"), query["limit"])


@blp.route("/games/<game_id>")
@blp.response(200, schemas.GameResource)
@documented_errors(404)
def get_game(game_id: str):
    return tables().resource(game_id)


@blp.route("/games/<game_id>/state")
@blp.arguments(schemas.StateQuery(), location="query")
@blp.response(200, schemas.State)
@blp.doc(security=SEAT)
@documented_errors(401, 403, 404)
def get_state(query, game_id: str):
    meta, seat = caller(game_id, query.get("seat"))
    return tables().state(game_id, seat, query.get("at"), meta=meta)


@blp.route("/games/<game_id>/commands", methods=["POST"])
@blp.arguments(schemas.CommandRequest())
@blp.response(200, schemas.CommandResult)
@blp.doc(security=[{"seatToken": []}], parameters=[IDEMPOTENCY])
@documented_errors(401, 404, 409, 422)
def post_command(body, game_id: str):
    meta, seat = caller(game_id)
    if seat is None:
        raise ApiError(401, "auth/missing_token", "commands need a seat token: 'Authorization: Bearer <token>'")
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= 128:
        raise malformed("Idempotency-Key must be 1 to 128 characters")
    return tables().command(game_id, seat, body["command"], body["expected_version"], key, meta=meta)


@blp.route("/games/<game_id>/events")
@blp.arguments(schemas.EventsQuery(), location="query")
@blp.response(200, schemas.EventPage)
@blp.doc(security=SEAT)
@documented_errors(401, 404)
def get_events(query, game_id: str):
    _, seat = caller(game_id)
    return tables().events(game_id, seat, query["after"], query["limit"])


@blp.route("/games/<game_id>/events/stream")
@blp.arguments(schemas.StreamQuery(), location="query")
@blp.doc(
    security=SEAT,
    responses={"200": {"description": "Server-sent events: a `state` message, then each event with `id` = version",
                       "content": {"text/event-stream": {"schema": SSE_MESSAGE}}}},
)
@documented_errors(401, 404)
def stream_events(query, game_id: str):
    _, seat = caller(game_id)
    after = query.get("after")
    last = request.headers.get("Last-Event-ID")
    if last is not None:
        if not last.isdigit() or len(last) > 10:
            raise malformed("Last-Event-ID must be a version number")
        after = int(last)
    keepalive = current_app.config.get("SSE_KEEPALIVE_S", 10)
    stream = tables().stream(game_id, seat, after, keepalive)
    return Response(stream_with_context(stream), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@blp.route("/games/<game_id>/audit")
@blp.response(200, schemas.Audit)
@documented_errors(404)
def get_audit(game_id: str):
    return tables().audit(game_id)


@blp.route("/games/<game_id>/export")
@blp.response(200, schemas.Export)
@documented_errors(404, 409)
def get_export(game_id: str) -> dict[str, Any]:
    return tables().export(game_id)
