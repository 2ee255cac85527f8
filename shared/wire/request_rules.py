"""What the server enforces on a request, said in the OpenAPI document where JSON Schema can say it.

marshmallow's schemas check more than apispec writes down (a ``validates_schema`` rule is code), and write one
thing that misleads: a field's ``load_default`` as ``default``, which openapi-typescript's default settings read as
"always present", so a request without it did not compile (``{me: true}`` lacked ``open`` and ``ai``). Here, once
the document's components are built: each request rule of a component as JSON Schema, and a request field's
default said in its description instead. What JSON Schema cannot say (a rule that depends on the game, the caller
or the server's settings) is a 422 with a stable code (README, "Errors").
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

import orjson

Schema = dict[str, Any]

ONLY = {"const": False, "description": "false, or left out"}
# SeatRequest.one_kind: exactly one of {name[, ai]}, {open: true[, player]} or {me: true}; ai only with a name,
# player only with open. (if/then/else, not oneOf: a generator reads a oneOf as a union of models.)
SEAT_KINDS: Schema = {
    "if": {"required": ["name"]},
    "then": {"properties": {"open": ONLY, "me": ONLY}, "not": {"required": ["player"]}},
    "else": {
        "properties": {"ai": {"type": "null"}},
        "if": {"required": ["open"], "properties": {"open": {"const": True}}},
        "then": {"properties": {"me": ONLY}},
        "else": {"required": ["me"], "properties": {"me": {"const": True}}, "not": {"required": ["player"]}},
    },
}
# lobby.check_rated: a rated table is public, every person at it a player (no seat by name without an AI), and
# one of its seats at least is a player's (the caller's, or open). That it is opened with a player key is the
# caller's, not the body's: 401.
RATED: Schema = {
    "if": {"required": ["rated"], "properties": {"rated": {"const": True}}},
    "then": {"properties": {
        "visibility": {"const": "public"},
        "seats": {"items": {"not": {"required": ["name"], "properties": {"ai": {"type": "null"}}}},
                  "contains": {"anyOf": [{"required": ["me"], "properties": {"me": {"const": True}}},
                                         {"required": ["open"], "properties": {"open": {"const": True}}}]}}}},
}
# SeekRequest.one_size: seats, or min_seats and max_seats, not both.
ONE_SIZE: Schema = {"if": {"required": ["seats"]},
                    "then": {"not": {"anyOf": [{"required": ["min_seats"]}, {"required": ["max_seats"]}]}}}
RULES: dict[str, Schema] = {"SeatRequest": SEAT_KINDS, "CreateGame": RATED, "SeekRequest": ONE_SIZE}


def say_request_rules(schemas: MutableMapping[str, Schema]) -> None:
    """Add each component's rules, and move a field's ``default`` into its description (only requests have them:
    a ``load_default``)."""
    for name, rule in RULES.items():
        if name in schemas:
            schemas[name] = {**schemas[name], **rule}
    for name in list(schemas):
        if "properties" in schemas[name]:
            schemas[name] = {**schemas[name], "properties": {
                field: defaults_in_words(schema) for field, schema in schemas[name]["properties"].items()}}


def defaults_in_words(schema: Schema) -> Schema:
    """``schema`` with its ``default`` said in its description (the server fills it in when the field is left out)."""
    if "default" not in schema:
        return schema
    out = {k: v for k, v in schema.items() if k != "default"}
    said = f"left out: {orjson.dumps(schema['default']).decode()}"
    out["description"] = f"{out['description']}; {said}" if out.get("description") else said.capitalize()
    return out
