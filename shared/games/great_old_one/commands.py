"""The Great Old One's commands: one typed record per command type (``shared.kernel.commands``); the docstrings and
field descriptions are the catalogue's words for client authors (rulebook sections in parentheses, rulings in
docs/rulings/great-old-one.md), and each command's JSON Schema is derived from its record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.kernel import Command, arg, by_type

from shared.games.great_old_one.cards import DECK_SIZE

CARD = f"a card id (0–{DECK_SIZE - 1}, see card_data)"
TARGET = "the opponent's seat the effect aims at (take at random, give), or null"
CHOSEN = "the card the effect chooses (the card you give, the Story card you switch, the Horror you return)"
CENTRE = "the centre Story card you switch with (switch with the centre)"


def _card(description: str) -> Any:
    return arg(f"{description}: {CARD}")


def _optional_card(description: str) -> Any:
    return arg(f"{description}, or null: {CARD}", default=None)


@dataclass(frozen=True, slots=True)
class FinishOpening(Command, type="finish_opening"):
    """Finish your opening: you have laid down the pairs you want before the first turn (To Begin 3). The first
    turn begins when every player has finished."""


@dataclass(frozen=True, slots=True)
class PlayPair(Command, type="play_pair"):
    """Lay a Matched or Linked pair of Story cards from your hand in your play area, in the opening or at any time
    during your turn; a pair naming a Story Connection may take a Horror card in play naming it to your hand
    (Card Types: Story Cards)."""

    cards: tuple[int, ...] = arg(f"the pair's two Story cards from your hand, in ascending order: {CARD}")
    take: int | None = _optional_card("a Horror card in any play area naming a connection the pair names, to take to "
                                      "your hand")


@dataclass(frozen=True, slots=True)
class DrawCard(Command, type="draw_card"):
    """Draw the top card of the deck (Turn Phases 1: Draw Phase); with the deck empty, nothing is drawn."""


@dataclass(frozen=True, slots=True)
class CallStory(Command, type="call_story"):
    """Name a Story card to an opponent: if they hold it they must give it to you, otherwise take a card from their
    hand at random (Turn Phases 2: Call Phase)."""

    target: int = arg("the seat of the opponent you call, who holds at least one card")
    story: str = arg("the story you name: a story key from card_data")


@dataclass(frozen=True, slots=True)
class PassCall(Command, type="pass_call"):
    """Pass the Call phase because no opponent holds a card (Turn Phases 2: Call Phase; ruling 8)."""


@dataclass(frozen=True, slots=True)
class RecruitSwap(Command, type="recruit_swap"):
    """Switch a Story card from your hand with one in the centre of the main play area (Turn Phases 3: Recruit
    Phase)."""

    card: int = _card("the Story card from your hand")
    centre_card: int = _card("the Story card in the centre you take")


@dataclass(frozen=True, slots=True)
class RecruitDraw(Command, type="recruit_draw"):
    """Draw a card from the deck instead of switching (Turn Phases 3: Recruit Phase)."""


@dataclass(frozen=True, slots=True)
class PassRecruit(Command, type="pass_recruit"):
    """Pass the Recruit phase because you can neither switch a Story card nor draw (ruling 9)."""


@dataclass(frozen=True, slots=True)
class PlayHorror(Command, type="play_horror"):
    """Play a Horror card (its effect happens now, with the choices it needs) or the Cultist from your hand to your
    play area, once a turn (Turn Phases 4: Horror Phase; Card Types: Horror Cards, The Cultist)."""

    card: int = _card("the Horror card or the Cultist from your hand")
    target: int | None = arg(TARGET, default=None)
    chosen: int | None = _optional_card(CHOSEN)
    centre: int | None = _optional_card(CENTRE)


@dataclass(frozen=True, slots=True)
class PlaySign(Command, type="play_sign"):
    """Play a Sign from your hand at any time during any turn, yours or not; its effect happens now and the Sign is
    removed from the game (Card Types: Sign Cards)."""

    card: int = _card("the Sign from your hand")
    target: int | None = arg(TARGET, default=None)
    chosen: int | None = _optional_card(CHOSEN)
    centre: int | None = _optional_card(CENTRE)


@dataclass(frozen=True, slots=True)
class EndTurn(Command, type="end_turn"):
    """End your turn, with or without playing a Horror; play passes to the left (Turn Phases 4: Horror Phase)."""


COMMANDS = by_type(FinishOpening, PlayPair, DrawCard, CallStory, PassCall, RecruitSwap, RecruitDraw, PassRecruit,
                   PlayHorror, EndTurn, PlaySign)
