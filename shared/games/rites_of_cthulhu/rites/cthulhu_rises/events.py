"""Cthulhu Rises's facts."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact


@dataclass(frozen=True, slots=True)
class CardPlayedToGate(Fact, type="card_played_to_gate"):
    """``seat`` played ``card`` on the gate (``opened``: as its first card, so the seat may summon Cthulhu)."""

    seat: int
    card: int
    opened: bool


@dataclass(frozen=True, slots=True)
class GateClosed(Fact, type="gate_closed"):
    """``seat`` played the highest-ranking card and took the gate's ``cards``; ``cthulhu`` says where he went if
    he was in the gate ("captured" or "center"); ``overthrow``: the closer completed an overthrow."""

    seat: int
    cards: list[int]
    cthulhu: str | None
    overthrow: bool


@dataclass(frozen=True, slots=True)
class CthulhuSummoned(Fact, type="cthulhu_summoned"):
    """A spell brought Cthulhu to the center of the gate from ``seat``'s hand or from his captor ``seat``."""

    seat: int
    source: str


@dataclass(frozen=True, slots=True)
class SummoningFailed(Fact, type="summoning_failed"):
    """A spell to summon Cthulhu failed: he is still in the draw pile."""


@dataclass(frozen=True, slots=True)
class ForcedTradeOffered(Fact, type="forced_trade_offered"):
    """``seat``, who closed the gate, forces a card on ``receiver`` (the card follows, to ``seat`` only)."""

    seat: int
    receiver: int


@dataclass(frozen=True, slots=True)
class ForcedTradeDeclined(Fact, type="forced_trade_declined"):
    """``seat``, who closed the gate, forces no card on anyone."""

    seat: int


FACTS = (CardPlayedToGate, GateClosed, CthulhuSummoned, SummoningFailed, ForcedTradeOffered, ForcedTradeDeclined)
