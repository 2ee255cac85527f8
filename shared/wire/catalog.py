"""The catalogue both services serve: each game's metadata with its commands as JSON schemas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apispec.ext.marshmallow import OpenAPIConverter

from shared.kernel import Game

_converter = OpenAPIConverter(openapi_version="3.0.3", schema_name_resolver=lambda schema: None, spec=None)


def command_schema(kind: str, schema: type) -> dict[str, Any]:
    body = _converter.schema2jsonschema(schema())
    body.setdefault("properties", {})["type"] = {"type": "string", "enum": [kind]}
    body["required"] = ["type", *body.get("required", [])]
    body["additionalProperties"] = False
    return body


def catalog(games: Mapping[str, Game]) -> dict[str, Any]:
    return {
        "games": [
            game.catalogue_entry({kind: command_schema(kind, schema) for kind, schema in game.commands.items()})
            for game in games.values()
        ]
    }
