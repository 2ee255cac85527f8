"""A posted command read at the wire: its shape checked by the game's command record before the kernel decides it.

The kernel decides commands already read (``Game.checked_decide``: running, seat, turn, rules). Every door a
posted command comes through reads it here, the same way: the rules service's two doors (``/v1/decide`` and the hop),
the session service's in-process rules client, and the audit's re-decision of a stored command. The game's command
records (``shared.kernel.commands``) read it, and the catalogue's JSON Schemas come from the same records
(``catalog.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel import Command, CommandRefused, Decided, Game, RuleViolation


class MalformedCommand(Exception):
    """A command whose shape is wrong (missing type, wrong field types): the request is bad, not the move."""

    def __init__(self, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or {}


def parse_command(game: Game, raw: Any) -> Command:
    """A posted command as ``decide`` reads it: the game's typed record of its type, read strictly (defaults filled
    in, unknown fields refused). An unknown type is a rule matter (``rules/unknown_command``); a bad shape is
    ``MalformedCommand``, its details naming what is wrong with each field."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("type"), str):
        raise MalformedCommand("a command is a JSON object with a string 'type'")
    kind = raw["type"]
    command = game.catalogue.commands.get(kind)
    if command is None:
        raise RuleViolation("rules/unknown_command", f"{game.catalogue.title} has no command {kind[:64]!r}",
                            {"known": sorted(game.catalogue.commands)})
    try:
        return command.from_wire(raw)
    except CommandRefused as exc:
        raise MalformedCommand(f"the {kind} command is malformed", {"fields": exc.fields}) from None


def decide_posted(game: Game, state: Any, raw: Any, seat: int | None, entropy: bytes) -> Decided[Any]:
    """Decide a command as it was posted: the game is running and the seat at the table (``GameOver``,
    ``rules/no_such_seat``) before its shape is read, then the kernel's turn check and the game's rules."""
    seat = game.check_seat(state, seat)
    return game.decide_in_turn(state, parse_command(game, raw), seat, entropy)
