"""Pocket Madness (2-4 players): meld sets to open portals, runs to publish, and stay the sanest cultist.

Rulebook: ``shared/rulebooks/pocket-madness.txt``; rulings: ``docs/rulings/pocket-madness.md``.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.pocket_madness.cards import CARD_DATA, LOCATIONS, MAX_DRAW
from shared.games.pocket_madness.rules import decide, evolve, legal_commands, setup, to_act
from shared.games.pocket_madness.state import STATE_TYPES
from shared.games.pocket_madness.views import invariant, outcome, resample, resample_unrevealable, view
from shared.kernel import Game

_location = validate.OneOf(LOCATIONS)


class DrawCards(Schema):
    count = fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_DRAW))


class MeldSet(Schema):
    location = fields.Integer(required=True, strict=True, validate=_location)
    count = fields.Integer(required=True, strict=True, validate=validate.Range(3, 12))


class Empty(Schema):
    pass


class SealPortal(Schema):
    portal = fields.Integer(required=True, strict=True, validate=_location)


class GiveCard(Schema):
    location = fields.Integer(required=True, strict=True, validate=_location)
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(0, 3))


class LookAtHand(Schema):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(0, 3))


class TakeCard(Schema):
    location = fields.Integer(required=True, strict=True, validate=_location)


class TakeDeckCard(Schema):
    position = fields.Integer(required=True, strict=True, validate=validate.Range(0, 62))


class ChooseFirstPlayer(Schema):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(0, 3))


COMMANDS = {
    "draw_cards": DrawCards,
    "meld_set": MeldSet,
    "meld_run": Empty,
    "seal_portal": SealPortal,
    "give_card": GiveCard,
    "stop_giving": Empty,
    "look_at_hand": LookAtHand,
    "take_card": TakeCard,
    "take_deck_card": TakeDeckCard,
    "end_turn": Empty,
    "deal_next_round": Empty,
    "choose_first_player": ChooseFirstPlayer,
}

GAME = Game(
    id="pocket-madness",
    title="Pocket Madness",
    min_players=2,
    max_players=4,
    rules_version="pocket-madness/2",
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_act=to_act,
    view=view,
    outcome=outcome,
    resample=resample,
    resample_unrevealable=resample_unrevealable,
    invariant=invariant,
    commands=COMMANDS,
    state_types=STATE_TYPES,
    options={},
    card_data=CARD_DATA,
)

__all__ = ["GAME"]
