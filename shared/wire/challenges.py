"""Marshmallow schemas of challenges (``POST /v1/challenges`` …) and of the player's own settings (``PATCH /v1/me``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.wire.places import AI_LEVEL
from shared.wire.schemas import StrictBoolean, WholeNumber, check_shallow

POLICIES = ["auto", "manual", "never"]
STATUSES = ["open", "accepted", "declined", "withdrawn", "expired"]


class ChallengeRequest(Schema):
    to = fields.String(required=True, validate=validate.Length(1, 64),
                       metadata={"description": "the id of the player (or bot) challenged"})
    game = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "the game type's id"})
    seats = WholeNumber(validate=validate.Range(2, 16), metadata={
        "description": "the table's size where the game allows several (default: 2, or the game's smallest); the "
                       "seats past the two players' are AI seats"})
    options = fields.Dict(keys=fields.String(), load_default=dict, validate=check_shallow,
                          metadata={"description": "the game's options, as POST /v1/games takes them"})
    rated = StrictBoolean(load_default=False, metadata={
        "description": "a rated table (it is public and both players are players: the rated table's rules hold)"})
    ai = fields.String(validate=AI_LEVEL, metadata={"description": "the AI level of the seats past the two (default: "
                                                                   "the server's TAKEOVER_AI)"})
    turn_timeout_s = WholeNumber(allow_none=True, load_default=None, validate=validate.Range(1, 7 * 86400),
                                 metadata={"description": "the table's turn time limit (none: no limit)"})


class ChallengeParty(Schema):
    player = fields.String(required=True)
    name = fields.String(required=True)
    bot = fields.Boolean(required=True, metadata={"description": "a bot account"})
    seat = fields.Integer(required=True, metadata={"description": "its seat at the table: 0 the challenger's, 1 the "
                                                                  "challenged's"})


class Challenge(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "the game type's id"})
    seats = fields.Integer(required=True)
    options = fields.Dict(required=True)
    rated = fields.Boolean(required=True)
    ai = fields.String(allow_none=True, required=True, metadata={"description": "the AI level of the seats past the "
                                                                                "two (null: a table of two)"})
    turn_timeout_s = fields.Integer(allow_none=True, required=True)
    challenger = fields.Nested(ChallengeParty, required=True)
    challenged = fields.Nested(ChallengeParty, required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES), metadata={
        "description": "open until accepted (then `table` is the table), declined, withdrawn or expired"})
    table = fields.String(allow_none=True, required=True, metadata={"description": "the table's id, once accepted"})
    made_at = fields.String(required=True)
    expires_at = fields.String(required=True, metadata={"description": "it lapses then, unanswered (CHALLENGE_LAPSE_S)"})


class Challenges(Schema):
    outgoing = fields.List(fields.Nested(Challenge), required=True, metadata={"description": "made by the caller, open"})
    incoming = fields.List(fields.Nested(Challenge), required=True, metadata={"description": "made to the caller, open"})


class MeUpdate(Schema):
    accept_challenges = fields.String(validate=validate.OneOf(POLICIES), metadata={
        "description": "how challenges to the player are answered: manual (its stream says `challenge`; it accepts or "
                       "declines), never (refused when made), auto (a bot account's only: accepted when made, the "
                       "seat held by the key that sets it)"})


class Me(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    bot = fields.Boolean(required=True)
    created_at = fields.String(required=True)
    accept_challenges = fields.String(required=True, validate=validate.OneOf(POLICIES))
