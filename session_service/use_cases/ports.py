"""What the use cases are handed: the rules (a protocol ``rules_client``'s three clients implement) and the
scheduler of follow-up work (``session_service.scheduler``'s RQ one in deployment).

The use cases sit below the adapters (pyproject.toml's layers), so the port, and what it answers, live here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, runtime_checkable

from shared.kernel import Event, Game
from session_service.use_cases.meta import Meta


class Ruling(NamedTuple):
    """What a decide answers: the events, and the rules process's name for the game's position after them when it
    keeps that position (the hop's ``kept``; None over HTTP and in process). The session sends the name back, in
    place of the state, with the game's next decide while that position is still the game's head."""

    events: list[Event]
    kept: str | None = None


@runtime_checkable
class RulesPort(Protocol):
    """The rules, however they are reached (the hop, the HTTP API, in process): each answers with events, or raises
    the kernel's own refusals (``RuleViolation``, ``MalformedCommand``, ``GameOver``), or ``Unavailable``."""

    def setup(self, game: Game, players: int, options: dict[str, Any], entropy: bytes) -> tuple[dict[str, Any], list[Event]]:
        """The game's options as set up, and its first events."""

    def decide(self, game: Game, state: Any, command: Any, seat: int, entropy: bytes,
               kept: str | None = None) -> Ruling:
        """A command's events at ``state`` (or at the position the rules process keeps as ``kept``)."""

    def ready(self) -> bool:
        """Whether the rules answer (the readiness probe's)."""


@dataclass
class Scheduler:
    """Where the service hands off follow-up work (AI turns, turn timers). The real one enqueues RQ jobs
    (``session_service.scheduler``)."""

    after_change: Callable[[Meta], None] = lambda meta: None
