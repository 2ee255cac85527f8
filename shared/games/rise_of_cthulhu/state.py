"""Rise of Cthulhu state: frozen dataclasses, and the pure reads every rule uses (influence, points, phase)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.games.rise_of_cthulhu import cards
from shared.games.rise_of_cthulhu.cards import LOCATIONS, MONSTERS

OLD_ONES_TO_END = 3
IDLE_TURNS_BEFORE_FORCED_DRAW = 6


@dataclass(frozen=True, slots=True)
class Side:
    """One player's side of a Location: Cultists in the order they arrived, and Monsters that stay."""

    cultists: tuple[str, ...] = ()
    monsters: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Location:
    name: str
    sides: tuple[Side, Side] = (Side(), Side())
    old_one: str | None = None


@dataclass(frozen=True, slots=True)
class Awakening:
    """An Old One has woken and its influencing player has yet to resolve its power."""

    old_one: str
    location: str
    influencer: int
    drawn_by: int


@dataclass(frozen=True, slots=True)
class Table:
    """The whole game. ``deck`` is top first and holds ``cards.OLD_ONE_SLOT`` where an Old One sleeps."""

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
    idle_turns: int = 0
    must_draw: bool = False
    pending: Awakening | None = None
    owed: tuple[int, ...] = (0, 0)
    artifacts_acquired: tuple[int, ...] = (0, 0)
    monsters_played: tuple[int, ...] = (0, 0)


STATE_TYPES = (Side, Location, Awakening, Table)


def other(seat: int) -> int:
    return 1 - seat


def location(state: Table, name: str) -> Location:
    return state.locations[LOCATIONS.index(name)]


def side_points(side: Side) -> int:
    return sum(cards.number(c) for c in side.cultists) + sum(MONSTERS[m].get("points", 0) for m in side.monsters)


def facing(loc: Location) -> int | None:
    """Influence: the Location faces the side with more points; equal points leave it neutral."""
    a, b = side_points(loc.sides[0]), side_points(loc.sides[1])
    if a == b:
        return None
    return 0 if a > b else 1


def points(state: Table, seat: int) -> int:
    return sum(side_points(loc.sides[seat]) for loc in state.locations)


def locations_facing(state: Table, seat: int) -> int:
    return sum(1 for loc in state.locations if facing(loc) == seat)


def is_over(state: Table) -> bool:
    return len(state.awake) >= OLD_ONES_TO_END and state.pending is None


def free_locations(state: Table) -> tuple[str, ...]:
    """Locations without an Old One (where the Dark Hunter may go and Cultists may be played)."""
    return tuple(loc.name for loc in state.locations if loc.old_one is None)


def with_location(state: Table, loc: Location) -> tuple[Location, ...]:
    return tuple(loc if old.name == loc.name else old for old in state.locations)


def with_side(loc: Location, seat: int, side: Side) -> Location:
    sides = list(loc.sides)
    sides[seat] = side
    return Location(loc.name, (sides[0], sides[1]), loc.old_one)


def put(pair: tuple, seat: int, value) -> tuple:
    items = list(pair)
    items[seat] = value
    return tuple(items)


def highest(side: Side) -> str | None:
    """The side's highest Cultist; among equal cards the one played last (the top of the overlap)."""
    best = None
    for card in side.cultists:
        if best is None or cards.number(card) >= cards.number(best):
            best = card
    return best


def phase(state: Table) -> str:
    if is_over(state):
        return "over"
    if state.pending is not None:
        return "awakening"
    if any(state.owed):
        return "owed_draws"
    return "turn"


def to_act(state: Table) -> frozenset[int]:
    if is_over(state):
        return frozenset()
    if state.pending is not None:
        return frozenset({state.pending.influencer})
    owing = frozenset(seat for seat in range(state.players) if state.owed[seat] > 0)
    return owing or frozenset({state.current})
