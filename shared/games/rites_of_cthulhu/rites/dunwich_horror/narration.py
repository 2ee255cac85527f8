"""The Dunwich Horror's events in words (the walls are face down until revealed; the seat the event is about is
named, not the seat whose command caused it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, clauses, say

from shared.games.rites_of_cthulhu.rites.dunwich_horror.cards import twin_of
from shared.games.rites_of_cthulhu.rites.dunwich_horror.events import (ClaimsClosed, DunwichDiscardsReshuffled,
                                                                       DunwichTurnBegan, FarmhouseWallsBuilt,
                                                                       KnockCalled, KnockPassed, TwinReplacementDrawn,
                                                                       TwinsFreed, TwinsSetAside, TwoCardsDiscarded,
                                                                       WallCaptured, WallClaimed, WallRevealed)
from shared.games.rites_of_cthulhu.rites.narration import card, cards, scores

Data = Mapping[str, Any]


def _set_aside(data: Data, voice: Voice) -> Text:
    handed, args = clauses((("{seat} handed over {twin}", {"seat": voice.seat(seat), "twin": card(twin)})
                            for twin, seat in zip(data["twins"], data["handed_over"]) if seat is not None), "; ")
    return say("The twins, {twins}, were set face up in the middle" + ("; " + handed if handed else ""),
               twins=cards(data["twins"]), **args)


def _revealed(data: Data, voice: Voice) -> Text:
    return say("{seat} played {cards} and turned up {card} in the wall of {twin}", seat=voice.seat(data["seat"]),
               cards=cards(data["cards"]), card=card(data["card"]), twin=card(data["twin"]))


def _captured(data: Data, voice: Voice) -> Text:
    return say("{seat} played {cards} and captured {card} from the wall of {twin}", seat=voice.seat(data["seat"]),
               cards=cards(data["cards"]), card=card(data["card"]), twin=card(twin_of(data["wall"])))


def _claimed(data: Data, voice: Voice) -> Text:
    return say("{seat} knocked first with {cards} and captured {card}, revealed by {revealer}",
               seat=voice.seat(data["seat"]), cards=cards(data["cards"]), card=card(data["card"]),
               revealer=voice.seat(data["revealer"]))


NARRATOR = Narrator({
    TwinsSetAside.TYPE: _set_aside,
    TwinReplacementDrawn.TYPE: lambda data, voice: say("{seat} drew back to five cards", seat=voice.seat(data["seat"])),
    FarmhouseWallsBuilt.TYPE: lambda data, voice: say("{count} wall cards were laid face down around the twins",
                                                      count=data["count"]),
    DunwichTurnBegan.TYPE: lambda data, voice: say("{seat} began a turn", seat=voice.seat(data["seat"])),
    WallRevealed.TYPE: _revealed,
    WallCaptured.TYPE: _captured,
    WallClaimed.TYPE: _claimed,
    KnockCalled.TYPE: lambda data, voice: say("{seat} knocked on the table: the others may claim {card}",
                                              seat=voice.seat(data["seat"]), card=card(data["card"])),
    KnockPassed.TYPE: lambda data, voice: say("{seat} passed on the knock", seat=voice.seat(data["seat"])),
    ClaimsClosed.TYPE: lambda data, voice: say("Nobody claimed the wall card: it stayed face up"),
    TwoCardsDiscarded.TYPE: lambda data, voice: say("{seat} discarded {cards} and drew two", seat=voice.seat(data["seat"]),
                                                    cards=cards(data["cards"])),
    DunwichDiscardsReshuffled.TYPE: lambda data, voice: say("The pile ran out: {count} discards were shuffled into a new pile",
                                                            count=data["count"]),
    TwinsFreed.TYPE: lambda data, voice: scores("Every wall card was captured and the twins broke free", data["points"], voice),
})
