"""Challenges over HTTP (README, "Challenges"): thin views over ``Challenges``; every rule is in
``session_service/use_cases/challenges.py``."""

from __future__ import annotations

from typing import Any

from flask import current_app

from shared.wire import challenges as schemas
from shared.wire.flaskapp import Blueprint, documented_errors
from session_service.http import clients
from session_service.http.api import IDEMPOTENCY, checked_idempotency_key
from session_service.http.lobby_api import PLAYER, the_player
from session_service.use_cases.challenges import Challenges

blp = Blueprint("challenges", __name__, url_prefix="/v1", description="Challenges: a game asked of one player")
ACCEPTED = """The table opens at once (public, rated if asked; the challenger holds seat 0, the challenged seat 1, AI
seats the rest, each player's seat held by its player key): both players' streams (GET /v1/me/stream) say
`challenge_accepted` `{game, game_type, seat, version, rated, challenge}`, and the answer's `table` is its id. Accepting
again answers the same table; answering a challenge answered already (or lapsed) is 409 `challenge/closed`."""


def challenges() -> Challenges:
    found: Challenges = current_app.extensions["challenges"]
    return found


@blp.route("/challenges", methods=["POST"])
@blp.arguments(schemas.ChallengeRequest())
@blp.response(201, schemas.Challenge)
@blp.doc(operationId="createChallenge", security=PLAYER, parameters=[IDEMPOTENCY], description="""Challenge a player
or a bot by its id (player key): the challenged player's stream says `challenge`; it accepts or declines, the
challenger may withdraw it, and unanswered it lapses at `expires_at` (CHALLENGE_LAPSE_S). A bot whose owner set
`accept_challenges: auto` accepts at once: the answer is then `accepted`, with its `table`. Sent again with its
`Idempotency-Key` (a day), it answers the same challenge as it is now, told and counted once. Refused: 404
`player/not_found` (no such player), 422 `challenge/self`, `challenge/not_accepting` (the player set `never`, or
does not take your challenges), `request/idempotency_key_reused`, `rules/unknown_game`, `rules/player_count`,
`rules/invalid_option` or `rules/unknown_ai`; 429 past CHALLENGES_PER_PLAYER open challenges made, or
CHALLENGES_TO_PLAYER open to that player. Nothing is kept of a refused one.""")
@documented_errors(401, 404, 422, 429)
def create_challenge(body: dict[str, Any]) -> dict[str, Any]:
    """Challenge a player or a bot to a game."""
    player, key = the_player()
    return challenges().make(player, key, body, clients.address_client(), checked_idempotency_key())


@blp.route("/challenges", methods=["GET"])
@blp.response(200, schemas.Challenges)
@blp.doc(operationId="listChallenges", security=PLAYER)
@documented_errors(401)
def list_challenges() -> dict[str, Any]:
    """The caller's open challenges: those it made and those made to it, oldest first (nobody else's)."""
    player, _ = the_player()
    return challenges().mine(player)


@blp.route("/challenges/<challenge_id>", methods=["GET"])
@blp.response(200, schemas.Challenge)
@blp.doc(operationId="getChallenge", security=PLAYER)
@documented_errors(401, 404)
def get_challenge(challenge_id: str) -> dict[str, Any]:
    """One of the caller's challenges, whatever became of it (kept a day past its lapse); 404 `challenge/not_found`
    for anyone else's, as for one that never was."""
    player, _ = the_player()
    return challenges().get(player, challenge_id)


@blp.route("/challenges/<challenge_id>/accept", methods=["POST"])
@blp.response(200, schemas.Challenge)
@blp.doc(operationId="acceptChallenge", security=PLAYER, description=ACCEPTED)
@documented_errors(401, 403, 404, 409)
def accept_challenge(challenge_id: str) -> dict[str, Any]:
    """The challenged player accepts: the table opens (403 `challenge/not_yours` for the challenger)."""
    player, key = the_player()
    return challenges().accept(player, key, challenge_id)


@blp.route("/challenges/<challenge_id>/decline", methods=["POST"])
@blp.response(200, schemas.Challenge)
@blp.doc(operationId="declineChallenge", security=PLAYER)
@documented_errors(401, 403, 404, 409)
def decline_challenge(challenge_id: str) -> dict[str, Any]:
    """The challenged player declines: the challenger's stream says `challenge_declined`."""
    player, _ = the_player()
    return challenges().decline(player, challenge_id)


@blp.route("/challenges/<challenge_id>", methods=["DELETE"])
@blp.response(204)
@blp.doc(operationId="withdrawChallenge", security=PLAYER)
@documented_errors(401, 403, 404, 409)
def withdraw_challenge(challenge_id: str) -> None:
    """The challenger withdraws its challenge: the challenged player's stream says `challenge_withdrawn`."""
    player, _ = the_player()
    challenges().withdraw(player, challenge_id)
