"""Rites of Cthulhu's commands: the overarching game's (choosing rites, power-plays, artifacts, the overthrow
reward, answering a forced trade) and every rite's own (``rites/<rite>/commands.py``). A command name means one
schema across the game."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.rites_of_cthulhu.cards import CULTS
from shared.games.rites_of_cthulhu.rites import RITES

CULT = "the cult (frame color) of the power-play's cards: green, blue, yellow or gray"
ARTIFACT = "an artifact id (0-12, see the catalogue's card data)"


class ChooseRite(Schema):
    """The Grand Cultist selects the rite to perform among those not yet played, after considering her hand
    ("Performing Rites"; Game Turn Order 2)."""

    rite = fields.String(required=True, metadata={"description": "the id of an unplayed rite (see the catalogue)"})


class BecomeGrandCultist(Schema):
    """Power-play, at any moment of a rite and out of turn: show and discard a forbidden book and the 13 of one cult;
    the rite fails with no winner and you become the Grand Cultist ("Power-Play - Become the Grand Cultist")."""

    cult = fields.String(required=True, validate=validate.OneOf(CULTS), metadata={"description": CULT})


class ExcavateArtifact(Schema):
    """Power-play, at any moment of a rite and out of turn: show and discard a forbidden book and the 1 of one cult,
    draw two, and add a new Coveted Artifact whose power applies ("Power-Play - Excavate a New Artifact")."""

    cult = fields.String(required=True, validate=validate.OneOf(CULTS), metadata={"description": CULT})


class StealArtifact(Schema):
    """Power-play, at any moment of a rite and out of turn: show and discard a forbidden book, the 1 and the 13 of
    one cult, draw three, take a Coveted Artifact and excavate its replacement ("Power-Play - Steal a Coveted
    Artifact")."""

    cult = fields.String(required=True, validate=validate.OneOf(CULTS), metadata={"description": CULT})
    artifact = fields.Integer(required=True, metadata={"description": "the Coveted Artifact you take"})


class InvokeArtifact(Schema):
    """Invoke an artifact's power: a single-cultist artifact once in the rite it is revealed in (any cultist), then
    once by its owner in a later rite; an all-cultists artifact again by its owner before a later rite's first move
    ("The Artifacts Deck"). The fields a power does not use are null; legal_commands lists every complete use."""

    artifact = fields.Integer(required=True, metadata={"description": ARTIFACT})
    card = fields.Integer(load_default=None, allow_none=True,
                          metadata={"description": "a card of your hand the power uses (Lamp, Scroll), else null"})
    seat = fields.Integer(load_default=None, allow_none=True,
                          metadata={"description": "the cultist the power targets (Jade Amulet, Scroll, Mirror), else null"})
    target = fields.Integer(load_default=None, allow_none=True,
                            metadata={"description": "the artifact it targets (Jade Amulet, Crystallizer), else null"})


class ReturnCard(Schema):
    """Answer a card forced on you face down: give back any card of your hand without looking at the forced card
    ("Closing a Gate"; the Scroll of T'yog)."""

    card = fields.Integer(required=True, metadata={"description": "an entity card id from your hand"})


class TakeArtifacts(Schema):
    """The overthrow winner takes the Coveted Artifact pile ("Cthulhu Rises", The Win)."""


class TradeArtifact(Schema):
    """The overthrow winner trades one Coveted Artifact for any artifact of the artifact deck and takes the pile
    ("Cthulhu Rises", The Win)."""

    give = fields.Integer(required=True, metadata={"description": "the Coveted Artifact given back to the deck"})
    take = fields.Integer(required=True, metadata={"description": "the artifact of the artifact deck taken instead"})


GAME_COMMANDS: dict[str, type[Schema]] = {
    "choose_rite": ChooseRite,
    "become_grand_cultist": BecomeGrandCultist,
    "excavate_artifact": ExcavateArtifact,
    "steal_artifact": StealArtifact,
    "invoke_artifact": InvokeArtifact,
    "return_card": ReturnCard,
    "take_artifacts": TakeArtifacts,
    "trade_artifact": TradeArtifact,
}


def _all_commands() -> dict[str, type[Schema]]:
    out = dict(GAME_COMMANDS)
    for rite in RITES.values():
        for name, schema in rite.commands.items():
            assert out.get(name, schema) is schema, f"command {name} means two things"
            out[name] = schema
    return out


COMMANDS = _all_commands()
