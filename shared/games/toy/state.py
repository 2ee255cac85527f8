"""Toy's state: frozen dataclasses of tuples, changed only by ``rules.evolve``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ToyState:
    players: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    points: tuple[int, ...]
    turn: int


STATE_TYPES = (ToyState,)
