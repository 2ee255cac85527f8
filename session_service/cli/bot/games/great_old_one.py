"""Cthulhu: The Great Old One, Elder Edition (great-old-one) for a bot: ``View``, its view as typed dicts, and
``Command``, its commands' records. Generated from shared/games/great_old_one/ by ``python -m
session_service.cli.bot.typed_views``: do not edit."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from shared.games.great_old_one.commands import (
    CallStory, DrawCard, EndTurn, FinishOpening, PassCall, PassRecruit, PlayHorror, PlayPair, PlaySign, RecruitDraw,
    RecruitSwap
)

GAME = "great-old-one"

# Every command of the game: ``legal_commands`` holds these records, and ``choose`` returns one of them.
Command = (
    CallStory | DrawCard | EndTurn | FinishOpening | PassCall | PassRecruit | PlayHorror | PlayPair | PlaySign |
    RecruitDraw | RecruitSwap
)


class View(TypedDict):
    """
    The Great Old One as its reader may know it: every area, the centre, the reader's own hand, every hand once revealed
    at the end
    """
    # opening, then each turn's step (draw, call, recruit, horror), over
    phase: Literal["opening", "draw", "call", "recruit", "horror", "over"]
    # a seat, 0 for the first
    turn: int
    # turns begun so far
    turn_number: int
    # a seat, 0 for the first
    first_player: int
    deck_size: int
    # the centre's face-up Story cards
    centre: list[int]
    # cards removed from the game
    removed: list[int]
    # a Horror was played this turn
    horror_played: bool
    # every seat, in order
    seats: list[Seat]
    # the pair that ends the game
    pairs_to_end: int
    # the finish-round variant (an option)
    finish_round: bool
    # the last round is under way (finish-round variant)
    final_round: bool
    # the reader's own hand
    hand: NotRequired[list[int]]
    # the deck, top first (only once the game is over)
    deck: NotRequired[list[int]]
    # over: what ended the game
    end_reason: NotRequired[Literal["seventh_pair", "deck_exhausted"]]


class Seat(TypedDict):
    """A seat's area and hand size"""
    # a seat, 0 for the first
    seat: int
    hand_size: int
    pairs: list[SeatPair]
    # Horror cards in the area
    horrors: list[int]
    # the Cultist is in the area
    cultist: bool
    # points so far
    score: int
    # protected from the next Horror
    warded: bool
    # opening: the seat has finished its opening swaps
    opening_done: NotRequired[bool]
    # its hand: the reader's own, or every hand once the game is over
    hand: NotRequired[list[int]]


class SeatPair(TypedDict):
    """A pair of Story cards in the area"""
    cards: list[int]
    # two copies of one story (else linked by a shared connection)
    matched: bool
    # the connections the pair names
    connections: list[Literal[
        "esoteric-order-of-dagon", "great-cthulhu", "miskatonic-university", "the-necronomicon", "yog-sothoth",
        "the-great-race", "out-of-the-sky", "the-crawling-chaos", "witch-haunted-arkham", "the-stolen-body", "ghouls",
        "randolph-carter", "the-dreamlands", "cities-lost-to-time", "tainted-blood", "cursed-houses", "mad-artists",
        "charnel-secrets", "beyond-the-veil", "old-new-england", "voyages-in-dream", "eyes-that-see-beyond",
        "other-spheres", "forbidden-revels"
    ]]


__all__ = [
    "GAME", "Command", "View", "CallStory", "DrawCard", "EndTurn", "FinishOpening", "PassCall", "PassRecruit",
    "PlayHorror", "PlayPair", "PlaySign", "RecruitDraw", "RecruitSwap", "Seat", "SeatPair"
]
