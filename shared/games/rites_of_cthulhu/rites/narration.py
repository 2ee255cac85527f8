"""What every rite's sentences share: cards and artifacts by name, each seat's points, and the lines of the table's
own events (``rites/table.py``: draws, cards set aside, forced trades, peeks) and of the shedding rites'
(``rites/shedding.py``). A hand's cards are in an event's data only for the seats that may see them; the others
read "cards" or "a card"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.kernel.narration import Line, Narrator, Text, Voice, clauses, named, plural, say

from shared.games.rites_of_cthulhu.cards import ARTIFACTS, ENTITIES
from shared.games.rites_of_cthulhu.rites.shedding import DrewUnableToPlay, TurnPassed
from shared.games.rites_of_cthulhu.rites.table import (CardForced, CardReturned, CardsDrawn, CardsKnown,
                                                       HandCardsSetAside, HandCardsSetAsideFaceDown, PileCardsSetAside)

Data = Mapping[str, Any]


def card(card_id: int) -> dict[str, Any]:
    """An entity card as an argument, by its name."""
    return named("card", card_id, ENTITIES[card_id]["name"])


def cards(ids: Sequence[int]) -> list[dict[str, Any]]:
    return [card(c) for c in ids]


def artifact(artifact_id: int) -> dict[str, Any]:
    return named("artifact", artifact_id, ARTIFACTS[artifact_id]["name"])


def scores(template: str, points: Sequence[int], voice: Voice) -> Text:
    """``template`` followed by each seat's points: "…: Ada scored 14 points, you scored 9 points"."""
    scored, args = clauses(("{seat} scored " + plural(value, "1 point", "{points} points"),
                            {"seat": voice.seat(seat), "points": value}) for seat, value in enumerate(points))
    return say(template + ": " + scored, **args)


def grave(index: int) -> int:
    """A grave or tree as players count them, from 1."""
    return index + 1


def _hand_cards(verb: str, unseen: str) -> Line:
    """Cards from or into a hand, named only to the seats that saw them."""

    def line(data: Data, voice: Voice) -> Text:
        if "cards" in data:
            return say("{seat} " + verb, seat=voice.seat(data["seat"]), cards=cards(data["cards"]))
        return say("{seat} " + unseen, seat=voice.seat(data["seat"]))

    return line


def _pile_set_aside(data: Data, voice: Voice) -> Text:
    if "cards" in data:
        verb = "was" if len(data["cards"]) == 1 else "were"
        return say("{cards} " + verb + " set aside unseen from the pile", cards=cards(data["cards"]))
    return say("Cards from the top of the pile were set aside unseen")


def _forced(data: Data, voice: Voice) -> Text:
    args = {"giver": voice.seat(data["giver"]), "receiver": voice.seat(data["receiver"])}
    if "card" in data:
        return say("{giver} slid {card} face down to {receiver}", card=card(data["card"]), **args)
    return say("{giver} slid a card face down to {receiver}", **args)


def _returned(data: Data, voice: Voice) -> Text:
    args = {"giver": voice.seat(data["giver"]), "receiver": voice.seat(data["receiver"])}
    if "card" in data:
        return say("{receiver} gave {card} back to {giver} and took {received}", card=card(data["card"]),
                   received=card(data["received"]), **args)
    return say("{receiver} gave a card back to {giver} and took the forced card", **args)


def _known(data: Data, voice: Voice) -> Text:
    args = {"seat": voice.seat(data["seat"]), "other": voice.seat(data["of_seat"])}
    if "cards" in data:
        return say("{seat} looked at {other}'s hand: {cards}", cards=cards(data["cards"]), **args)
    return say("{seat} looked at {other}'s hand", **args)


TABLE_NARRATOR = Narrator({
    CardsDrawn.TYPE: _hand_cards("drew {cards}", "drew from the pile"),
    HandCardsSetAside.TYPE: _hand_cards("showed {cards} and set them aside", "set cards aside"),
    HandCardsSetAsideFaceDown.TYPE: _hand_cards("set {cards} aside face down", "set cards aside face down"),
    PileCardsSetAside.TYPE: _pile_set_aside,
    CardForced.TYPE: _forced,
    CardReturned.TYPE: _returned,
    CardsKnown.TYPE: _known,
})
"""The table's own events, which every rite and the game itself emit."""

SHEDDING_NARRATOR = Narrator({
    DrewUnableToPlay.TYPE: lambda data, voice: say("{seat} could play no card and drew one", seat=voice.seat(data["seat"])),
    TurnPassed.TYPE: lambda data, voice: say("The turn passed to {seat}", seat=voice.seat(data["seat"])),
})
"""The events the two shedding rites share."""
