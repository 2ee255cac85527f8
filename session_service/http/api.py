"""The public HTTP API (the contract in API.md): thin views over ``Tables``."""

from __future__ import annotations

import io
import re
from typing import Any, cast

import orjson
from flask import Response, current_app, request, url_for

from shared.wire import schemas
from shared.wire.catalog import catalog
from shared.wire.edge import Exchange, Route, exchange, note
from shared.wire.errors import ApiError, malformed
from shared.wire.flaskapp import Blueprint, documented_errors
from session_service.http import clients
from session_service.http.clients import bearer, who
from session_service.http.ratelimit import RateLimit
from session_service.http.streaming import FRAMINGS, SSE, Streams, stream_response
from session_service.use_cases import live
from session_service.use_cases.lobby import Lobby
from session_service.use_cases.meta import Meta
from session_service.use_cases.players import is_player_key
from session_service.use_cases.resources import GameResource, SeatState
from session_service.use_cases.tables import Tables
from session_service.use_cases.writes import REPLICATED

COMMAND_REQUEST = schemas.CommandRequest()
COMMANDS = re.compile(r"/v1/games/([^/]+)/commands")  # what Flask's rule below matches for POST, as a pattern


blp = Blueprint("games", __name__, url_prefix="/v1", description="Games, seats, commands, views, events and audits")
SEAT: list[dict[str, list[str]]] = [{"seatToken": []}, {}]
REPLICATED_HEADER = {"Mythos-Replicated": {
    "description": "On a deployment that waits for Redis replicas: true when a replica had the command before this "
                   "answer (it survives the loss of its Redis primary), false when none confirmed it in time (it is "
                   "applied, and survives the primary's restart but not its loss). Where the operator requires "
                   "replication (REQUIRE_REPLICATED), a command no replica confirmed is answered 503 "
                   "service/unreplicated with Retry-After instead, and every 200 says true: resent with the same "
                   "Idempotency-Key it is found, not applied again, and answered once a replica has it. README: Durability.",
    "schema": {"type": "string", "enum": ["true", "false"]}}}
STREAM_DESCRIPTION = """The game live, for the caller's seat (or a spectator), as Server-Sent Events or, with
`Accept: application/x-ndjson` (or `application/jsonl`), as one JSON object per line.

**Messages**: each NDJSON line is a `GameStreamMessage` (`{type, id?, data}`), each SSE event a `GameStreamEvent`
(`event:` the type, `id:`, `data:` the same JSON): `state`, `event`, `turn`, `chat`, `end`, `retry`, each a component
of its own (`TurnMessage`: `data` is a `Turn`). This response has no schema for the whole body: it never ends while
the game is on. Read it line by line (or event by event) and parse each line with the message component; a
generated client's method for this operation reads the whole body, so open the stream with its HTTP client instead
(the README shows how).

**Start**: a `state` message (the caller's full state), then every event after it as it is appended. After each
batch of events a `turn` message says where the game stands for the caller, so a bot needs nothing else: act when
your seat is in `to_act` (post one of `legal_commands` with `expected_version` = the turn's `version`). When the
game is over the last messages are its final `turn` and `end` (with the outcome), and the stream closes.

**Resume**: with `Last-Event-ID: N` (the last `id` seen) or `?after=N` (the header wins), the stream
replays every event after version N (then a `turn`), then goes on live, with no `state` first: events are
delivered exactly once and in order across reconnects. With nothing to replay (N is the head) the first message
is a `turn`, so a client always learns where the game stands. N past the game's head is a 400 (`request/malformed`, with
`details.current_version`). `Last-Event-ID` is ASCII digits only.

**In a browser**: EventSource cannot send `Authorization`, so it can follow only what needs no token (a public
table, as a spectator). A seat's stream is read with `fetch` (the bearer header) and the body's `ReadableStream`,
best as NDJSON: split it at newlines and parse each line.

**Keep-alive**: an SSE comment (`: keep-alive`) or an empty NDJSON line whenever nothing else was sent for the
keep-alive period (10 s by default, never more than 15 s).

**Limits**: at most `STREAMS_PER_CLIENT` (20) open streams per client (its bearer token, else its address) on one
process: 429 `request/rate_limited` past it; at most `STREAMS_PER_PROCESS` (10,000) streams on one process: 503
`service/unavailable` past it. Both carry `Retry-After`. When a process shuts down, each of its streams ends
with a reconnect hint (SSE `retry: <ms>`, NDJSON a `retry` line): reconnect, resuming, to another process."""
CHAT_AFTER = {"in": "query", "name": "chat_after", "required": False, "schema": {"type": "integer", "minimum": 0, "maximum": 2**53},
              "description": "resume the table's chat after this line id (without it: the last 50 lines on a fresh "
                             "stream, and from now on a resumed one; GET /chat fills any gap)"}
