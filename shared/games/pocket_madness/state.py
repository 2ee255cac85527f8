"""Pocket Madness state: the cards of a round (``Table``) and the three phases a game moves through.

``Designating``: a round has been dealt and the first player is being chosen (randomly in round 1, by the
seat with most Madness afterwards). ``Playing``: turns. ``RoundOver``: the round has been scored; either the
game is over or the designating seat deals the next round.

Cards of one Location are identical, so a hand is a tuple of seven counts (index ``location - 6``). The
splayed deck is a tuple of ``(location, face_up)`` pairs, top card first.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.games.pocket_madness.cards import LOCATIONS

Hand = tuple[int, ...]
EMPTY_HAND: Hand = (0,) * len(LOCATIONS)


def slot(location: int) -> int:
    return location - LOCATIONS[0]


def hand_cards(hand: Hand) -> list[int]:
    """The hand as a sorted list of locations."""
    return [loc for loc in LOCATIONS for _ in range(hand[slot(loc)])]


def hand_add(hand: Hand, location: int, n: int = 1) -> Hand:
    i = slot(location)
    return hand[:i] + (hand[i] + n,) + hand[i + 1 :]


def hand_minus(hand: Hand, other: Hand) -> Hand:
    """``hand`` less ``other``, never below zero."""
    return tuple(max(0, a - b) for a, b in zip(hand, other))


def hand_of(cards) -> Hand:
    hand = EMPTY_HAND
    for loc in cards:
        hand = hand_add(hand, loc)
    return hand


@dataclass(frozen=True, slots=True)
class Meld:
    """A melded set (``location`` set) or run (``location`` None, one card of each Location)."""

    location: int | None
    count: int


@dataclass(frozen=True, slots=True)
class Table:
    hands: tuple[Hand, ...]
    deck: tuple[tuple[int, bool], ...]
    melds: tuple[tuple[Meld, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    portals: tuple[int | None, ...]  # owner of each portal, index ``portal - 6``; None = the pool
    # Cards everyone knows are in each hand (drawn face up, minus what may have left): a public lower bound.
    known: tuple[Hand, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    extra: bool = False  # a Dagon turn
    last: bool = False  # begun after the deck ran out: a melding turn
    action: str | None = None  # None, "drew", "sets", "runs", "passed"
    melds: int = 0
    sealed: bool = False
    closed: bool = False  # a seal after melding has ended the melding
    claimed: frozenset[int] = frozenset()  # portals claimed during this turn
    gug_claimed_before: bool = False  # a Dagon turn right after the turn that claimed Gug
    dagon: bool = False  # an extra turn is owed after this one


@dataclass(frozen=True, slots=True)
class Power:
    """A portal power waiting for its sealer's decision."""

    portal: int
    target: int | None = None
    given: int = 0


@dataclass(frozen=True, slots=True)
class Designating:
    players: int
    round: int
    start: int | None  # the previous round's start player (None before round 1)
    madness: tuple[int, ...]
    table: Table
    chooser: int | None  # None: the first player is drawn at random (round 1)


@dataclass(frozen=True, slots=True)
class Playing:
    players: int
    round: int
    start: int
    madness: tuple[int, ...]
    table: Table
    turn: Turn
    runs: int = 0  # runs melded this round, for escalating madness
    shoggoth: int | None = None  # the seat whose Shoggoth binds its opponents
    last_turns: tuple[int, ...] | None = None  # once the deck is empty: seats still owed a last turn, in order
    pending: Power | None = None


@dataclass(frozen=True, slots=True)
class RoundOver:
    players: int
    round: int
    start: int
    madness: tuple[int, ...]
    table: Table
    reason: str  # "deck_exhausted" or "hand_emptied"
    ender: int | None  # the seat that emptied its hand
    gained: tuple[int, ...]  # madness change of each seat at the round's end (hands laid down when the deck ran out)


STATE_TYPES = (Meld, Table, Turn, Power, Designating, Playing, RoundOver)
