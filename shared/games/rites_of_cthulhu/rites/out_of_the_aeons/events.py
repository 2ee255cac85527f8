"""Out of the Aeons's facts."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact


@dataclass(frozen=True, slots=True)
class AeonsCardsRegathered(Fact, type="aeons_cards_regathered"):
    """Every card was gathered: the yellow ``sub_deck``, the ``deck`` dealt ``hand_size`` each, and the
    ``remainder_count`` ``remainders`` set aside unseen (the three lists secret until the game ends)."""

    hand_size: int
    remainder_count: int
    sub_deck: list[int]
    deck: list[int]
    remainders: list[int]


@dataclass(frozen=True, slots=True)
class YellowCardRevealed(Fact, type="yellow_card_revealed"):
    """The top yellow ``card`` was turned over; ``privilege``: the opener may discard it first, else the
    ``bidders`` bid at once."""

    card: int
    privilege: bool
    bidders: list[int]


@dataclass(frozen=True, slots=True)
class RevealedCardDiscarded(Fact, type="revealed_card_discarded"):
    """``seat`` used the privilege to discard the revealed ``card``."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class BiddingOpened(Fact, type="bidding_opened"):
    """The revealed ``card`` is kept: the ``bidders`` bid for it."""

    card: int
    bidders: list[int]


@dataclass(frozen=True, slots=True)
class BidSealed(Fact, type="bid_sealed"):
    """``seat`` placed ``card`` face down as its bid (only that seat sees which, unless hands are open)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class BidPassed(Fact, type="bid_passed"):
    """``seat`` sits the round out (``reason``: its hand is empty)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class BidsRevealed(Fact, type="bids_revealed"):
    """Every sealed bid for ``card``, turned face up together: [seat, card] pairs."""

    card: int
    bids: list[list[int]]


@dataclass(frozen=True, slots=True)
class YellowCardWon(Fact, type="yellow_card_won"):
    """``seat``'s ``bid`` was the highest: it captures ``card``."""

    seat: int
    card: int
    bid: int


@dataclass(frozen=True, slots=True)
class YellowCardTied(Fact, type="yellow_card_tied"):
    """``seats`` tied for the highest bid (or nobody bid): ``card`` is discarded."""

    card: int
    seats: list[int]


@dataclass(frozen=True, slots=True)
class AeonsEnded(Fact, type="aeons_ended"):
    """The rite is over (``unrevealed`` yellow cards are discarded unseen); each seat's ``points``."""

    unrevealed: int
    points: list[int]


FACTS = (AeonsCardsRegathered, YellowCardRevealed, RevealedCardDiscarded, BiddingOpened, BidSealed, BidPassed,
         BidsRevealed, YellowCardWon, YellowCardTied, AeonsEnded)
