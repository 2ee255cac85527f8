"""Pocket Madness's events in words: one line per event type, from the event as the reader may see it (a card drawn
face down, given or taken is in the data only for the seats that saw it; the others read "a card")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, changed_hands, clauses, named, plural, say

from shared.games.pocket_madness.cards import LOCATION_NAMES, PORTAL_NAMES
from shared.games.pocket_madness.events import (CardDiscarded, CardGiven, CardsDrawn, CardTaken, DeckCardTaken,
                                                DeckExhausted, FirstPlayerChosen, HandLookedAt, PortalClaimed,
                                                PortalSealed, PowerResolved, RoundDealt, RoundEnded, RunMelded,
                                                SetMelded, TurnEnded, TurnPassed, TurnStarted)
from shared.games.pocket_madness.state import RoundEnd

Data = Mapping[str, Any]


def card(location: int) -> dict[str, Any]:
    """A Location card as an argument, by its Location's name."""
    return named("card", location, LOCATION_NAMES[location])


def cards(locations: Sequence[int]) -> list[dict[str, Any]]:
    return [card(loc) for loc in locations]


def portal(number: int) -> dict[str, Any]:
    return named("portal", number, PORTAL_NAMES[number])


def _dealt(data: Data, voice: Voice) -> Text:
    face_up = sum(1 for loc in data["deck"] if loc is not None)
    template = "Round {round} was dealt: 2 cards each, {face_up} cards face up in the deck and {face_down} face down"
    hands, args = clauses((("{seat} received {cards}", {"seat": voice.seat(seat), "cards": cards(data[f"hand_{seat}"])})
                           for seat in range(data["players"]) if f"hand_{seat}" in data), "; ")
    return say(template + ("; " + hands if hands else ""), round=data["round"], face_up=face_up,
               face_down=len(data["deck"]) - face_up, **args)


def _first(data: Data, voice: Voice) -> Text:
    seat = voice.seat(data["seat"])
    if data["chooser"] is None:
        return say("The draw chose {seat} to go first", seat=seat)
    if data["chooser"] == data["seat"]:
        return say("{seat} chose to go first", seat=seat)
    return say("{chooser} chose {seat} to go first", chooser=voice.seat(data["chooser"]), seat=seat)


def _drew(data: Data, voice: Voice) -> Text:
    seat, revealed = voice.seat(data["seat"]), data["revealed"]
    if "face_down" in data:
        return say("{seat} drew {cards}", seat=seat, cards=cards([*revealed, *data["face_down"]]))
    hidden = data["count"] - len(revealed)
    if not hidden:
        return say("{seat} drew {cards}", seat=seat, cards=cards(revealed))
    unseen = plural(hidden, "a face-down card", "{hidden} face-down cards")
    if not revealed:
        return say("{seat} drew " + unseen, seat=seat, hidden=hidden)
    return say("{seat} drew {cards}, plus " + unseen, seat=seat, cards=cards(revealed), hidden=hidden)


def _claimed(data: Data, voice: Voice) -> Text:
    seat, claimed = voice.seat(data["seat"]), portal(data["portal"])
    if data["previous_owner"] is None:
        return say("{seat} claimed the {portal} Portal", seat=seat, portal=claimed)
    return say("{seat} claimed the {portal} Portal from {previous}", seat=seat, portal=claimed,
               previous=voice.seat(data["previous_owner"]))


def _looked(data: Data, voice: Voice) -> Text:
    args = {"seat": voice.seat(data["seat"]), "target": voice.seat(data["target"])}
    if "cards" in data:
        return say("{seat} looked at {target}'s hand: {cards}", cards=cards(data["cards"]), **args)
    return say("{seat} looked at {target}'s hand", **args)


def _deck_card(data: Data, voice: Voice) -> Text:
    seat = voice.seat(data["seat"])
    if "card" not in data:
        return say("{seat} took a face-down card from the deck", seat=seat)
    way = "" if data["face_up"] else " face down"
    return say("{seat} took {card} from the deck" + way, seat=seat, card=card(data["card"]))


def _round_ended(data: Data, voice: Voice) -> Text:
    gained = data["gained"]
    if data["reason"] == RoundEnd.HAND_EMPTIED:
        ender = data["seat"]
        shed = -gained[ender]
        shedding = ", shedding " + plural(shed, "a Madness token", "{shed} Madness") if shed else ""
        return say("{seat} played every card and ended the round" + shedding + "; every other seat took 1 Madness",
                   seat=voice.seat(ender), shed=shed)
    took, args = clauses(("{seat} took {madness}", {"seat": voice.seat(seat), "madness": count})
                         for seat, count in enumerate(gained))
    return say("The deck ran out and every hand was laid down; Madness: " + took, **args)


NARRATOR = Narrator({
    RoundDealt.TYPE: _dealt,
    FirstPlayerChosen.TYPE: _first,
    CardsDrawn.TYPE: _drew,
    SetMelded.TYPE: lambda data, voice: say("{seat} melded {count} {location} cards", seat=voice.seat(data["seat"]),
                                            count=data["count"], location=named("location", data["location"],
                                                                                LOCATION_NAMES[data["location"]])),
    PortalClaimed.TYPE: _claimed,
    RunMelded.TYPE: lambda data, voice: say("{seat} published run {number}: every other seat took {madness} Madness",
                                            seat=voice.seat(data["seat"]), number=data["number"], madness=data["madness"]),
    PortalSealed.TYPE: lambda data, voice: say("{seat} sealed the {portal} Portal", seat=voice.seat(data["seat"]),
                                               portal=portal(data["portal"])),
    TurnPassed.TYPE: lambda data, voice: say("{seat} passed the turn (Gug)", seat=voice.seat(data["seat"])),
    CardDiscarded.TYPE: lambda data, voice: say("Azathoth made {seat} discard {card} face up", seat=voice.seat(data["seat"]),
                                                card=card(data["card"])),
    CardGiven.TYPE: changed_hands("{seat} gave {card} to {other}", "to", "location", card),
    HandLookedAt.TYPE: _looked,
    CardTaken.TYPE: changed_hands("{seat} took {card} from {other}", "target", "location", card),
    DeckCardTaken.TYPE: _deck_card,
    PowerResolved.TYPE: lambda data, voice: say("{seat} finished the {portal} power", seat=voice.seat(data["seat"]),
                                                portal=portal(data["portal"])),
    DeckExhausted.TYPE: lambda data, voice: say("The deck ran out: one last turn each for {seats}",
                                                seats=voice.seats(data["last_turns"])),
    TurnEnded.TYPE: lambda data, voice: say("{seat} ended the turn", seat=voice.seat(data["seat"])),
    TurnStarted.TYPE: lambda data, voice: say("{seat} began an extra turn (Dagon)" if data["extra"] else "{seat} began a turn",
                                              seat=voice.seat(data["seat"])),
    RoundEnded.TYPE: _round_ended,
})
