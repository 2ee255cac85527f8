"""Pocket Madness's events: one fact per event type, the contract between ``decide``, ``evolve`` and the record.

Locations and portals are their numbers (6–12); seats are ints. Who may see a secret field is said where the
fact is emitted (``rules.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact, Facts


@dataclass(frozen=True, slots=True)
class RoundDealt(Fact, type="round_dealt", optional=("hand_2", "hand_3")):
    """Setup 3–6: the splayed deck (``deck``: a face-up card's location, or None for a face-down one), the
    face-down cards in deck order (secret from everyone), and each seat's two cards (``hand_<seat>``, seen
    by that seat; only the seats present have one)."""

    round: int
    players: int
    chooser: int | None
    deck: list[int | None]
    face_down: list[int]
    hand_0: list[int]
    hand_1: list[int]
    hand_2: list[int] | None = None
    hand_3: list[int] | None = None

    def hands(self) -> list[list[int]]:
        dealt = (self.hand_0, self.hand_1, self.hand_2, self.hand_3)
        return [hand for hand in dealt[: self.players] if hand is not None]


@dataclass(frozen=True, slots=True)
class FirstPlayerChosen(Fact, type="first_player_chosen"):
    """``seat`` goes first this round, designated by ``chooser`` (None: drawn at random in round 1)."""

    seat: int
    chooser: int | None


@dataclass(frozen=True, slots=True)
class CardsDrawn(Fact, type="cards_drawn"):
    """Persevere: ``seat`` drew the top ``count`` cards; the face-up ones are public, the face-down ones its own."""

    seat: int
    count: int
    revealed: list[int]
    face_down: list[int]


@dataclass(frozen=True, slots=True)
class SetMelded(Fact, type="set_melded"):
    seat: int
    location: int
    count: int


@dataclass(frozen=True, slots=True)
class PortalClaimed(Fact, type="portal_claimed"):
    seat: int
    portal: int
    previous_owner: int | None


@dataclass(frozen=True, slots=True)
class RunMelded(Fact, type="run_melded"):
    """The ``number``-th run of the round: each opponent of ``seat`` takes ``madness`` tokens."""

    seat: int
    number: int
    madness: int


@dataclass(frozen=True, slots=True)
class PortalSealed(Fact, type="portal_sealed"):
    seat: int
    portal: int


@dataclass(frozen=True, slots=True)
class TurnPassed(Fact, type="turn_passed"):
    """Gug: ``seat`` passed its turn instead of taking its action."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardDiscarded(Fact, type="card_discarded"):
    """Azathoth: ``card`` left ``seat``'s hand at random, face up before it."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CardGiven(Fact, type="card_given"):
    """Cthulhu: ``seat`` gave a ``location`` card to ``to`` (seen by both only)."""

    seat: int
    to: int
    location: int


@dataclass(frozen=True, slots=True)
class HandLookedAt(Fact, type="hand_looked_at"):
    """Shub-Niggurath: ``seat`` looks at ``target``'s hand, ``cards`` (seen by ``seat`` only)."""

    seat: int
    target: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class CardTaken(Fact, type="card_taken"):
    """Shub-Niggurath: ``seat`` took a ``location`` card from ``target`` (seen by both only)."""

    seat: int
    target: int
    location: int


@dataclass(frozen=True, slots=True)
class DeckCardTaken(Fact, type="deck_card_taken"):
    """Nyarlathotep: ``seat`` took the card at ``position`` of the deck (a face-down one is seen by ``seat`` only)."""

    seat: int
    position: int
    face_up: bool
    card: int


@dataclass(frozen=True, slots=True)
class PowerResolved(Fact, type="power_resolved"):
    seat: int
    portal: int


@dataclass(frozen=True, slots=True)
class DeckExhausted(Fact, type="deck_exhausted"):
    """The deck is empty: the seats owed a last turn, in order."""

    last_turns: list[int]


@dataclass(frozen=True, slots=True)
class TurnEnded(Fact, type="turn_ended"):
    seat: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Fact, type="turn_started"):
    """``seat``'s turn begins; ``extra`` for a Dagon turn."""

    seat: int
    extra: bool


@dataclass(frozen=True, slots=True)
class RoundEnded(Fact, type="round_ended", optional=("hands",)):
    """The round is scored: ``gained`` is each seat's Madness change; ``seat`` emptied its hand
    (``hand_emptied``), or the deck ran out and every hand is laid down (``hands``)."""

    reason: str
    seat: int | None
    gained: list[int]
    hands: list[list[int]] | None = None


FACTS = Facts(
    RoundDealt,
    FirstPlayerChosen,
    CardsDrawn,
    SetMelded,
    PortalClaimed,
    RunMelded,
    PortalSealed,
    TurnPassed,
    CardDiscarded,
    CardGiven,
    HandLookedAt,
    CardTaken,
    DeckCardTaken,
    PowerResolved,
    DeckExhausted,
    TurnEnded,
    TurnStarted,
    RoundEnded,
)
