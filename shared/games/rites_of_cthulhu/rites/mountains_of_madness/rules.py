"""At the Mountains of Madness's rules (rulebook "At the Mountains of Madness", p. 35): the Elder Sign, a four-card
ridge, slopes stepping by one, and cliffs. Only elder signs count; the first cultist to play out the hand wins."""

from __future__ import annotations

import functools
import random

from shared.kernel import Command, Decision, Fact, RuleViolation, replace, replace_at

from shared.games.rites_of_cthulhu.cards import FORBIDDEN_BOOK, RANKS, rank
from shared.games.rites_of_cthulhu.rites.base import RiteResult, here
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.cards import RIDGE_SIZE, Side
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.commands import ExtendRidge, PlayCliff, PlayOnSlope
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.events import RidgeExtended, SlopePlayed
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.state import MountainsState, Slope
from shared.games.rites_of_cthulhu.rites.shedding import (
    DrewUnableToPlay,
    TurnPassed,
    decided_draw_or_end,
    end_or_at_random,
    shedding_commands,
    shedding_result,
    simulated_draw_or_end,
)
from shared.games.rites_of_cthulhu.rites.shedding import to_act as to_act  # the rite waits on the cultist on turn
from shared.games.rites_of_cthulhu.rites.table import draw, drawn, without
from shared.games.rites_of_cthulhu.state import RitesState, Tabletop


def fits_ridge(ridge: tuple[int, ...], card: int) -> bool:
    """The ridge: up to four cards in a run, no forbidden books."""
    if rank(card) == FORBIDDEN_BOOK or len(ridge) >= RIDGE_SIZE:
        return False
    if not ridge:
        return True
    ranks = [rank(c) for c in ridge]
    return rank(card) in (min(ranks) - 1, max(ranks) + 1)


def initial(table: Tabletop) -> MountainsState:
    return MountainsState()


def _plays(table: Tabletop, state: MountainsState, seat: int) -> list[Command]:
    # Asked on every move of a playout: each card is looked up among the ranks that extend the ridge and the ranks
    # each slope takes (``fits_ridge``, and a step of one from the slope's top), worked out once, not tried against
    # every place.
    hand = sorted(table.hands[seat])
    ridge = state.ridge
    extends = _ridge_ends(ridge)
    out: list[Command] = [_extend(c) for c in hand if c % RANKS in extends]
    if not ridge:
        return out
    free = [c for c in hand if c % RANKS not in extends]
    spots = [(r, side) for r in ridge for side in _SIDES]
    tops = {(s.ridge_card, s.side): s.cards[-1] for s in reversed(state.slopes)}  # the first slope of a place (_top)
    takes: dict[int, list[tuple[int, Side]]] = {}  # rank -> the places a card of that rank may go, in order
    for spot in spots:
        top = rank(tops.get(spot, spot[0]))
        takes.setdefault(top - 1, []).append(spot)
        takes.setdefault(top + 1, []).append(spot)
    for c in free:
        for r, side in takes.get(c % RANKS, ()):
            out.append(_slope(c, r, side))
    for book in sorted({c for c in hand if rank(c) == FORBIDDEN_BOOK}):
        for c in free:
            if c != book:
                out += _cliffs(book, c, ridge)
    return out


_SIDES = tuple(Side)
_NOT_BOOKS = frozenset(range(RANKS)) - {FORBIDDEN_BOOK}


def _ridge_ends(ridge: tuple[int, ...]) -> frozenset[int]:
    """The ranks of the cards that extend ``ridge`` (``fits_ridge``): any but a forbidden book to declare the Elder
    Sign, then one below or above the run, up to four cards."""
    if not ridge:
        return _NOT_BOOKS
    if len(ridge) >= RIDGE_SIZE:
        return frozenset()
    ranks = [c % RANKS for c in ridge]
    return frozenset((min(ranks) - 1, max(ranks) + 1)) - {FORBIDDEN_BOOK}


@functools.cache
def _extend(card: int) -> ExtendRidge:
    """One record per play: a command is a value, and building records is much of the cost of listing them."""
    return ExtendRidge(card=card)


@functools.cache
def _slope(card: int, ridge_card: int, side: Side) -> PlayOnSlope:
    return PlayOnSlope(card=card, ridge_card=ridge_card, side=side)


@functools.lru_cache(maxsize=1 << 14)
def _cliffs(book: int, card: int, ridge: tuple[int, ...]) -> tuple[PlayCliff, ...]:
    """A cliff of ``book`` and ``card`` at each side of each ridge card, in order: a hand with a book lists one per
    other card, 8 each on a full ridge (made once per ridge, not per move)."""
    return tuple(PlayCliff(book=book, card=card, ridge_card=r, side=side) for r in ridge for side in _SIDES)


def legal_commands(table: Tabletop, state: MountainsState, seat: int) -> list[Command]:
    return shedding_commands(table, state, seat, lambda: _plays(table, state, seat), may_end=_may_end(state))


def _may_end(state: MountainsState) -> bool:
    """Playing on is a "may": she may end her turn once she has played or drawn."""
    return bool(state.played or state.drew)


def timeout_command(table: Tabletop, state: MountainsState, seat: int, rng: random.Random) -> Command:
    return end_or_at_random(legal_commands(table, state, seat), rng)


