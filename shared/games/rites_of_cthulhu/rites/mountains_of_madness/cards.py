"""At the Mountains of Madness's numbers and places (rulebook "At the Mountains of Madness", p. 35)."""

from __future__ import annotations

from enum import StrEnum

RIDGE_SIZE = 4
""""The ridge is made up of up to 4 cards in a run played side by side"."""


class Side(StrEnum):
    """Slopes are "neat stacks of numerically sequenced cards placed above and below the mountain ridge"."""

    ABOVE = "above"
    BELOW = "below"
