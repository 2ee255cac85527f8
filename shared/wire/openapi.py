"""The OpenAPI document for readers that do not read OpenAPI 3.2 yet: the same document, rendered as 3.1 and 3.0.

``/openapi.json`` is OpenAPI 3.2: its streams' items are described with ``itemSchema`` (a sequential media type's
schema per message), which 3.1 lacks. Some generators refuse a 3.2 document (openapi-python-client 0.29 reads 3.1
only) and the bundled Swagger UI of ``/docs`` renders 3.0 only, so the service also serves:

- ``/openapi-3.1.json``: the same, each ``itemSchema`` kept as the extension ``x-itemSchema`` (the stream
  endpoints then have no schema a generator would parse a whole body with; their message components are there to
  read each line with);
- ``/openapi-3.0.json``: the 3.1 rendering with its schemas in OpenAPI 3.0's dialect (``nullable`` for the null
  type, ``enum`` for ``const``; keywords 3.0 lacks, such as ``if``/``then`` and ``contentSchema``, are dropped:
  they only narrow what the schema already says).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SCHEMA_KEYS = ("schema", "items", "not", "additionalProperties", "contentSchema", "itemSchema", "x-itemSchema")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_MAPS = ("properties", "patternProperties", "$defs")
NULL = {"type": "null"}
DROPPED_IN_3_0 = ("if", "then", "else", "contentMediaType", "contentSchema", "propertyNames", "$defs", "prefixItems",
                  "unevaluatedProperties", "dependentRequired", "examples")


def as_3_1(document: dict[str, Any]) -> dict[str, Any]:
    """The 3.2 document as OpenAPI 3.1: ``itemSchema`` becomes ``x-itemSchema``."""
    renamed = {"itemSchema": "x-itemSchema"}
    out = _operations(document, media=lambda m: {renamed.get(k, k): v for k, v in m.items()}, parameter=lambda s: s)
    return {**out, "openapi": "3.1.1"}


def as_3_0(document: dict[str, Any]) -> dict[str, Any]:
    """The 3.2 document as OpenAPI 3.0.3, its schemas in 3.0's dialect."""
    out = _operations(as_3_1(document), media=lambda m: {k: schema_3_0(v) if k == "schema" else v for k, v in m.items()},
                      parameter=schema_3_0)
    components = out.get("components", {})
    schemas = {name: schema_3_0(schema) for name, schema in components.get("schemas", {}).items()}
    return {**out, "openapi": "3.0.3", "components": {**components, "schemas": schemas}}


def _operations(document: dict[str, Any], media: Callable[[dict[str, Any]], dict[str, Any]],
                parameter: Callable[[Any], Any]) -> dict[str, Any]:
    """``document`` with every media type object of its operations (requests and responses) passed through ``media``
    and every parameter's schema through ``parameter``."""
    paths: dict[str, Any] = {}
    for path, item in document.get("paths", {}).items():
        paths[path] = {method: _operation(op, media, parameter) if isinstance(op, dict) and "responses" in op else op
                       for method, op in item.items()}
    return {**document, "paths": paths}


def _operation(operation: dict[str, Any], media: Callable[[dict[str, Any]], dict[str, Any]],
               parameter: Callable[[Any], Any]) -> dict[str, Any]:
    def content(holder: dict[str, Any]) -> dict[str, Any]:
        if "content" not in holder:
            return holder
        return {**holder, "content": {kind: media(m) for kind, m in holder["content"].items()}}

    out = {**operation, "responses": {status: content(r) for status, r in operation["responses"].items()}}
    if "requestBody" in out:
        out["requestBody"] = content(out["requestBody"])
    if "parameters" in out:
        out["parameters"] = [{**p, "schema": parameter(p["schema"])} if "schema" in p else p for p in out["parameters"]]
    return out


def schema_3_0(schema: Any) -> Any:
    """A JSON Schema 2020-12 (OpenAPI 3.1) schema in OpenAPI 3.0's dialect."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    nullable = False
    for key, value in schema.items():
        if key in DROPPED_IN_3_0:
            continue
        if key in ("anyOf", "oneOf") and NULL in value:  # X or null: X, nullable
            nullable, rest = True, [schema_3_0(v) for v in value if v != NULL]
            out.update({"allOf": rest} if len(rest) == 1 and key == "anyOf" else {key: rest})
        elif key in SCHEMA_KEYS:
            out[key] = schema_3_0(value) if isinstance(value, dict) else value
        elif key in SCHEMA_LISTS:
            out[key] = [schema_3_0(v) for v in value]
        elif key in SCHEMA_MAPS:
            out[key] = {k: schema_3_0(v) for k, v in value.items()}
        elif key == "const":
            out["enum"] = [value]
        elif key == "type" and isinstance(value, list):
            nullable = nullable or "null" in value
            others = [k for k in value if k != "null"]
            if len(others) == 1:
                out["type"] = others[0]
            else:
                out["anyOf"] = [*out.get("anyOf", []), *({"type": k} for k in others)]
        elif key == "type" and value == "null":
            nullable = True
        else:
            out[key] = value
    if nullable:
        out["nullable"] = True
        if not any(k in out for k in ("type", "allOf", "anyOf", "oneOf", "$ref")):
            out["type"] = "object"  # nothing but null: 3.0 has no null type
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out
