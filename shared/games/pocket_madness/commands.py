"""Pocket Madness's commands: one marshmallow schema per command type. The docstrings and field descriptions are
the catalogue's words for client authors, with the rulebook section each follows (pocket-madness.txt)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.pocket_madness.cards import (
    LOCATION_NAMES, LOCATIONS, MAX_DRAW, MAX_PLAYERS, MAX_SET, MIN_SET, TOTAL_CARDS,
)

_LOCATIONS = ", ".join(f"{n} {name}" for n, name in LOCATION_NAMES.items())


def _location(description: str) -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.OneOf(LOCATIONS),
                          metadata={"description": f"{description}: a Location number ({_LOCATIONS})"})


def _seat(description: str) -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(0, MAX_PLAYERS - 1),
                          metadata={"description": description})


class DrawCards(Schema):
    """Persevere in Your Investigations: draw the top 1, 2 or 3 Location cards of the splayed deck, in deck order,
    into your hand (A Player's Turn, a/). Under an opponent's Shoggoth you must draw exactly 1."""

    count = fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_DRAW),
                           metadata={"description": f"how many cards to draw off the top, 1 to {MAX_DRAW}"})


class MeldSet(Schema):
    """Open a Portal: meld one set of 3 or more identical Location cards face up in front of you and claim the
    Portal of the same number, from the pool or from an opponent (A Player's Turn, b/). Up to 3 sets per turn,
    one per command; end with end_turn."""

    location = _location("the Location of the identical cards")
    count = fields.Integer(required=True, strict=True, validate=validate.Range(MIN_SET, MAX_SET),
                           metadata={"description": f"how many of those cards to meld ({MIN_SET} or more)"})


class MeldRun(Schema):
    """Publish Your Research: meld one run of 7 different Location cards face up; each opponent takes as many
    Madness tokens as the number of runs melded this round (A Player's Turn, c/). Up to 3 runs per turn."""


class SealPortal(Schema):
    """Seal a Portal: use the power of a Portal card in front of you, then return it to the pool (Optional
    Action: Seal a Portal; Portal Cards). Once per turn, before your action or after it."""

    portal = _location("the Portal to seal, numbered like its Location")


class GiveCard(Schema):
    """Cthulhu's power: give one card from your hand to another player (Portal Cards, (6) Cthulhu). You give 1
    or 2 cards in all, to 1 or 2 players; seen by giver and receiver only."""

    location = _location("the card to give")
    seat = _seat("the player who receives it")


class StopGiving(Schema):
    """Cthulhu's power: give no second card (Portal Cards, (6) Cthulhu: 1 or 2 cards)."""


class LookAtHand(Schema):
    """Shub-Niggurath's power: look at an opponent's hand; only you see it (Portal Cards, (8) Shub-Niggurath)."""

    seat = _seat("the opponent whose hand you look at")


class TakeCard(Schema):
    """Shub-Niggurath's power: take one card of your choice from the hand you are looking at into yours
    (Portal Cards, (8) Shub-Niggurath)."""

    location = _location("the card to take")


class TakeDeckCard(Schema):
    """Nyarlathotep's power: take the card of your choice from anywhere in the splayed deck, even a face-down
    one, which only you then see (Portal Cards, (10) Nyarlathotep)."""

    position = fields.Integer(required=True, strict=True, validate=validate.Range(0, TOTAL_CARDS - 1),
                              metadata={"description": "the card's place in the splayed deck, 0 for the top"})


class EndTurn(Schema):
    """End your turn once your action is taken; on a last turn after the deck ran out, melding is optional
    (A Player's Turn; End of the Round)."""


class DealNextRound(Schema):
    """Start a New Round: the player with the most Madness tokens deals a new setup (Start a New Round)."""


class ChooseFirstPlayer(Schema):
    """Designate the player who goes first this round; you may designate yourself (Start a New Round)."""

    seat = _seat("the player who goes first")


COMMANDS: dict[str, type[Schema]] = {
    "draw_cards": DrawCards,
    "meld_set": MeldSet,
    "meld_run": MeldRun,
    "seal_portal": SealPortal,
    "give_card": GiveCard,
    "stop_giving": StopGiving,
    "look_at_hand": LookAtHand,
    "take_card": TakeCard,
    "take_deck_card": TakeDeckCard,
    "end_turn": EndTurn,
    "deal_next_round": DealNextRound,
    "choose_first_player": ChooseFirstPlayer,
}
