"""Rise of Cthulhu's commands: one marshmallow schema per command type (the fields besides ``type``); the
docstrings and field descriptions are the catalogue's words for client authors (rulebook sections in
parentheses, rulings in docs/rulings/rise-of-cthulhu.md).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.rise_of_cthulhu.cards import LOCATIONS

PLACES = ", ".join(LOCATIONS)
RECALL = ("true to use the three-of-a-colour set this play makes to send the Dark Hunter back between the Cultist "
          "Deck and the Valley (Set Abilities); only offered while the Dark Hunter is out")


def _location(description: str, otherwise: str = "", **kw) -> fields.String:
    return fields.String(validate=validate.OneOf(LOCATIONS),
                         metadata={"description": f"{description} (one of {PLACES}){otherwise}"}, **kw)


def _card(kind: str, example: str) -> fields.String:
    return fields.String(required=True, metadata={"description": f"the {kind} card from your hand, e.g. {example} "
                                                                 "(see card_data)"})


def _recall() -> fields.Boolean:
    return fields.Boolean(load_default=False, metadata={"description": RECALL})


class DrawCard(Schema):
    """An action: draw the top card of the Cultist Deck (only you see it; a face-down Old One there wakes) or of
    the Valley (your opponent sees which) (How to play; Old Ones)."""

    source = fields.String(required=True, validate=validate.OneOf(("deck", "valley")),
                           metadata={"description": "where to draw from: deck (the Cultist Deck) or valley"})


class PlayCultist(Schema):
    """An action: play a Cultist card from your hand on your side of a Location without an Old One or the Dark
    Hunter; its set abilities follow (How to play; Set Abilities)."""

    card = _card("Cultist", "red-7")
    location = _location("the Location to play on", required=True)
    recall_hunter = _recall()


class PlayToValley(Schema):
    """An action: play a Cultist card on the Valley (higher than its top card or of the same colour) and move the
    Dark Hunter to another Location without an Old One, where it destroys the highest Cultist (Dark Hunter)."""

    card = _card("Cultist", "red-7")
    hunter_to = _location("the Location the Dark Hunter moves to (without an Old One, not where it stands)",
                          required=True)


class PlayMonster(Schema):
    """A free play in your turn, before its last action: a Monster card from your hand on a Location (never the
    Dark Hunter's), which acts there and is discarded unless it stays (Set Abilities; ruling 22)."""

    card = _card("Monster", "shoggoth")
    location = _location("the Location the Monster is played on", required=True)
    target = fields.String(load_default=None, allow_none=True, metadata={
        "description": "the Cultist card the Monster acts on where it needs one (Nightgaunt, Mi-Go, Ghoul, Star "
                       "Vampire), else null"})
    recall_hunter = _recall()


class PlayArtifact(Schema):
    """A free play in your turn, before its last action: an Artifact card from your hand, then discarded (Set
    Abilities; ruling 22)."""

    card = _card("Artifact", "silver-key")
    target = fields.String(load_default=None, allow_none=True, metadata={
        "description": "what the Artifact acts on where it needs one: the Cultist card from your hand (Elder Sign), "
                       "the opponent's Cultist card to destroy (Powder of Ibn-Ghazi), the Valley card to take (Lamp "
                       "of Alhazred), a Location or home (Silver Key); else null"})
    location = _location("the Old One's Location the Elder Sign plays on", ", else null",
                         load_default=None, allow_none=True)
    recall_hunter = _recall()


class ResolvePower(Schema):
    """The player the woken Old One's Location faces reaps its power, even out of turn (Old Ones; ruling 17)."""

    target = fields.String(load_default=None, allow_none=True, metadata={
        "description": "the power's choice where it takes one: Hastur, the opponent's Cultist card to destroy; "
                       "Yog-Sothoth, the Location the Dark Hunter moves to or home; else null"})


class DrawOwedCards(Schema):
    """The player who drew an Old One draws its replacement from the Cultist Deck once its power is resolved, with
    any draws a card still owed (Old Ones; ruling 19)."""


COMMANDS = {
    "draw_card": DrawCard,
    "play_cultist": PlayCultist,
    "play_to_valley": PlayToValley,
    "play_monster": PlayMonster,
    "play_artifact": PlayArtifact,
    "resolve_power": ResolvePower,
    "draw_owed_cards": DrawOwedCards,
}
