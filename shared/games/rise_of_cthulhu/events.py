"""Rise of Cthulhu's events: one fact per event type, the contract between ``decide``, ``evolve`` and the record.

Cards are their ids (``cards.py``), Locations their names, seats ints. A stored event's JSON is exactly its
fact's fields. Who may see a secret field is said where the fact is emitted (``rules.py``, ``actions.py``,
``powers.py``): a card drawn from the Cultist, Monster or Artifact Deck is its drawer's secret; everything played
or moved at the Locations and the Valley is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact, Facts


@dataclass(frozen=True, slots=True)
class GameSetUp(Fact, type="game_set_up"):
    """Setting up: the Cultist Deck top first, with a face-down ``old-one`` slot in the middle of each third (its
    order secret from both seats), the Valley's first card, the Monster and Artifact Decks (secret), the six Old
    Ones (three will wake) and the first player."""

    players: int
    first: int
    deck: list[str]
    valley: list[str]
    monster_deck: list[str]
    artifact_deck: list[str]
    old_ones: list[str]


@dataclass(frozen=True, slots=True)
class CardsDealt(Fact, type="cards_dealt"):
    """Setting up: five Cultist cards dealt to ``seat`` (only that seat sees which)."""

    seat: int
    cards: list[str]


@dataclass(frozen=True, slots=True)
class CardDrawn(Fact, type="card_drawn"):
    """``seat`` drew ``card`` from the top of the Cultist Deck (its secret) or of the Valley (public); ``action``:
    it was one of the turn's two actions, else a draw a card or an Old One owed."""

    seat: int
    source: str
    card: str
    action: bool


@dataclass(frozen=True, slots=True)
class OldOneAwakened(Fact, type="old_one_awakened"):
    """``seat`` drew a face-down Old One: ``old_one`` wakes at ``location``, reaped by ``influencer`` (None on a
    neutral Location); the Dark Hunter went home if it stood there; ``owed`` is the drawer's owed draws now."""

    seat: int
    old_one: str
    location: str
    influencer: int | None
    hunter_returned: bool
    action: bool
    owed: int


@dataclass(frozen=True, slots=True)
class PowerResolved(Fact, type="power_resolved"):
    """``seat`` has resolved the power of the Old One that just woke."""

    seat: int
    old_one: str


@dataclass(frozen=True, slots=True)
class DrawsOwed(Fact, type="draws_owed"):
    """``seat`` must draw ``count`` more cards from the Cultist Deck (Necronomicon, Shub-Niggurath)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class CultistPlayed(Fact, type="cultist_played"):
    """``seat`` played ``card`` on its side of ``location``, as an action or (``action`` false) as a free play."""

    seat: int
    card: str
    location: str
    action: bool


@dataclass(frozen=True, slots=True)
class ValleyPlayed(Fact, type="valley_played"):
    """``seat`` played ``card`` on the Valley (an action)."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class HunterMoved(Fact, type="hunter_moved"):
    """The Dark Hunter moved ``to`` a Location, or home between the Cultist Deck and the Valley (None), ``by`` a
    Valley play, a colour set, or the named Old One, Monster or Artifact."""

    to: str | None
    by: str


@dataclass(frozen=True, slots=True)
class CultistDestroyed(Fact, type="cultist_destroyed"):
    """``seat``'s ``card`` at ``location`` was destroyed ``by`` the Dark Hunter or the named card; it is discarded."""

    seat: int
    card: str
    location: str
    by: str


@dataclass(frozen=True, slots=True)
class MonsterDrawn(Fact, type="monster_drawn"):
    """``seat`` drew the top Monster card (only that seat sees which)."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class ArtifactDrawn(Fact, type="artifact_drawn"):
    """``seat`` drew the top Artifact card (only that seat sees which)."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class MonsterPlayed(Fact, type="monster_played"):
    """``seat`` played the Monster ``card`` on ``location``; it ``stays`` there or is discarded."""

    seat: int
    card: str
    location: str
    stays: bool


@dataclass(frozen=True, slots=True)
class ArtifactPlayed(Fact, type="artifact_played"):
    """``seat`` played the Artifact ``card``; it is discarded."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class CultistMoved(Fact, type="cultist_moved"):
    """The Mi-Go moved ``seat``'s ``card`` from ``from_location`` to its side of ``to_location``."""

    seat: int
    card: str
    from_location: str
    to_location: str


@dataclass(frozen=True, slots=True)
class CultistCrossed(Fact, type="cultist_crossed"):
    """The Star Vampire: the opponent's ``card`` at ``location`` crossed to ``seat``'s side."""

    seat: int
    card: str
    location: str


@dataclass(frozen=True, slots=True)
class CultistSentToValley(Fact, type="cultist_sent_to_valley"):
    """The Nightgaunt put ``seat``'s ``card`` at ``location`` on top of the Valley."""

    seat: int
    card: str
    location: str


@dataclass(frozen=True, slots=True)
class ValleyCardTaken(Fact, type="valley_card_taken"):
    """The Lamp of Alhazred: ``seat`` took ``card`` from the Valley into its hand (the opponent sees which)."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class ExtraActionGained(Fact, type="extra_action_gained"):
    """The Glass from Leng: ``seat`` has one more action this turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnPassed(Fact, type="turn_passed"):
    """The turn passed to ``seat``; ``must_draw``: its position already began a turn since the last Cultist Deck
    draw (a loop), so this turn must include a Cultist Deck draw (ruling 25)."""

    seat: int
    must_draw: bool


FACTS = Facts(
    GameSetUp,
    CardsDealt,
    CardDrawn,
    OldOneAwakened,
    PowerResolved,
    DrawsOwed,
    CultistPlayed,
    ValleyPlayed,
    HunterMoved,
    CultistDestroyed,
    MonsterDrawn,
    ArtifactDrawn,
    MonsterPlayed,
    ArtifactPlayed,
    CultistMoved,
    CultistCrossed,
    CultistSentToValley,
    ValleyCardTaken,
    ExtraActionGained,
    TurnPassed,
)
