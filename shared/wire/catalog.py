"""The catalogue both services serve: each game's metadata with its commands as JSON schemas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel import Game


def command_schemas(game: Game) -> dict[str, dict[str, Any]]:
    """Each command type of ``game`` with its JSON Schema, derived from its record (``Command.json_schema``: its
    description is the record's docstring, what the command does in the game's words and the rulebook section it
    follows, each field's its own): what the catalogue shows and the OpenAPI document's command components are made
    of (``shared/wire/contract.py``)."""
    return {kind: command.json_schema() for kind, command in game.catalogue.commands.items()}


def catalog(games: Mapping[str, Game]) -> dict[str, Any]:
    return {"games": [game.catalogue_entry(command_schemas(game)) for game in games.values()]}
