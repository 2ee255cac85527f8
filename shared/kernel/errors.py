"""Rule violations: the one exception a game raises, with a stable namespaced code."""

from __future__ import annotations

from typing import Any


class RuleViolation(Exception):
    """A command the rules refuse. ``code`` is stable (``rules/not_your_turn``) and part of the public API.

    The message and details must only say what the commanding seat may know: they are sent back to it.
    """

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None):
        if not code.startswith("rules/"):
            raise ValueError(f"rule codes live under rules/: {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r})"


def require(condition: bool, code: str, message: str, **details: Any) -> None:
    """Raise ``RuleViolation(code, message)`` unless ``condition`` holds."""
    if not condition:
        raise RuleViolation(code, message, details)
