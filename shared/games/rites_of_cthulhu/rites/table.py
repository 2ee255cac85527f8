"""The table every rite shares: its events, how they fold, and the helpers rites use to move cards.

The overarching game owns the ``Tabletop`` (``state.py``): the hands, the entities draw pile (top first, order
hidden), the cards set aside out of the rite, the artifact ``Modifiers`` in force, a pending face-down trade and
who knows which card sits in which hand. A rite moves cards only through the helpers here, so power-plays and
artifacts keep working in every rite; turn order goes through ``next_seat``/``opener`` (the turn-order
artifacts) and rank comparisons through ``beats``/``best`` (the rank-inverting one).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from shared.kernel import Decision, Fact, replace, replace_at, sees
from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.state import Modifiers, RitesState, Tabletop, Trade

NOBODY = -1
"""The knower of a face-down card nobody looked at."""
EVERYBODY = -2
"""The knower of a card set aside face down from a hand played face up: everyone saw which it was."""


# -- facts -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardsDrawn(Fact, type="cards_drawn"):
    """``seat`` drew ``cards`` from the top of the pile (only that seat sees which, unless hands are open)."""

    seat: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class HandCardsSetAside(Fact, type="hand_cards_set_aside"):
    """``seat`` showed ``cards`` and set them aside out of the rite (a power-play's cards)."""

    seat: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class HandCardsSetAsideFaceDown(Fact, type="hand_cards_set_aside_face_down"):
    """``seat`` set ``cards`` aside face down (only that seat sees which, unless hands are open)."""

    seat: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class PileCardsSetAside(Fact, type="pile_cards_set_aside"):
    """The top cards of the pile were set aside unseen (secret from everyone until the game ends)."""

    cards: list[int]


@dataclass(frozen=True, slots=True)
class CardForced(Fact, type="card_forced"):
    """``giver`` slid ``card`` face down to ``receiver`` (only the giver sees which)."""

    giver: int
    receiver: int
    card: int


@dataclass(frozen=True, slots=True)
class CardReturned(Fact, type="card_returned"):
    """The receiver of a forced card gave ``card`` back and took ``received`` (only the two of them see which)."""

    giver: int
    receiver: int
    card: int
    received: int


@dataclass(frozen=True, slots=True)
class CardsKnown(Fact, type="cards_known"):
    """``seat`` looked at the hand of ``of_seat``: ``cards`` (only ``seat`` sees them)."""

    seat: int
    of_seat: int
    cards: list[int]


TABLE_FACTS = (CardsDrawn, HandCardsSetAside, HandCardsSetAsideFaceDown, PileCardsSetAside, CardForced, CardReturned,
               CardsKnown)


def remove_cards(hand: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def with_hand(table: Tabletop, seat: int, hand: Iterable[int]) -> Tabletop:
    return replace(table, hands=replace_at(table.hands, seat, tuple(hand)))


def without(table: Tabletop, seat: int, cards: Iterable[int]) -> Tabletop:
    """``table`` with ``cards`` taken out of ``seat``'s hand."""
    return with_hand(table, seat, remove_cards(table.hands[seat], cards))


def note_known(known: tuple[tuple[int, int], ...], knower: int, cards: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """``known`` plus: ``knower`` knows where these cards are (which hand holds them)."""
    return known + tuple((knower, c) for c in cards if (knower, c) not in known)


def unseen_from_hand(table: Tabletop, seat: int, seen_by: Iterable[int] = ()) -> Tabletop:
    """A card is about to leave ``seat``'s hand face down: whoever else knew where a card of that hand was (a forced
    trade, a peek) cannot tell which one left, so forgets them all (``seen_by`` saw which). Open hands hide nothing."""
    if table.mods.open_hands:
        return table
    hand, kept = set(table.hands[seat]), {seat, *seen_by}
    return replace(table, known=tuple((k, c) for k, c in table.known if k in kept or c not in hand))


def sealed_from_hand(table: Tabletop, seat: int, cards: Iterable[int]) -> Tabletop:
    """``table`` with ``cards`` taken out of ``seat``'s hand face down (a sealed bid or henchman)."""
    return without(unseen_from_hand(table, seat), seat, cards)


def fold_table(table: Tabletop, fact: Fact) -> Tabletop:
    """Fold one of the table's facts (every rite and the overarching game may emit these)."""
    match fact:
        case CardsDrawn(seat=seat, cards=cards):
            return _drawn(table, seat, tuple(cards))
        case HandCardsSetAside(seat=seat, cards=cards):
            return replace(without(table, seat, cards), set_aside=table.set_aside + tuple(cards))
        case HandCardsSetAsideFaceDown(seat=seat, cards=cards):
            knower = EVERYBODY if table.mods.open_hands else seat
            return replace(sealed_from_hand(table, seat, cards),
                           face_down=table.face_down + tuple((c, knower) for c in cards))
        case PileCardsSetAside(cards=cards):
            return replace(table, pile=table.pile[len(cards):],
                           face_down=table.face_down + tuple((c, NOBODY) for c in cards))
        case CardForced(giver=giver, receiver=receiver, card=card):
            return forced(table, giver, receiver, card)
        case CardReturned(giver=giver, receiver=receiver, card=card, received=received):
            return returned(table, giver, receiver, card, received)
        case CardsKnown(seat=seat, of_seat=of_seat, cards=cards):
            return replace(table, known=note_known(table.known, seat, cards),
                           peeks=table.peeks + ((seat, of_seat, tuple(cards)),))
    raise TypeError(f"not a table fact: {fact!r}")


def forced(table: Tabletop, giver: int, receiver: int, card: int) -> Tabletop:
    """The fold of ``CardForced`` (a playout's move folds it without building the fact)."""
    return replace(sealed_from_hand(table, giver, [card]), trade=Trade(giver, receiver, card))


def returned(table: Tabletop, giver: int, receiver: int, card: int, received: int) -> Tabletop:
    """The fold of ``CardReturned``."""
    table = unseen_from_hand(table, receiver, seen_by=[giver])
    table = with_hand(table, receiver, remove_cards(table.hands[receiver], [card]) + (received,))
    table = with_hand(table, giver, table.hands[giver] + (card,))
    # both now know where the two traded cards are
    known = note_known(note_known(table.known, giver, [received]), receiver, [card])
    seen_by = (EVERYBODY, EVERYBODY) if table.mods.open_hands else (giver, receiver)
    traded = table.traded + ((seen_by[0], received, receiver), (seen_by[1], card, giver))
    return replace(table, trade=None, known=known, traded=traded)


# -- turn order and ranks ----------------------------------------------------------------------------------------


def next_seat(table: Tabletop, seat: int) -> int:
    """The next cultist in turn order (clockwise unless an artifact reversed it)."""
    return (seat + table.mods.direction) % table.players


def turn_order(table: Tabletop, start: int) -> list[int]:
    """Every seat once, in turn order, starting with ``start``."""
    out = [start]
    while len(out) < table.players:
        out.append(next_seat(table, out[-1]))
    return out


def opener(table: Tabletop) -> int:
    """The seat that takes the first turn: the Grand Cultist unless an artifact gave it away."""
    return table.grand_cultist if table.mods.opener is None else table.mods.opener


def beats(table: Tabletop, a: int, b: int) -> bool:
    """Does elder sign ``a`` outrank ``b``? (higher wins, lower under the rank-inverting artifact)."""
    return a < b if table.mods.low_wins else a > b


def best(table: Tabletop, values: Iterable[int]) -> int:
    values = list(values)
    return min(values) if table.mods.low_wins else max(values)


def first_in_order(table: Tabletop, seats: Iterable[int]) -> int:
    """Ties between seats go to the first of them in turn order from the Grand Cultist (a project ruling)."""
    wanted = set(seats)
    return next(s for s in turn_order(table, table.grand_cultist) if s in wanted)


# -- moving cards ------------------------------------------------------------------------------------------------


def hand_audience(table: Tabletop, seat: int) -> list[int] | None:
    """Who sees the cards of ``seat``'s hand: the seat, or everybody (None) when hands are open."""
    return None if table.mods.open_hands else [seat]


def secret_cards(table: Tabletop, seat: int) -> dict[str, list[int]] | None:
    audience = hand_audience(table, seat)
    return None if audience is None else {"cards": audience}


def draw(d: Decision[RitesState], seat: int, count: int) -> int:
    """Draw ``count`` cards (fewer if the pile runs short) from the top of the pile into ``seat``'s hand; how many."""
    table = d.state.table
    cards = list(table.pile[:count])
    if cards:
        d.emit(CardsDrawn(seat=seat, cards=cards), secret_cards(table, seat))
    return len(cards)


def drawn(table: Tabletop, seat: int, count: int) -> Tabletop:
    """The table after ``draw(d, seat, count)``: the fold of its fact (for a playout's move, ``Rite.simulate``)."""
    cards = table.pile[:count]
    return _drawn(table, seat, cards) if cards else table


def _drawn(table: Tabletop, seat: int, cards: tuple[int, ...]) -> Tabletop:
    """``cards`` from the top of the pile into ``seat``'s hand (the fold of ``CardsDrawn``)."""
    counts = table.drawn or (0,) * table.players
    return replace(table, pile=table.pile[len(cards):], drawn=replace_at(counts, seat, counts[seat] + len(cards)),
                   hands=replace_at(table.hands, seat, table.hands[seat] + cards))


def set_aside_from_hand(d: Decision[RitesState], seat: int, cards: Sequence[int], face_down: bool = False) -> None:
    """Take cards out of the rite from a hand: shown to all, or face down (only the seat sees which)."""
    if face_down:
        d.emit(HandCardsSetAsideFaceDown(seat=seat, cards=list(cards)), secret_cards(d.state.table, seat))
    else:
        d.emit(HandCardsSetAside(seat=seat, cards=list(cards)))


def set_aside_from_pile(d: Decision[RitesState], count: int) -> None:
    """Take the top ``count`` pile cards out of the rite unseen (nobody looks at them)."""
    d.emit(PileCardsSetAside(cards=list(d.state.table.pile[:count])), {"cards": []})


def force_card(d: Decision[RitesState], giver: int, receiver: int, card: int) -> None:
    """Slide ``card`` face down to ``receiver``, who must trade a card back without looking (``return_card``). From
    a hand played face up everyone sees which card left it."""
    secret = None if d.state.table.mods.open_hands else {"card": [giver]}
    d.emit(CardForced(giver=giver, receiver=receiver, card=card), secret)


def return_card(d: Decision[RitesState], card: int) -> None:
    """The receiver of a forced trade gives ``card`` back and picks up the forced card."""
    table = d.state.table
    trade = table.trade
    assert trade is not None
    pair = [trade.giver, trade.receiver]
    d.emit(CardReturned(giver=trade.giver, receiver=trade.receiver, card=card, received=trade.card),
           None if table.mods.open_hands else {"card": pair, "received": pair})


# -- hidden information --------------------------------------------------------------------------------------------


Slot = tuple[str, int]
"""A place a card may lie unseen: ("hand", seat), ("pile", index), ("face_down", index) or ("trade", 0)."""


def unseen_slots(table: Tabletop, seat: int, keep: Iterable[int] = ()) -> list[tuple[Slot, int]]:
    """Every place whose card ``seat`` cannot see, with the card lying there now.

    Not unseen: ``seat``'s hand, open hands, cards ``seat`` knows the place of (``table.known``), cards in ``keep``
    (public or known to ``seat`` by rite-specific means), cards set aside face down from an open hand or by
    ``seat``, a forced card ``seat`` gave or that left an open hand, and the pile under open hands (every draw is
    public then, so its order would show through other seats' draws)."""
    keep = set(keep)
    keep |= {c for knower, c in table.known if knower == seat}
    out: list[tuple[Slot, int]] = []
    if not table.mods.open_hands:
        for s in range(table.players):
            if s != seat:
                out += [(("hand", s), c) for c in table.hands[s] if c not in keep]
        out += [(("pile", i), c) for i, c in enumerate(table.pile) if c not in keep]
    out += [(("face_down", i), c) for i, (c, knower) in enumerate(table.face_down)
            if knower not in (seat, EVERYBODY) and c not in keep]
    trade = table.trade
    if trade is not None and trade.giver != seat and trade.card not in keep and not table.mods.open_hands:
        out.append((("trade", 0), trade.card))
    return out


def with_cards_at(table: Tabletop, unseen: Sequence[tuple[Slot, int]], cards: Sequence[int]) -> Tabletop:
    """``table`` with the places of ``unseen`` (from ``unseen_slots``) holding ``cards`` instead, one each in order."""
    leaving = {c for (kind, _), c in unseen if kind == "hand"}
    hands = [[c for c in hand if c not in leaving] for hand in table.hands]
    pile, face_down, trade = list(table.pile), list(table.face_down), table.trade
    for ((kind, s), _), c in zip(unseen, cards, strict=True):
        if kind == "hand":
            hands[s].append(c)
        elif kind == "pile":
            pile[s] = c
        elif kind == "face_down":
            face_down[s] = (c, face_down[s][1])
        else:
            assert trade is not None
            trade = replace(trade, card=c)
    return replace(table, hands=tuple(tuple(h) for h in hands), pile=tuple(pile), trade=trade,
                   face_down=tuple(face_down))


def resample_table(table: Tabletop, seat: int, rng: random.Random, keep: Iterable[int] = ()) -> Tabletop:
    """The table with everything ``seat`` cannot know redistributed: the cards of ``unseen_slots`` shuffled among
    those places (other hands, the pile, unseen set-aside cards, a forced card in transit)."""
    unseen = unseen_slots(table, seat, keep)
    pool = sorted(c for _, c in unseen)  # what the seat cannot tell apart must resample alike: the cards, not where
    rng.shuffle(pool)
    return with_cards_at(table, unseen, pool)


def resample_hands_and_pile(table: Tabletop, state: Any, seat: int, rng: random.Random,
                            keep: frozenset[int] = frozenset()) -> tuple[Tabletop, Any]:
    """The resample of a rite that hides nothing of its own: only the table's hidden cards move."""
    return resample_table(table, seat, rng, keep), state


def pooled_resample(table: Tabletop, seat: int, rng: random.Random, extra: list[int],
                    keep: frozenset[int] = frozenset()) -> tuple[Tabletop, list[int]]:
    """``resample_table`` with a rite's own unseen cards (``extra``: face-down walls, graves, sealed cards) pooled
    with the other unseen cards; the table and the new ``extra``."""
    if table.mods.open_hands:  # the pile stays (draws are public); the rite's unseen cards shuffle among themselves
        extra = sorted(extra)
        rng.shuffle(extra)
        return resample_table(table, seat, rng, keep), extra
    size = len(table.pile)
    new = resample_table(replace(table, pile=table.pile + tuple(extra)), seat, rng, keep)
    return replace(new, pile=new.pile[:size]), list(new.pile[size:])


def resample_below(table: Tabletop, seat: int, rng: random.Random, top: int, keep: frozenset[int] = frozenset()) -> Tabletop:
    """``resample_table`` keeping the pile's top ``top`` cards in place (another seat's move may draw them into
    ``seat``'s own hand)."""
    new = resample_table(replace(table, pile=table.pile[top:]), seat, rng, keep)
    return replace(new, pile=table.pile[:top] + new.pile)


def table_view(table: Tabletop, viewer: Viewer) -> dict[str, Any]:
    """The shared table as ``viewer`` may see it."""
    hands: dict[str, Any] = {}
    for s, hand in enumerate(table.hands):
        if table.mods.open_hands or sees(viewer, [s]):
            hands[str(s)] = sorted(hand)
        else:
            hands[str(s)] = len(hand)
    out: dict[str, Any] = {
        "hands": hands,
        "pile": len(table.pile),
        "set_aside": sorted(table.set_aside),
        "set_aside_face_down": len(table.face_down),
        "set_aside_face_down_seen": sorted(c for c, knower in table.face_down if _saw(viewer, knower)),
        "traded": [{"card": card, "seat": s} for knower, card, s in table.traded if _saw(viewer, knower)],
        "modifiers": {name: getattr(table.mods, name) for name in _MODIFIER_FIELDS},
        "peeked": [{"seat": of_seat, "cards": list(cards)} for knower, of_seat, cards in table.peeks
                   if sees(viewer, [knower])],
    }
    if table.trade is not None:
        t = table.trade
        out["trade"] = {"giver": t.giver, "receiver": t.receiver}
        if sees(viewer, [t.giver]):
            out["trade"]["card"] = t.card
    return out


_MODIFIER_FIELDS = tuple(f.name for f in fields(Modifiers))
"""The modifiers' fields, read once: the view lists them as ``dataclasses.asdict`` would (each an int, a bool or
None, which ``asdict`` copies as they are), without its deep copy on every view (two fifths of the view's time)."""


def _saw(viewer: Viewer, knower: int) -> bool:
    """Did ``viewer`` see what ``knower`` saw (``knower`` a seat, ``EVERYBODY`` or ``NOBODY``)?"""
    return knower == EVERYBODY or (knower != NOBODY and sees(viewer, [knower]))
