"""The event record as a game emits it, and the one function that redacts it for a viewer.

An event is a fact: ``type`` (past tense), ``data`` (JSON-compatible), and ``secret``, which names the
fields of ``data`` that only some seats may see and who they are. A field not named in ``secret`` is public.
An empty audience means "nobody until the game ends". ``redact`` is the only place that decides what of an
event a viewer gets; views use ``sees`` for the same decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


class _Everyone:
    """The viewer who sees everything: the audit after the game, and nobody while it runs."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "EVERYONE"


EVERYONE: Any = _Everyone()
"""Pass as the viewer to get full information (only once a game is over, or inside the rules)."""

Viewer = int | None | _Everyone


def viewer_for(seat: int | None, game_over: bool) -> Viewer:
    """Who a caller is when reading a game: its seat (or ``None``) while the game runs, ``EVERYONE`` once it is
    over (the audit record is public)."""
    return EVERYONE if game_over else seat


def sees(viewer: Viewer, audience: Iterable[int]) -> bool:
    """May ``viewer`` (a seat, ``None`` for a spectator, or ``EVERYONE``) see a fact meant for ``audience``?"""
    if isinstance(viewer, _Everyone):
        return True
    return viewer is not None and viewer in audience


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    secret: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "data": dict(self.data)}
        if self.secret:
            out["secret"] = {name: list(seats) for name, seats in self.secret.items()}
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        secret = {name: tuple(seats) for name, seats in (raw.get("secret") or {}).items()}
        return cls(raw["type"], dict(raw.get("data") or {}), secret)


def ev(type: str, /, *, secret: Mapping[str, Iterable[int]] | None = None, **data: Any) -> Event:
    """Build an event: ``ev("cards_drawn", seat=1, cards=[3, 4], secret={"cards": [1]})``."""
    return make_event(type, data, secret)


def make_event(type: str, data: Mapping[str, Any], secret: Mapping[str, Iterable[int]] | None = None) -> Event:
    """An event of ``type`` with ``data``, whose fields named in ``secret`` only the listed seats may see."""
    if secret:
        missing = set(secret) - set(data)
        if missing:
            raise ValueError(f"secret names fields the event does not have: {sorted(missing)}")
    return Event(type, data, {name: tuple(seats) for name, seats in (secret or {}).items()})


def redact(event: Event, viewer: Viewer) -> dict[str, Any]:
    """The part of ``event.data`` that ``viewer`` may see: every public field and the secrets meant for it."""
    if not event.secret:
        return dict(event.data)
    return {
        name: value
        for name, value in event.data.items()
        if name not in event.secret or sees(viewer, event.secret[name])
    }
