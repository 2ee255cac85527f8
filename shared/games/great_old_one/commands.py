"""The Great Old One's commands: one marshmallow schema per command type; the docstrings and field descriptions are
the catalogue's words for client authors (rulebook sections in parentheses, rulings in docs/rulings/great-old-one.md).
"""

from __future__ import annotations

from marshmallow import Schema, fields

from shared.games.great_old_one.cards import DECK_SIZE

CARD = f"a card id (0–{DECK_SIZE - 1}, see card_data)"


def _card(description: str) -> fields.Integer:
    return fields.Integer(required=True, strict=True, metadata={"description": f"{description}: {CARD}"})


def _optional_card(description: str) -> fields.Integer:
    return fields.Integer(strict=True, allow_none=True, load_default=None,
                          metadata={"description": f"{description}, or null: {CARD}"})


class FinishOpening(Schema):
    """Finish your opening: you have laid down the pairs you want before the first turn (To Begin 3). The first
    turn begins when every player has finished."""


class PlayPair(Schema):
    """Lay a Matched or Linked pair of Story cards from your hand in your play area, in the opening or at any time
    during your turn; a pair naming a Story Connection may take a Horror card in play naming it to your hand
    (Card Types: Story Cards)."""

    cards = fields.List(fields.Integer(strict=True), required=True,
                        metadata={"description": f"the pair's two Story cards from your hand, in ascending order: {CARD}"})
    take = _optional_card("a Horror card in any play area naming a connection the pair names, to take to your hand")


class DrawCard(Schema):
    """Draw the top card of the deck (Turn Phases 1: Draw Phase); with the deck empty, nothing is drawn."""


class CallStory(Schema):
    """Name a Story card to an opponent: if they hold it they must give it to you, otherwise take a card from their
    hand at random (Turn Phases 2: Call Phase)."""

    target = fields.Integer(required=True, strict=True,
                            metadata={"description": "the seat of the opponent you call, who holds at least one card"})
    story = fields.String(required=True, metadata={"description": "the story you name: a story key from card_data"})


class PassCall(Schema):
    """Pass the Call phase because no opponent holds a card (Turn Phases 2: Call Phase; ruling 8)."""


class RecruitSwap(Schema):
    """Switch a Story card from your hand with one in the centre of the main play area (Turn Phases 3: Recruit
    Phase)."""

    card = _card("the Story card from your hand")
    centre_card = _card("the Story card in the centre you take")


class RecruitDraw(Schema):
    """Draw a card from the deck instead of switching (Turn Phases 3: Recruit Phase)."""


class PassRecruit(Schema):
    """Pass the Recruit phase because you can neither switch a Story card nor draw (ruling 9)."""


class _EffectChoices(Schema):
    target = fields.Integer(strict=True, allow_none=True, load_default=None,
                            metadata={"description": "the opponent's seat the effect aims at (take at random, give), or null"})
    chosen = _optional_card("the card the effect chooses (the card you give, the Story card you switch, the Horror "
                            "you return)")
    centre = _optional_card("the centre Story card you switch with (switch with the centre)")


class PlayHorror(_EffectChoices):
    """Play a Horror card (its effect happens now, with the choices it needs) or the Cultist from your hand to your
    play area, once a turn (Turn Phases 4: Horror Phase; Card Types: Horror Cards, The Cultist)."""

    card = _card("the Horror card or the Cultist from your hand")


class PlaySign(_EffectChoices):
    """Play a Sign from your hand at any time during any turn, yours or not; its effect happens now and the Sign is
    removed from the game (Card Types: Sign Cards)."""

    card = _card("the Sign from your hand")


class EndTurn(Schema):
    """End your turn, with or without playing a Horror; play passes to the left (Turn Phases 4: Horror Phase)."""


COMMANDS: dict[str, type[Schema]] = {
    "finish_opening": FinishOpening,
    "play_pair": PlayPair,
    "draw_card": DrawCard,
    "call_story": CallStory,
    "pass_call": PassCall,
    "recruit_swap": RecruitSwap,
    "recruit_draw": RecruitDraw,
    "pass_recruit": PassRecruit,
    "play_horror": PlayHorror,
    "end_turn": EndTurn,
    "play_sign": PlaySign,
}
