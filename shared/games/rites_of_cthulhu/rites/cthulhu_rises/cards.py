"""Cthulhu Rises's numbers and names (rulebook "Cthulhu Rises", p. 14)."""

from __future__ import annotations

from enum import StrEnum

GRAND_CULT = 0
"""The Esoteric Order of Dagon (green) "is the Grand Cult": its cards trump the dominant cult."""
DISCARDS = {2: 0, 3: 2, 4: 0, 5: 1, 6: 2}
"""The Deal: the deck must divide evenly among the cultists; these many cards are set aside unseen."""


class CthulhuPlace(StrEnum):
    """Where Cthulhu goes when a gate that holds him closes."""

    CAPTURED = "captured"
    CENTER = "center"


class SummonedFrom(StrEnum):
    HAND = "hand"
    CAPTURED = "captured"
