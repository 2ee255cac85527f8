"""The OpenAPI document's components as validators: what the contract suites check the wire against.

``Contract(document).problems("TurnMessage", message)`` lists what is wrong with ``message`` against the component
(none: it conforms). Strictly: every object the document describes with a ``type`` and ``properties`` is closed
(``additionalProperties: false``), so a field the services send that the document does not describe is a problem
too (the served document leaves objects open, so clients accept fields added later).

The validators are jsonschema-rs's (Draft 2020-12, formats not asserted, as the Python ``jsonschema`` package does
by default): the property suite checks some thirty thousand views and events, and in Python that validation was
the largest single cost of ``make test``.
"""

from __future__ import annotations

import functools
from typing import Any

import jsonschema_rs

REF = "#/components/schemas/"


def closed(schema: Any) -> Any:
    """``schema`` with every described object closed to undescribed properties."""
    if isinstance(schema, list):
        return [closed(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: closed(v) for k, v in schema.items()}
    kinds = out.get("type")
    is_object = kinds == "object" or (isinstance(kinds, list) and "object" in kinds)
    if is_object and "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def _refs(schema: Any) -> list[str]:
    """Every ``$ref`` in ``schema``."""
    if isinstance(schema, list):
        return [ref for item in schema for ref in _refs(item)]
    if not isinstance(schema, dict):
        return []
    own = [schema["$ref"]] if isinstance(schema.get("$ref"), str) else []
    return own + [ref for key, value in schema.items() if key != "$ref" for ref in _refs(value)]


class Contract:
    def __init__(self, document: dict[str, Any], strict: bool = True):
        self.document = document
        schemas = document["components"]["schemas"]
        self.schemas = {name: closed(s) for name, s in schemas.items()} if strict else schemas

    def narrowed(self, to: dict[str, str]) -> Contract:
        """This contract with some components standing for others: the unions of every game (``Command``, ``View``,
        ``Outcome``) narrowed to one game's, to check what a game of that kind sends (and faster: a union of every
        game's commands tries each of them)."""
        out = Contract.__new__(Contract)
        out.document = self.document
        out.schemas = {**self.schemas, **{name: {"$ref": REF + target} for name, target in to.items()}}
        return out

    @functools.lru_cache(maxsize=None)  # noqa: B019  (one contract per test module: kept while it lives)
    def validator(self, component: str) -> jsonschema_rs.Draft202012Validator:
        if component not in self.schemas:
            raise KeyError(f"the document has no component {component}")
        root = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "components": {"schemas": {name: self.schemas[name] for name in self.reachable(component)}},
                "$ref": REF + component}
        return jsonschema_rs.Draft202012Validator(root, validate_formats=False)

    def reachable(self, component: str) -> set[str]:
        """``component`` and every component its references reach: all a validator of it needs (a validator given the
        whole document reads it all, ~10 ms a component)."""
        found, todo = set(), [component]
        while todo:
            name = todo.pop()
            if name not in found:
                found.add(name)
                todo += [ref.removeprefix(REF) for ref in _refs(self.schemas[name])]
        return found

    def problems(self, component: str, instance: Any) -> list[str]:
        validator = self.validator(component)
        if validator.is_valid(instance):
            return []
        return [f"{component} at /{'/'.join(map(str, e.instance_path))}: {e.message[:300]}"
                for e in validator.iter_errors(instance)]

    def check(self, component: str, instance: Any) -> None:
        found = self.problems(component, instance)
        assert not found, "\n".join(found[:10])
