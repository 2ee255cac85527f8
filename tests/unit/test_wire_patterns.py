"""Every pattern-validated field of both services' schemas matches the whole value: Python's ``$`` also matches
before a final newline, so ``^[0-9a-f]+$`` let "00\\n" through to ``bytes.fromhex``, which raised (a 500)."""

from __future__ import annotations

import inspect

import pytest
from marshmallow import Schema, ValidationError, validate

from shared.wire import schemas


def pattern_fields() -> list[tuple[str, object, validate.Regexp]]:
    found = []
    for name, cls in inspect.getmembers(schemas, lambda c: isinstance(c, type) and issubclass(c, Schema)):
        for field_name, field in cls._declared_fields.items():
            found += [(f"{name}.{field_name}", field, v) for v in field.validators if isinstance(v, validate.Regexp)]
    return found


FIELDS = pattern_fields()
GOOD = {"SeatRequest.player": "p_00ff"}  # a value each field takes (hex, unless named here)


def test_the_schemas_have_pattern_fields_to_check():
    assert {"CreateGame.seed", "SetupRequest.entropy", "DecideRequest.entropy"} <= {name for name, _, _ in FIELDS}


@pytest.mark.parametrize("name, field, validator", FIELDS, ids=[f[0] for f in FIELDS])
@pytest.mark.parametrize("tail", ["\n", "\r\n", " ", "\x00"])
def test_a_value_with_anything_after_the_match_is_refused(name, field, validator, tail):
    good = GOOD.get(name, "00ff")
    assert field.deserialize(good) == good
    with pytest.raises(ValidationError):
        field.deserialize(good + tail)


@pytest.mark.parametrize("name, field, validator", FIELDS, ids=[f[0] for f in FIELDS])
def test_the_documented_pattern_is_the_validated_one(name, field, validator):
    """The OpenAPI document shows the pattern (ECMA-262, where ``$`` is the very end); the validation uses it whole."""
    assert validator.regex.pattern.startswith("^") and validator.regex.pattern.endswith("$")
