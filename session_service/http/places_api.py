"""Profiles, leaderboards and quick play over HTTP: thin views over ``Standings`` and ``Matchmaker``."""

from __future__ import annotations

from typing import Any

from flask import current_app

from shared.wire import places as schemas
from shared.wire.flaskapp import Blueprint, documented_errors
from session_service.http import clients
from session_service.http.lobby_api import PLAYER, the_player
from session_service.use_cases.matchmaker import Matchmaker
from session_service.use_cases.standings import Standings

blp = Blueprint("places", __name__, url_prefix="/v1", description="Profiles, leaderboards and quick play")
MATCHED = """Once matched, the player's stream (GET /v1/me/stream) says `matched` `{game, game_type, seat, seek, version,
rated}`: the new table, where the player holds `seat` with its player key."""


def standings() -> Standings:
    found: Standings = current_app.extensions["standings"]
    return found


def matchmaker() -> Matchmaker:
    found: Matchmaker = current_app.extensions["matchmaker"]
    return found


@blp.route("/players/<player_id>")
@blp.arguments(schemas.ProfileQuery(), location="query")
@blp.response(200, schemas.Profile)
@blp.doc(operationId="getPlayer")
@documented_errors(404)
def get_player(query: dict[str, Any], player_id: str) -> dict[str, Any]:
    """A player's profile: name, bot or not, ratings per game with games played, and a page of its finished public
    games, newest first (no private table, nor anything of one)."""
    return standings().profile(player_id, query.get("cursor"), query["limit"])


@blp.route("/leaderboards/<game>")
@blp.arguments(schemas.LeaderboardQuery(), location="query")
@blp.response(200, schemas.Leaderboard)
@blp.doc(operationId="getLeaderboard")
@documented_errors(404)
def get_leaderboard(query: dict[str, Any], game: str) -> dict[str, Any]:
    """A game's leaderboard, best first by ordinal (mu - 3 sigma), a page at a time: the entries of ``pool`` with at
    least ``min_games`` rated games."""
    return standings().leaderboard(game, query["pool"], query.get("cursor"), query["limit"])


@blp.route("/seeks", methods=["POST"])
@blp.arguments(schemas.SeekRequest())
@blp.response(201, schemas.Seek)
@blp.doc(operationId="createSeek", security=PLAYER, description=MATCHED)
@documented_errors(401, 403, 429)
def create_seek(body: dict[str, Any]) -> dict[str, Any]:
    """Quick play: wait in the pool of a game (player key) until compatible seekers are found (README, "Quick play")."""
    player, key = the_player()
    return matchmaker().seek(player, key, body, clients.address_client())


@blp.route("/seeks", methods=["GET"])
@blp.response(200, schemas.Seeks)
@blp.doc(operationId="listSeeks", security=PLAYER)
@documented_errors(401)
def list_seeks() -> dict[str, Any]:
    """The caller's open seeks."""
    player, _ = the_player()
    return {"seeks": matchmaker().mine(player)}


@blp.route("/seeks/<seek_id>", methods=["DELETE"])
@blp.response(204)
@blp.doc(operationId="deleteSeek", security=PLAYER)
@documented_errors(401, 404)
def delete_seek(seek_id: str) -> None:
    """Withdraw an open seek (404 once it was matched, or lapsed)."""
    player, _ = the_player()
    matchmaker().withdraw(player, seek_id)
