"""The Great Old One's events: one fact per event type, the contract between ``decide``, ``evolve`` and the record.

A card moving face down (a draw, a Call, a random take, a gift) is public; which card it was is a secret of the
seats that saw it. Whether it was a Sign is never said (rulings 7 and 14).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact, Facts


@dataclass(frozen=True, slots=True)
class GameStarted(Fact, type="game_started"):
    """The table: how many players, the youngest player's seat (ruling 4) and the ``finish_round`` variant."""

    players: int
    first_player: int
    finish_round: bool


@dataclass(frozen=True, slots=True)
class DeckShuffled(Fact, type="deck_shuffled"):
    """The deck's order after a shuffle (secret from every seat until the game ends)."""

    order: list[int]


@dataclass(frozen=True, slots=True)
class CardsDealt(Fact, type="cards_dealt"):
    """To Begin 1: nine cards dealt to ``seat`` (only that seat sees which)."""

    seat: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class CentreRevealed(Fact, type="centre_revealed"):
    """To Begin 2: three Story cards face up in the centre; the non-Story cards turned on the way go back."""

    cards: list[int]
    returned: list[int]


@dataclass(frozen=True, slots=True)
class PairPlayed(Fact, type="pair_played"):
    """``seat`` laid a Matched or Linked pair in its play area, naming ``connections``."""

    seat: int
    cards: list[int]
    matched: bool
    connections: list[str]


@dataclass(frozen=True, slots=True)
class OpeningFinished(Fact, type="opening_finished"):
    """``seat`` has played its opening pairs (To Begin 3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnBegan(Fact, type="turn_began"):
    """``seat``'s turn began with its Draw phase; its Elder Sign ward, if any, lapses."""

    seat: int
    turn_number: int


@dataclass(frozen=True, slots=True)
class PhaseBegan(Fact, type="phase_began"):
    """The turn moved on to ``phase`` (call, recruit or horror)."""

    phase: str


@dataclass(frozen=True, slots=True)
class CardDrawn(Fact, type="card_drawn"):
    """``seat`` drew the top card of the deck (only it sees which)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class DrawSkipped(Fact, type="draw_skipped"):
    """``seat``'s Draw phase found the deck empty (ruling 18)."""

    seat: int


@dataclass(frozen=True, slots=True)
class StoryCalled(Fact, type="story_called"):
    """``seat`` named ``story`` to ``target``: a warded hand gives nothing; else one card moved to the caller,
    ``handed`` over if the target held the story, taken at random if not (which card: caller and target only)."""

    seat: int
    target: int
    story: str
    warded: bool
    card: int | None
    handed: bool


@dataclass(frozen=True, slots=True)
class CallPassed(Fact, type="call_passed"):
    """``seat`` passed its Call phase: no opponent held a card (ruling 8)."""

    seat: int


@dataclass(frozen=True, slots=True)
class StorySwapped(Fact, type="story_swapped"):
    """``seat`` switched the Story card ``card`` from its hand with ``centre_card`` from the centre (both public)."""

    seat: int
    card: int
    centre_card: int


@dataclass(frozen=True, slots=True)
class RecruitPassed(Fact, type="recruit_passed"):
    """``seat`` could neither switch nor draw in its Recruit phase (ruling 9)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HorrorPlayed(Fact, type="horror_played"):
    """``seat`` played the Horror ``card`` to its play area; its effect's events follow."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CultistPlayed(Fact, type="cultist_played"):
    """``seat`` played the Cultist to its play area."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class HorrorTaken(Fact, type="horror_taken"):
    """A pair naming its connection took the Horror ``card`` from ``from_seat``'s play area into ``seat``'s hand."""

    seat: int
    from_seat: int
    card: int


@dataclass(frozen=True, slots=True)
class HorrorReturned(Fact, type="horror_returned"):
    """The Horror ``card`` went back from ``from_seat``'s play area to its owner ``seat``'s hand."""

    seat: int
    from_seat: int
    card: int


@dataclass(frozen=True, slots=True)
class SignPlayed(Fact, type="sign_played"):
    """``seat`` played the Sign ``card`` (removed from the game); its effect's events follow."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class WardRaised(Fact, type="ward_raised"):
    """The Elder Sign: no card can be taken from ``seat``'s hand until its next turn begins."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardTaken(Fact, type="card_taken"):
    """``seat`` took a card at random from ``from_seat``'s hand (which card: those two only)."""

    seat: int
    from_seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CardGiven(Fact, type="card_given"):
    """``seat`` gave a card of its choice to ``to_seat`` (which card: those two only)."""

    seat: int
    to_seat: int
    card: int


@dataclass(frozen=True, slots=True)
class FinalRoundBegan(Fact, type="final_round_began"):
    """Variant ``finish_round``: ``seat``'s 7th pair starts the last round (ruling 21)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Fact, type="turn_ended"):
    """``seat`` ended its turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Fact, type="game_ended"):
    """How To Win: the game ended for ``reason`` and every player revealed their hand (public)."""

    reason: str
    hands: list[list[int]]


FACTS = Facts(
    GameStarted, DeckShuffled, CardsDealt, CentreRevealed, PairPlayed, OpeningFinished, TurnBegan, PhaseBegan,
    CardDrawn, DrawSkipped, StoryCalled, CallPassed, StorySwapped, RecruitPassed, HorrorPlayed, CultistPlayed,
    HorrorTaken, HorrorReturned, SignPlayed, WardRaised, CardTaken, CardGiven, FinalRoundBegan, TurnEnded, GameEnded,
)
