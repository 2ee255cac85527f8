"""openapi-spec-validator, with its check of each Schema Object against the schema dialect done by jsonschema-rs.

``validate(document)`` is openapi-spec-validator's ``validate`` for the document's version: the document against the
OpenAPI specification's schema, then its walk of paths, operations, parameters, media types and components. The walk
checks every Schema Object against its dialect's meta-schema (OpenAPI 3.1 and 3.2: the OAS dialect of JSON Schema
2020-12, 3.0: draft 4) with the Python ``jsonschema``, which for the service's document (450 components, 490 kB
of schemas) is 4.2 s of its 4.9 s. Here the same meta-schemas, from the same packages, are checked by jsonschema-rs
(formats asserted, as the stock check does), in milliseconds; everything else is the stock validator's.
"""

from __future__ import annotations

import functools
import json
from functools import partial
from pathlib import Path
from typing import Any

import jsonschema_rs
import openapi_schema_validator
import openapi_spec_validator
from jsonschema.exceptions import SchemaError
from openapi_spec_validator.shortcuts import get_validator_cls
from openapi_spec_validator.validation.validators import SpecValidator


@functools.cache
def _registry() -> jsonschema_rs.Registry:
    """The OAS dialects and vocabularies openapi-schema-validator ships (JSON Schema's own are built into
    jsonschema-rs)."""
    shipped = Path(openapi_schema_validator.__file__).parent / "schemas"
    resources = [json.loads(path.read_text()) for path in sorted(shipped.rglob("*")) if path.is_file()]
    return jsonschema_rs.Registry([(resource["$id"], resource) for resource in resources])


@functools.cache
def _meta_validator(meta_id: str, meta_schema_json: str) -> Any:
    return jsonschema_rs.validator_for(json.loads(meta_schema_json), registry=_registry(), validate_formats=True)


def _checker(stock: Any) -> Any:
    """A check of a Schema Object against the meta-schema ``stock`` (the stock validator's own check) uses."""
    validator_class = (stock.func if isinstance(stock, partial) else stock).__self__
    meta = validator_class.META_SCHEMA
    validator = _meta_validator(meta.get("$id") or meta.get("id", ""), json.dumps(meta, sort_keys=True))

    def check(schema: Any) -> None:
        for error in validator.iter_errors(schema):
            where = "/".join(str(part) for part in error.instance_path)
            raise SchemaError(f"{error.message} (at /{where})")

    return check


class _RsMetaCheck:
    """Mixed into a stock Schema Object validator: its dialect choice, jsonschema-rs's check."""

    def _get_schema_checker(self, schema: Any, schema_value: Any) -> Any:
        return _checker(super()._get_schema_checker(schema, schema_value))  # type: ignore[misc]


@functools.cache
def _fast(spec_class: type[SpecValidator]) -> type[SpecValidator]:
    stock = spec_class.keyword_validators["schema"]
    schema_class = type("Rs" + stock.__name__, (_RsMetaCheck, stock), {})
    keyword_validators = {**spec_class.keyword_validators, "schema": schema_class}
    return type("Rs" + spec_class.__name__, (spec_class,), {"keyword_validators": keyword_validators})


def validate(document: dict[str, Any]) -> None:
    """Raise openapi-spec-validator's error for the first thing wrong with ``document``; None when it is valid."""
    openapi_spec_validator.validate(document, cls=_fast(get_validator_cls(document)))
