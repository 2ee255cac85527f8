"""Arkham Ritual's commands: one marshmallow schema per command type. The docstrings and field descriptions are
the catalogue's words for client authors, with the rulebook section each follows (arkham-ritual.md)."""

from __future__ import annotations

from marshmallow import Schema, fields


class DrawCard(Schema):
    """The Active Player draws the top card of the Deck and secretly looks at it (6-1, steps 1 and 2)."""


class PassCard(Schema):
    """Pass the face-down card, without looking at it if you did not draw it, to a player with a hand on the
    table (6-1 step 3; 6-2-2). The Active Player may not keep it. When no hand is left on the table, the last
    Follower passes to nobody: the card is discarded without effect and the round ends (6-2-2)."""

    to = fields.Integer(required=False, allow_none=True, load_default=None, metadata={
        "description": "the seat that receives the card, one with a hand on the table; null (or left out) only when "
                       "no hand is left on the table",
    })


class TakeCard(Schema):
    """Take the card you were passed: discard the card you hold face up, take the new one without looking at it,
    then resolve the discarded Event card (6-2-1; 10-2)."""


class ReturnTopCard(Schema):
    """Magical Orb: put the card you looked at back on top of the Deck (10-2)."""


class RemoveTopCard(Schema):
    """Magical Orb: remove the card you looked at from the game, face down (10-2)."""


COMMANDS: dict[str, type[Schema]] = {
    "draw_card": DrawCard,
    "pass_card": PassCard,
    "take_card": TakeCard,
    "return_top_card": ReturnTopCard,
    "remove_top_card": RemoveTopCard,
}
