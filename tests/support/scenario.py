"""Given / when / then for rulebook scenarios: given events, when a seat posts a command (read at the wire as the
rules service reads it), then events or a violation.

    given(GAME, *events).when(1, {"type": "draw_cards", "count": 2}).then_types("cards_drawn")
    given(GAME, *events).when(1, {"type": "pass"}).raises("rules/not_your_turn")
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from shared.kernel import Command, Decided, Event, RuleViolation, fold
from shared.kernel.game import Game
from shared.wire.commands import decide_posted

ENTROPY = bytes(32)


def posted(command: dict[str, Any] | Command) -> dict[str, Any]:
    """A command as a client posts it: a test's dict as written, a legal command's record as it goes on the wire."""
    return command.to_wire() if isinstance(command, Command) else command


def offered(game: Game, state: Any, seat: int) -> list[dict[str, Any]]:
    """The legal commands of ``seat`` as its client gets them (on the wire), to compare with a test's dicts."""
    return [command.to_wire() for command in game.decider.legal_commands(state, seat)]


def timeout_choice(game: Game, state: Any, seat: int, rand: random.Random) -> dict[str, Any] | None:
    """What the turn timer posts for ``seat`` (``Game.timeout_choice``), as posted."""
    command = game.timeout_choice(state, seat, rand)
    return None if command is None else command.to_wire()


def decide(game: Game, state: Any, command: dict[str, Any] | Command, seat: int, entropy: bytes = ENTROPY) -> Decided[Any]:
    """Decide ``command`` for ``seat`` as the rules service decides a posted one (``decide_posted``: read at the wire
    into the game's record, then the kernel's checks and the rules)."""
    return decide_posted(game, state, posted(command), seat, entropy)


@dataclass
class Given:
    game: Game
    state: Any

    def when(self, seat: int, command: dict[str, Any] | Command, entropy: bytes = ENTROPY) -> When:
        return When(self.game, self.state, seat, command, entropy)


@dataclass
class When:
    game: Game
    state: Any
    seat: int
    command: dict[str, Any] | Command
    entropy: bytes

    @property
    def events(self) -> list[Event]:
        return decide(self.game, self.state, self.command, self.seat, self.entropy).events

    @property
    def after(self) -> Any:
        """The state after the command's events, for assertions on the result."""
        return decide(self.game, self.state, self.command, self.seat, self.entropy).state

    def then_types(self, *types: str) -> list[Event]:
        events = self.events
        assert [e.type for e in events] == list(types)
        return events

    def raises(self, code: str) -> RuleViolation:
        with pytest.raises(RuleViolation) as info:
            decide(self.game, self.state, self.command, self.seat, self.entropy)
        assert info.value.code == code, info.value
        return info.value


def given(game: Game, *events: Event, state: Any = None) -> Given:
    """The position after ``events`` (folded onto ``state``, ``None`` meaning before setup)."""
    return Given(game, fold(game, events, state))


def given_state(game: Game, state: Any) -> Given:
    return Given(game, state)


def play_moves(game: Game, state: Any, *moves: tuple[int, dict[str, Any] | Command], entropy: bytes = ENTROPY) -> tuple[Any, list[Event]]:
    """Apply ``(seat, command)`` moves in order through the kernel's checks; the final state and every event."""
    events: list[Event] = []
    for seat, command in moves:
        new, state = decide(game, state, command, seat, entropy)
        events += new
    return state, events
