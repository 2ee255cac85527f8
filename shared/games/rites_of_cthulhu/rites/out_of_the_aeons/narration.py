"""Out of the Aeons's events in words (a bid stays face down, named only to its bidder, until the bids are
revealed together)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, clauses, say

from shared.games.rites_of_cthulhu.rites.narration import card, scores
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.events import (AeonsCardsRegathered, AeonsEnded,
                                                                         BiddingOpened, BidPassed, BidSealed,
                                                                         BidsRevealed, RevealedCardDiscarded,
                                                                         YellowCardRevealed, YellowCardTied,
                                                                         YellowCardWon)

Data = Mapping[str, Any]


def _regathered(data: Data, voice: Voice) -> Text:
    template = "Every card was gathered and dealt again, {hand_size} each"
    if data["remainder_count"]:
        template += ", {remainders} set aside unseen"
    return say(template, hand_size=data["hand_size"], remainders=data["remainder_count"])


def _revealed(data: Data, voice: Voice) -> Text:
    if data["privilege"]:
        return say("{card} was turned over, for the opener to keep or discard", card=card(data["card"]))
    return say("{card} was turned over: {bidders} bid for it", card=card(data["card"]), bidders=voice.seats(data["bidders"]))


def _sealed(data: Data, voice: Voice) -> Text:
    if "card" in data:
        return say("{seat} bid {card} face down", seat=voice.seat(data["seat"]), card=card(data["card"]))
    return say("{seat} placed a bid face down", seat=voice.seat(data["seat"]))


def _bids(data: Data, voice: Voice) -> Text:
    bids, args = clauses(("{seat} bid {bid}", {"seat": voice.seat(seat), "bid": card(bid)}) for seat, bid in data["bids"])
    if not bids:
        return say("Nobody bid for {card}", card=card(data["card"]))
    return say("The bids for {card} were turned up: " + bids, card=card(data["card"]), **args)


def _tied(data: Data, voice: Voice) -> Text:
    if not data["seats"]:
        return say("Nobody bid: {card} was discarded", card=card(data["card"]))
    return say("{seats} tied for the highest bid: {card} was discarded", seats=voice.seats(data["seats"]),
               card=card(data["card"]))


NARRATOR = Narrator({
    AeonsCardsRegathered.TYPE: _regathered,
    YellowCardRevealed.TYPE: _revealed,
    RevealedCardDiscarded.TYPE: lambda data, voice: say("{seat} discarded {card}", seat=voice.seat(data["seat"]),
                                                        card=card(data["card"])),
    BiddingOpened.TYPE: lambda data, voice: say("{card} was kept: {bidders} bid for it", card=card(data["card"]),
                                                bidders=voice.seats(data["bidders"])),
    BidSealed.TYPE: _sealed,
    BidPassed.TYPE: lambda data, voice: say("{seat} sat the round out with an empty hand", seat=voice.seat(data["seat"])),
    BidsRevealed.TYPE: _bids,
    YellowCardWon.TYPE: lambda data, voice: say("{seat} won {card} with {bid}", seat=voice.seat(data["seat"]),
                                                card=card(data["card"]), bid=card(data["bid"])),
    YellowCardTied.TYPE: _tied,
    AeonsEnded.TYPE: lambda data, voice: scores("The last yellow card was decided", data["points"], voice),
})
