"""Out of the Aeons's commands."""

from __future__ import annotations

from marshmallow import Schema, fields


class Bid(Schema):
    """Place one card of your hand face down as your bid for the revealed yellow card; the bids are revealed
    together once everyone has bid, and the highest elder sign takes the card ("Out of the Aeons", The Play)."""

    card = fields.Integer(required=True, metadata={"description": "an entity card id from your hand"})


class DiscardRevealed(Schema):
    """The Grand Cultist's privilege, once this rite: discard the revealed yellow card before the bidding, and the
    next one is turned over ("Out of the Aeons", Privilege of the Grand Cultist)."""


class KeepRevealed(Schema):
    """The Grand Cultist keeps the revealed yellow card (and the privilege for a later round): the bidding opens."""


COMMANDS = {"bid": Bid, "discard_revealed": DiscardRevealed, "keep_revealed": KeepRevealed}
