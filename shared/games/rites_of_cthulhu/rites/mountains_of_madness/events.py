"""At the Mountains of Madness's facts (with the shedding rites' shared ``drew_unable_to_play`` and ``turn_passed``)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact

from shared.games.rites_of_cthulhu.rites.shedding import DrewUnableToPlay, TurnPassed


@dataclass(frozen=True, slots=True)
class RidgeExtended(Fact, type="ridge_extended"):
    """``seat`` laid ``card`` on the ridge (the first one declares the Elder Sign)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class SlopePlayed(Fact, type="slope_played"):
    """``seat`` played ``cards`` on the slope ``side`` of ``ridge_card`` (``cliff``: a forbidden book with a card)."""

    seat: int
    cards: list[int]
    ridge_card: int
    side: str
    cliff: bool


FACTS = (RidgeExtended, SlopePlayed, DrewUnableToPlay, TurnPassed)
