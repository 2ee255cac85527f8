"""Rise of Cthulhu commands: one marshmallow schema per command type (the fields besides ``type``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.rise_of_cthulhu.cards import LOCATIONS


def _location(**kw):
    return fields.String(validate=validate.OneOf(LOCATIONS), **kw)


class DrawCard(Schema):
    """An action: draw the top card of the Cultist Deck or of the Valley."""

    source = fields.String(required=True, validate=validate.OneOf(("deck", "valley")))


class PlayCultist(Schema):
    """An action: play a Cultist on your side of a Location (recall_hunter: use a three-of-a-colour set)."""

    card = fields.String(required=True)
    location = _location(required=True)
    recall_hunter = fields.Boolean(load_default=False)


class PlayToValley(Schema):
    """An action: play a Cultist on the Valley and move the Dark Hunter to ``hunter_to``."""

    card = fields.String(required=True)
    hunter_to = _location(required=True)


class PlayMonster(Schema):
    """A free play: a Monster on a Location, with the card it targets where it needs one."""

    card = fields.String(required=True)
    location = _location(required=True)
    target = fields.String(load_default=None, allow_none=True)
    recall_hunter = fields.Boolean(load_default=False)


class PlayArtifact(Schema):
    """A free play: an Artifact, with its target (a card, a Location or "home") and Location where it needs them."""

    card = fields.String(required=True)
    target = fields.String(load_default=None, allow_none=True)
    location = _location(load_default=None, allow_none=True)
    recall_hunter = fields.Boolean(load_default=False)


class ResolvePower(Schema):
    """The influencing player resolves the woken Old One's power (target: Hastur's card, Yog-Sothoth's place)."""

    target = fields.String(load_default=None, allow_none=True)


class DrawOwedCards(Schema):
    """The player who drew an Old One draws its replacement (and any draws the power interrupted)."""


COMMANDS = {
    "draw_card": DrawCard,
    "play_cultist": PlayCultist,
    "play_to_valley": PlayToValley,
    "play_monster": PlayMonster,
    "play_artifact": PlayArtifact,
    "resolve_power": ResolvePower,
    "draw_owed_cards": DrawOwedCards,
}
