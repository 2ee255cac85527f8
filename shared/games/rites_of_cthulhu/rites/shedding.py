"""What the two shedding rites (The Tree on the Hill, At the Mountains of Madness) share: a cultist who cannot
play draws and may play the drawn card, the turn passes, and the first to empty the hand wins."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.kernel import Command, Decision, Fact
from shared.kernel.errors import require

from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn, RiteEnd, RiteResult
from shared.games.rites_of_cthulhu.rites.table import draw, drawn, first_in_order, next_seat, opener
from shared.games.rites_of_cthulhu.state import RitesState, Tabletop


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


def shedding_commands(table: Tabletop, state: Any, seat: int, plays: Callable[[], list[Command]],
                      may_end: bool) -> list[Command]:
    """A shedding rite's legal commands: none off turn, else ``turn_commands`` of the rite's plays (asked only on
    turn) and ``may_end``, which the rite gives (she drew, or played where playing on is a "may")."""
    if seat != turn(table, state):
        return []
    return turn_commands(plays(), may_end)


def decided_draw_or_end(d: Decision[RitesState], command: Command, seat: int, plays: list[Command], may_end: bool,
                        late_draw: tuple[str, str], early_end: str) -> bool:
    """A shedding turn's commands besides the plays, decided: the draw, only before she may end the turn (else
    refused with ``late_draw``, its code and message) and only when she cannot play; ending the turn, only once she
    may (else refused with ``early_end``). False when ``command`` is a play: the rite decides it."""
    if isinstance(command, DrawCard):
        require(not may_end, *late_draw)
        require(not plays, "rules/must_play_if_able", "You can play a card, so you may not draw.")
        d.emit(DrewUnableToPlay(seat=seat))
        draw(d, seat, 1)
        return True
    if isinstance(command, EndTurn):
        require(may_end, "rules/must_play_if_able", early_end)
        d.emit(TurnPassed(seat=next_seat(d.state.table, seat)))
        return True
    return False


def simulated_draw_or_end(drew: Callable[[Any, int], Any], passed: Callable[[Any, int], Any], table: Tabletop,
                          state: Any, command: Command, seat: int) -> tuple[Tabletop, Any, int] | None:
    """``decided_draw_or_end`` for a playout (``Rite.simulate``): the draw or the end of the turn the rite listed,
    folded by the rite's own folds of ``DrewUnableToPlay`` (``drew``) and ``TurnPassed`` (``passed``), without
    building the facts; ``None`` when ``command`` is a play."""
    if command is DRAW_CARD or isinstance(command, DrawCard):
        return drawn(table, seat, 1), drew(state, seat), 1
    if command is END_TURN or isinstance(command, EndTurn):
        return table, passed(state, next_seat(table, seat)), 1
    return None


def end_or_at_random(legal: list[Command], rng: random.Random) -> Command:
    """The timer's move for a silent cultist: end the turn where she may (playing the drawn card, or playing on, is a
    "may"), else the compulsory play (or the draw when unable) at random."""
    return END_TURN if END_TURN in legal else rng.choice(legal)
