"""The overarching game's state: the series of rites, the artifacts, and the stage of the current rite."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.games.rites_of_cthulhu.rites.base import Modifiers, Table, Trade


@dataclass(frozen=True, slots=True)
class Choosing:
    """Hands are dealt; the Grand Cultist picks an unplayed rite."""


@dataclass(frozen=True, slots=True)
class Performing:
    rite_id: str
    rite: Any
    begun: bool = False
    """False while the rite's deal adjustments and the Coveted Artifact's reveal are being folded."""


@dataclass(frozen=True, slots=True)
class Claiming:
    """An overthrow winner chooses: take the Coveted Artifacts, or trade one for any artifact of the deck."""

    winner: int
    rite_id: str


@dataclass(frozen=True, slots=True)
class Finished:
    reason: str


@dataclass(frozen=True, slots=True)
class RitesState:
    players: int
    rites_total: int
    grand_cultist: int
    table: Table
    stage: Choosing | Performing | Claiming | Finished
    played: tuple[str, ...] = ()
    """Rites performed or failed, in order (their tablets are no longer available)."""
    artifact_deck: tuple[int, ...] = ()
    """The artifacts not yet excavated, sorted: the deck is drawn at random at each excavation."""
    coveted: tuple[int, ...] = ()
    captured: tuple[tuple[int, ...], ...] = ()
    thrown_out: tuple[int, ...] = ()
    revealed: tuple[int, ...] = ()
    """Artifacts revealed during the current rite (their owners' second invocation comes in a later rite)."""
    fresh_used: tuple[int, ...] = ()
    """Single-cultist artifacts whose one use in the rite they were revealed in has been made."""
    second_used: tuple[int, ...] = ()
    """Artifacts whose owner has invoked them a second time."""
    first_draws: tuple[tuple[int, ...], ...] = ()
    """The simultaneous draws that chose the first Grand Cultist (one tuple per round, -1 for seats out)."""


STATE_TYPES = (RitesState, Choosing, Performing, Claiming, Finished, Table, Modifiers, Trade)
