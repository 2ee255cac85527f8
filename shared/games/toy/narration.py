"""Toy's events in words: one line per event type, from the event as the reader may see it (a card drawn by
another seat is missing from the data, so the line says "a card")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.narration import Line, Narrator, Text, Voice, named, say

from shared.games.toy.events import CardDealt, CardDrawn, CardPlayed, GameStarted


def card(value: int) -> dict[str, Any]:
    """A toy card as an argument: its value is its name."""
    return named("card", value, str(value))


def _received(verb: str) -> Line:
    def line(data: Mapping[str, Any], voice: Voice) -> Text:
        seat = voice.seat(data["seat"])
        if "card" in data:
            return say("{seat} " + verb + " the {card}", seat=seat, card=card(data["card"]))
        return say("{seat} " + verb + " a card", seat=seat)

    return line


NARRATOR = Narrator({
    GameStarted.TYPE: lambda data, voice: say("{count} players sat down to twelve shuffled cards", count=data["players"]),
    CardDealt.TYPE: _received("received"),
    CardDrawn.TYPE: _received("drew"),
    CardPlayed.TYPE: lambda data, voice: say("{seat} played the {card} and scored {points}", seat=voice.seat(data["seat"]),
                                             card=card(data["card"]), points=data["card"]),
})