# Listed here with Last-Event-ID: flask-smorest would otherwise drop StreamQuery's `after` from the document.
AFTER = {"in": "query", "name": "after", "required": False,
         "schema": {"type": "integer", "minimum": 0, "maximum": schemas.MAX_VERSION},
         "description": "resume after this version: replay the events after it, then go on live (no `state` first)"}
LAST_EVENT_ID = {"in": "header", "name": "Last-Event-ID", "required": False,
                 "schema": {"type": "string", "pattern": "^[0-9]{1,10}$"},
                 "description": "resume after this version (as `after`; this header wins)"}
IDEMPOTENCY = {"in": "header", "name": "Idempotency-Key", "schema": {"type": "string", "minLength": 1, "maxLength": 128}, "required": False,
               "description": "the same key and body sent again answer the first answer and write nothing; the same key "
                              "with another body is a 422 request/idempotency_key_reused"}


def tables() -> Tables:
    found: Tables = current_app.extensions["tables"]
    return found


def lobby() -> Lobby:
    found: Lobby = current_app.extensions["lobby"]
    return found


def caller(game_id: str, asked_seat: int | None = None) -> tuple[Meta, int | None]:
    """The game and the caller's seat (None for a spectator); a seat may only ask for itself."""
    meta = tables().meta(game_id)
    token = bearer()
    seat = tables().seat_of(meta, token)
    note(seat=seat)
    if asked_seat is not None and asked_seat != seat:
        raise ApiError(403, "auth/not_your_seat", "a token reads and acts for its own seat only")
    lobby().check_watcher(meta, seat, token)  # a private table is watched by those it was opened for
    return meta, seat


@blp.route("/catalog")
@blp.response(200, schemas.Catalog)
@blp.doc(operationId="getCatalog")
def get_catalog() -> dict[str, Any]:
    """Every game type: options, commands (JSON schemas with descriptions), AI levels, card data."""
    return catalog(tables().games)


@blp.route("/games", methods=["POST"])
@blp.arguments(schemas.CreateGame())
@blp.response(201, schemas.GameResource)
@blp.doc(operationId="createGame", parameters=[IDEMPOTENCY])
@documented_errors(401, 422)
def create_game(body: dict[str, Any]) -> tuple[GameResource, int, dict[str, str]]:
    """Open a table: named seats, AI seats, open seats for others to join, or (player key) your own."""
    resource = lobby().create(body, who(), checked_idempotency_key())
    return resource, 201, {"Location": url_for("games.get_game", game_id=resource["id"])}


@blp.route("/games")
@blp.arguments(schemas.GamesQuery(), location="query")
@blp.response(200, schemas.GamePage)
@blp.doc(operationId="listGames")
def list_games(query: dict[str, Any]) -> dict[str, Any]:
    """A page of public tables, newest first (status waiting: tables with open seats; `open_seats`: at least that
    many), each with its host, its seats (names, open, AI levels), its turn time limit and how many watch. A private
    table is never listed, nor does it take a place in a page."""
    return tables().page(query.get("status"), query.get("game"), query.get("cursor"), query["limit"], query["open_seats"])


