"""Cthulhu: The Great Old One, Elder Edition (2–6 players), by Dann Kriss Games.

Rulebook: ``shared/rulebooks/cthulhu-the-great-old-one.txt``; rulings: ``docs/rulings/great-old-one.md``.
The card list is not in the rulebook: the deck in ``cards.py`` is project data.
"""

from __future__ import annotations

from marshmallow import Schema, fields

from shared.kernel import Game, Option

from shared.games.great_old_one.cards import CARD_DATA
from shared.games.great_old_one.rules import (
    STATE_TYPES,
    decide,
    evolve,
    invariant,
    legal_commands,
    outcome,
    resample,
    resample_unrevealable,
    setup,
    to_act,
    view,
)


def _card(required: bool = False) -> fields.Integer:
    if required:
        return fields.Integer(required=True, strict=True)
    return fields.Integer(strict=True, allow_none=True, load_default=None)


class Empty(Schema):
    pass


class PlayPair(Schema):
    cards = fields.List(fields.Integer(strict=True), required=True)
    take = _card()


class CallStory(Schema):
    target = fields.Integer(required=True, strict=True)
    story = fields.String(required=True)


class RecruitSwap(Schema):
    card = _card(required=True)
    centre_card = _card(required=True)


class PlayEffectCard(Schema):
    """A Horror (or the Cultist) or a Sign, with the choices its effect needs (null when it needs none)."""

    card = _card(required=True)
    target = _card()
    chosen = _card()
    centre = _card()


GAME = Game(
    id="great-old-one",
    title="Cthulhu: The Great Old One, Elder Edition",
    min_players=2,
    max_players=6,
    rules_version="great-old-one/2",
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
    commands={
        "finish_opening": Empty,
        "play_pair": PlayPair,
        "draw_card": Empty,
        "call_story": CallStory,
        "pass_call": Empty,
        "recruit_swap": RecruitSwap,
        "recruit_draw": Empty,
        "pass_recruit": Empty,
        "play_horror": PlayEffectCard,
        "end_turn": Empty,
        "play_sign": PlayEffectCard,
    },
    state_types=STATE_TYPES,
    options={
        "first_player": Option(
            "int", 0,
            "The seat of the youngest player, who takes the first turn (seat the youngest at seat 0 to keep the default).",
            minimum=0, maximum=5,
        ),
        "finish_round": Option(
            "bool", False,
            "Variant: a 7th pair does not end the game at once; the round is played out so every player has had "
            "the same number of turns (off: the rulebook's immediate end).",
        ),
    },
    card_data=CARD_DATA,
)

__all__ = ["GAME"]
