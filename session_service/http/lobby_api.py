"""The lobby over HTTP (API.md, "Lobby and players"): players, joining, starting, resigning, aborting, and a
player's own tables and stream. Thin views over ``Lobby``; who asks is ``clients.who``'s answer."""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for

from shared.wire import challenges as challenge_schemas
from shared.wire import lobby as schemas
from shared.wire.schemas import CommandResult
from shared.wire.edge import note
from shared.wire.flaskapp import Blueprint, documented_errors
from session_service.http import clients
from session_service.http.api import IDEMPOTENCY, checked_idempotency_key, lobby
from session_service.http.clients import bearer, who
from session_service.use_cases.errors import MissingToken
from session_service.use_cases.meta import Meta
from session_service.use_cases.player_live import PlayerStream
from session_service.use_cases.players import Player, Players, is_player_key
from session_service.http.streaming import FRAMINGS, SSE, Streams, stream_response

blp = Blueprint("lobby", __name__, url_prefix="/v1", description="Players, open tables, joining, resigning, aborting")
PLAYER: list[dict[str, list[str]]] = [{"seatToken": []}]
PLAYER_STREAM = """The caller's tables live (player key), as Server-Sent Events or, with `Accept: application/x-ndjson`
(or `application/jsonl`), one JSON object per line: each line a `PlayerStreamMessage`, each SSE event a
`PlayerStreamEvent` (read the stream line by line and parse each with it; a generated client's method for this
operation reads the whole body). First a `tables` message: `{tables: [{game, type, status, version, seat, to_act, deadline,
your_turn, invited}]}` for every table of the player that is not over, and a `your_turn` for each of them that
waits on the player, and a `rematch` for each rematch offer still open that it has not answered. Then, as they
happen: `invited` `{game, type, seat, version}` (a seat kept for the player), `seat_left` `{game, seat, name, version}`
and `seat_declined` `{game, seat, player, name, version}` (a seat of a waiting table given back, an invitation turned
down), `game_started` `{game, type, seat, version}`, `your_turn` `{game, seat, version, deadline}`, `game_finished`
`{game, status, version, seat, outcome}`, `rematch` `{game, answer (offer, accept or decline), by {seat, name},
rematch}` (the rematch as GET /v1/games/{id}/rematch shows it), quick play's `matched`, and the challenges'
(README, "Challenges"): `challenge` `{challenge}` (one made to the player: also sent as the stream opens for each still
open), `challenge_accepted` `{game, game_type, seat, version, rated, challenge}` (the new table, where the player's key
holds `seat`), `challenge_declined`, `challenge_withdrawn` and `challenge_expired` `{challenge}`; keep-alives as on a
game's stream. Open a game's own stream (or GET its
state) to play: this one says where to look. Counted against the caller's address for `STREAMS_PER_CLIENT` (a player
key is no client of its own: one request makes a player)."""


def players() -> Players:
    found: Players = current_app.extensions["players"]
    return found


def the_player() -> tuple[Player, str]:
    token = bearer()
    if not is_player_key(token):
        raise MissingToken("this needs your player key: 'Authorization: Bearer <player key>' (POST /v1/players makes one)")
    return players().by_key(token), token


def seat_of_caller(game_id: str) -> tuple[Meta, int]:
    meta = lobby().tables.meta(game_id)
    seat = lobby().tables.seat_of(meta, bearer())
    note(seat=seat)
    if seat is None:
        raise MissingToken("this needs the seat's token or its player's key: 'Authorization: Bearer <token>'")
    return meta, seat


@blp.route("/players", methods=["POST"])
@blp.arguments(schemas.PlayerRequest())
@blp.response(201, schemas.Player)
@blp.doc(operationId="createPlayer")
@documented_errors(429)
def create_player(body: dict[str, Any]) -> dict[str, Any]:
    """Make a player: a name and a key, shown once, that acts for every seat the player holds (at most
    PLAYERS_PER_CLIENT_PER_HOUR from one address)."""
    if (quotas := lobby().tables.quotas) is not None:
        quotas.admit_player(clients.address_client())
    player, key = players().make(body["name"], body["bot"])
    return {**player.to_json(), "key": key}


