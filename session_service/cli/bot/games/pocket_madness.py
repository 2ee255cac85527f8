"""Pocket Madness (pocket-madness) for a bot: ``View``, its view as typed dicts, and ``Command``, its commands' records.
Generated from shared/games/pocket_madness/ by ``python -m session_service.cli.bot.typed_views``: do not edit."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from shared.games.pocket_madness.commands import (
    ChooseFirstPlayer, DealNextRound, DrawCards, EndTurn, GiveCard, LookAtHand, MeldRun, MeldSet, SealPortal, StopGiving,
    TakeCard, TakeDeckCard
)

GAME = "pocket-madness"

# Every command of the game: ``legal_commands`` holds these records, and ``choose`` returns one of them.
Command = (
    ChooseFirstPlayer | DealNextRound | DrawCards | EndTurn | GiveCard | LookAtHand | MeldRun | MeldSet | SealPortal |
    StopGiving | TakeCard | TakeDeckCard
)


class View(TypedDict):
    """Pocket Madness as its reader may know it: the public table, the reader's own hand, every hand once laid down"""
    # seats at the table
    players: int
    # the round, from 1
    round: int
    # each seat's Madness tokens
    madness: list[int]
    # Madness tokens left in the supply
    madness_supply: int
    # a round that leaves a seat at this much Madness ends the game
    madness_limit: int
    # the seats the game waits on
    to_act: list[int]
    # the splayed deck, top first: a face-down card's location is shown only after the end
    deck: list[DeckItem]
    # cards left in the deck
    deck_size: int
    # face-down cards left in the deck
    face_down_in_deck: int
    # cards in each seat's hand
    hand_counts: list[int]
    # per seat, the cards everyone knows are in its hand
    known_cards: list[list[int]]
    # per seat, its melds
    melds: list[list[Meld]]
    # per seat, the cards discarded face up before it
    discards: list[list[int]]
    # the seven Portals
    portals: list[Portal]
    # Location cards, by number
    hand: NotRequired[list[int]]
    # every seat's hand, once laid down (the deck ran out) or the game is over
    hands: NotRequired[list[list[int]]]
    # a seat, 0 for the first
    seat: NotRequired[int]
    # designating (the first player is being chosen), playing, round_over or game_over
    phase: Literal["designating", "playing", "round_over", "game_over"]
    # designating: the previous round's first player
    previous_start: NotRequired[int | None]
    # designating: the seat that designates the first player
    chooser: NotRequired[int | None]
    # a seat, 0 for the first
    start_player: NotRequired[int]
    # playing: runs melded this round
    runs_this_round: NotRequired[int]
    # playing: Madness each opponent takes for the next run
    next_run_madness: NotRequired[int]
    # playing: the seat whose Shoggoth binds its opponents
    shoggoth: NotRequired[int | None]
    # playing: the seat in turn must draw exactly one card
    bound_by_shoggoth: NotRequired[bool]
    # playing, once the deck ran out: the seats still owed a last turn, in order
    last_turns: NotRequired[list[int] | None]
    # The turn under way
    turn: NotRequired[Turn]
    # playing: a Portal power being resolved
    pending: NotRequired[Pending | None]
    # round_over and game_over: how the round ended
    reason: NotRequired[Literal["deck_exhausted", "hand_emptied"]]
    # the seat that emptied its hand
    ender: NotRequired[int | None]
    # each seat's Madness change at the round's end
    gained: NotRequired[list[int]]
    # round_over: the seat that designates the next first player
    designator: NotRequired[int | None]
    # The game's end, as the outcome gives it
    outcome: NotRequired[Outcome | None]


class DeckItem(TypedDict):
    """A card of the splayed deck, from the top"""
    face_up: bool
    # a Location card by its number (6 R'lyeh … 12 Underworld; the catalogue's card_data names them)
    location: NotRequired[int]


class Meld(TypedDict):
    """A meld in front of a seat"""
    kind: Literal["run", "set"]
    # a set's Location (null for a run)
    location: int | None
    # cards in it
    count: int


class Portal(TypedDict):
    """A Portal card"""
    # a Portal by its number, the number of its Location
    portal: int
    name: Literal["Cthulhu", "Azathoth", "Shub-Niggurath", "Dagon", "Nyarlathotep", "Shoggoth", "Gug"]
    # who holds it (null: in the pool)
    owner: int | None


class Turn(TypedDict):
    """The turn under way"""
    # a seat, 0 for the first
    seat: int
    # a Dagon turn
    extra: bool
    # a last turn after the deck ran out (melding only)
    last: bool
    action: Literal["drew", "sets", "runs", "passed"] | None
    # sets or runs melded this turn
    melds: int
    # a Portal was sealed this turn
    sealed: bool
    # Portals claimed this turn
    claimed: list[int]
    # a Dagon turn right after the turn that claimed Gug (Gug cannot be sealed)
    gug_claimed_before: bool
    # Dagon was sealed: another turn follows this one
    extra_turn_owed: bool


class Pending(TypedDict):
    """playing: a Portal power being resolved"""
    # a Portal by its number, the number of its Location
    portal: int
    # the Portal's name
    name: Literal["Cthulhu", "Azathoth", "Shub-Niggurath", "Dagon", "Nyarlathotep", "Shoggoth", "Gug"]
    # the opponent chosen, once chosen
    target: int | None
    # cards given so far (Cthulhu)
    given: int
    # Location cards, by number
    target_hand: NotRequired[list[int]]


class Outcome(TypedDict):
    """The game's end, as the outcome gives it"""
    reason: Literal["madness"]
    winners: list[int]
    scores: list[int]
    # The final Madness of each seat (the fewest wins)
    details: OutcomeDetails


class OutcomeDetails(TypedDict):
    """The final Madness of each seat (the fewest wins)"""
    # each seat's Madness tokens
    madness: list[int]
    # always true: the sanest cultist wins
    lower_is_better: bool
    # rounds played
    rounds: int
    # seats that resigned (they cannot win)
    resigned: NotRequired[list[int]]


__all__ = [
    "GAME", "Command", "View", "ChooseFirstPlayer", "DealNextRound", "DrawCards", "EndTurn", "GiveCard", "LookAtHand",
    "MeldRun", "MeldSet", "SealPortal", "StopGiving", "TakeCard", "TakeDeckCard", "DeckItem", "Meld", "Outcome",
    "OutcomeDetails", "Pending", "Portal", "Turn"
]
