"""Cthulhu Rises's events in words (the gates are played face up; a forced card follows in the table's
``card_forced``, named to its giver only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, say

from shared.games.rites_of_cthulhu.rites.cthulhu_rises.cards import CthulhuPlace, SummonedFrom
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.events import (CardPlayedToGate, CthulhuSummoned,
                                                                      ForcedTradeDeclined, ForcedTradeOffered,
                                                                      GateClosed, SummoningFailed)
from shared.games.rites_of_cthulhu.rites.narration import card, cards


def _played(data: Mapping[str, Any], voice: Voice) -> Text:
    template = "{seat} opened a gate with {card}" if data["opened"] else "{seat} played {card} to the gate"
    return say(template, seat=voice.seat(data["seat"]), card=card(data["card"]))


def _closed(data: Mapping[str, Any], voice: Voice) -> Text:
    template = "{seat} closed the gate and took {cards}"
    if data["cthulhu"] == CthulhuPlace.CAPTURED:
        template += ", capturing Cthulhu"
    elif data["cthulhu"] == CthulhuPlace.CENTER:
        template += "; Cthulhu went to the center"
    if data["overthrow"]:
        template += ": an overthrow"
    return say(template, seat=voice.seat(data["seat"]), cards=cards(data["cards"]))


def _summoned(data: Mapping[str, Any], voice: Voice) -> Text:
    if data["source"] == SummonedFrom.HAND:
        return say("{seat} summoned Cthulhu from the hand to the center of the gate", seat=voice.seat(data["seat"]))
    return say("A spell summoned Cthulhu from his captor {seat} to the center of the gate", seat=voice.seat(data["seat"]))


NARRATOR = Narrator({
    CardPlayedToGate.TYPE: _played,
    GateClosed.TYPE: _closed,
    CthulhuSummoned.TYPE: _summoned,
    SummoningFailed.TYPE: lambda data, voice: say("The summoning failed: Cthulhu stayed in the draw pile"),
    ForcedTradeOffered.TYPE: lambda data, voice: say("{seat} forced a card on {receiver}", seat=voice.seat(data["seat"]),
                                                     receiver=voice.seat(data["receiver"])),
    ForcedTradeDeclined.TYPE: lambda data, voice: say("{seat} forced no card on anyone", seat=voice.seat(data["seat"])),
})
