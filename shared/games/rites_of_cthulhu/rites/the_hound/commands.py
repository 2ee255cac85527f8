"""The Hound's commands."""

from __future__ import annotations

from marshmallow import Schema, fields

GRAVE = "a grave's index in the graveyard (players + 1 graves)"
HAND_CARD = "an entity card id from your hand"


class PeekGrave(Schema):
    """The Grand Cultist's privilege before her first turn: peek at any one face-down grave ("The Hound",
    Privilege of the Grand Cultist)."""

    grave = fields.Integer(required=True, metadata={"description": GRAVE})


class DeclinePeek(Schema):
    """The Grand Cultist does not use the privileged peek and takes her first turn."""


class PlaceGhoul(Schema):
    """Place a ghoul from your hand next to a grave where you have none yet, draw a replacement, and peek at the
    grave unless it is face up ("The Hound", First Turn and Subsequent turns)."""

    card = fields.Integer(required=True, metadata={"description": HAND_CARD})
    grave = fields.Integer(required=True, metadata={"description": GRAVE})


class KeepGhoul(Schema):
    """Leave your ghoul at the grave you peeked at: two ghouls there dig it up, else your turn ends."""


class MoveGhoul(Schema):
    """Move your ghoul once to another grave, without peeking at it ("The Hound", Subsequent turns)."""

    grave = fields.Integer(required=True, metadata={"description": GRAVE})


class CallHenchman(Schema):
    """Seal a henchman of your ghoul's cult for the dig; revealed with your partner's ("Digging a grave")."""

    card = fields.Integer(required=True, metadata={"description": "a card of your ghoul's cult, from your hand"})


class PsychOut(Schema):
    """Seal a dummy henchman, kept face down at the reveal: it psychs your partner's henchman out and goes back to
    your hand ("Psyching Out Your Digging Partner")."""

    card = fields.Integer(required=True, metadata={"description": HAND_CARD})


class NoHenchman(Schema):
    """Seal no henchman for the dig: only your ghoul counts."""


class PassTurn(Schema):
    """Pass your turn when you can send no ghoul (an empty hand, or your ghouls at every grave left): a project
    ruling."""


COMMANDS = {
    "peek_grave": PeekGrave,
    "decline_peek": DeclinePeek,
    "place_ghoul": PlaceGhoul,
    "keep_ghoul": KeepGhoul,
    "move_ghoul": MoveGhoul,
    "call_henchman": CallHenchman,
    "psych_out": PsychOut,
    "no_henchman": NoHenchman,
    "pass_turn": PassTurn,
}
