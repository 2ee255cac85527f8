"""Arkham Ritual (arkham-ritual) for a bot: ``View``, its view as typed dicts, and ``Command``, its commands' records.
Generated from shared/games/arkham_ritual/ by ``python -m session_service.cli.bot.typed_views``: do not edit."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from shared.games.arkham_ritual.commands import DrawCard, PassCard, RemoveTopCard, ReturnTopCard, TakeCard

GAME = "arkham-ritual"

# Every command of the game: ``legal_commands`` holds these records, and ``choose`` returns one of them.
Command = DrawCard | PassCard | RemoveTopCard | ReturnTopCard | TakeCard


class View(TypedDict):
    """
    Arkham Ritual as its reader may know it: every held card but the reader's own, the public piles, and what the reader
    saw face down itself
    """
    game: Literal["arkham-ritual"]
    # seats at the table
    players: int
    # drawing, passing (the Active Player passes the card it drew), offered (a Follower takes or passes it on), peeking
    # (a Magical Orb look), finished; setting_up only when read at a version before the first deal
    phase: Literal["setting_up", "drawing", "passing", "offered", "peeking", "resolving", "finished"]
    # the round, from 1
    round: NotRequired[int]
    # the seats the game waits on
    to_act: NotRequired[list[int]]
    # the Active Player (null between a round's start and its choice)
    active: NotRequired[int | None]
    # each seat's Sanity
    sanity: list[int]
    # losses follow the Doom Track (an option)
    doom_track: NotRequired[bool]
    # the Doom Track's loss this round (null without the track)
    doom: NotRequired[int | None]
    # the competitive variant (an option)
    competitive: NotRequired[bool]
    # the cards this game is played with
    cards_in_play: NotRequired[list[int]]
    # each seat's card in front of it (null: the reader's own, which it cannot see, or one not yet dealt)
    cards: NotRequired[list[int | None]]
    # the Dummy players' cards, face up (null: not yet dealt)
    dummies: NotRequired[list[int | None]]
    # cards left in the Deck
    deck_size: NotRequired[int]
    # the Deck's top card's colour, when a Shining Trapezohedron showed it
    deck_top_colour: NotRequired[Literal["sane", "cursed"] | None]
    # discarded cards, face up
    discards: NotRequired[list[int]]
    # cards removed from the game face down
    removed_count: NotRequired[int]
    # seats whose card lies on the table (they have left the round)
    hands_on_table: NotRequired[list[int]]
    # seats everyone knows hold no Great Old One
    cleared_of_great_old_one: NotRequired[list[int]]
    # the card being passed (its id only for a reader who saw it)
    passed_card: NotRequired[PassedCard | None]
    # the seat looking at the top card (the card only for that seat)
    peeking: NotRequired[Peeking | None]
    # The last round's end, revealed
    last_round: NotRequired[LastRound | None]
    # The game's end, as the outcome gives it
    outcome: NotRequired[Outcome | None]
    # a seat, 0 for the first
    seat: NotRequired[int]
    # What the reader saw face down itself
    remembered: NotRequired[Remembered]
    # the Deck, top first (only once the game is over)
    deck: NotRequired[list[int]]
    # every removed card (only once the game is over)
    removed: NotRequired[list[int]]


class PassedCard(TypedDict):
    """the card being passed (its id only for a reader who saw it)"""
    # a seat, 0 for the first
    holder: int
    # who passed it on, in order
    passers: list[int]
    # its colour, when a Shining Trapezohedron showed it
    colour: Literal["sane", "cursed"] | None
    # a card by its id (the catalogue's card_data gives its name, kind and colour)
    card: NotRequired[int]


class Peeking(TypedDict):
    """the seat looking at the top card (the card only for that seat)"""
    # a seat, 0 for the first
    seat: int
    # a card by its id (the catalogue's card_data gives its name, kind and colour)
    card: NotRequired[int]


class LastRound(TypedDict):
    """The last round's end, revealed"""
    round: int
    # how it ended
    cause: Literal["all_passed", "elder_sign", "great_old_one", "deck_empty"]
    # each seat's card, revealed
    cards: list[int]
    dummy_cards: list[int]
    # who kept its Sanity, per seat (null when nobody lost any)
    survived: list[bool] | None
    # who held the awakened Great Old One
    great_old_one_holder: int | None


class Outcome(TypedDict):
    """The game's end, as the outcome gives it"""
    reason: Literal["sanity_lost"]
    winners: list[int]
    scores: list[int]
    # How the game went
    details: OutcomeDetails


class OutcomeDetails(TypedDict):
    """How the game went"""
    # the competitive variant: only the most Sanity wins
    competitive: bool
    # rounds played
    rounds: int
    # seats that resigned (they cannot win)
    resigned: NotRequired[list[int]]


class Remembered(TypedDict):
    """What the reader saw face down itself"""
    # its own card, when it saw it
    own_card: int | None
    # its own card's colour, when shown
    own_card_colour: Literal["sane", "cursed"] | None
    # the Deck's top card, when it saw it
    deck_top: int | None
    # cards it removed from the game
    removed: list[int]


__all__ = [
    "GAME", "Command", "View", "DrawCard", "PassCard", "RemoveTopCard", "ReturnTopCard", "TakeCard", "LastRound",
    "Outcome", "OutcomeDetails", "PassedCard", "Peeking", "Remembered"
]
