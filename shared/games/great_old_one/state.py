"""The Great Old One's state: frozen dataclasses of tuples, changed only by ``rules.evolve``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class Phase(Enum):
    """To Begin 3 (the opening), the four Turn Phases, and the end. An Enum, not a StrEnum: the state codec stores
    a str subclass as a plain string, so a StrEnum phase would come back from a snapshot (or from the session
    service to the rules service) as a str."""

    OPENING = "opening"
    DRAW = "draw"
    CALL = "call"
    RECRUIT = "recruit"
    HORROR = "horror"
    OVER = "over"


TURN_PHASES = frozenset({Phase.DRAW, Phase.CALL, Phase.RECRUIT, Phase.HORROR})


class EndReason(StrEnum):
    """How the game ended: How To Win's 7th pair, or the deck running out (ruling 18); the state keeps its value."""

    SEVENTH_PAIR = "seventh_pair"
    DECK_EXHAUSTED = "deck_exhausted"


@dataclass(frozen=True, slots=True)
class Pair:
    """A pair in a play area: its two Story cards, Matched or Linked, and the connections it names."""

    cards: tuple[int, int]
    matched: bool
    connections: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Area:
    """A seat's personal play area: public."""

    pairs: tuple[Pair, ...] = ()
    horrors: tuple[int, ...] = ()
    cultist: bool = False


@dataclass(frozen=True, slots=True)
class GreatOldOneState:
    players: int
    first_player: int
    phase: Phase
    turn: int
    turn_number: int
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    areas: tuple[Area, ...]
    centre: tuple[int, ...]
    removed: tuple[int, ...]
    opening_done: frozenset[int]
    horror_played: bool
    warded: frozenset[int]
    end_reason: str | None
    finish_round: bool = False
    closing: bool = False


STATE_TYPES = (GreatOldOneState, Area, Pair, Phase)
