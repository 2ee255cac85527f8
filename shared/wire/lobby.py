"""Marshmallow schemas of the lobby: players, joining, starting, the player's own tables and stream."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.wire.schemas import STATUSES, GameResource, StrictBoolean, WholeNumber

AI_LEVEL = validate.Length(1, 32)


class PlayerRequest(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "shown at every table"})
    bot = StrictBoolean(load_default=False, metadata={"description": "true for a program playing, not a person"})


class Player(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    bot = fields.Boolean(required=True)
    created_at = fields.String(required=True)
    key = fields.String(metadata={"description": "the player key, shown once: 'Authorization: Bearer <key>' acts for "
                                                "every seat the player holds"})


class JoinRequest(Schema):
    name = fields.String(validate=validate.Length(1, 64), metadata={"description": "who joins (default: the player's name)"})
    seat = WholeNumber(validate=validate.Range(0, 63), metadata={"description": "the open seat to take"})
    invite = fields.String(validate=validate.Length(1, 64), metadata={"description": "a private table's invite code"})


class JoinResult(Schema):
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    token = fields.String(metadata={"description": "the seat token, shown once (not when joining with a player key)"})


class StartRequest(Schema):
    ai = fields.String(load_default="random", validate=AI_LEVEL, metadata={"description": "the AI level of the seats it fills"})


class MyGamesQuery(Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    cursor = fields.String(validate=validate.Length(1, 64))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class MyGames(Schema):
    games = fields.List(fields.Nested(GameResource), required=True)
    next = fields.String(allow_none=True, required=True)
