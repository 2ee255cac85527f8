"""Typed events: one frozen dataclass per event type, the contract between ``decide``, ``evolve`` and the export.

A game declares each of its event types as a ``Fact``, named by the event type it stands for::

    @dataclass(frozen=True, slots=True)
    class CardDrawn(Fact, type="card_drawn"):
        seat: int
        card: int

``CardDrawn(seat=1, card=7).event(secret={"card": [1]})`` is the ``Event`` that is stored;
``game.fact(event)`` reads one back as its ``Fact`` so ``evolve`` can ``match`` on it. A fact's fields hold
what JSON keeps (ints, strs, bools, ``None``, lists, dicts), so a fact is unchanged by the log's JSON round
trip, and the stored JSON is exactly the fields: changing a fact changes the record format, which needs a
rules-version bump. A field named in ``optional=(...)`` defaults to ``None`` and is stored only when it holds
a value (a record format that leaves a key out where it does not apply: a hand per seat present, a detail
only one case has). ``conforms`` checks an event's data against its fact's annotations (the property suite
runs it on every event of every game).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar

from shared.kernel.events import Event, make_event


class Fact:
    """Base of a game's typed events (see the module docstring)."""

    __slots__ = ()
    TYPE: ClassVar[str]
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, type: str | None = None, optional: Iterable[str] = (), **kwargs: Any):
        super().__init_subclass__(**kwargs)
        # dataclass(slots=True) builds the class a second time without the keywords: keep the first one's
        if type is not None:
            cls.TYPE = type
            cls.OPTIONAL = frozenset(optional)

    def data(self) -> dict[str, Any]:
        cls = type(self)
        names = _NAMES.get(cls)
        if names is None:
            names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(self))  # type: ignore[arg-type]
        optional = self.OPTIONAL
        values = ((name, getattr(self, name)) for name in names)
        return {name: value for name, value in values if value is not None or name not in optional}

    def event(self, secret: Mapping[str, Iterable[int]] | None = None) -> Event:
        """The stored event: this fact's fields as data, with ``secret`` naming who may see which field."""
        return make_event(self.TYPE, self.data(), secret)


_NAMES: dict[type, tuple[str, ...]] = {}  # each fact class's field names, in order (``dataclasses.fields`` is slow)
_HINTS: dict[type, dict[str, Any]] = {}  # each fact class's resolved annotations (``typing.get_type_hints`` is slower)


class Facts:
    """A game's event types by name: how ``evolve`` reads an ``Event`` back as its ``Fact``."""

    def __init__(self, *kinds: type[Fact]):
        self.by_type: dict[str, type[Fact]] = {}
        for kind in kinds:
            if not dataclasses.is_dataclass(kind) or not getattr(kind, "TYPE", None):
                raise TypeError(f"{kind.__name__} is not a Fact dataclass with a type name")
            if kind.TYPE in self.by_type:
                raise TypeError(f"two facts are named {kind.TYPE!r}")
            defaults = {f.name: f.default for f in dataclasses.fields(kind)}
            if any(defaults.get(name, ...) is not None for name in kind.OPTIONAL):
                raise TypeError(f"{kind.__name__}: an optional field is a field that defaults to None")
            self.by_type[kind.TYPE] = kind

    def __contains__(self, type_name: str) -> bool:
        return type_name in self.by_type

    def __iter__(self) -> Iterator[type[Fact]]:
        return iter(self.by_type.values())

    def __len__(self) -> int:
        return len(self.by_type)

    def parse(self, event: Event | Fact) -> Fact:
        """``event`` as its fact (full events only: a redacted one lacks its secret fields); a fact as it is (a
        decision folds its facts unrecorded inside ``simulating()``)."""
        if isinstance(event, Fact):
            return event
        try:
            kind = self.by_type[event.type]
        except KeyError:
            raise TypeError(f"no fact is named {event.type!r}") from None
        return kind(**event.data)

    def problems(self, event: Event) -> list[str]:
        """What is wrong with ``event`` against its fact: nothing, for a well-typed event."""
        kind = self.by_type.get(event.type)
        if kind is None:
            return [f"{event.type}: not a declared fact"]
        names = {f.name for f in dataclasses.fields(kind)}  # type: ignore[arg-type]
        found: list[str] = []
        if not names - kind.OPTIONAL <= set(event.data) <= names:
            found.append(f"{event.type}: fields {sorted(event.data)} are not the fact's {sorted(names)}")
        if any(event.data.get(name, ...) is None for name in kind.OPTIONAL):
            found.append(f"{event.type}: an optional field is stored as null instead of left out")
        hints = _HINTS.get(kind)
        if hints is None:
            hints = _HINTS[kind] = typing.get_type_hints(kind)
        for name in names & set(event.data):
            if not conforms(event.data[name], hints[name]):
                found.append(f"{event.type}.{name}: {event.data[name]!r} is not a {hints[name]}")
        if set(event.secret) - names:
            found.append(f"{event.type}: secret names fields it does not have")
        return found


def conforms(value: Any, hint: Any) -> bool:
    """Does a JSON-like ``value`` match the type ``hint`` (ints, strs, bools, floats, None, lists, dicts,
    tuples, unions, literals, Any)?"""
    if hint is Any:
        return True
    if hint is None or hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, h) for h in typing.get_args(hint))
    if origin is typing.Literal:
        return value in typing.get_args(hint)
    if origin in (list, tuple):
        args = typing.get_args(hint)
        if not isinstance(value, (list, tuple)):
            return False
        if origin is tuple and args and args[-1] is not Ellipsis:
            return len(value) == len(args) and all(conforms(v, h) for v, h in zip(value, args))
        return not args or all(conforms(v, args[0]) for v in value)
    if origin is dict:
        args = typing.get_args(hint)
        return isinstance(value, dict) and (not args or all(conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items()))
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return False
