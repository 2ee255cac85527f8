"""A posted command read at the wire: its shape checked by the game's schema before the kernel decides it.

The kernel decides commands already read (``Game.checked_decide``: running, seat, turn, rules) and knows no
schema library. Every door a posted command comes through reads it here, the same way: the rules service's
``/v1/decide`` (its lean path too), the session service's in-process rules client, and the audit's re-decision
of a stored command. The catalogue's JSON schemas come from the same marshmallow schemas (``catalog.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError

from shared.kernel import Decided, Game, RuleViolation


class MalformedCommand(Exception):
    """A command whose shape is wrong (missing type, wrong field types): the request is bad, not the move."""

    def __init__(self, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or {}


# One schema instance per command type of each game's command table, reused: building a schema costs more than
# loading with it. Keyed by the table's identity, which the entry keeps alive (so no other table takes its id).
_LOADERS: dict[int, tuple[Mapping[str, type[Schema]], dict[str, Schema]]] = {}


def loaders(game: Game) -> dict[str, Schema]:
    """The game's command schemas, one instance each, by command type."""
    commands = game.catalogue.commands
    entry = _LOADERS.get(id(commands))
    if entry is None or entry[0] is not commands:
        entry = _LOADERS[id(commands)] = (commands, {kind: schema() for kind, schema in commands.items()})
    return entry[1]


def parse_command(game: Game, raw: Any) -> dict[str, Any]:
    """A posted command as ``decide`` reads it: its fields loaded by its schema (defaults filled in, unknown fields
    refused). An unknown type is a rule matter (``rules/unknown_command``); a bad shape is ``MalformedCommand``."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("type"), str):
        raise MalformedCommand("a command is a JSON object with a string 'type'")
    kind = raw["type"]
    schema = loaders(game).get(kind)
    if schema is None:
        raise RuleViolation("rules/unknown_command", f"{game.catalogue.title} has no command {kind[:64]!r}",
                            {"known": sorted(game.catalogue.commands)})
    try:
        fields = schema.load({k: v for k, v in raw.items() if k != "type"})
    except ValidationError as exc:
        raise MalformedCommand(f"the {kind} command is malformed", {"fields": exc.messages}) from None
    return {"type": kind, **fields}


def decide_posted(game: Game, state: Any, raw: Any, seat: int | None, entropy: bytes) -> Decided[Any]:
    """Decide a command as it was posted: the game is running and the seat at the table (``GameOver``,
    ``rules/no_such_seat``) before its shape is read, then the kernel's turn check and the game's rules."""
    seat = game.check_seat(state, seat)
    return game.decide_in_turn(state, parse_command(game, raw), seat, entropy)
