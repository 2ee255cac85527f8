"""A game with no layout of its own (a game the server added after this client): its hand as cards by number
and its public numbers in words, never JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Drawn, Seen, words


class Plain:
    def __init__(self, entry: Mapping[str, Any]):
        self.title = str(entry.get("title", "the game"))

    def card_name(self, field: str, value: Any) -> str | None:
        return None

    def table(self, seen: Seen) -> Drawn:
        v = seen.view
        facts = [f"{words(k).capitalize()} {x}" for k, x in v.items() if isinstance(x, (int, str)) and not isinstance(x, bool)]
        hand = v.get("hand")
        cards = [", ".join(f"card {c}" for c in hand if isinstance(c, (int, str)))] if isinstance(hand, list) and hand else []
        return Drawn([" · ".join(facts)] if facts else [], lambda n: [], lambda n: [], hand=cards)

    def move(self, command: Mapping[str, Any], seen: Seen) -> str | None:
        return None
