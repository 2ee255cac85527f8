"""A safe JSON codec for game state: frozen dataclasses, tuples, frozensets and enums.

Snapshots are stored with it and the session service ships state to the rules service with it. Decoding only
ever builds the classes a game lists in ``Decider.state_types``, so a hostile payload cannot name arbitrary code.

The format, which stored snapshots depend on: ``None``, bools, numbers and strings as themselves (subclasses
such as a ``StrEnum`` member too: a dataclass field annotated with such an enum decodes to its member again); an
enum member as ``{"$e": class name, "v": value}``; a dataclass as
``{"$": class name, field: value, ...}`` in field order; a tuple as a list; a frozenset as ``{"$s": [...]}``
sorted by ``repr``; a dict as ``{"$d": [[key, value], ...]}``.

Every command pays an encode in the session service and a decode in the rules service, so both dispatch on
the exact type through a per-codec table filled on first sight of each type (a dataclass's field names are
looked up once per class, not once per object), and a tuple or list of plain values is copied in one step.

A document from outside (the rules service decodes positions its clients build) is decoded within ``Bounds``:
it is measured first, with work that stops at the bound, and refused with ``TooLarge`` before anything is built.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass
from collections.abc import Callable, Iterable
from typing import Any

_PLAIN = frozenset((type(None), bool, int, float, str))


@dataclass(frozen=True, slots=True)
class Bounds:
    """How large a document from outside may be: ``items`` values in all (the document itself, and every element
    of its lists and every value of its objects, at any depth), and no integer beyond ±``integer``. The integer
    bound is a size bound too: game code loops over counts, and a hand of 10⁶ cards is one small number."""

    items: int
    integer: int


class TooLarge(ValueError):
    def __init__(self, bounds: Bounds):
        super().__init__(f"the document holds more than {bounds.items} values or an integer beyond ±{bounds.integer}")
        self.bounds = bounds


def check_bounds(raw: Any, bounds: Bounds) -> None:
    """Raise ``TooLarge`` if the plain JSON ``raw`` passes ``bounds``. Values are counted as their containers are
    opened, so the walk never takes more than ``bounds.items`` steps, however large the document."""
    left, limit = bounds.items - 1, bounds.integer
    todo = [raw]
    while todo:
        value = todo.pop()
        kind = type(value)
        if kind is list or kind is dict:
            left -= len(value)
            if left < 0:
                raise TooLarge(bounds)
            todo.extend(value if kind is list else value.values())
        elif kind is int and not -limit <= value <= limit:
            raise TooLarge(bounds)
    if left < 0:
        raise TooLarge(bounds)


class StateCodec:
    def __init__(self, types: Iterable[type]):
        self._types: dict[str, type] = {}
        for t in types:
            # Stored by name: two classes of one name would decode as one of them (a Rites snapshot's own
            # ``Table`` came back as the kernel's, and every snapshot of the game was silently thrown away).
            if self._types.setdefault(t.__name__, t) is not t:
                raise ValueError(f"two state types are named {t.__name__}: the codec stores types by name")
        self._encoders: dict[type, Callable[[Any], Any]] = dict.fromkeys(_PLAIN, _same)
        self._str_enums: dict[type, tuple[tuple[str, type], ...]] = {}

    # -- encoding -------------------------------------------------------------------------------------
    def encode(self, obj: Any) -> Any:
        encoder = self._encoders.get(type(obj)) or self._encoder_for(type(obj))
        return encoder(obj)

    def _encoder_for(self, cls: type) -> Callable[[Any], Any]:
        """How to encode every object of exactly ``cls``; the checks run in the order the format's rules take."""
        encode, encoders = self.encode, self._encoders
        plain = _PLAIN

        if issubclass(cls, (bool, int, float, str)):
            encoder = _same
        elif issubclass(cls, enum.Enum):
            name = cls.__name__

            def encoder(obj: Any) -> Any:
                return {"$e": name, "v": obj.value}
        elif dataclasses.is_dataclass(cls):
            name = cls.__name__
            names = tuple(f.name for f in dataclasses.fields(cls))

            def encoder(obj: Any) -> Any:
                out: dict[str, Any] = {"$": name}
                for field in names:
                    value = getattr(obj, field)
                    kind = type(value)
                    out[field] = value if kind in plain else (encoders.get(kind) or self._encoder_for(kind))(value)
                return out
        elif issubclass(cls, tuple):
            def encoder(obj: Any) -> Any:
                if plain.issuperset(map(type, obj)):
                    return list(obj)
                return [encode(x) for x in obj]
        elif issubclass(cls, frozenset):
            def encoder(obj: Any) -> Any:
                return {"$s": [encode(x) for x in sorted(obj, key=repr)]}
        elif issubclass(cls, dict):
            def encoder(obj: Any) -> Any:
                return {"$d": [[encode(k), encode(v)] for k, v in obj.items()]}
        else:
            raise TypeError(f"state holds a {cls.__name__}, which the codec does not store")
        encoders[cls] = encoder
        return encoder

    # -- decoding -------------------------------------------------------------------------------------
    def decode(self, raw: Any, bounds: Bounds | None = None) -> Any:
        """The object ``raw`` encodes; with ``bounds``, only if ``raw`` lies within them (else ``TooLarge``)."""
        if bounds is not None:
            check_bounds(raw, bounds)
        kind = type(raw)
        if kind in _PLAIN:
            return raw
        if kind is list or kind is dict:
            return self._decode(raw)
        if isinstance(raw, (bool, int, float, str)):
            return raw
        if isinstance(raw, (list, dict)):
            return self._decode(raw)
        raise ValueError("not an encoded state")

    def _decode(self, raw: list[Any] | dict[Any, Any]) -> Any:
        """A list or a dict (what JSON gives): the containers of the format."""
        plain, decode = _PLAIN, self.decode
        if isinstance(raw, list):
            if plain.issuperset(map(type, raw)):
                return tuple(raw)
            return tuple([x if type(x) in plain else decode(x) for x in raw])
        if "$" in raw:
            cls = self._class(raw["$"])
            fields = {k: v if type(v) in plain else decode(v) for k, v in raw.items()}
            del fields["$"]
            restore = self._str_enums.get(cls)
            if restore is None:
                restore = self._str_enums[cls] = str_enum_fields(cls)
            for name, kind in restore:
                if type(fields.get(name)) is str:
                    fields[name] = kind(fields[name])
            return cls(**fields)
        if "$s" in raw:
            return frozenset([decode(x) for x in raw["$s"]])
        if "$d" in raw:
            return {decode(k): decode(v) for k, v in raw["$d"]}
        if "$e" in raw:
            return self._class(raw["$e"])(raw["v"])
        raise ValueError("not an encoded state")

    def _class(self, name: Any) -> type:
        try:
            return self._types[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown state type {name!r}") from None


def _same(obj: Any) -> Any:
    return obj


def str_enum_fields(cls: type) -> tuple[tuple[str, type], ...]:
    """The fields of dataclass ``cls`` annotated with a str-valued enum, or an optional one, with that enum. Their
    members are stored as plain strings; decoding makes them members again, so a state's enums are enums after a
    snapshot or the hop to the rules service, as they were when it was folded."""
    try:
        hints = typing.get_type_hints(cls)
    except NameError:  # an annotation this module cannot resolve: its values are decoded as stored
        return ()
    found = []
    for field in dataclasses.fields(cls):
        hint = hints.get(field.name)
        options = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
        kinds = [h for h in options if isinstance(h, type) and issubclass(h, enum.Enum) and issubclass(h, str)]
        if len(kinds) == 1:
            found.append((field.name, kinds[0]))
    return tuple(found)
