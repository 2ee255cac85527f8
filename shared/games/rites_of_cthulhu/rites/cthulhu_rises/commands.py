"""Cthulhu Rises's commands."""

from __future__ import annotations

from marshmallow import Schema, fields


class PlayCard(Schema):
    """Play a card on the gate: its first card opens it and sets the dominant cult; the others must follow the
    dominant cult if they can; a green card from a cultist who opened a gate casts a spell to summon Cthulhu
    ("Cthulhu Rises", The Play)."""

    card = fields.Integer(required=True, metadata={"description": "an entity card id from your hand"})


class ForceCard(Schema):
    """Having closed the gate, slide a card face down to another cultist, who gives you a card back without
    looking at it ("Closing a Gate")."""

    card = fields.Integer(required=True, metadata={"description": "the entity card id you force, from your hand"})
    seat = fields.Integer(required=True, metadata={"description": "the seat of another cultist who holds cards"})


class DeclineTrade(Schema):
    """Having closed the gate, force no card on anyone ("Closing a Gate": the reward is optional)."""


COMMANDS = {"play_card": PlayCard, "force_card": ForceCard, "decline_trade": DeclineTrade}
