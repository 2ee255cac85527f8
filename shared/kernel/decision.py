"""The small toolkit every game's ``decide`` and ``evolve`` use, so no game keeps its own copy.

- ``Decision``: the events of one decision, folded as they are emitted, so a rule with several steps reads
  the position its own earlier steps made (eventsourcing's ``trigger_event``: make, apply, keep).
- ``Decided``: what a game's ``decide`` returns, its events and the state they leave. The fold is done once, as
  the events are emitted, and handed back: the AI's playouts and the audit's replay take that state instead of
  folding the events a second time (half the cost of a move in a playout).
- ``replace_at``: a tuple with one item replaced (state is tuples, never lists).
- ``replace``: ``dataclasses.replace`` for the frozen state records ``evolve`` rebuilds on every event, at about
  a third of its cost (a record of 12 fields; the AI's playouts spend a third of their time there).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import random
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Generic, NamedTuple, TypeVar

from shared.kernel.entropy import rng as rng_from
from shared.kernel.events import Event
from shared.kernel.facts import Fact

S = TypeVar("S")
T = TypeVar("T")


class Decided(NamedTuple, Generic[S]):
    """A decision's result: the events ``decide`` emitted and the state after them (exactly their fold)."""

    events: list[Event]
    state: S


_SIMULATING: contextvars.ContextVar[bool] = contextvars.ContextVar("simulating", default=False)


@contextlib.contextmanager
def simulating() -> Iterator[None]:
    """Within it, a ``Decision`` folds each typed fact as it is, and records no event: the AI's playouts read only
    the state a move leaves, never its events (issue 46: building the events and parsing them back was a third to
    over half of a playout). The state is the same (``evolve`` reads a fact whether it comes as itself or as its
    event: ``Facts.parse``); only ``Decided.events`` is left empty."""
    token = _SIMULATING.set(True)
    try:
        yield
    finally:
        _SIMULATING.reset(token)


class Decision(Generic[S]):
    """Collect a decision's events while folding them into ``state`` with ``evolve``.

    ``emit`` takes typed facts (with the audience of their secret fields) or ready ``Event`` values; ``rng``
    is the decision's one PRNG, seeded from the entropy it was given (drawn only if some rule needs it). Inside
    ``simulating()`` it keeps no events and folds the facts themselves; ``emitted`` counts the facts on both paths
    (a rule that asks whether a step emitted anything must not read ``events``, which is empty there)."""

    __slots__ = ("state", "events", "emitted", "_evolve", "_entropy", "_rng", "_bare")

    def __init__(self, state: S, evolve: Callable[[S, Event], S], entropy: bytes | None = None):
        self.state = state
        self.events: list[Event] = []
        self.emitted = 0
        self._evolve = evolve
        self._entropy = entropy
        self._rng: random.Random | None = None
        self._bare = _SIMULATING.get()

    def emit(self, fact: Fact | Event, secret: Mapping[str, Iterable[int]] | None = None) -> S:
        """Record ``fact`` and fold it; the state after it."""
        self.emitted += 1
        if self._bare and not isinstance(fact, Event):
            self.state = self._evolve(self.state, fact)  # type: ignore[arg-type]  # Facts.parse takes a fact as it is
            return self.state
        event = fact if isinstance(fact, Event) else fact.event(secret)
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        return self.state

    def decided(self) -> Decided[S]:
        """The events emitted so far with the state they leave: what ``decide`` returns."""
        return Decided(self.events, self.state)

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            if self._entropy is None:
                raise RuntimeError("this decision was given no entropy, so it may not draw randomness")
            self._rng = rng_from(self._entropy)
        return self._rng


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with the item at ``index`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


def fold_all(evolve: Callable[[Any, Event], Any], events: Iterable[Event], state: Any) -> Any:
    """``state`` after each of ``events`` in turn (for a game's own sub-folds; whole games use ``Game.replay``)."""
    for event in events:
        state = evolve(state, event)
    return state


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``, the same value by the same ``__init__``: a constructor call
    compiled once per class instead of a walk of its fields on every call."""
    cls = type(obj)
    try:
        rebuild = _REBUILD[cls]
    except KeyError:
        rebuild = _REBUILD[cls] = _rebuilder(cls)
    return rebuild(obj, changes)  # type: ignore[no-any-return]


_REBUILD: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _rebuilder(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A function making ``cls``'s record with each field from ``changes`` where given, else from the old value
    (what ``dataclasses.replace`` does). For a frozen slotted record with nothing to run after ``__init__`` (the
    state every game folds), the fields are set through their slots directly, as its ``__init__`` would set them but
    without ``object.__setattr__``'s lookup per field (2.5 times faster); a class with fields outside ``__init__``
    keeps ``dataclasses.replace``, any other goes through ``cls(...)``."""
    fields = dataclasses.fields(cls)
    every = cls.__dataclass_fields__.values()  # type: ignore[attr-defined]  # with InitVars, which fields() leaves out
    if not all(f.init for f in fields) or len(every) != len(fields) and any(
            f._field_type is dataclasses._FIELD_INITVAR for f in every):  # type: ignore[attr-defined]
        return lambda obj, changes: dataclasses.replace(obj, **changes)
    names = frozenset(f.name for f in fields)
    value = "changes[{0!r}] if {0!r} in changes else obj.{0}".format
    slots = [cls.__dict__.get(f.name) for f in fields]
    scope: dict[str, Any] = {"cls": cls, "names": names, "new": object.__new__}
    generated = cls.__dataclass_params__.init  # type: ignore[attr-defined]  # (else its own __init__ must run)
    if not generated or hasattr(cls, "__post_init__") or not all(isinstance(s, types.MemberDescriptorType) for s in slots):
        build = f"    return cls({', '.join(f'{f.name}=' + value(f.name) for f in fields)})\n"
    else:
        scope |= {f"set_{f.name}": slot.__set__ for f, slot in zip(fields, slots)}  # type: ignore[union-attr]
        build = "    made = new(cls)\n" + "".join(f"    set_{f.name}(made, {value(f.name)})\n" for f in fields) + "    return made\n"
    source = (f"def rebuild(obj, changes):\n"
              f"    if not names.issuperset(changes):\n"
              f"        raise TypeError(f'{cls.__name__} has no field(s) {{sorted(set(changes) - names)}}')\n"
              + build)
    exec(source, scope)  # noqa: S102 - field names of a dataclass, not input
    return scope["rebuild"]  # type: ignore[no-any-return]
