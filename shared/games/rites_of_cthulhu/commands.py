"""Rites of Cthulhu's commands: the overarching game's (choosing rites, power-plays, artifacts, the overthrow
reward, answering a forced trade) and every rite's own (``rites/<rite>/commands.py``), one typed record per command
type (``shared.kernel.commands``). A command name means one record across the game."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type

from shared.games.rites_of_cthulhu.cards import CULTS
from shared.games.rites_of_cthulhu.rites import RITES

CULT = "the cult (frame color) of the power-play's cards: green, blue, yellow or gray"
ARTIFACT = "an artifact id (0-12, see the catalogue's card data)"


@dataclass(frozen=True, slots=True)
class ChooseRite(Command, type="choose_rite"):
    """The Grand Cultist selects the rite to perform among those not yet played, after considering her hand
    ("Performing Rites"; Game Turn Order 2)."""

    rite: str = arg("the id of an unplayed rite (see the catalogue)")


@dataclass(frozen=True, slots=True)
class BecomeGrandCultist(Command, type="become_grand_cultist"):
    """Power-play, at any moment of a rite and out of turn: show and discard a forbidden book and the 13 of one cult;
    the rite fails with no winner and you become the Grand Cultist ("Power-Play - Become the Grand Cultist")."""

    cult: str = arg(CULT, enum=CULTS)


@dataclass(frozen=True, slots=True)
class ExcavateArtifact(Command, type="excavate_artifact"):
    """Power-play, at any moment of a rite and out of turn: show and discard a forbidden book and the 1 of one cult,
    draw two, and add a new Coveted Artifact whose power applies ("Power-Play - Excavate a New Artifact")."""

    cult: str = arg(CULT, enum=CULTS)


@dataclass(frozen=True, slots=True)
class StealArtifact(Command, type="steal_artifact"):
    """Power-play, at any moment of a rite and out of turn: show and discard a forbidden book, the 1 and the 13 of
    one cult, draw three, take a Coveted Artifact and excavate its replacement ("Power-Play - Steal a Coveted
    Artifact")."""

    cult: str = arg(CULT, enum=CULTS)
    artifact: int = arg("the Coveted Artifact you take")


PowerPlayCommand = BecomeGrandCultist | ExcavateArtifact | StealArtifact


@dataclass(frozen=True, slots=True)
class InvokeArtifact(Command, type="invoke_artifact"):
    """Invoke an artifact's power: a single-cultist artifact once in the rite it is revealed in (any cultist), then
    once by its owner in a later rite; an all-cultists artifact again by its owner before a later rite's first move
    ("The Artifacts Deck"). The fields a power does not use are null; legal_commands lists every complete use."""

    artifact: int = arg(ARTIFACT)
    card: int | None = arg("a card of your hand the power uses (Lamp, Scroll), else null", default=None)
    seat: int | None = arg("the cultist the power targets (Jade Amulet, Scroll, Mirror), else null", default=None)
    target: int | None = arg("the artifact it targets (Jade Amulet, Crystallizer), else null", default=None)


@dataclass(frozen=True, slots=True)
class ReturnCard(Command, type="return_card"):
    """Answer a card forced on you face down: give back any card of your hand without looking at the forced card
    ("Closing a Gate"; the Scroll of T'yog)."""

    card: int = arg("an entity card id from your hand")


@dataclass(frozen=True, slots=True)
class TakeArtifacts(Command, type="take_artifacts"):
    """The overthrow winner takes the Coveted Artifact pile ("Cthulhu Rises", The Win)."""


@dataclass(frozen=True, slots=True)
class TradeArtifact(Command, type="trade_artifact"):
    """The overthrow winner trades one Coveted Artifact for any artifact of the artifact deck and takes the pile
    ("Cthulhu Rises", The Win)."""

    give: int = arg("the Coveted Artifact given back to the deck")
    take: int = arg("the artifact of the artifact deck taken instead")


GAME_COMMANDS = (ChooseRite, BecomeGrandCultist, ExcavateArtifact, StealArtifact, InvokeArtifact, ReturnCard,
                 TakeArtifacts, TradeArtifact)
COMMANDS = by_type(*GAME_COMMANDS, *(command for rite in RITES.values() for command in rite.commands.values()))
