"""At the Mountains of Madness's commands (besides the shared ``draw_card`` and ``end_turn``)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type

from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.cards import Side

CARD = "an entity card id from your hand"
RIDGE_CARD = "the ridge card whose slope you play on"
SIDE = "the slope above or below that ridge card"


@dataclass(frozen=True, slots=True)
class ExtendRidge(Command, type="extend_ridge"):
    """Lay a card on the ridge: the first declares the Elder Sign; the ridge is a run of up to four cards, no
    forbidden books, and a card that fits it may not go on a slope ("Creating the Ridge")."""

    card: int = arg(CARD)


@dataclass(frozen=True, slots=True)
class PlayOnSlope(Command, type="play_on_slope"):
    """Play a card on a slope above or below a ridge card, one elder sign above or below the card it covers
    ("Creating the slopes")."""

    card: int = arg(CARD)
    ridge_card: int = arg(RIDGE_CARD)
    side: str = arg(SIDE, enum=Side)


@dataclass(frozen=True, slots=True)
class PlayCliff(Command, type="play_cliff"):
    """Play a cliff: a forbidden book with any other card on any slope, then draw one card and play on
    ("Creating Cliffs")."""

    book: int = arg("a forbidden book (elder sign 0) from your hand")
    card: int = arg("the other card of the cliff, from your hand")
    ridge_card: int = arg(RIDGE_CARD)
    side: str = arg(SIDE, enum=Side)


COMMANDS = by_type(ExtendRidge, PlayOnSlope, PlayCliff, DrawCard, EndTurn)
