"""Rise of Cthulhu's state: frozen dataclasses of tuples changed only by ``rules.evolve``, and the pure reads every
rule uses (influence, points, phase)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.games.rise_of_cthulhu import cards
from shared.games.rise_of_cthulhu.cards import ARTIFACTS, LOCATIONS, MONSTERS

OLD_ONES_TO_END = 3


@dataclass(frozen=True, slots=True)
class Side:
    """One player's side of a Location: Cultists in the order they arrived, and Monsters that stay."""

    cultists: tuple[str, ...] = ()
    monsters: tuple[str, ...] = ()

    def __repr__(self) -> str:  # the dataclass's own text, without its recursion guard (``position`` is hot)
        return f"Side(cultists={self.cultists!r}, monsters={self.monsters!r})"


@dataclass(frozen=True, slots=True)
class Location:
    name: str
    sides: tuple[Side, ...] = (Side(), Side())
    """Seat 0's side and seat 1's."""
    old_one: str | None = None

    def __repr__(self) -> str:  # the dataclass's own text (``position`` digests it), a third of the cost
        return f"Location(name={self.name!r}, sides={self.sides!r}, old_one={self.old_one!r})"


@dataclass(frozen=True, slots=True)
class Awakening:
    """An Old One has woken and its influencing player has yet to resolve its power."""

    old_one: str
    location: str
    influencer: int
    drawn_by: int


@dataclass(frozen=True, slots=True)
class RiseOfCthulhuState:
    """The whole game. ``deck`` is top first and holds ``cards.OLD_ONE_SLOT`` where an Old One sleeps. ``seen``:
    the positions (``position``) that began a turn since the last Cultist Deck draw; ``must_draw``: this turn
    began in one of them, so it must include a Cultist Deck draw (ruling 25)."""

    players: int
    deck: tuple[str, ...]
    valley: tuple[str, ...]
    discard: tuple[str, ...]
    spent: tuple[str, ...]
    monster_deck: tuple[str, ...]
    artifact_deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    known: tuple[tuple[str, ...], ...]
    locations: tuple[Location, ...]
    hunter: str | None
    sleeping: tuple[str, ...]
    awake: tuple[str, ...]
    current: int
    actions_taken: int = 0
    actions_allowed: int = 2
    deck_drawn: bool = False
    seen: frozenset[str] = frozenset()
    must_draw: bool = False
    pending: Awakening | None = None
    owed: tuple[int, ...] = (0, 0)
    artifacts_acquired: tuple[int, ...] = (0, 0)
    monsters_played: tuple[int, ...] = (0, 0)


STATE_TYPES = (Side, Location, Awakening, RiseOfCthulhuState)


def other(seat: int) -> int:
    return 1 - seat


def location(state: RiseOfCthulhuState, name: str) -> Location:
    return state.locations[LOCATIONS.index(name)]


def side_points(side: Side) -> int:
    return sum(cards.number(c) for c in side.cultists) + sum(int(MONSTERS[m].get("points", 0)) for m in side.monsters)


def facing(loc: Location) -> int | None:
    """Influence: the Location faces the side with more points; equal points leave it neutral."""
    a, b = side_points(loc.sides[0]), side_points(loc.sides[1])
    if a == b:
        return None
    return 0 if a > b else 1


def points(state: RiseOfCthulhuState, seat: int) -> int:
    return sum(side_points(loc.sides[seat]) for loc in state.locations)


def locations_facing(state: RiseOfCthulhuState, seat: int) -> int:
    return sum(1 for loc in state.locations if facing(loc) == seat)


def is_over(state: RiseOfCthulhuState) -> bool:
    return len(state.awake) >= OLD_ONES_TO_END and state.pending is None


def free_locations(state: RiseOfCthulhuState) -> tuple[str, ...]:
    """Locations without an Old One (where the Dark Hunter may go and Cultists may be played)."""
    return tuple([loc.name for loc in state.locations if loc.old_one is None])


def highest(side: Side) -> str | None:
    """The side's highest Cultist; among equal cards the one played last (the top of the overlap)."""
    best = None
    for card in side.cultists:
        if best is None or cards.number(card) >= cards.number(best):
            best = card
    return best


def phase(state: RiseOfCthulhuState) -> str:
    if is_over(state):
        return "over"
    if state.pending is not None:
        return "awakening"
    if any(state.owed):
        return "owed_draws"
    return "turn"


def position(state: RiseOfCthulhuState, turn: int) -> str:
    """A digest of the position at the start of ``turn``'s turn, from public facts only: the table, the Valley,
    the discards, the decks' sizes, each hand's size by kind and what is known of it. Between two Cultist Deck
    draws no hidden card moves unseen (a hand changes only by public plays and Valley draws, or by a Monster or
    Artifact draw that shrinks its deck), so two turns begin in equal public positions only when the whole
    position repeats: a loop (ruling 25). Its digest keeps the state small; the state codec stores it."""
    return digest(turn, state.hunter, state.valley, state.discard, state.spent, state.locations, state.known,
                  state.hands, len(state.deck), len(state.monster_deck), len(state.artifact_deck), state.awake)


def digest(turn: int, hunter: str | None, valley: tuple[str, ...], discard: tuple[str, ...], spent: tuple[str, ...],
           locations: tuple[Location, ...], known: tuple[tuple[str, ...], ...], hands: tuple[tuple[str, ...], ...],
           deck: int, monster_deck: int, artifact_deck: int, awake: tuple[str, ...]) -> str:
    """``position`` from the fields it reads (the decks by their sizes): a playout's move builds the state after it
    once, with the digest made from the fields it is given (``simulate``)."""
    # ``repr`` of the facts' tuple, assembled from each part's text made once: a command changes a field or two, and
    # the others are the very records the turn before held (a Location, the discard, a hand's kinds)
    facts = (repr(turn), repr(hunter), _text(valley), _text(discard), _text(spent),
             _tuple_text([_text(loc) for loc in locations]), _text(known),
             _tuple_text([_KINDS.text(h) for h in hands]), repr(deck), repr(monster_deck),
             repr(artifact_deck), _text(awake))
    return hashlib.blake2b(_tuple_text(facts).encode(), digest_size=8).hexdigest()


def _tuple_text(parts: list[str] | tuple[str, ...]) -> str:
    """``repr`` of a tuple whose items' texts are ``parts``."""
    return f"({parts[0]},)" if len(parts) == 1 else "(" + ", ".join(parts) + ")"


class _Texts:
    """A text of immutable records kept by the record's identity (the record is kept with it, so its id is not
    reused while it is there; at most ``LIMIT`` of them)."""

    LIMIT = 4096

    def __init__(self, make: Callable[[Any], str]):
        self.make = make
        self.held: dict[int, tuple[Any, str]] = {}

    def text(self, value: Any) -> str:
        hit = self.held.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        if len(self.held) >= self.LIMIT:
            self.held.clear()
        made = self.make(value)
        self.held[id(value)] = (value, made)
        return made


_REPRS = _Texts(repr)
_KINDS = _Texts(lambda h: repr((sum(c in MONSTERS for c in h), sum(c in ARTIFACTS for c in h), len(h))))
_text = _REPRS.text
