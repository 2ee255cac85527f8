"""Out of the Aeons's state: the sub-deck, the revealed card, the sealed bids and what each cultist captured."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Dealing:
    """The rite was picked; the cards are not re-dealt yet."""


@dataclass(frozen=True, slots=True)
class Privilege:
    """The rite's opener (the Grand Cultist unless an artifact gave her privilege away) may discard the revealed
    card before the bidding, once a rite. The seat is read when needed: an artifact may change it."""


@dataclass(frozen=True, slots=True)
class Bidding:
    """The seats still to seal a bid this round."""

    waiting: frozenset[int]


@dataclass(frozen=True, slots=True)
class Ended:
    """The sub-deck is exhausted or nobody has a card left."""


@dataclass(frozen=True, slots=True)
class AeonsState:
    phase: Dealing | Privilege | Bidding | Ended
    sub_deck: tuple[int, ...] = ()
    revealed: int | None = None
    bids: tuple[tuple[int, int], ...] = ()
    """The sealed bids this round: (seat, card)."""
    open_bids: frozenset[int] = frozenset()
    """Seats whose bid was sealed from a hand played face up (The Glass from Leng): everyone saw which card."""
    captured: tuple[tuple[int, ...], ...] = ()
    discards: tuple[int, ...] = ()
    remainders: tuple[int, ...] = ()
    privilege_used: bool = False


STATE_TYPES = (AeonsState, Dealing, Privilege, Bidding, Ended)