def decide(d: Decision[RitesState], command: Command, seat: int) -> None:
    table, state = here(d)
    plays = _plays(table, state, seat)
    if decided_draw_or_end(d, command, seat, plays, _may_end(state),
                           ("rules/already_played_or_drew", "You may only draw at the start of your turn."),
                           "You must play a card (or draw if you cannot) before ending your turn."):
        return
    if command not in plays:
        raise _why(table, state, seat, command)
    match command:
        case ExtendRidge(card=card):
            d.emit(RidgeExtended(seat=seat, card=card))
        case PlayOnSlope(card=card, ridge_card=ridge_card, side=side):
            d.emit(SlopePlayed(seat=seat, cards=[card], ridge_card=ridge_card, side=side, cliff=False))
        case PlayCliff(book=book, card=card, ridge_card=ridge_card, side=side):
            d.emit(SlopePlayed(seat=seat, cards=[book, card], ridge_card=ridge_card, side=side, cliff=True))
            draw(d, seat, 1)


def simulate(table: Tabletop, state: MountainsState, command: Command, seat: int) -> tuple[Tabletop, MountainsState, int] | None:
    """``decide`` for a playout (``Rite.simulate``): the folds of the same facts, without checking the listed move or
    building the facts."""
    turn = simulated_draw_or_end(_drew, _passed, table, state, command, seat)
    if turn is not None:
        return turn
    match command:
        case PlayOnSlope(card=card, ridge_card=ridge_card, side=side):
            return (*_sloped(table, state, seat, (card,), ridge_card, side), 1)
        case ExtendRidge(card=card):
            return (*_extended(table, state, seat, card), 1)
        case PlayCliff(book=book, card=card, ridge_card=ridge_card, side=side):
            after, played = _sloped(table, state, seat, (book, card), ridge_card, side)
            return drawn(after, seat, 1), played, 1
    return None


def _why(table: Tabletop, state: MountainsState, seat: int, command: Command) -> RuleViolation:
    assert isinstance(command, (ExtendRidge, PlayOnSlope, PlayCliff))
    hand = table.hands[seat]
    cards = [command.card] + ([command.book] if isinstance(command, PlayCliff) else [])
    if any(c not in hand for c in cards) or len(set(cards)) != len(cards):
        return RuleViolation("rules/card_not_in_hand", "That card is not in your hand.")
    if isinstance(command, ExtendRidge):
        if rank(command.card) == FORBIDDEN_BOOK:
            return RuleViolation("rules/no_forbidden_books_in_ridge", "Forbidden books may not be part of the ridge.")
        return RuleViolation("rules/ridge_must_be_a_run", "The ridge is a run of at most four cards.")
    if not state.ridge:
        return RuleViolation("rules/declare_the_elder_sign", "The Elder Sign must be declared first.")
    if command.ridge_card not in state.ridge:
        return RuleViolation("rules/no_such_slope", "Slopes grow above and below ridge cards only.")
    if fits_ridge(state.ridge, command.card):
        return RuleViolation("rules/ridge_before_slopes", "A card that can extend the ridge must go on the ridge.")
    if isinstance(command, PlayCliff):
        return RuleViolation("rules/cliff_needs_a_forbidden_book", "A cliff is a forbidden book with any other card.")
    return RuleViolation("rules/slopes_step_by_one", "A slope card must be one above or below the card it covers.")


def evolve(table: Tabletop, state: MountainsState, fact: Fact) -> tuple[Tabletop, MountainsState]:
    match fact:
        case RidgeExtended(seat=seat, card=card):
            return _extended(table, state, seat, card)
        case SlopePlayed(seat=seat, cards=cards, ridge_card=ridge_card, side=side):
            return _sloped(table, state, seat, tuple(cards), ridge_card, side)
        case DrewUnableToPlay(seat=seat):
            return table, _drew(state, seat)
        case TurnPassed(seat=seat):
            return table, _passed(state, seat)
    raise TypeError(f"At the Mountains of Madness has no fact {fact!r}")


def _extended(table: Tabletop, state: MountainsState, seat: int, card: int) -> tuple[Tabletop, MountainsState]:
    """The fold of ``RidgeExtended`` (``simulate`` folds its move without building the fact)."""
    return without(table, seat, [card]), replace(state, ridge=state.ridge + (card,), turn=seat, played=state.played + 1)


def _sloped(table: Tabletop, state: MountainsState, seat: int, cards: tuple[int, ...], ridge_card: int, side: str
            ) -> tuple[Tabletop, MountainsState]:
    """The fold of ``SlopePlayed``."""
    at = next((i for i, s in enumerate(state.slopes) if s.ridge_card == ridge_card and s.side == side), None)
    if at is None:
        slopes = state.slopes + (Slope(ridge_card, side, cards),)
    else:
        slopes = replace_at(state.slopes, at, replace(state.slopes[at], cards=state.slopes[at].cards + cards))
    return without(table, seat, cards), replace(state, slopes=slopes, turn=seat, played=state.played + len(cards))


def _drew(state: MountainsState, seat: int) -> MountainsState:
    """The fold of ``DrewUnableToPlay``."""
    return replace(state, turn=seat, drew=True)


def _passed(state: MountainsState, seat: int) -> MountainsState:
    """The fold of ``TurnPassed``."""
    return replace(state, turn=seat, played=0, drew=False)


def result(table: Tabletop, state: MountainsState) -> RiteResult | None:
    return shedding_result(table)
