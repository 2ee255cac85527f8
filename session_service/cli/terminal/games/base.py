"""What every game's terminal layout is made of: the table as the client knows it at one version (``Seen``),
what a layout draws of it (``Drawn``), and words for cards and lists. Names only: a layout never prints an id."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

UNKNOWN_CARD = "an unknown card"  # a card the catalogue does not name (a server newer than this client)


@dataclass
class Seen:
    """The table for one reader at one version: its view, who reads (a seat, or None for a spectator), the
    seats' names, who the game waits on, and the outcome once it is over."""

    view: dict[str, Any]
    seat: int | None
    names: list[str]
    to_act: list[int] = field(default_factory=list)
    status: str = "active"
    outcome: dict[str, Any] | None = None
    stuck: bool = False  # the server found that nobody can move the table (a defect): it says so, and ends it when idle
    legal: list[dict[str, Any]] = field(default_factory=list)  # the reader's commands now: what the line for now may ask

    def name(self, seat: Any) -> str:
        """A seat by name ("an unknown seat" for one the table does not know)."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "an unknown seat"

    def who(self, seat: Any) -> str:
        """A seat as the reader calls it: "you" for its own."""
        return "you" if seat is not None and seat == self.seat else self.name(seat)

    def whose(self, seat: Any) -> str:
        """ "your", or "Bot 2's"."""
        return "your" if seat is not None and seat == self.seat else f"{self.name(seat)}'s"

    def does(self, seat: Any, verb: str) -> str:
        """The seat and a verb that agrees with it: "you open", "Bot 2 opens"."""
        return f"you {verb}" if seat is not None and seat == self.seat else f"{self.name(seat)} {verb}s"


@dataclass
class Drawn:
    """A game's table in lines: its board, each seat's short facts and public cards, the reader's hand, and a
    few words on what the game is doing now (the phase), and the texts of the hand's cards (shown on request)."""

    board: list[str]
    stats: Callable[[int], list[str]]
    public: Callable[[int], list[str]]
    hand: list[str] = field(default_factory=list)
    hand_title: str = "Your hand"
    phase: str = ""
    texts: list[str] = field(default_factory=list)  # "name: what it does" for each card in the hand


class Layout(Protocol):
    """One game's terminal layout, made from its catalogue entry."""

    def table(self, seen: Seen) -> Drawn: ...

    def move(self, command: Mapping[str, Any], seen: Seen) -> str | None: ...

    def card_name(self, field: str, value: Any) -> str | None: ...


def card(name: str, *facts: Any, count: int = 1, note: str | None = None) -> str:
    """A card in words: its name, then its value, cult or suit in parentheses, a count and a note:
    "R'lyeh (6) ×2", "Nug (7, blue)"."""
    shown = [str(f) for f in facts if f is not None and f != ""]
    text = name + (f" ({', '.join(shown)})" if shown else "")
    if count > 1:
        text += f" ×{count}"
    return text + (f", {note}" if note else "")


def listing(items: Iterable[Any], empty: str = "") -> str:
    """Words for a list: "A", "A and B", "A, B and C"."""
    words = [str(item) for item in items if item is not None and item != ""]
    if not words:
        return empty
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def upfirst(text: str) -> str:
    """The sentence with its first letter a capital (the rest left as it is, names included)."""
    return text[:1].upper() + text[1:]


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 card", "2 cards" (``many`` for an irregular plural)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def words(key: Any) -> str:
    """A data key as words: "round_over" -> "round over"."""
    return str(key).replace("_", " ").replace("-", " ")


def by_seat(mapping: Any, seat: int, default: Any = None) -> Any:
    """A per-seat value from a list or a mapping keyed by the seat's number as text (as views carry them)."""
    if isinstance(mapping, list):
        return mapping[seat] if 0 <= seat < len(mapping) else default
    if isinstance(mapping, dict):
        return mapping.get(str(seat), mapping.get(seat, default))
    return default


def index(rows: Any, key: str) -> dict[Any, dict[str, Any]]:
    """Card data rows by their id field (a list of rows, or a mapping of rows)."""
    values = rows.values() if isinstance(rows, dict) else rows if isinstance(rows, list) else []
    return {row[key]: row for row in values if isinstance(row, dict) and key in row}
