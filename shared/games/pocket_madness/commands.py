"""Pocket Madness's commands: one typed record per command type (``shared.kernel.commands``). The docstrings and
field descriptions are the catalogue's words for client authors, with the rulebook section each follows
(pocket-madness.txt); each command's JSON Schema is derived from its record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.kernel import Command, arg, by_type

from shared.games.pocket_madness.cards import (
    LOCATION_NAMES, LOCATIONS, MAX_DRAW, MAX_PLAYERS, MAX_SET, MIN_SET, TOTAL_CARDS,
)

_LOCATIONS = ", ".join(f"{n} {name}" for n, name in LOCATION_NAMES.items())


def _location(description: str) -> Any:
    return arg(f"{description}: a Location number ({_LOCATIONS})", enum=LOCATIONS)


def _seat(description: str) -> Any:
    return arg(description, minimum=0, maximum=MAX_PLAYERS - 1)


@dataclass(frozen=True, slots=True)
class DrawCards(Command, type="draw_cards"):
    """Persevere in Your Investigations: draw the top 1, 2 or 3 Location cards of the splayed deck, in deck order,
    into your hand (A Player's Turn, a/). Under an opponent's Shoggoth you must draw exactly 1."""

    count: int = arg(f"how many cards to draw off the top, 1 to {MAX_DRAW}", minimum=1, maximum=MAX_DRAW)


@dataclass(frozen=True, slots=True)
class MeldSet(Command, type="meld_set"):
    """Open a Portal: meld one set of 3 or more identical Location cards face up in front of you and claim the
    Portal of the same number, from the pool or from an opponent (A Player's Turn, b/). Up to 3 sets per turn,
    one per command; end with end_turn."""

    location: int = _location("the Location of the identical cards")
    count: int = arg(f"how many of those cards to meld ({MIN_SET} or more)", minimum=MIN_SET, maximum=MAX_SET)


@dataclass(frozen=True, slots=True)
class MeldRun(Command, type="meld_run"):
    """Publish Your Research: meld one run of 7 different Location cards face up; each opponent takes as many
    Madness tokens as the number of runs melded this round (A Player's Turn, c/). Up to 3 runs per turn."""


@dataclass(frozen=True, slots=True)
class SealPortal(Command, type="seal_portal"):
    """Seal a Portal: use the power of a Portal card in front of you, then return it to the pool (Optional
    Action: Seal a Portal; Portal Cards). Once per turn, before your action or after it."""

    portal: int = _location("the Portal to seal, numbered like its Location")


@dataclass(frozen=True, slots=True)
class GiveCard(Command, type="give_card"):
    """Cthulhu's power: give one card from your hand to another player (Portal Cards, (6) Cthulhu). You give 1
    or 2 cards in all, to 1 or 2 players; seen by giver and receiver only."""

    location: int = _location("the card to give")
    seat: int = _seat("the player who receives it")


@dataclass(frozen=True, slots=True)
class StopGiving(Command, type="stop_giving"):
    """Cthulhu's power: give no second card (Portal Cards, (6) Cthulhu: 1 or 2 cards)."""


@dataclass(frozen=True, slots=True)
class LookAtHand(Command, type="look_at_hand"):
    """Shub-Niggurath's power: look at an opponent's hand; only you see it (Portal Cards, (8) Shub-Niggurath)."""

    seat: int = _seat("the opponent whose hand you look at")


@dataclass(frozen=True, slots=True)
class TakeCard(Command, type="take_card"):
    """Shub-Niggurath's power: take one card of your choice from the hand you are looking at into yours
    (Portal Cards, (8) Shub-Niggurath)."""

    location: int = _location("the card to take")


@dataclass(frozen=True, slots=True)
class TakeDeckCard(Command, type="take_deck_card"):
    """Nyarlathotep's power: take the card of your choice from anywhere in the splayed deck, even a face-down
    one, which only you then see (Portal Cards, (10) Nyarlathotep)."""

    position: int = arg("the card's place in the splayed deck, 0 for the top", minimum=0, maximum=TOTAL_CARDS - 1)


@dataclass(frozen=True, slots=True)
class EndTurn(Command, type="end_turn"):
    """End your turn once your action is taken; on a last turn after the deck ran out, melding is optional
    (A Player's Turn; End of the Round)."""


@dataclass(frozen=True, slots=True)
class DealNextRound(Command, type="deal_next_round"):
    """Start a New Round: the player with the most Madness tokens deals a new setup (Start a New Round)."""


@dataclass(frozen=True, slots=True)
class ChooseFirstPlayer(Command, type="choose_first_player"):
    """Designate the player who goes first this round; you may designate yourself (Start a New Round)."""

    seat: int = _seat("the player who goes first")


COMMANDS = by_type(DrawCards, MeldSet, MeldRun, SealPortal, GiveCard, StopGiving, LookAtHand, TakeCard, TakeDeckCard,
                   EndTurn, DealNextRound, ChooseFirstPlayer)
POWER_COMMANDS = (GiveCard, StopGiving, LookAtHand, TakeCard, TakeDeckCard)
