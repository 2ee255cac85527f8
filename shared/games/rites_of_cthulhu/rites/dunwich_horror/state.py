"""The Dunwich Horror's state: the phase of the turn, the farmhouse walls, the captured cards and the discards."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Building:
    """The rite was picked; the farmhouses are not built yet."""


@dataclass(frozen=True, slots=True)
class Replacing:
    """Cultists who handed a twin over draw their hands back to 5 (each on her own command) before the first turn."""

    waiting: frozenset[int]


@dataclass(frozen=True, slots=True)
class Turn:
    """``seat`` may reveal, capture an earlier revealed card, or discard two and draw two.

    ``seat`` is None before the first move: the rite's opener, read when needed (an artifact may change it)."""

    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Revealed:
    """``seat`` revealed wall ``wall`` this turn: she captures it with a second pair or knocks."""

    seat: int
    wall: int


@dataclass(frozen=True, slots=True)
class Claims:
    """The claim window after ``revealer`` knocked: ``passed`` lists the seats that passed, in arrival order."""

    revealer: int
    wall: int
    passed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Freed:
    """Every wall card is captured: the twins are free and the rite is over."""


@dataclass(frozen=True, slots=True)
class LastClaims:
    """How the latest claim window closed (so a late knock learns why it is refused)."""

    wall: int
    claimant: int | None


@dataclass(frozen=True, slots=True)
class DunwichState:
    phase: Building | Replacing | Turn | Revealed | Claims | Freed
    twins: tuple[int, ...] = ()
    walls: tuple[int | None, ...] = ()
    face_up: frozenset[int] = frozenset()
    captured: tuple[tuple[int, ...], ...] = ()
    discards: tuple[int, ...] = ()
    last_claims: LastClaims | None = None


STATE_TYPES = (DunwichState, Building, Replacing, Turn, Revealed, Claims, Freed, LastClaims)
