"""The Great Old One's state: frozen dataclasses of tuples, changed only by ``rules.evolve``.

The game is in one of three phases, each its own type: the ``Opening`` (To Begin 3: every seat may lay down pairs
at once), a ``Turn`` (a seat's turn, in one of its four Turn Phases, its ``step``), and ``Over``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class Step(Enum):
    """The four Turn Phases of a turn. An Enum, not a StrEnum: the state codec stores a str subclass as a plain string
    (restoring it only in a field it annotates), and ``Turn.step`` is matched on by identity."""

    DRAW = "draw"
    CALL = "call"
    RECRUIT = "recruit"
    HORROR = "horror"


class EndReason(StrEnum):
    """How the game ended: How To Win's 7th pair, or the deck running out (ruling 18)."""

    SEVENTH_PAIR = "seventh_pair"
    DECK_EXHAUSTED = "deck_exhausted"


@dataclass(frozen=True, slots=True)
class Opening:
    """To Begin 3: each player may play Matched or Linked pairs, all at once; ``done``: the seats that have finished."""

    done: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Turn:
    """Turn number ``number``, ``seat``'s, in its Turn Phase ``step``. ``horror_played``: a Horror card or the Cultist
    is down this turn (one a turn); ``final_round``: a 7th pair is down and, with the ``finish_round`` variant, the
    round is being played out."""

    seat: int
    number: int
    step: Step = Step.DRAW
    horror_played: bool = False
    final_round: bool = False


@dataclass(frozen=True, slots=True)
class Over:
    """How To Win: the game ended for ``reason`` in the turn ``last``."""

    reason: EndReason
    last: Turn


Phase = Opening | Turn | Over


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
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    areas: tuple[Area, ...]
    centre: tuple[int, ...]
    removed: tuple[int, ...]
    warded: frozenset[int]
    finish_round: bool = False
    known: tuple[tuple[int, int, int], ...] = ()  # (observer, holder, card): what a seat saw go into a hand (memory.py)


def last_turn(state: GreatOldOneState) -> Turn | None:
    """The turn being played, or the one the game ended in; None in the opening."""
    phase = state.phase
    return phase if isinstance(phase, Turn) else phase.last if isinstance(phase, Over) else None


STATE_TYPES = (GreatOldOneState, Area, Pair, Opening, Turn, Over, Step)