@blp.route("/games/<game_id>")
@blp.response(200, schemas.GameResource)
@documented_errors(404)
@blp.doc(operationId="getGame")
def get_game(game_id: str) -> GameResource:
    """The table: status, seats, who the game waits on, outcome; the seed once it is over."""
    return tables().resource(game_id)


@blp.route("/games/<game_id>/state")
@blp.arguments(schemas.StateQuery(), location="query")
@blp.response(200, schemas.State)
@blp.doc(operationId="getState", security=SEAT)
@documented_errors(401, 403, 404, 422)
def get_state(query: dict[str, Any], game_id: str) -> SeatState:
    """What the caller's seat may know now (or at version `at`), and every command it may post."""
    meta, seat = caller(game_id, query.get("seat"))
    return tables().state(game_id, seat, query.get("at"), meta=meta, reader=clients.address_client())


@blp.route("/games/<game_id>/commands", methods=["POST"])
@blp.arguments(COMMAND_REQUEST)
@blp.response(200, schemas.CommandResult, headers=REPLICATED_HEADER)
@blp.doc(operationId="postCommand", security=[{"seatToken": []}], parameters=[IDEMPOTENCY])
@documented_errors(401, 404, 409, 422)
def post_command(body: dict[str, Any], game_id: str) -> tuple[Response, int, dict[str, str]]:
    """Play a command for the caller's seat, all or nothing."""
    # Served by the edge's route (``command_route``) unless its body needs the schema's word on it: the same play.
    limit: RateLimit = current_app.extensions["rate_limit"]
    strict = current_app.extensions["settings"].require_replicated
    result, headers = play(tables(), limit, exchange(), game_id, body, bearer(), checked_idempotency_key(), strict)
    return cast(Response, current_app.json.response(result)), 200, headers


def command_route(tables: Tables, limit: RateLimit, max_body: int, strict: bool = False) -> Route:
    """``POST /v1/games/<id>/commands`` on the edge, past Flask's routing: a body that is plainly a command
    (``schemas.plain_command_request``), played as the view plays it. Anything else (no length, too long, not JSON,
    not plainly a command) goes to Flask and the schema, untouched. ``strict``: ``REQUIRE_REPLICATED`` (``play``)."""

    def handle(ex: Exchange, game_id: str) -> tuple[int, dict[str, Any], dict[str, str]] | None:
        ex.game_id = game_id
        length = ex.environ.get("CONTENT_LENGTH") or ""
        if not (length.isdigit() and 0 < int(length) <= max_body):
            return None
        data = ex.environ["wsgi.input"].read(int(length))
        ex.environ["wsgi.input"] = io.BytesIO(data)  # for Flask, should it answer after all
        try:
            body = schemas.plain_command_request(orjson.loads(data))
        except orjson.JSONDecodeError:
            body = None
        if body is None:
            return None  # not plainly a command: the schema's word on it, through webargs and the view
        key = ex.header("Idempotency-Key")
        if key is not None and not plausible_idempotency_key(key):
            raise bad_idempotency_key()
        return 200, *play(tables, limit, ex, game_id, body, clients.bearer_of(ex.header("Authorization")), key, strict)

    return Route("POST", COMMANDS, "/v1/games/<game_id>/commands", handle)


def play(tables: Tables, limit: RateLimit, ex: Exchange, game_id: str, body: dict[str, Any], token: str | None,
         idempotency_key: str | None, strict: bool = False) -> tuple[dict[str, Any], dict[str, str]]:
    """A command's answer and its headers: played for the seat the use case finds (``Tables.commander``), and
    counted by the append against the seat's token when it holds and the address (ratelimit.py). ``strict``
    (``REQUIRE_REPLICATED``): answered only once a replica has the command, else 503 ``service/unreplicated``."""
    meta, seat, unread = tables.commander(game_id, token, body["expected_version"])
    ex.fields["seat"] = seat
    charge = limit.for_client(ex, clients.client(meta, token, ex.address) if token is not None else
                              clients.address_client(ex.address))
    result = tables.command(game_id, commanding(seat), body["command"], body["expected_version"], idempotency_key,
                            meta=meta, charge=charge, unread=unread, durable=strict)
    replicated = result.pop(REPLICATED, None)  # README, Durability: what an acknowledged command survives
    return result, ({} if replicated is None else {"Mythos-Replicated": "true" if replicated else "false"})


