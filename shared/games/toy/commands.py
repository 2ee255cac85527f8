"""Toy's commands: one marshmallow schema per command type; the docstring and field descriptions are the
catalogue's words for client authors."""

from __future__ import annotations

from marshmallow import Schema, fields

from shared.games.toy.cards import CARDS


class DrawCard(Schema):
    """Draw the top card of the deck into your hand (only you see it). Rule 2."""


class PlayCard(Schema):
    """Play a card from your hand face up and score its value. Rule 3."""

    card = fields.Integer(required=True, strict=True, metadata={"description": f"a card in your hand ({CARDS[0]}–{CARDS[-1]})"})


COMMANDS = {"draw_card": DrawCard, "play_card": PlayCard}
