"""Rise of Cthulhu (rise-of-cthulhu) for a bot: ``View``, its view as typed dicts, and ``Command``, its commands'
records. Generated from shared/games/rise_of_cthulhu/ by ``python -m session_service.cli.bot.typed_views``: do not
edit."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from shared.games.rise_of_cthulhu.commands import (
    DrawCard, DrawOwedCards, PlayArtifact, PlayCultist, PlayMonster, PlayToValley, ResolvePower
)

GAME = "rise-of-cthulhu"

# Every command of the game: ``legal_commands`` holds these records, and ``choose`` returns one of them.
Command = DrawCard | DrawOwedCards | PlayArtifact | PlayCultist | PlayMonster | PlayToValley | ResolvePower


class View(TypedDict):
    """
    Rise of Cthulhu as its reader may know it: the public table, hand counts, what each side has seen the other take,
    and the reader's own hand
    """
    # turn, owed_draws (draws owed after an awakening), awakening (an Old One's power to resolve), over
    phase: Literal["turn", "owed_draws", "awakening", "over"]
    # a seat, 0 for the first
    current: int
    # the seats the game waits on
    to_act: list[int]
    actions_taken: int
    actions_allowed: int
    # the seat in turn must draw from the Cultist Deck next
    must_draw_from_deck: bool
    deck_size: int
    # places in the Cultist Deck (0: the top) holding an Old One
    old_ones_in_deck_at: list[int]
    # the Valley's face-up cards
    valley: list[str]
    discard: list[str]
    # Monsters and Artifacts played and gone
    spent: list[str]
    monster_deck_size: int
    artifact_deck_size: int
    # where the Dark Hunter stands
    hunter: Literal["arkham", "dunwich", "innsmouth", "kingsport"] | None
    locations: list[Location]
    # Old Ones awoken, in order
    awake: list[Literal["azathoth", "hastur", "yog-sothoth", "shub-niggurath", "cthulhu", "nyarlathotep"]]
    not_awake: list[Literal["azathoth", "hastur", "yog-sothoth", "shub-niggurath", "cthulhu", "nyarlathotep"]]
    # An awoken Old One's power to resolve
    pending_power: PendingPower | None
    # one number per seat
    owed_draws: list[int]
    # one number per seat
    hand_sizes: list[int]
    hand_counts: list[HandCount]
    # per seat, the cards both seats have seen go into its hand
    known_in_hand: list[list[str]]
    # one number per seat
    points: list[int]
    # one number per seat
    locations_facing: list[int]
    # one number per seat
    artifacts_acquired: list[int]
    # one number per seat
    monsters_played: list[int]
    # a seat, 0 for the first
    seat: NotRequired[int]
    # the reader's own hand
    hand: NotRequired[list[str]]
    # both hands (only once the game is over)
    hands: NotRequired[list[list[str]]]
    # the Cultist Deck, top first (only once the game is over)
    deck: NotRequired[list[str]]
    monster_deck: NotRequired[list[str]]
    artifact_deck: NotRequired[list[str]]
    # The game's end, as the outcome gives it
    outcome: NotRequired[Outcome]


class Location(TypedDict):
    """A Location and both sides' cards at it"""
    # a Location
    name: Literal["arkham", "dunwich", "innsmouth", "kingsport"]
    # the Old One awoken there
    old_one: Literal["azathoth", "hastur", "yog-sothoth", "shub-niggurath", "cthulhu", "nyarlathotep"] | None
    # the side it faces (null: neutral)
    facing: int | None
    # seat 0's side, then seat 1's
    sides: list[LocationSide]


class LocationSide(TypedDict):
    """One seat's side of the Location"""
    cultists: list[str]
    monsters: list[str]
    points: int


class PendingPower(TypedDict):
    """An awoken Old One's power to resolve"""
    # an Old One
    old_one: Literal["azathoth", "hastur", "yog-sothoth", "shub-niggurath", "cthulhu", "nyarlathotep"]
    # a Location
    location: Literal["arkham", "dunwich", "innsmouth", "kingsport"]
    # a seat, 0 for the first
    influencer: int
    # a seat, 0 for the first
    drawn_by: int


class HandCount(TypedDict):
    """Cards in a hand, by kind"""
    cultists: int
    monsters: int
    artifacts: int


class Outcome(TypedDict):
    """The game's end, as the outcome gives it"""
    reason: Literal["locations", "points", "artifacts", "monsters", "hand", "tie"]
    winners: list[int]
    scores: list[int]
    # The tie-breaks, in the rulebook's order
    details: OutcomeDetails


class OutcomeDetails(TypedDict):
    """The tie-breaks, in the rulebook's order"""
    # Azathoth awoke: Locations do not count
    azathoth: bool
    # one number per seat
    locations: list[int]
    # one number per seat
    points: list[int]
    # one number per seat
    artifacts_acquired: list[int]
    # one number per seat
    monsters_played: list[int]
    # one number per seat
    hand_sizes: list[int]
    # seats that resigned (they cannot win)
    resigned: NotRequired[list[int]]


__all__ = [
    "GAME", "Command", "View", "DrawCard", "DrawOwedCards", "PlayArtifact", "PlayCultist", "PlayMonster", "PlayToValley",
    "ResolvePower", "HandCount", "Location", "LocationSide", "Outcome", "OutcomeDetails", "PendingPower"
]
