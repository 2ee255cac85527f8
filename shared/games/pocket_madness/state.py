"""Pocket Madness's state: a round's cards and the phase the game is in, changed only by ``rules.evolve``.

A game moves through three phases: ``Designating`` (a round has been dealt and its first player is being
chosen: at random in round 1, by the seat with most Madness afterwards), ``Playing`` (turns) and
``RoundOver`` (the round has been scored; either the game is over or the designating seat deals the next).

Cards of one Location are identical, so a hand is a tuple of seven counts (index ``slot(location)``). The
splayed deck is a tuple of ``(location, face_up)`` pairs, top card first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from shared.kernel import replace, replace_at

from shared.games.pocket_madness.cards import LOCATIONS

Hand = tuple[int, ...]
EMPTY_HAND: Hand = (0,) * len(LOCATIONS)


def slot(location: int) -> int:
    return location - LOCATIONS[0]


def hand_cards(hand: Hand) -> list[int]:
    """The hand as a sorted list of locations (a hand's counts are the locations in order: ``slot``)."""
    cards: list[int] = []
    for loc, count in zip(LOCATIONS, hand, strict=True):
        if count:
            cards += (loc,) * count
    return cards


assert [slot(loc) for loc in LOCATIONS] == list(range(len(LOCATIONS))), "hand_cards reads a hand's counts in order"


def hand_add(hand: Hand, location: int, n: int = 1) -> Hand:
    i = slot(location)
    return hand[:i] + (hand[i] + n,) + hand[i + 1 :]


def hand_minus(hand: Hand, other: Hand) -> Hand:
    """``hand`` less ``other``, never below zero."""
    return tuple(max(0, a - b) for a, b in zip(hand, other))


def hand_of(cards: Iterable[int]) -> Hand:
    counts, first = [0] * len(LOCATIONS), LOCATIONS[0]
    for loc in cards:
        counts[loc - first] += 1
    return tuple(counts)


class Action(StrEnum):
    """The obligatory action a turn has taken (A Player's Turn a/, b/, c/, or Gug's pass)."""

    DREW = "drew"
    SETS = "sets"
    RUNS = "runs"
    PASSED = "passed"


class RoundEnd(StrEnum):
    """How a round ended (End of the Round)."""

    DECK_EXHAUSTED = "deck_exhausted"
    HAND_EMPTIED = "hand_emptied"


@dataclass(frozen=True, slots=True)
class Meld:
    """A melded set (``location`` set) or run (``location`` None, one card of each Location)."""

    location: int | None
    count: int


@dataclass(frozen=True, slots=True)
class RoundCards:
    """Where every card of the round is, and the Portal cards' owners."""

    hands: tuple[Hand, ...]
    deck: tuple[tuple[int, bool], ...]
    melds: tuple[tuple[Meld, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    portals: tuple[int | None, ...]  # owner of each portal, index ``slot(portal)``; None = the pool
    # Cards everyone knows are in each hand (drawn face up, minus what may have left): a public lower bound.
    known: tuple[Hand, ...]
    # learned[observer][holder]: the cards ``observer`` knows are in ``holder``'s hand, the public ones and what
    # it saw alone (a hand it looked at with Shub-Niggurath, a card it gave or had taken): a lower bound too.
    learned: tuple[tuple[Hand, ...], ...]


def seen_by_all(cards: RoundCards, holder: int, change: Callable[[Hand], Hand]) -> RoundCards:
    """``change`` happened to ``holder``'s hand in plain sight: the public record and every seat's knowledge follow."""
    return replace(cards, known=replace_at(cards.known, holder, change(cards.known[holder])),
                   learned=tuple(replace_at(row, holder, change(row[holder])) for row in cards.learned))


def moved_secretly(cards: RoundCards, giver: int, receiver: int, location: int) -> RoundCards:
    """A card moved between two hands, seen by those two only: they know which it was; for everyone else each
    location the giver was known to hold may be the one that left."""
    hands = replace_at(cards.hands, giver, hand_add(cards.hands[giver], location, -1))
    hands = replace_at(hands, receiver, hand_add(hands[receiver], location))
    one = hand_add(EMPTY_HAND, location)

    def unsure(hand: Hand) -> Hand:
        return tuple(max(0, n - 1) for n in hand)

    def knows(row: tuple[Hand, ...]) -> tuple[Hand, ...]:
        row = replace_at(row, giver, hand_minus(row[giver], one))
        return replace_at(row, receiver, hand_add(row[receiver], location))

    learned = tuple(knows(row) if o in (giver, receiver) else replace_at(row, giver, unsure(row[giver]))
                    for o, row in enumerate(cards.learned))
    known = replace_at(cards.known, giver, unsure(cards.known[giver]))
    return replace(cards, hands=hands, known=known, learned=learned)


def looked_at(cards: RoundCards, seat: int, target: int) -> RoundCards:
    """``seat`` has seen ``target``'s whole hand."""
    row = replace_at(cards.learned[seat], target, cards.hands[target])
    return replace(cards, learned=replace_at(cards.learned, seat, row))


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    extra: bool = False  # a Dagon turn
    last: bool = False  # begun after the deck ran out: a melding turn
    action: Action | None = None
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
    """The round is dealt; ``chooser`` designates its first player (None: drawn at random, round 1)."""

    chooser: int | None


@dataclass(frozen=True, slots=True)
class Playing:
    turn: Turn
    runs: int = 0  # runs melded this round, for escalating madness
    shoggoth: int | None = None  # the seat whose Shoggoth binds its opponents
    last_turns: tuple[int, ...] | None = None  # once the deck is empty: seats still owed a last turn, in order
    pending: Power | None = None


@dataclass(frozen=True, slots=True)
class RoundOver:
    reason: RoundEnd
    ender: int | None  # the seat that emptied its hand
    gained: tuple[int, ...]  # madness change of each seat at the round's end (hands laid down when the deck ran out)


Phase = Designating | Playing | RoundOver


@dataclass(frozen=True, slots=True)
class PocketMadnessState:
    players: int
    round: int
    start: int | None  # the round's start player (while designating: the previous round's, None before round 1)
    madness: tuple[int, ...]
    cards: RoundCards
    phase: Phase


STATE_TYPES = (PocketMadnessState, RoundCards, Meld, Turn, Power, Designating, Playing, RoundOver, Action, RoundEnd)
