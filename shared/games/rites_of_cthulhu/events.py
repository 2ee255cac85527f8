"""Rites of Cthulhu's events: one fact per event type of the overarching game; ``FACTS`` adds the table's
(``rites/table.py``) and every rite's own (``rites/<rite>/events.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact, Facts

from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.table import TABLE_FACTS


@dataclass(frozen=True, slots=True)
class GameStarted(Fact, type="game_started"):
    """``players`` cultists will perform ``rites_total`` rites."""

    players: int
    rites_total: int


@dataclass(frozen=True, slots=True)
class FirstCardsRevealed(Fact, type="first_cards_revealed"):
    """Each cultist drew and revealed a card to choose the first Grand Cultist (-1: a seat out of a tie's redraw)."""

    cards: list[int]


@dataclass(frozen=True, slots=True)
class GrandCultistChosen(Fact, type="grand_cultist_chosen"):
    """``seat``'s card had the highest elder sign: it is the first Grand Cultist."""

    seat: int


@dataclass(frozen=True, slots=True)
class GrandCultistPassed(Fact, type="grand_cultist_passed"):
    """The rite is over: the player to the Grand Cultist's left, ``seat``, becomes the Grand Cultist."""

    seat: int


@dataclass(frozen=True, slots=True)
class EntitiesShuffled(Fact, type="entities_shuffled"):
    """The Grand Cultist shuffled the entities deck into ``order`` (secret until the game ends) to deal."""

    order: list[int]


@dataclass(frozen=True, slots=True)
class RiteChosen(Fact, type="rite_chosen"):
    """The Grand Cultist selected ``rite``; its deal adjustments follow."""

    rite: str


@dataclass(frozen=True, slots=True)
class RiteBegun(Fact, type="rite_begun"):
    """The Coveted Artifact is revealed and invoked: ``rite`` is performed from here."""

    rite: str


@dataclass(frozen=True, slots=True)
class ArtifactExcavated(Fact, type="artifact_excavated"):
    """``artifact`` joined the Coveted Artifact pile (``seat``: who excavated it, None for the Grand Cultist's reveal)."""

    artifact: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class TurnOrderReversed(Fact, type="turn_order_reversed"):
    """The Shining Trapezohedron: turn order now runs ``direction`` (+1 clockwise, -1 counter-clockwise)."""

    direction: int


@dataclass(frozen=True, slots=True)
class HandsOpened(Fact, type="hands_opened"):
    """The Glass from Leng: every hand is played face up for the rest of the rite; ``hands``, by seat."""

    hands: list[list[int]]


@dataclass(frozen=True, slots=True)
class RanksInverted(Fact, type="ranks_inverted"):
    """The Black Stone: the lowest elder sign wins every comparison this rite."""


@dataclass(frozen=True, slots=True)
class PowerPlaysForbidden(Fact, type="power_plays_forbidden"):
    """The Star-Stone of Mnar: no power-play for the rest of this rite."""


@dataclass(frozen=True, slots=True)
class OpenerChanged(Fact, type="opener_changed"):
    """The Silver Key or the Bas-Relief: ``seat`` takes the Grand Cultist's first turn and privilege this rite."""

    seat: int


@dataclass(frozen=True, slots=True)
class ArtifactInvoked(Fact, type="artifact_invoked"):
    """``seat`` invoked ``artifact``'s power (``second``: its owner's second invocation, in a later rite)."""

    seat: int
    artifact: int
    second: bool


@dataclass(frozen=True, slots=True)
class ArtifactTaken(Fact, type="artifact_taken"):
    """The Jade Amulet: ``seat`` took ``artifact`` from ``from_seat``'s captured artifacts."""

    artifact: int
    from_seat: int
    seat: int


@dataclass(frozen=True, slots=True)
class ArtifactThrownOut(Fact, type="artifact_thrown_out"):
    """The Crystallizer of Dreams threw the Coveted ``artifact`` out of the game."""

    artifact: int


@dataclass(frozen=True, slots=True)
class ArtifactStolen(Fact, type="artifact_stolen"):
    """A power-play: ``seat`` stole the Coveted ``artifact`` into its captured artifacts."""

    seat: int
    artifact: int


@dataclass(frozen=True, slots=True)
class PowerPlayMade(Fact, type="power_play_made"):
    """``seat`` showed the ``cult``'s cards of the power-play ``power`` (they are set aside next)."""

    seat: int
    power: str
    cult: str


@dataclass(frozen=True, slots=True)
class OverthrowClaimed(Fact, type="overthrow_claimed"):
    """``seat`` completed an overthrow: it takes the Coveted Artifacts or trades one for an artifact of the deck."""

    seat: int


@dataclass(frozen=True, slots=True)
class ArtifactTraded(Fact, type="artifact_traded"):
    """The overthrow winner ``seat`` traded the Coveted ``gave`` for ``took`` from the artifact deck."""

    seat: int
    gave: int
    took: int


@dataclass(frozen=True, slots=True)
class RiteWon(Fact, type="rite_won"):
    """``seat`` won the rite (``reason``) and takes the Coveted Artifact pile."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class RiteFailed(Fact, type="rite_failed"):
    """The rite ended with no winner (``reason``; ``seat``: who seized the title of Grand Cultist): its Coveted
    Artifacts are thrown out."""

    reason: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class GameEnded(Fact, type="game_ended"):
    """Every rite is performed: each seat's artifact ``scores``."""

    scores: list[int]


GAME_FACTS = (GameStarted, FirstCardsRevealed, GrandCultistChosen, GrandCultistPassed, EntitiesShuffled, RiteChosen,
              RiteBegun, ArtifactExcavated, TurnOrderReversed, HandsOpened, RanksInverted, PowerPlaysForbidden,
              OpenerChanged, ArtifactInvoked, ArtifactTaken, ArtifactThrownOut, ArtifactStolen, PowerPlayMade,
              OverthrowClaimed, ArtifactTraded, RiteWon, RiteFailed, GameEnded)

FACTS = Facts(*dict.fromkeys((*GAME_FACTS, *TABLE_FACTS, *(f for rite in RITES.values() for f in rite.facts))))
"""Every event type of the game (a fact two rites share, like ``turn_passed``, is declared once)."""
