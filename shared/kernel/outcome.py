"""The end of a game as a value."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won and why. ``winners`` may hold several seats (shared victory) or none (everyone lost)."""

    reason: str
    winners: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winners": list(self.winners),
            "scores": None if self.scores is None else list(self.scores),
            "details": self.details,
        }
