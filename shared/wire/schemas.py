"""Marshmallow schemas for every request and response of both services; the OpenAPI document is built from them."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

MAX_VERSION = 2**31


class ErrorBody(Schema):
    code = fields.String(required=True, metadata={"example": "rules/not_your_turn"})
    message = fields.String(required=True)
    details = fields.Dict(required=True)


class Error(Schema):
    error = fields.Nested(ErrorBody, required=True)


# -- catalogue ----------------------------------------------------------------------------------------
class GameType(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": "name → {type, default, choices?, description}"})
    commands = fields.Dict(required=True, metadata={"description": "command type → JSON schema of its fields"})
    ai_levels = fields.List(fields.String(), required=True)
    card_data = fields.Dict(required=True)


class Catalog(Schema):
    games = fields.List(fields.Nested(GameType), required=True)


# -- games --------------------------------------------------------------------------------------------
class SeatRequest(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 64))
    ai = fields.String(allow_none=True, load_default=None, validate=validate.Length(1, 32))


class CreateGame(Schema):
    game = fields.String(required=True, validate=validate.Length(1, 64))
    seats = fields.List(fields.Nested(SeatRequest), required=True, validate=validate.Length(1, 16))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    turn_timeout_s = fields.Integer(strict=True, allow_none=True, load_default=None, validate=validate.Range(1, 7 * 86400))
    seed = fields.String(
        validate=validate.Regexp(r"^[0-9a-f]{2,128}$"),
        metadata={"description": "hex; accepted only by a server started with MYTHOS_ALLOW_CLIENT_SEED=1 (tests, replays)"},
    )


class Seat(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    ai = fields.String(allow_none=True, required=True)
    token = fields.String(metadata={"description": "returned once, at creation, for human seats"})


class GameResource(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    version = fields.Integer(required=True)
    seed_commitment = fields.String(required=True)
    seats = fields.List(fields.Nested(Seat), required=True)
    options = fields.Dict(required=True)
    turn_timeout_s = fields.Integer(allow_none=True, required=True)
    rules_version = fields.String(required=True)
    head_hash = fields.String(required=True)
    to_act = fields.List(fields.Integer(), required=True)
    outcome = fields.Dict(allow_none=True, required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)
    seed = fields.String(metadata={"description": "revealed once the game is over"})


class GamePage(Schema):
    games = fields.List(fields.Nested(GameResource), required=True)
    next = fields.String(allow_none=True, required=True)


class GamesQuery(Schema):
    status = fields.String(validate=validate.OneOf(["active", "finished"]))
    game = fields.String(validate=validate.Length(1, 64))
    cursor = fields.String(validate=validate.Length(1, 64))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


# -- playing ------------------------------------------------------------------------------------------
class StateQuery(Schema):
    at = fields.Integer(validate=validate.Range(0, MAX_VERSION))
    seat = fields.Integer(validate=validate.Range(0, 64), metadata={"description": "must be the caller's own seat"})


class State(Schema):
    version = fields.Integer(required=True)
    status = fields.String(required=True)
    to_act = fields.List(fields.Integer(), required=True)
    view = fields.Dict(required=True)
    legal_commands = fields.List(fields.Dict(), required=True)
    deadline = fields.String(allow_none=True, required=True)
    outcome = fields.Dict(allow_none=True, required=True)


class CommandRequest(Schema):
    command = fields.Dict(required=True, metadata={"description": "{type, ...fields}: one of legal_commands"})
    expected_version = fields.Integer(strict=True, allow_none=True, load_default=None, validate=validate.Range(0, MAX_VERSION))


class Event(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    at = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    by = fields.String(required=True, metadata={"description": "seat, ai, timeout (the turn timer moved for the seat) or server"})
    data = fields.Dict(required=True)
    hash = fields.String(required=True)
    prev_hash = fields.String(required=True)


class CommandResult(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(Event), required=True)


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_VERSION))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class EventPage(Schema):
    events = fields.List(fields.Nested(Event), required=True)
    version = fields.Integer(required=True)


class StreamQuery(Schema):
    after = fields.Integer(validate=validate.Range(0, MAX_VERSION))


# -- audit --------------------------------------------------------------------------------------------
class Audit(Schema):
    chain_ok = fields.Boolean(required=True)
    replay_ok = fields.Boolean(allow_none=True, required=True)
    first_divergence = fields.Dict(allow_none=True, required=True)
    head_hash = fields.String(required=True)
    events = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    seed_ok = fields.Boolean(allow_none=True, required=True, metadata={"description": "sha256(seed) matches the commitment"})


class Export(Schema):
    """The portable record of a finished game; docs/record-format.md describes each field."""

    format = fields.String(required=True)
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.Dict(), required=True)
    seed = fields.String(required=True)
    seed_commitment = fields.String(required=True)
    head_hash = fields.String(required=True)
    outcome = fields.Dict(allow_none=True, required=True)
    commands = fields.List(fields.Dict(), required=True)
    events = fields.List(fields.Dict(), required=True)


# -- rules service ------------------------------------------------------------------------------------
class SetupRequest(Schema):
    game = fields.String(required=True, validate=validate.Length(1, 64))
    players = fields.Integer(strict=True, required=True, validate=validate.Range(1, 64))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    entropy = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{2,128}$"))


class Position(Schema):
    """A position is either an encoded state (as the session service sends it) or the events that led to it."""

    game = fields.String(required=True, validate=validate.Length(1, 64))
    state = fields.Raw(metadata={"description": "encoded state (snapshot codec)"})
    events = fields.List(fields.Dict(), metadata={"description": "the events from setup on, instead of state"})


class DecideRequest(Position):
    command = fields.Dict(required=True)
    seat = fields.Integer(strict=True, required=True, validate=validate.Range(0, 64))
    entropy = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{2,128}$"))


class LegalRequest(Position):
    seat = fields.Integer(strict=True, required=True, validate=validate.Range(0, 64))


class RawEvent(Schema):
    type = fields.String(required=True)
    data = fields.Dict(required=True)
    secret = fields.Dict()


class SetupResult(Schema):
    options = fields.Dict(required=True)
    events = fields.List(fields.Nested(RawEvent), required=True)
    rules_version = fields.String(required=True)


class DecideResult(Schema):
    events = fields.List(fields.Nested(RawEvent), required=True)
    rules_version = fields.String(required=True)


class LegalResult(Schema):
    legal_commands = fields.List(fields.Dict(), required=True)
    to_act = fields.List(fields.Integer(), required=True)


class Health(Schema):
    status = fields.String(required=True)
    checks = fields.Dict()
