"""The catalogue both services serve: each game's metadata with its commands as JSON schemas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apispec.ext.marshmallow.openapi import OpenAPIConverter

from shared.kernel import Game

# apispec types the converter for use inside an APISpec; here it only turns schemas into JSON schemas, with no spec.
_converter: Any = OpenAPIConverter(openapi_version="3.0.3", schema_name_resolver=lambda schema: None, spec=None)  # type: ignore[arg-type]


def command_schema(kind: str, schema: type) -> dict[str, Any]:
    """A command's JSON schema for client authors: its description is the schema's docstring (what the command
    does in the game's words, and the rulebook section it follows), each field's its own."""
    body: dict[str, Any] = _converter.schema2jsonschema(schema())
    if schema.__doc__:
        body["description"] = " ".join(schema.__doc__.split())
    body.setdefault("properties", {})["type"] = {"type": "string", "enum": [kind], "description": "the command's name"}
    body["required"] = ["type", *body.get("required", [])]
    body["additionalProperties"] = False
    return body


def command_schemas(game: Game) -> dict[str, dict[str, Any]]:
    """Each command type of ``game`` with its JSON schema: what the catalogue shows and the OpenAPI document's
    command components are made of (``shared/wire/contract.py``)."""
    return {kind: command_schema(kind, schema) for kind, schema in game.catalogue.commands.items()}


def catalog(games: Mapping[str, Game]) -> dict[str, Any]:
    return {"games": [game.catalogue_entry(command_schemas(game)) for game in games.values()]}
