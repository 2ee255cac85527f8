"""The Dunwich Horror's facts."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact


@dataclass(frozen=True, slots=True)
class TwinsSetAside(Fact, type="twins_set_aside"):
    """The twins were set face up in the middle; ``handed_over``: for each twin, the seat that turned it over to the
    Grand Cultist (None: it was in the pile)."""

    twins: list[int]
    handed_over: list[int | None]


@dataclass(frozen=True, slots=True)
class TwinReplacementDrawn(Fact, type="twin_replacement_drawn"):
    """``seat``, who handed a twin over, drew back to 5 (the cards come in ``cards_drawn``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class FarmhouseWallsBuilt(Fact, type="farmhouse_walls_built"):
    """``count`` face-down wall cards from the pile: ``walls`` (secret until the game ends), four per twin."""

    count: int
    walls: list[int]


@dataclass(frozen=True, slots=True)
class DunwichTurnBegan(Fact, type="dunwich_turn_began"):
    """``seat``'s turn begins."""

    seat: int


@dataclass(frozen=True, slots=True)
class WallRevealed(Fact, type="wall_revealed"):
    """``seat`` played the pair ``cards`` matching ``twin`` and turned wall ``wall`` face up: ``card``."""

    seat: int
    cards: list[int]
    wall: int
    twin: int
    card: int


@dataclass(frozen=True, slots=True)
class WallCaptured(Fact, type="wall_captured"):
    """``seat`` played the pair ``cards`` matching the revealed wall ``wall`` and captured its ``card``."""

    seat: int
    cards: list[int]
    wall: int
    card: int


@dataclass(frozen=True, slots=True)
class WallClaimed(Fact, type="wall_claimed"):
    """``seat`` knocked first with a matching pair and captured ``revealer``'s wall ``wall``; ``arrival`` and
    ``order`` record the arrival order of the answers (the passes, then the claimant)."""

    seat: int
    cards: list[int]
    wall: int
    card: int
    revealer: int
    arrival: int
    order: list[int]


@dataclass(frozen=True, slots=True)
class KnockCalled(Fact, type="knock_called"):
    """``seat`` knocked on the table: every other cultist may claim the revealed ``card`` at wall ``wall``."""

    seat: int
    wall: int
    card: int


@dataclass(frozen=True, slots=True)
class KnockPassed(Fact, type="knock_passed"):
    """``seat`` passed on the revealed wall ``wall``, as the ``arrival``-th answer."""

    seat: int
    wall: int
    arrival: int


@dataclass(frozen=True, slots=True)
class ClaimsClosed(Fact, type="claims_closed"):
    """Every other cultist passed: the revealed wall card stays face up."""

    wall: int
    passed: list[int]


@dataclass(frozen=True, slots=True)
class TwoCardsDiscarded(Fact, type="two_cards_discarded"):
    """``seat`` gave up the turn to discard ``cards`` and draw two."""

    seat: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class DunwichDiscardsReshuffled(Fact, type="dunwich_discards_reshuffled"):
    """The pile ran out: the ``count`` discards were shuffled into a fresh pile (``order`` secret)."""

    count: int
    order: list[int]


@dataclass(frozen=True, slots=True)
class TwinsFreed(Fact, type="twins_freed"):
    """Every wall card is captured; each seat's captured ``points``."""

    points: list[int]


FACTS = (TwinsSetAside, TwinReplacementDrawn, FarmhouseWallsBuilt, DunwichTurnBegan, WallRevealed, WallCaptured,
         WallClaimed, KnockCalled, KnockPassed, ClaimsClosed, TwoCardsDiscarded, DunwichDiscardsReshuffled, TwinsFreed)
