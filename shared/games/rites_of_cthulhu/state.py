"""Rites of Cthulhu's state: the series of rites, the artifacts, the stage of the current rite, and the table every
rite shares (each rite keeps its own state in ``rites/<rite>/state.py``). Changed only by ``rules.evolve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Rule changes the artifacts put in force for the current rite. Fields only ever get added (with defaults).

    ``direction``: +1 clockwise (to the left), -1 counter-clockwise. ``opener``: the seat that takes the Grand
    Cultist's first turn (None: the Grand Cultist). ``low_wins``: rank comparisons are inverted. ``open_hands``:
    every hand is played face up. ``no_power_plays``: power-plays are forbidden this rite.
    """

    direction: int = 1
    opener: int | None = None
    low_wins: bool = False
    open_hands: bool = False
    no_power_plays: bool = False


@dataclass(frozen=True, slots=True)
class Trade:
    """A face-down forced trade: ``giver`` slid ``card`` to ``receiver``, who must give back a card unseen."""

    giver: int
    receiver: int
    card: int


@dataclass(frozen=True, slots=True)
class Tabletop:
    """What every rite shares. ``pile[0]`` is the top of the entities draw pile."""

    players: int
    grand_cultist: int
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()
    mods: Modifiers = field(default_factory=Modifiers)
    trade: Trade | None = None
    known: tuple[tuple[int, int], ...] = ()
    """(knower, card): the knower knows which hand holds the card (a forced trade, a peek)."""
    peeks: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
    """(knower, seat, cards): the knower looked at that seat's hand this rite (the Mirror of Nitocris)."""
    moves: int = 0
    """The rite's facts since it began that were a cultist's move (not what the rite does by itself, ``Rite.not_moves``)."""
    face_down: tuple[tuple[int, int], ...] = ()
    """Set-aside cards nobody else saw: (card, the one seat that knows it, or -1 for nobody)."""
    traded: tuple[tuple[int, int, int], ...] = ()
    """(knower, card, seat): in an answered forced trade the knower saw card go into seat's hand (the forced card to
    the receiver, the card given back to the giver; the knower is -2, everybody, when hands were open)."""
    drawn: tuple[int, ...] = ()
    """How many cards each seat has drawn since the deal (public; empty before the first draw)."""


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


class GameEnd(StrEnum):
    ALL_RITES_PERFORMED = "all_rites_performed"


@dataclass(frozen=True, slots=True)
class Finished:
    reason: GameEnd


@dataclass(frozen=True, slots=True)
class RitesState:
    players: int
    rites_total: int
    grand_cultist: int
    table: Tabletop
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


STATE_TYPES = (RitesState, Choosing, Performing, Claiming, Finished, Tabletop, Modifiers, Trade)
"""The overarching game's classes; ``__init__`` adds every rite's own."""
