"""What the two shedding rites (The Tree on the Hill, At the Mountains of Madness) share: a cultist who cannot
play draws and may play the drawn card, the turn passes, and the first to empty the hand wins."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from shared.kernel import Command, Fact

from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn, RiteEnd, RiteResult
from shared.games.rites_of_cthulhu.rites.table import first_in_order, opener
from shared.games.rites_of_cthulhu.state import Tabletop


@dataclass(frozen=True, slots=True)
class DrewUnableToPlay(Fact, type="drew_unable_to_play"):
    """``seat`` could play no card and drew one (the card follows, to that seat only)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnPassed(Fact, type="turn_passed"):
    """The turn passed to ``seat``."""

    seat: int


def shedding_result(table: Tabletop) -> RiteResult | None:
    """The first cultist to empty a hand wins; when the pile runs out, the fewest cards (ties to the first in turn
    order from the Grand Cultist)."""
    empty = [s for s, h in enumerate(table.hands) if not h]
    if empty:
        return RiteResult(empty[0], RiteEnd.EMPTIED_HAND)
    if not table.pile:
        fewest = min(len(h) for h in table.hands)
        return RiteResult(first_in_order(table, [s for s, h in enumerate(table.hands) if len(h) == fewest]),
                          RiteEnd.FEWEST_CARDS)
    return None


def turn(table: Tabletop, state: Any) -> int:
    """Whose turn it is: ``state.turn``, or the rite's opener before the first play."""
    return opener(table) if state.turn is None else state.turn


def to_act(table: Tabletop, state: Any) -> frozenset[int]:
    return frozenset({turn(table, state)})


END_TURN = EndTurn()
DRAW_CARD = DrawCard()


def turn_commands(plays: list[Command], may_end: bool) -> list[Command]:
    """A shedding turn: the plays and ending the turn once she has drawn (or played, where playing on is a "may");
    else the plays, or the draw when she cannot play."""
    return plays + [END_TURN] if may_end else plays or [DRAW_CARD]


def end_or_at_random(legal: list[Command], rng: random.Random) -> Command:
    """The timer's move for a silent cultist: end the turn where she may (playing the drawn card, or playing on, is a
    "may"), else the compulsory play (or the draw when unable) at random."""
    return END_TURN if END_TURN in legal else rng.choice(legal)
