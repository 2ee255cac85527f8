"""Arkham Ritual's state: the table between rounds and the round being played, with one type per step.

Seats are numbered clockwise. Dummy players (section 14) are not seats: they only hold a face-up card in
``Round.dummies``. Cards are ids from ``cards.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RoundEnd(StrEnum):
    """6-3's round end conditions, and the Great Old One's (10-4)."""

    ALL_PASSED = "all_passed"
    ELDER_SIGN = "elder_sign"
    GREAT_OLD_ONE = "great_old_one"
    DECK_EMPTY = "deck_empty"


class GameEnd(StrEnum):
    """8: the game ends when a player has lost all their Sanity Markers."""

    SANITY_LOST = "sanity_lost"


@dataclass(frozen=True, slots=True)
class Drawing:
    """Section 6-1: the Active Player is about to draw the top card of the Deck."""


@dataclass(frozen=True, slots=True)
class Passing:
    """Section 6-1: the Active Player has looked at ``card`` and must pass it face down to a Follower."""

    card: int


@dataclass(frozen=True, slots=True)
class Offered:
    """Section 6-2: ``holder`` has received ``card`` face down and must take it or pass it on."""

    card: int
    holder: int
    passers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Peeking:
    """Section 10-2, Magical Orb: ``seat`` has looked at the top card ``card`` and must return or remove it."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Resolving:
    """Between two facts of one command (end of turn, end of round): never a position anyone acts in."""


@dataclass(frozen=True, slots=True)
class Finished:
    """Section 8: the game is over."""

    reason: GameEnd
    winners: tuple[int, ...]


Phase = Drawing | Passing | Offered | Peeking | Resolving | Finished


@dataclass(frozen=True, slots=True)
class Round:
    """One round's cards and who knows what about the hidden ones.

    ``known`` holds (card, seat) pairs: ``seat`` has seen ``card`` while it is face down (the Active Player's
    draw, a Magical Orb or Shining Trapezohedron look, a card it removed). ``shown_colour`` holds hidden cards
    whose colour everyone learnt (the Shining Trapezohedron's gain or loss); ``cleared`` holds cards everyone
    knows are not a Great Old One (they were held when a Gate fell without effect).
    """

    number: int
    hands: tuple[int | None, ...]
    dummies: tuple[int | None, ...]
    deck: tuple[int, ...]
    discards: tuple[int, ...]
    removed: tuple[int, ...]
    active: int | None
    on_table: frozenset[int]
    known: frozenset[tuple[int, int]]
    shown_colour: frozenset[int]
    cleared: frozenset[int]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The revealed end of a round (section 7), kept for the table to read."""

    number: int
    cause: RoundEnd
    cards: tuple[int, ...]
    dummy_cards: tuple[int, ...]
    survived: tuple[bool, ...] | None
    great_old_one: int | None


@dataclass(frozen=True, slots=True)
class ArkhamRitualState:
    players: int
    dummy_count: int
    cards: tuple[int, ...]
    doom_track: bool
    competitive: bool
    sanity: tuple[int, ...]
    doom: int
    round: Round | None
    phase: Phase
    last_result: RoundResult | None


STATE_TYPES = (
    ArkhamRitualState, Round, RoundResult, Drawing, Passing, Offered, Peeking, Resolving, Finished, RoundEnd, GameEnd,
)
