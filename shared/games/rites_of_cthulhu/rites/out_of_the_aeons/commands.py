"""Out of the Aeons's commands."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type


@dataclass(frozen=True, slots=True)
class Bid(Command, type="bid"):
    """Place one card of your hand face down as your bid for the revealed yellow card; the bids are revealed
    together once everyone has bid, and the highest elder sign takes the card ("Out of the Aeons", The Play)."""

    card: int = arg("an entity card id from your hand")


@dataclass(frozen=True, slots=True)
class DiscardRevealed(Command, type="discard_revealed"):
    """The Grand Cultist's privilege, once this rite: discard the revealed yellow card before the bidding, and the
    next one is turned over ("Out of the Aeons", Privilege of the Grand Cultist)."""


@dataclass(frozen=True, slots=True)
class KeepRevealed(Command, type="keep_revealed"):
    """The Grand Cultist keeps the revealed yellow card (and the privilege for a later round): the bidding opens."""


COMMANDS = by_type(Bid, DiscardRevealed, KeepRevealed)
