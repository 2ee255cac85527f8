"""Each game's terminal layout, by game id (one module per game), built from the seat's view and the
catalogue's card data; ``describe`` puts any legal command in words, named by the game's layout where it knows
the command and from its fields (cards and seats by name) where it does not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .arkham_ritual import ArkhamRitual
from .base import Drawn, Layout, Seen, listing, words
from .great_old_one import GreatOldOne
from .plain import Plain
from .pocket_madness import PocketMadness
from .rise_of_cthulhu import RiseOfCthulhu
from .rites_of_cthulhu import RitesOfCthulhu

LAYOUTS: dict[str, type[Any]] = {
    "pocket-madness": PocketMadness, "arkham-ritual": ArkhamRitual, "rise-of-cthulhu": RiseOfCthulhu,
    "great-old-one": GreatOldOne, "rites-of-cthulhu": RitesOfCthulhu,
}
SEAT_FIELDS = {"seat", "to", "target", "from_seat", "to_seat"}

__all__ = ["Drawn", "Layout", "Seen", "describe", "layout_for"]


def layout_for(entry: Mapping[str, Any]) -> Layout:
    """The layout of a catalogue entry's game (the plain one for a game this client does not know)."""
    layout: Layout = LAYOUTS.get(str(entry.get("id")), Plain)(entry)
    return layout


def describe(command: Mapping[str, Any], layout: Layout, seen: Seen) -> str:
    """A legal command in words: the layout's sentence, else its type and its fields by name."""
    said = layout.move(command, seen)
    if said:
        return said
    parts = []
    for key, value in command.items():
        if key == "type" or value is None or value is False:
            continue
        parts.append(f"{words(key)} {field_words(key, value, layout, seen)}")
    return words(command.get("type", "a move")).capitalize() + (f": {', '.join(parts)}" if parts else "")


def field_words(key: str, value: Any, layout: Layout, seen: Seen) -> str:
    if isinstance(value, list):
        return listing(field_words(key, v, layout, seen) for v in value)
    if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return seen.name(value)
    named = layout.card_name(key, value)
    return named if named else "yes" if value is True else words(value)
