"""The Tree on the Hill's state: the trees on the table and whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TreeState:
    trees: tuple[tuple[int, ...], ...] = ()
    turn: int | None = None
    """Whose turn it is (None before the first play: the rite's opener)."""
    again: bool = False
    """The cultist on turn scored a double play and must play another card."""
    drew: bool = False
    """The cultist on turn could not play and drew a card: may play it, or end the turn."""


STATE_TYPES = (TreeState,)
