"""Arkham Ritual's events: one fact per event type, the contract between ``decide``, ``evolve`` and the record.

Cards are ids from ``cards.py``; seats are ints, Dummy players their own index (section 14). Who may see a
secret field is said where the fact is emitted (``rules.py``): a held card is seen by every seat but its
holder, a card seen face down by its viewer only, the Deck's order by nobody.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact, Facts


@dataclass(frozen=True, slots=True)
class GameStarted(Fact, type="game_started"):
    """3: the table, the 22 cards chosen by the options, and everyone's starting Sanity."""

    players: int
    dummies: int
    cards: list[int]
    doom_track: bool
    competitive: bool
    sanity: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Fact, type="round_started"):
    round: int


@dataclass(frozen=True, slots=True)
class HandDealt(Fact, type="hand_dealt"):
    """5: ``seat`` holds ``card`` facing the others (seen by every other seat)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class DummyDealt(Fact, type="dummy_dealt"):
    """14: a Dummy player's card, dealt face up."""

    dummy: int
    card: int


@dataclass(frozen=True, slots=True)
class DeckFormed(Fact, type="deck_formed"):
    """5: the rest of the cards are the Deck, top first (its order secret from everyone)."""

    size: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class ActivePlayerChosen(Fact, type="active_player_chosen"):
    """5-1: the round's first Active Player, by ``rule`` (random in round 1, lowest Sanity after)."""

    seat: int
    rule: str


@dataclass(frozen=True, slots=True)
class DeckPassed(Fact, type="deck_passed"):
    """6-3: the turn is over and the Deck goes from the Active Player ``seat`` to ``to``, the new Active Player;
    every other player places a hand on the table (6-1)."""

    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Fact, type="card_drawn"):
    """6-1 (2): the Active Player drew the top card and looked at it (seen by the drawer only)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CardPassed(Fact, type="card_passed"):
    """6-1 (3), 6-2-2: the face-down card went from ``seat`` to ``to``, whose hand leaves the table."""

    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class CardTaken(Fact, type="card_taken"):
    """6-2-1: ``seat`` discarded ``discarded`` face up and took ``card`` (seen by every other seat)."""

    seat: int
    card: int
    discarded: int


@dataclass(frozen=True, slots=True)
class CardUnclaimed(Fact, type="card_unclaimed"):
    """6-2-2: every Follower passed; the card is discarded face up without effect."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class GateFoundNoGreatOldOne(Fact, type="gate_found_no_great_old_one"):
    """10-2 Gate: discarded while nobody holds a Great Old One; nothing happens."""

    seat: int


@dataclass(frozen=True, slots=True)
class TopCardSeen(Fact, type="top_card_seen", optional=("sane",)):
    """10-2: ``seat`` looked at the top card of the Deck ``by`` an Event (the card is seen by ``seat`` only);
    with the Shining Trapezohedron, ``sane`` (public, as the gain or loss shows it)."""

    seat: int
    card: int
    by: str
    sane: bool | None = None


@dataclass(frozen=True, slots=True)
class TopCardReturned(Fact, type="top_card_returned"):
    """10-2 Magical Orb: the card looked at goes back on top of the Deck."""

    seat: int


@dataclass(frozen=True, slots=True)
class TopCardRemoved(Fact, type="top_card_removed"):
    """10-2 Magical Orb: the card looked at leaves the game face down (seen by its remover only)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class SanityChanged(Fact, type="sanity_changed"):
    seat: int
    change: int
    sanity: int
    cause: str


@dataclass(frozen=True, slots=True)
class RoundEnded(Fact, type="round_ended"):
    """7: the round ends and every card is revealed (seats, then Dummy players)."""

    round: int
    cause: str
    cards: list[int]
    dummy_cards: list[int]


@dataclass(frozen=True, slots=True)
class RitualJudged(Fact, type="ritual_judged"):
    """7-1 to 7-3: who survived (seats then Dummies), how many did not, and what each of them loses."""

    survived: list[bool]
    failed: int
    loss: int


@dataclass(frozen=True, slots=True)
class GreatOldOneAwakened(Fact, type="great_old_one_awakened"):
    """10-4: a Gate awakened ``card``, held by seat ``holder`` or by Dummy player ``dummy``."""

    card: int
    holder: int | None
    dummy: int | None


@dataclass(frozen=True, slots=True)
class DoomAdvanced(Fact, type="doom_advanced"):
    """13: the Doom Track marker moves to ``spot``."""

    spot: int


@dataclass(frozen=True, slots=True)
class GameEnded(Fact, type="game_ended"):
    reason: str
    winners: list[int]


FACTS = Facts(
    GameStarted,
    RoundStarted,
    HandDealt,
    DummyDealt,
    DeckFormed,
    ActivePlayerChosen,
    DeckPassed,
    CardDrawn,
    CardPassed,
    CardTaken,
    CardUnclaimed,
    GateFoundNoGreatOldOne,
    TopCardSeen,
    TopCardReturned,
    TopCardRemoved,
    SanityChanged,
    RoundEnded,
    RitualJudged,
    GreatOldOneAwakened,
    DoomAdvanced,
    GameEnded,
)
