"""At the Mountains of Madness's state: the ridge, the slopes, and whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Slope:
    ridge_card: int
    side: str
    cards: tuple[int, ...]
    """Bottom first; a cliff's forbidden book lies under the card played with it."""


@dataclass(frozen=True, slots=True)
class MountainsState:
    ridge: tuple[int, ...] = ()
    """The Elder Sign first, then the other ridge cards in the order played."""
    slopes: tuple[Slope, ...] = ()
    turn: int | None = None
    played: int = 0
    """Cards played by the cultist on turn this turn."""
    drew: bool = False


STATE_TYPES = (MountainsState, Slope)
