"""What happens around a table over HTTP (API.md, "Around the table"): its chat, mutes and rematches. Leaving and
declining are the lobby's (``lobby_api.py``). Thin views over ``Chat`` and ``Rematches``."""

from __future__ import annotations

from typing import Any

from flask import current_app

from shared.wire import around as schemas
from shared.wire.flaskapp import Blueprint, documented_errors
from session_service.http import clients
from session_service.http.api import caller
from session_service.http.clients import bearer
from session_service.http.lobby_api import PLAYER, players, the_player
from session_service.use_cases.chat import Chat
from session_service.use_cases.errors import BadRequest, MissingToken
from session_service.use_cases.meta import Meta
from session_service.use_cases.players import Player, is_player_key, seat_mute
from session_service.use_cases.rematch import Rematches

blp = Blueprint("table", __name__, url_prefix="/v1", description="Around the table: chat, mutes, rematches")


def chat() -> Chat:
    found: Chat = current_app.extensions["chat"]
    return found


def rematches() -> Rematches:
    found: Rematches = current_app.extensions["rematches"]
    return found


def reader(game_id: str) -> tuple[Meta, int | None, Player | None]:
    """The game, the caller's seat (None: it watches) and its player (a player key's), once it may watch."""
    meta, seat = caller(game_id)
    token = bearer()
    return meta, seat, players().by_key(token) if is_player_key(token) else None


def seated(game_id: str) -> tuple[Meta, int]:
    meta, seat, _ = reader(game_id)
    if seat is None:
        raise MissingToken("this needs the seat's token or its player's key: 'Authorization: Bearer <token>'")
    return meta, seat


@blp.route("/games/<game_id>/chat")
@blp.arguments(schemas.ChatQuery(), location="query")
@blp.response(200, schemas.ChatPage)
@blp.doc(operationId="readChat", security=[{"seatToken": []}, {}])
@documented_errors(401, 403, 404)
def read_chat(query: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The table's chat after a line, oldest first: the players' channel for everyone who may watch; the
    spectators' while the game is on for spectators with their player key (a player holding no seat here; 401
    without one, 403 `chat/not_your_channel` for a seat), and for everyone who may watch once it is over.
    Lines of players the caller muted are left out. Chat is no part of the game's log: the audit does not see it."""
    meta, seat, player = reader(game_id)
    return chat().read(meta, seat, player, query["channel"], query["after"], query["limit"])


@blp.route("/games/<game_id>/chat", methods=["POST"])
@blp.arguments(schemas.ChatRequest())
@blp.response(201, schemas.ChatLine)
@blp.doc(operationId="writeChat", security=PLAYER)
@documented_errors(401, 403, 404, 422, 429)
def write_chat(body: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Say something at the table: a seat to the players' channel; a player who watches (player key) to the
    spectators'. Plain text of at most CHAT_MAX_CHARS characters, CHAT_LINES_PER_MINUTE lines a minute per player
    (or seat token) and CHAT_LINES_PER_ADDRESS a minute per address: 429 `request/rate_limited` past either. The line
    reaches the game's live streams as a `chat` message."""
    meta, seat, player = reader(game_id)
    writer = f"player:{player.id}" if player is not None else clients.client(meta)
    return chat().post(meta, seat, player, writer, body.get("channel"), body["text"], clients.address_client())


@blp.route("/players/<player_id>/mute", methods=["POST"])
@blp.response(200, schemas.Muted)
@blp.doc(operationId="mutePlayer", security=PLAYER)
@documented_errors(401, 404, 422, 429)
def mute(player_id: str) -> dict[str, Any]:
    """Read no more chat lines of that player, at any table (player key): on the streams and in `GET /chat`; and
    take no challenge from it (refused as to a player who set `accept_challenges: never`)."""
    me, _ = the_player()
    players().mute(me, player_id)
    return {"player": player_id, "muted": True}


@blp.route("/games/<game_id>/seats/<int:seat>/mute", methods=["POST"])
@blp.response(200, schemas.MutedSeat)
@blp.doc(operationId="muteSeat", security=PLAYER)
@documented_errors(400, 401, 403, 404, 429)
def mute_seat(game_id: str, seat: int) -> dict[str, Any]:
    """Read no more chat lines of that seat of the table (player key), whoever holds it: a seat held by a token has
    no player to mute. On the streams and in `GET /chat`; counted among your mutes."""
    me, _ = the_player()
    meta, mine, _ = reader(game_id)
    checked_seat(meta, seat, mine)
    players().mute_seat(me, game_id, seat)
    return {"game": game_id, "seat": seat, "muted": True}


@blp.route("/games/<game_id>/seats/<int:seat>/unmute", methods=["POST"])
@blp.response(200, schemas.MutedSeat)
@blp.doc(operationId="unmuteSeat", security=PLAYER)
@documented_errors(401)
def unmute_seat(game_id: str, seat: int) -> dict[str, Any]:
    """Read that seat's chat lines again (player key)."""
    me, _ = the_player()
    players().unmute(me, seat_mute(game_id, seat))
    return {"game": game_id, "seat": seat, "muted": False}


def checked_seat(meta: Meta, seat: int, mine: int | None) -> None:
    if not 0 <= seat < len(meta.seats):
        raise BadRequest(f"this table has seats 0 to {len(meta.seats) - 1}", {"seats": len(meta.seats)})
    if seat == mine:
        raise BadRequest("you cannot mute your own seat")


@blp.route("/players/<player_id>/unmute", methods=["POST"])
@blp.response(200, schemas.Muted)
@blp.doc(operationId="unmutePlayer", security=PLAYER)
@documented_errors(401)
def unmute(player_id: str) -> dict[str, Any]:
    """Read that player's chat lines again (player key)."""
    me, _ = the_player()
    players().unmute(me, player_id)
    return {"player": player_id, "muted": False}


@blp.route("/games/<game_id>/rematch")
@blp.response(200, schemas.RematchAnswer)
@blp.doc(operationId="getRematch", security=[{"seatToken": []}, {}])
@documented_errors(403, 404)
def get_rematch(game_id: str) -> dict[str, Any]:
    """The table's rematch: null when none was offered; else who offered it, who said yes, whether it was declined or
    expired, and the new table once every person said yes."""
    meta, _, _ = reader(game_id)
    return {"rematch": rematches().current(meta)}


@blp.route("/games/<game_id>/rematch", methods=["POST"])
@blp.response(200, schemas.RematchAnswer)
@blp.doc(operationId="offerRematch", security=PLAYER)
@documented_errors(401, 403, 404, 409, 429)
def offer_rematch(game_id: str) -> dict[str, Any]:
    """Offer a rematch of a finished table, or accept the one on offer (a person seated at it). When every person has,
    the new table starts at once: the same game, options, time limit and seats (AI seats kept; each person's token or
    key holds the same seat there), a new seed. An offer lasts REMATCH_OFFER_S; a table is offered a rematch
    REMATCH_OFFERS_PER_TABLE times at most (429). The players at the table read offers and answers on their streams."""
    meta, seat = seated(game_id)
    return {"rematch": rematches().offer(meta, seat)}


@blp.route("/games/<game_id>/rematch/decline", methods=["POST"])
@blp.response(200, schemas.RematchAnswer)
@blp.doc(operationId="declineRematch", security=PLAYER)
@documented_errors(401, 403, 404, 409)
def decline_rematch(game_id: str) -> dict[str, Any]:
    """Turn the rematch on offer down: it is dropped (409 `rematch/none` when none is on offer)."""
    meta, seat = seated(game_id)
    return {"rematch": rematches().decline(meta, seat)}
