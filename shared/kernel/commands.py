"""Typed commands: one frozen dataclass per command type, the contract between ``legal_commands``, ``decide`` and the
wire, and the one source of the command's JSON Schema.

A game declares each of its command types as a ``Command``, named by the type a client posts, its docstring the
catalogue's description (the game's words, with the rulebook section), each field described by ``arg``::

    @dataclass(frozen=True, slots=True)
    class DrawCards(Command, type="draw_cards"):
        \"\"\"Draw the top 1, 2 or 3 cards of the deck into your hand (A Player's Turn, a/).\"\"\"

        count: int = arg("how many cards to draw off the top", minimum=1, maximum=3)

``legal_commands`` returns such records and ``decide`` matches them (``case DrawCards(count=n):``). At the wire a
posted JSON object becomes one with ``Command.from_wire`` (strict: unknown fields refused, an int is never a bool,
bounds and choices checked, defaults filled in; ``CommandRefused`` says what is wrong with each field) and goes back
with ``to_wire()``, exactly as posted (``{"type": ..., **fields}``, tuples as lists). ``json_schema()`` is the JSON
Schema (2020-12) the catalogue shows and the OpenAPI document's command components are made of.

A field is an ``int``, ``str``, ``bool`` or a ``tuple[int, ...]``/``tuple[str, ...]`` (a JSON array), or one of them
``| None`` (null allowed); a field with a ``default`` may be left out. A game whose fields need more (two cards as a
set) normalizes them in ``__post_init__``, which runs however the record is built.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, TypeVar

from shared.kernel.shapes import Schema, array, boolean, integer, nullable, string

_REQUIRED: Any = dataclasses.MISSING
C = TypeVar("C", bound="Command")
_SPEC = "command_arg"


@dataclasses.dataclass(frozen=True, slots=True)
class Arg:
    """What a command field accepts beyond its type, and its words for client authors."""

    description: str
    minimum: int | None = None
    maximum: int | None = None
    enum: tuple[Any, ...] | None = None
    min_items: int | None = None
    max_items: int | None = None


def arg(description: str, *, default: Any = _REQUIRED, minimum: int | None = None, maximum: int | None = None,
        enum: Iterable[Any] | None = None, min_items: int | None = None, max_items: int | None = None) -> Any:
    """A command field: its description and bounds (``enum``: the values it may take; ``min_items``/``max_items``:
    an array's length); with ``default``, optional."""
    spec = Arg(description, minimum, maximum, None if enum is None else tuple(enum), min_items, max_items)
    return dataclasses.field(default=default, metadata={_SPEC: spec})


class CommandRefused(ValueError):
    """A posted command whose fields are wrong: ``fields`` maps each wrong field to what is wrong with it."""

    def __init__(self, kind: str, fields: dict[str, list[str]]):
        super().__init__(f"the {kind} command is malformed: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items()))
        self.kind, self.fields = kind, fields


class Command:
    """Base of a game's typed commands (see the module docstring)."""

    __slots__ = ()
    type: ClassVar[str]

    def __init_subclass__(cls, type: str | None = None, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        # dataclass(slots=True) builds the class a second time without the keyword: keep the first one's
        if type is not None:
            cls.type = type

    def to_wire(self) -> dict[str, Any]:
        """The command as a client posts it: ``{"type": ..., **fields}``, arrays as lists."""
        out: dict[str, Any] = {"type": self.type}
        for name, is_array in _reader(type(self)).wire:
            value = getattr(self, name)
            out[name] = list(value) if is_array and value is not None else value
        return out

    @classmethod
    def from_wire(cls, raw: Mapping[str, Any]) -> Command:
        """The command a client posted (its ``type``, if given, this class's): strict, defaults filled in;
        ``CommandRefused`` when a field is unknown, missing or out of bounds."""
        return _reader(cls).read(cls, raw)

    @classmethod
    def json_schema(cls) -> Schema:
        """The command's JSON Schema (2020-12): its fields, ``type`` its one value, nothing else allowed."""
        return copy.deepcopy(_reader(cls).schema)


# -- reading and describing, worked out once per class -------------------------------------------------------------

Check = Callable[[Any], "str | None"]


class _Field:
    __slots__ = ("name", "check", "default", "is_array")

    def __init__(self, name: str, check: Check, default: Any, is_array: bool):
        self.name, self.check, self.default, self.is_array = name, check, default, is_array


class _Reader:
    """One command class's fields: how each is read from the wire, and the class's JSON Schema."""

    def __init__(self, cls: type[Command]):
        if not dataclasses.is_dataclass(cls) or not isinstance(cls.__dict__.get("type"), str):
            raise TypeError(f"{cls.__name__} is not a Command dataclass with a type name")
        hints = typing.get_type_hints(cls)
        self.fields: list[_Field] = []
        properties: dict[str, Schema] = {}
        required: list[str] = []
        for f in dataclasses.fields(cls):
            spec = f.metadata.get(_SPEC)
            if spec is None:
                raise TypeError(f"{cls.__name__}.{f.name}: a command field is declared with arg(...)")
            base, optional_null = _unwrap(hints[f.name])
            check, schema = _describe(f"{cls.__name__}.{f.name}", base, spec)
            if optional_null:
                check, schema = _or_null(check), nullable(schema)
            schema["description"] = spec.description
            if f.default is not _REQUIRED:
                schema["default"] = f.default
            else:
                required.append(f.name)
            properties[f.name] = schema
            self.fields.append(_Field(f.name, check, f.default, typing.get_origin(base) is tuple))
        self.names: frozenset[str] = frozenset(f.name for f in self.fields)
        self.wire: tuple[tuple[str, bool], ...] = tuple((f.name, f.is_array) for f in self.fields)
        self.schema: Schema = {
            "type": "object",
            "properties": {**properties, "type": {"type": "string", "enum": [cls.type], "description": "the command's name"}},
            "required": ["type", *sorted(required)],
            "additionalProperties": False,
            "description": " ".join((cls.__doc__ or "").split()),
        }

    def read(self, cls: type[Command], raw: Mapping[str, Any]) -> Command:
        problems: dict[str, list[str]] = {}
        values: dict[str, Any] = {}
        present = 0
        for f in self.fields:
            if f.name not in raw:
                if f.default is _REQUIRED:
                    problems[f.name] = ["missing: the field is required"]
                else:
                    values[f.name] = f.default
                continue
            present += 1
            value = raw[f.name]
            problem = f.check(value)
            if problem is not None:
                problems[f.name] = [problem]
            else:
                values[f.name] = tuple(value) if f.is_array and value is not None else value
        if raw.get("type", cls.type) != cls.type:
            problems["type"] = [f"not {cls.type}"]
        if len(raw) - ("type" in raw) > present:
            for name in raw:
                if name != "type" and name not in self.names:
                    problems[str(name)[:64]] = [f"unknown field: {cls.type} has no such field"]
        if problems:
            raise CommandRefused(cls.type, problems)
        return cls(**values)


def _unwrap(hint: Any) -> tuple[Any, bool]:
    """A field's type without ``| None``, and whether null is allowed."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return hint, False


def _describe(where: str, hint: Any, spec: Arg) -> tuple[Check, Schema]:
    """How a value of ``hint`` under ``spec`` is checked, and its JSON Schema."""
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis:
            raise TypeError(f"{where}: an array field is a tuple[X, ...]")
        item_check, item_schema = _describe(where, args[0], Arg(""))
        item_schema.pop("description", None)
        return _array(item_check, spec), array(item_schema, min_items=spec.min_items, max_items=spec.max_items)
    if hint is int:
        return _integer(spec), integer(minimum=spec.minimum, maximum=spec.maximum, enum=spec.enum)
    if hint is str:
        if spec.minimum is not None or spec.maximum is not None:
            raise TypeError(f"{where}: a string has no minimum or maximum")
        return _string(spec), string(enum=spec.enum)
    if hint is bool:
        return _boolean, boolean()
    raise TypeError(f"{where}: a command field is an int, str, bool or tuple of them, not {hint!r}")


def _integer(spec: Arg) -> Check:
    low, high, choices = spec.minimum, spec.maximum, None if spec.enum is None else frozenset(spec.enum)

    def check(value: Any) -> str | None:
        if type(value) is not int:
            return "not an integer"
        if low is not None and value < low:
            return f"less than {low}"
        if high is not None and value > high:
            return f"more than {high}"
        if choices is not None and value not in choices:
            return f"not one of {', '.join(map(str, spec.enum or ()))}"
        return None

    return check


def _string(spec: Arg) -> Check:
    choices = None if spec.enum is None else frozenset(str(e) for e in spec.enum)

    def check(value: Any) -> str | None:
        if not isinstance(value, str):
            return "not a string"
        if choices is not None and value not in choices:
            return f"not one of {', '.join(str(e) for e in spec.enum or ())}"
        return None

    return check


def _boolean(value: Any) -> str | None:
    return None if type(value) is bool else "not a boolean"


def _array(item: Check, spec: Arg) -> Check:
    low, high = spec.min_items, spec.max_items

    def check(value: Any) -> str | None:
        if type(value) not in (list, tuple):
            return "not an array"
        if low is not None and len(value) < low:
            return f"fewer than {low} items"
        if high is not None and len(value) > high:
            return f"more than {high} items"
        for i, v in enumerate(value):
            problem = item(v)
            if problem is not None:
                return f"item {i}: {problem}"
        return None

    return check


def _or_null(check: Check) -> Check:
    return lambda value: None if value is None else check(value)


_READERS: dict[type, _Reader] = {}


def _reader(cls: type[Command]) -> _Reader:
    reader = _READERS.get(cls)
    if reader is None:
        reader = _READERS[cls] = _Reader(cls)
    return reader


def interned(kind: type[C]) -> Callable[..., C]:
    """A constructor of ``kind`` that hands back one record per distinct arguments: a command is a value, and the
    AI's playouts list the same few hundred commands on every move (building each record anew was a fifth of listing
    them). For a game's ``legal_commands``: ``_play = interned(PlayCard)`` then ``_play(card=c)``."""
    return functools.cache(kind)


def by_type(*kinds: type[Command]) -> dict[str, type[Command]]:
    """A game's command classes by type name (``Catalogue.commands``); a name means one class."""
    out: dict[str, type[Command]] = {}
    for kind in kinds:
        if out.get(kind.type, kind) is not kind:
            raise TypeError(f"two commands are named {kind.type!r}")
        out[kind.type] = kind
    return out
