"""Marshmallow schemas of what happens around a table: chat, mutes and rematches."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

CHANNELS = ["players", "spectators"]
CHANNEL = validate.OneOf(CHANNELS)


class ChatQuery(Schema):
    channel = fields.String(load_default="players", validate=CHANNEL, metadata={
        "description": "players (the seats write; everyone who may watch reads) or spectators (those who watch "
                       "write and, with their player key, read while the game is on; everyone who may watch reads it "
                       "once the game is over)"})
    after = fields.Integer(load_default=0, validate=validate.Range(0, 2**53), metadata={
        "description": "only lines after this id (the page's `next`)"})
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 200))


class Speaker(Schema):
    name = fields.String(required=True)
    seat = fields.Integer(metadata={"description": "the seat that wrote (the players' channel)"})
    player = fields.String(metadata={"description": "the player that wrote, when it wrote with its key"})


class ChatLine(Schema):
    id = fields.Integer(required=True, metadata={"description": "orders the lines of both channels"})
    channel = fields.String(required=True, validate=CHANNEL)
    at = fields.String(required=True)
    sender = fields.Nested(Speaker, required=True, data_key="from", attribute="from")
    text = fields.String(required=True, metadata={"description": "plain text"})


class ChatPage(Schema):
    messages = fields.List(fields.Nested(ChatLine), required=True)
    next = fields.Integer(required=True, metadata={"description": "ask with after=next for the lines that follow"})


class ChatRequest(Schema):
    channel = fields.String(validate=CHANNEL, metadata={"description": "players for a seat, spectators for the others "
                                                                      "(the default: the caller's own)"})
    text = fields.String(required=True, validate=validate.Length(1, 4096), metadata={
        "description": "plain text, at most CHAT_MAX_CHARS (280) characters once control characters are spaces"})


class Muted(Schema):
    player = fields.String(required=True)
    muted = fields.Boolean(required=True)


class MutedSeat(Schema):
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    muted = fields.Boolean(required=True)


class Rematch(Schema):
    offered_by = fields.Integer(required=True, metadata={"description": "the seat that offered it"})
    accepted = fields.List(fields.Integer(), required=True, metadata={"description": "the seats that said yes"})
    game = fields.String(allow_none=True, required=True, metadata={"description": "the new table, once every person said yes"})
    expires_at = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["offered", "accepted", "declined", "expired"]))
    declined_by = fields.Integer(allow_none=True, required=True)


class RematchAnswer(Schema):
    rematch = fields.Nested(Rematch, allow_none=True, required=True)
