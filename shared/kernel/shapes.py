"""What a game puts on the wire beyond its commands and facts, as JSON Schema: its view and its outcome.

A game describes what its ``view`` returns and what its ``Outcome`` carries in a ``shapes.py`` beside its
``views.py``, as a ``Shapes`` on its ``Catalogue``; the OpenAPI document turns them into components a generated
client reads typed (``shared/wire/contract.py``), and the suites check every view of random playouts
(``tests/property/test_wire_shapes.py``) and every view the services send (``tests/e2e/test_wire_contract.py``)
against them. Its commands are described by their schemas and its events by its ``Fact`` dataclasses.

The schemas are JSON Schema 2020-12, OpenAPI 3.1's dialect (``null`` is a type). The helpers below keep a view's
description as short as the view: ``obj("…", {"round": integer("…"), …}, optional=("hand",))``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Schema = dict[str, Any]


def _described(schema: Schema, description: str) -> Schema:
    return {**schema, "description": description} if description else schema


def integer(description: str = "", *, minimum: int | None = None, maximum: int | None = None,
            enum: Iterable[int] | None = None) -> Schema:
    out: Schema = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    if enum is not None:
        out["enum"] = list(enum)
    return _described(out, description)


def string(description: str = "", *, enum: Iterable[str] | None = None) -> Schema:
    out: Schema = {"type": "string"}
    if enum is not None:
        out["enum"] = [str(e) for e in enum]
    return _described(out, description)


def boolean(description: str = "") -> Schema:
    return _described({"type": "boolean"}, description)


def const(value: Any, description: str = "") -> Schema:
    return _described({"const": value}, description)


def array(items: Schema, description: str = "", *, min_items: int | None = None, max_items: int | None = None) -> Schema:
    out: Schema = {"type": "array", "items": items}
    if min_items is not None:
        out["minItems"] = min_items
    if max_items is not None:
        out["maxItems"] = max_items
    return _described(out, description)


def nullable(schema: Schema, description: str = "") -> Schema:
    """``schema`` or null: a type list where the schema is of one plain type, else ``anyOf`` (an enum or null reads
    as one to a generator: an ``Enum | None``)."""
    if isinstance(schema.get("type"), str) and "$ref" not in schema and "enum" not in schema:
        return _described({**schema, "type": [schema["type"], "null"]}, description)
    return _described({"anyOf": [schema, {"type": "null"}]}, description)


def obj(description: str, properties: Mapping[str, Schema], *, optional: Iterable[str] = ()) -> Schema:
    """An object with these properties, each required unless named in ``optional`` (a field only some readers, or
    some phases, have)."""
    left_out = set(optional)
    unknown = left_out - set(properties)
    if unknown:
        raise ValueError(f"optional names properties the object does not have: {sorted(unknown)}")
    out: Schema = {"type": "object", "properties": dict(properties)}
    required = [name for name in properties if name not in left_out]
    if required:  # OpenAPI 3.0 wants a required list to hold something
        out["required"] = required
    return _described(out, description)


def by_seat(values: Schema, description: str = "") -> Schema:
    """An object keyed by seat numbers as strings (``{"0": …, "1": …}``)."""
    return _described({"type": "object", "propertyNames": {"pattern": "^[0-9]+$"}, "additionalProperties": values},
                      description)


def one_of(*schemas: Schema, description: str = "", discriminator: str | None = None) -> Schema:
    """Exactly one of ``schemas``; with ``discriminator``, the property whose ``const`` tells them apart."""
    out: Schema = {"oneOf": list(schemas)}
    if discriminator is not None:
        out["discriminator"] = {"propertyName": discriminator}
    return _described(out, description)


def requires(*names: str) -> Schema:
    """A constraint: these properties are present."""
    return {"required": list(names)}


def lacks(*names: str) -> Schema:
    """A constraint: none of these properties is present (what a spectator must never receive)."""
    return {"not": {"anyOf": [{"required": [name]} for name in names]}}


SEAT = integer("a seat, 0 for the first", minimum=0)


def seats(description: str = "") -> Schema:
    return array(SEAT, description)


@dataclass(frozen=True, slots=True)
class Shapes:
    """A game's wire shapes. ``view``: what ``view`` returns, every field any reader may get (those some readers or
    phases lack are optional). ``seat`` and ``spectator``: the constraints a seat's own view and a spectator's meet
    while the game is on (``requires``/``lacks``: a spectator's view holds no hand). ``outcome_details``: the
    ``details`` of the game's ``Outcome``; ``whole_scores``: its scores are whole numbers (integers on the wire).
    ``withheld``: per event type, the fields of its data a reader may not receive (secret to some seats)."""

    view: Schema
    seat: Schema = field(default_factory=dict)
    spectator: Schema = field(default_factory=dict)
    outcome_details: Schema = field(default_factory=lambda: {"type": "object"})
    whole_scores: bool = True
    withheld: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
