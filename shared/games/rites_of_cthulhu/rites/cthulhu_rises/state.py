"""Cthulhu Rises's state: the open gate, who may summon, where Cthulhu is, and the cards each cultist took."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CthulhuRisesState:
    gate_number: int = 1
    gate: tuple[tuple[int, int], ...] = ()
    """Cards played on the open gate, in order: (seat, card). The first is the opener's."""
    leader: int | None = None
    """Who opens the next gate (None before the first: the rite's opener)."""
    eligible: frozenset[int] = frozenset()
    """Cultists who have opened a gate: eligible to summon Cthulhu (their cards lie vertically)."""
    center: bool = False
    """Cthulhu lies in the middle of the table, at the center of the gate."""
    captor: int | None = None
    captured_at: int = 0
    """The gate in which the captor captured Cthulhu."""
    holder_at_start: int | None = None
    """The captor when the open gate was opened (an overthrow needs a capture in an earlier gate)."""
    taken: tuple[tuple[int, ...], ...] = ()
    """Each cultist's personal discard pile of gate cards taken."""
    forcing: int | None = None
    """The cultist who closed the last gate and may now force a card trade."""
    overthrow: int | None = None
    drawn_at_failure: tuple[int, ...] | None = None
    """Each seat's count of drawn cards (``Tabletop.drawn``) when a summoning last failed: that showed everyone that
    no hand held Cthulhu, so only a card drawn since may be him (None: no summoning has failed this rite)."""


STATE_TYPES = (CthulhuRisesState,)
