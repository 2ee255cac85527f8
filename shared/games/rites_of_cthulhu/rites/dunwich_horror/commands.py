"""The Dunwich Horror's commands (besides the shared ``draw_card`` and ``end_turn``)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, post_load, validate

from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn

PAIR = "two different entity card ids from your hand, in any order (loaded ascending)"
WALL = "a wall slot: 0-3 surround Wilbur Whateley (7), 4-7 The Dunwich Horror (6)"


class CardPair(Schema):
    """Two cards from the hand; a pair is a set, so it is loaded in ascending order."""

    cards = fields.List(fields.Integer(), required=True, validate=validate.Length(equal=2), metadata={"description": PAIR})

    @post_load
    def _ascending(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        data["cards"] = sorted(data["cards"])
        return data


class RevealWall(CardPair):
    """Turn a face-down wall card over with a pair whose elder sign sum or difference equals its twin's elder sign;
    then capture it with a second pair or knock ("Dunwich Horror", The Play)."""

    wall = fields.Integer(required=True, metadata={"description": WALL})


class CaptureWall(CardPair):
    """Capture a revealed wall card with a pair whose sum or difference equals its elder sign: the one you just
    revealed, or an earlier one at the start of your turn; one capture a turn ("Dunwich Horror", The Play)."""

    wall = fields.Integer(required=True, metadata={"description": WALL})


class CallKnock(Schema):
    """Knock on the table instead of capturing the card you revealed: every other cultist may claim it
    ("Dunwich Horror", The Play)."""


class Knock(CardPair):
    """Claim the card another cultist knocked for, with a pair whose sum or difference equals its elder sign: the
    first valid claim the server applies wins ("Dunwich Horror", The Play and Privilege)."""


class PassKnock(Schema):
    """Let the card another cultist knocked for go: once every other cultist has passed it stays face up."""


class DiscardAndDraw(CardPair):
    """Forego your turn to discard two cards and draw two ("Dunwich Horror", The Play)."""


COMMANDS = {
    "reveal_wall": RevealWall,
    "capture_wall": CaptureWall,
    "call_knock": CallKnock,
    "knock": Knock,
    "pass_knock": PassKnock,
    "discard_and_draw": DiscardAndDraw,
    "end_turn": EndTurn,
    "draw_card": DrawCard,
}