def commanding(seat: int | None) -> int:
    """The seat a command is played for: a spectator (no token, or a player key of no seat here) plays none."""
    if seat is None:
        raise ApiError(401, "auth/missing_token", "commands need a seat token: 'Authorization: Bearer <token>'")
    return seat


@blp.route("/games/<game_id>/events")
@blp.arguments(schemas.EventsQuery(), location="query")
@blp.response(200, schemas.EventPage)
@blp.doc(operationId="getEvents", security=SEAT)
@documented_errors(401, 403, 404)
def get_events(query: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The log's events after a version, redacted for the caller."""
    _, seat = caller(game_id)
    return tables().events(game_id, seat, query["after"], query["limit"], reader=clients.address_client())


@blp.route("/games/<game_id>/events/stream")
@blp.arguments(schemas.StreamQuery(), location="query")
@blp.doc(
    operationId="streamEvents",
    security=SEAT,
    description=STREAM_DESCRIPTION,
    parameters=[AFTER, LAST_EVENT_ID, CHAT_AFTER],
    responses={"200": stream_response("GameStreamEvent", "GameStreamMessage")},
)
@documented_errors(401, 403, 404, 422)
def stream_events(query: dict[str, Any], game_id: str) -> Response:
    """The game live: state, events, turn and end messages (SSE or NDJSON)."""
    meta, seat = caller(game_id)
    after = resume_point(query.get("after"))
    keepalive = current_app.extensions["settings"].keepalive_s
    framing = request.accept_mimetypes.best_match(FRAMINGS, default=SSE)
    streams: Streams = current_app.extensions["streams"]
    token = bearer()
    player = current_app.extensions["players"].by_key(token) if is_player_key(token) else None
    follow = live.ChatFollow(current_app.extensions["chat"], player, query.get("chat_after"))
    messages = live.stream(tables(), game_id, seat, after, keepalive, streams.hub, meta=meta, chat=follow,
                           reader=clients.address_client())
    label = f"{game_id} ({'spectator' if seat is None else f'seat {seat}'})"
    watching = (tables().watchers, game_id) if seat is None else None  # the resource's `watchers`
    return streams.respond(messages, clients.client(meta), framing, label, watching)


def checked_idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not plausible_idempotency_key(key):
        raise bad_idempotency_key()
    return key


def bad_idempotency_key() -> ApiError:
    return malformed("Idempotency-Key must be 1 to 128 characters")


def plausible_idempotency_key(key: str) -> bool:
    return 0 < len(key) <= 128


def resume_point(after: int | None) -> int | None:
    """Where a stream resumes: ``Last-Event-ID`` (ASCII digits only) over ``?after``, else None (a fresh start)."""
    last = request.headers.get("Last-Event-ID")
    if last is None:
        return after
    if not (last.isascii() and last.isdigit()) or len(last) > 10:
        raise malformed("Last-Event-ID must be a version number (ASCII digits)")
    return int(last)


@blp.route("/games/<game_id>/audit")
@blp.response(200, schemas.Audit)
@documented_errors(404)
@blp.doc(operationId="getAudit")
def get_audit(game_id: str) -> dict[str, Any]:
    """Check the hash chain and, once the game is over, re-decide every command from the seed."""
    return tables().audit(game_id, reader=clients.address_client())


@blp.route("/games/<game_id>/export")
@blp.response(200, schemas.Export)
@documented_errors(401, 403, 404, 409)
@blp.doc(operationId="getExport", security=SEAT)
def get_export(game_id: str) -> dict[str, Any]:
    """The portable record of a finished game, verifiable offline with `mythos audit` (a private table's: for its
    seats, the players invited to it and holders of its invite code)."""
    caller(game_id)
    return tables().export(game_id, reader=clients.address_client())