@blp.route("/games/<game_id>/join", methods=["POST"])
@blp.arguments(schemas.JoinRequest())
@blp.response(200, schemas.JoinResult)
@blp.doc(operationId="joinGame", parameters=[IDEMPOTENCY])
@documented_errors(401, 403, 404, 409, 422)
def join_game(body: dict[str, Any], game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Take an open seat (a private table needs its invite); the seat's token is answered once."""
    result = lobby().join(game_id, body, who(), checked_idempotency_key())
    return result, 200, {"Location": url_for("games.get_game", game_id=game_id)}


@blp.route("/games/<game_id>/start", methods=["POST"])
@blp.arguments(schemas.StartRequest())
@blp.response(200, CommandResult)
@blp.doc(operationId="startGame", security=PLAYER)
@documented_errors(401, 403, 404, 409, 422)
def start_game(body: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The creator fills the open seats with AI seats and starts the game."""
    return lobby().start(game_id, who(), bearer(), body["ai"])


@blp.route("/games/<game_id>/resign", methods=["POST"])
@blp.response(200, CommandResult)
@blp.doc(operationId="resignGame", security=PLAYER)
@documented_errors(401, 404, 409, 422)
def resign_game(game_id: str) -> dict[str, Any]:
    """Concede: an AI of the TAKEOVER_AI level (medium by default) plays the seat from now on, and it can never win."""
    meta, seat = seat_of_caller(game_id)
    return lobby().resign(game_id, seat, meta, who(meta))


@blp.route("/games/<game_id>/abort", methods=["POST"])
@blp.response(200, CommandResult)
@blp.doc(operationId="abortGame", security=PLAYER)
@documented_errors(401, 403, 404, 409, 422)
def abort_game(game_id: str) -> dict[str, Any]:
    """Call the table off, before its first move. Only its creator may (the player who opened it, or a seat it was
    opened with a name for: 403 `auth/not_your_seat` for a seat that joined it, which leaves while the table waits
    and resigns once it has started), so a stranger who joins a public table cannot end it."""
    meta, seat = seat_of_caller(game_id)
    return lobby().abort(game_id, seat, meta, who(meta), bearer())


@blp.route("/games/<game_id>/leave", methods=["POST"])
@blp.response(200, CommandResult)
@blp.doc(operationId="leaveGame", security=PLAYER)
@documented_errors(401, 404, 409, 422)
def leave_game(game_id: str) -> dict[str, Any]:
    """Give your seat back while the table waits (`table_seat_left` in its log): it opens again, for anyone. The
    creator leaving calls the table off (`table_aborted`). Once the game has started: 409 `game/started` (resign)."""
    meta, seat = seat_of_caller(game_id)
    return lobby().leave(game_id, seat, meta, who(meta), bearer())


@blp.route("/games/<game_id>/decline", methods=["POST"])
@blp.response(200, CommandResult)
@blp.doc(operationId="declineGame", security=PLAYER)
@documented_errors(401, 403, 404, 409)
def decline_game(game_id: str) -> dict[str, Any]:
    """Turn down the open seat kept for you (player key; `table_seat_declined` in the log): it opens for anyone, and
    the players at the table read it on their streams (`seat_declined`). 403 `game/not_invited` when no open seat
    here is kept for you."""
    player, _ = the_player()
    return lobby().decline(game_id, player)


@blp.route("/me")
@blp.response(200, challenge_schemas.Me)
@blp.doc(operationId="getMe", security=PLAYER)
@documented_errors(401)
def get_me() -> dict[str, Any]:
    """Who a player key belongs to (its id is the ``player`` of the seats it holds) and its settings; the key itself
    is never shown."""
    player, _ = the_player()
    return {**player.to_json(), "accept_challenges": players().challenge_policy(player.id)[0]}


@blp.route("/me", methods=["PATCH"])
@blp.arguments(challenge_schemas.MeUpdate())
@blp.response(200, challenge_schemas.Me)
@blp.doc(operationId="updateMe", security=PLAYER)
@documented_errors(401, 422)
def update_me(body: dict[str, Any]) -> dict[str, Any]:
    """Change the player's settings: how challenges to it are answered (README, "Challenges"). `auto` is for bot
    accounts only (422 `player/not_a_bot`)."""
    player, key = the_player()
    if "accept_challenges" in body:
        players().set_challenge_policy(player, key, body["accept_challenges"])
    return {**player.to_json(), "accept_challenges": players().challenge_policy(player.id)[0]}


@blp.route("/me/games")
@blp.arguments(schemas.MyGamesQuery(), location="query")
@blp.response(200, schemas.MyGames)
@blp.doc(operationId="listMyGames", security=PLAYER)
@documented_errors(401)
def my_games(query: dict[str, Any]) -> dict[str, Any]:
    """The caller's tables, newest first (player key)."""
    player, _ = the_player()
    return lobby().my_games(player, query.get("status"), query.get("cursor"), query["limit"])


@blp.route("/me/stream")
@blp.doc(operationId="streamMyTables", security=PLAYER, description=PLAYER_STREAM,
         responses={"200": stream_response("PlayerStreamEvent", "PlayerStreamMessage")})
@documented_errors(401, 429)
def my_stream() -> Any:
    """One stream of the caller's tables: started, your turn, finished, invited (player key)."""
    player, _ = the_player()
    keepalive = current_app.extensions["settings"].keepalive_s
    streams: Streams = current_app.extensions["streams"]
    framing = request.accept_mimetypes.best_match(FRAMINGS, default=SSE)
    challenges = current_app.extensions["challenges"]
    messages = PlayerStream(lobby().tables, players(), player, streams.hub, keepalive,
                            current_app.extensions["rematches"], current_app.extensions["matchmaker"].alive,
                            lambda player_id: challenges.open_ones(player_id, "in")).messages()
    # Counted against the address, not the key: a player costs one request to make, so a key per stream would
    # lift the per-client cap (and let one address fill the process's ceiling). As quotas.py counts tables.
    return streams.respond(messages, clients.address_client(), framing, f"player {player.id}")

