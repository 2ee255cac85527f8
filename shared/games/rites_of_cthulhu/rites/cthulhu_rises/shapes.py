"""Cthulhu Rises on the wire: the rite's part of the view (``views.py``)."""

from __future__ import annotations

from shared.kernel.shapes import SEAT, array, boolean, by_seat, integer, nullable, obj, seats, string

from shared.games.rites_of_cthulhu.rites.shapes import CARD, CARDS, CULT

VIEW = obj("Cthulhu Rises: gates of one card per cultist; the dominant cult takes them, and whoever captures Cthulhu "
           "risks him", {
    "gate_number": integer("the gate under way, from 1", minimum=1),
    "gate": array(obj("A card played to the gate", {
        "seat": SEAT,
        "card": CARD,
        "vertical": boolean("played vertically: its cultist may still take the gate"),
    })),
    "dominant_cult": nullable(CULT, "the gate's first card's cult"),
    "grand_cult": CULT,
    "to_play": nullable(SEAT, "who plays next (null while a card is being forced)"),
    "eligible": seats("seats that may still take the gate"),
    "cthulhu": string("where Cthulhu is: unseen, in the center, or captured", enum=("unseen", "center", "captured")),
    "captor": nullable(SEAT, "who captured Cthulhu"),
    "taken": by_seat(CARDS, "cards each seat took from gates"),
    "forcing": nullable(SEAT, "a seat forcing a card on another"),
})
