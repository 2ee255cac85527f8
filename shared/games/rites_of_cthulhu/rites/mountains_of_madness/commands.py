"""At the Mountains of Madness's commands (besides the shared ``draw_card`` and ``end_turn``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.cards import Side

CARD = "an entity card id from your hand"
RIDGE_CARD = "the ridge card whose slope you play on"
SIDE = "the slope above or below that ridge card"


class ExtendRidge(Schema):
    """Lay a card on the ridge: the first declares the Elder Sign; the ridge is a run of up to four cards, no
    forbidden books, and a card that fits it may not go on a slope ("Creating the Ridge")."""

    card = fields.Integer(required=True, metadata={"description": CARD})


class PlayOnSlope(Schema):
    """Play a card on a slope above or below a ridge card, one elder sign above or below the card it covers
    ("Creating the slopes")."""

    card = fields.Integer(required=True, metadata={"description": CARD})
    ridge_card = fields.Integer(required=True, metadata={"description": RIDGE_CARD})
    side = fields.String(required=True, validate=validate.OneOf(list(Side)), metadata={"description": SIDE})


class PlayCliff(Schema):
    """Play a cliff: a forbidden book with any other card on any slope, then draw one card and play on
    ("Creating Cliffs")."""

    book = fields.Integer(required=True, metadata={"description": "a forbidden book (elder sign 0) from your hand"})
    card = fields.Integer(required=True, metadata={"description": "the other card of the cliff, from your hand"})
    ridge_card = fields.Integer(required=True, metadata={"description": RIDGE_CARD})
    side = fields.String(required=True, validate=validate.OneOf(list(Side)), metadata={"description": SIDE})


COMMANDS = {"extend_ridge": ExtendRidge, "play_on_slope": PlayOnSlope, "play_cliff": PlayCliff,
            "draw_card": DrawCard, "end_turn": EndTurn}
