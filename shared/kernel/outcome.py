"""The end of a game as a value."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won and why. ``winners`` may hold several seats (shared victory) or none (everyone lost). ``reason`` is
    one of the game's reasons (its ``Decider.reasons``, python-chess's ``Termination``) or the table's
    (``TableEnd``); the wire carries its value."""

    reason: StrEnum
    winners: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason.value,
            "winners": list(self.winners),
            "scores": None if self.scores is None else list(self.scores),
            "details": self.details,
        }
