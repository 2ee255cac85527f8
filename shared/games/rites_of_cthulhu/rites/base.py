"""The Rite interface: what one mini-game ("rite") of Rites of Cthulhu must provide.

A rite is a pluggable unit. The overarching game (``game.py``) owns everything the rites share and calls the
rite only through the methods of ``Rite`` below; the rite owns its board and its turn structure.

What the overarching game owns and hands to every method as ``table`` (a ``Table``):
  the hands, the entities draw pile (top first, order hidden), the cards set aside out of this rite, the
  Grand Cultist, the artifact modifiers (``Modifiers``) in force, a pending face-down card trade, and who
  knows which card sits in which hand. Generic table events (``TABLE_EVENTS``: ``cards_drawn``,
  ``hand_cards_set_aside``, ``pile_cards_set_aside``, ``card_forced``, ``card_returned``…) are folded by
  ``evolve_table`` below; a rite emits them with the helpers here (``draw``, ``set_aside_from_hand`` …)
  instead of reimplementing them, so power-plays and artifacts keep working in every rite.

What the rite owns (its ``state``, a frozen dataclass listed in ``state_types``): its table layout, whose turn
it is, captured cards, sealed choices, anything else. ``Rite.evolve`` folds the rite's own events (and may
change the table too: a rite that re-deals returns a new ``Table``).

How to add a rite (touching nothing else):
  1. Write ``rites/<name>.py`` with ``class MyRite(Rite)``: set ``id``, ``title``, ``commands`` (marshmallow
     schemas; reuse ``DrawCard``/``EndTurn``/``PlayCard`` below when the shape is the same, since a command
     name means one schema across the game), ``state_types`` and ``hooks`` (which ``Modifiers`` fields the
     rite honours; an artifact whose hook a rite lacks has no effect in it). Set ``draws_replacements =
     False`` if power-plays must not draw replacements (Out of the Aeons).
  2. Implement ``initial`` (the rite state right after the Grand Cultist picks it), ``begin`` (deal
     adjustments: set cards aside, re-deal, lay out farmhouse walls or graves; may use ``rng`` and must
     record every random result as event data), ``to_act``, ``legal_commands``, ``decide``, ``evolve``,
     ``settle`` (optional: moves the rite makes by itself, e.g. closing a gate),
     ``result`` (``RiteResult`` once the rite is over, else ``None``), ``view``, ``cards`` (every entity card
     the rite state holds, for conservation) and, if the rite holds hidden things of its own (face-down
     graves, walls, sealed bids, peeks), ``resample``.
  3. Register an instance in ``rites/__init__.py`` (``RITES``).

Patterns the later rites need, all supported by this interface:
  * Sealed simultaneous choices (Out of the Aeons bids, The Hound henchmen): ``to_act`` returns every seat
    still to choose; each seat's choice is stored in the rite state and its event carries the card as a
    secret field (``secret={"card": [seat]}``); ``view`` shows only "has chosen"; ``resample`` redistributes
    the other seats' sealed cards with their hands; the reveal is one event once all have chosen.
  * Knock races (The Dunwich Horror): several seats in ``to_act`` at once, each with a ``knock`` command; the
    first command the server applies wins (commands are serialised), the rest are refused by ``decide``
    because the state moved on. The Grand Cultist's arbitration of ties is therefore never needed (rule it).
  * Private peeks (The Hound): an event with the peeked card as a secret field for the peeker; record the
    knowledge in the rite state (who saw which face-down card) and keep it fixed in ``resample`` for that
    seat. Knowledge of cards in other hands goes in ``Table.known`` (see ``note_known``).

Turn order: always use ``next_seat`` / ``opener`` so the turn-order artifacts work. Rank comparisons between
cards ("highest wins"): use ``beats`` so the rank-inverting artifact works.

Power-plays may happen at any moment, by any seat, in or out of turn: they only touch the table (hands, pile)
and the artifacts, and never the rite state, so a rite must not assume a hand is unchanged between two of its
own commands beyond what it checks in ``decide``. Rites must make progress under random play: every loop
consumes cards or empties a pile.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from marshmallow import Schema, fields

from shared.kernel import Event, ev, sees
from shared.kernel.errors import RuleViolation

from shared.games.rites_of_cthulhu.cards import CULTS, RANKS

GRAND_CULT = 0
DECK_SIZE = len(CULTS) * RANKS


def cult(card: int) -> int:
    """The cult (0 green, 1 blue, 2 yellow, 3 gray) of an entity card id."""
    return card // RANKS


def rank(card: int) -> int:
    """The elder sign rank (0-13) of an entity card id."""
    return card % RANKS


def card_id(cult_index: int, rank_value: int) -> int:
    return cult_index * RANKS + rank_value


# --- shared state ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Rule changes the artifacts put in force for the current rite. Fields only ever get added (with defaults).

    ``direction``: +1 clockwise (to the left), -1 counter-clockwise. ``opener``: the seat that takes the Grand
    Cultist's first turn (None: the Grand Cultist). ``low_wins``: rank comparisons are inverted. ``open_hands``:
    every hand is played face up. ``no_power_plays``: power-plays are forbidden this rite.
    """

    direction: int = 1
    opener: int | None = None
    low_wins: bool = False
    open_hands: bool = False
    no_power_plays: bool = False


@dataclass(frozen=True, slots=True)
class Trade:
    """A face-down forced trade: ``giver`` slid ``card`` to ``receiver``, who must give back a card unseen."""

    giver: int
    receiver: int
    card: int


@dataclass(frozen=True, slots=True)
class Table:
    """What every rite shares. ``pile[0]`` is the top of the entities draw pile."""

    players: int
    grand_cultist: int
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()
    mods: Modifiers = field(default_factory=Modifiers)
    trade: Trade | None = None
    known: tuple[tuple[int, int], ...] = ()
    moves: int = 0
    face_down: tuple[tuple[int, int], ...] = ()
    """Set-aside cards nobody else saw: (card, the one seat that knows it, or -1 for nobody)."""


@dataclass(frozen=True, slots=True)
class RiteResult:
    """The end of a rite: ``winner`` takes the Coveted Artifact pile (None: nobody does, the pile is thrown out).

    ``may_trade_artifact``: the winner may trade one Coveted Artifact for any artifact of the artifact deck
    (the overthrow reward of Cthulhu Rises).
    """

    winner: int | None
    reason: str
    may_trade_artifact: bool = False


# --- helpers every rite uses ----------------------------------------------------------------------------


def violation(code: str, message: str, **details: Any) -> RuleViolation:
    return RuleViolation(code, message, details)


def require(condition: bool, code: str, message: str, **details: Any) -> None:
    if not condition:
        raise violation(code, message, **details)


def next_seat(table: Table, seat: int) -> int:
    """The next cultist in turn order (clockwise unless an artifact reversed it)."""
    return (seat + table.mods.direction) % table.players


def turn_order(table: Table, start: int) -> list[int]:
    """Every seat once, in turn order, starting with ``start``."""
    out = [start]
    while len(out) < table.players:
        out.append(next_seat(table, out[-1]))
    return out


def opener(table: Table) -> int:
    """The seat that takes the first turn: the Grand Cultist unless an artifact gave it away."""
    return table.grand_cultist if table.mods.opener is None else table.mods.opener


def beats(table: Table, a: int, b: int) -> bool:
    """Does elder sign ``a`` outrank ``b``? (higher wins, lower under the rank-inverting artifact)."""
    return a < b if table.mods.low_wins else a > b


def best(table: Table, values: Iterable[int]) -> int:
    values = list(values)
    return min(values) if table.mods.low_wins else max(values)


def first_in_order(table: Table, seats: Iterable[int]) -> int:
    """Ties between seats go to the first of them in turn order from the Grand Cultist (a project ruling)."""
    wanted = set(seats)
    return next(s for s in turn_order(table, table.grand_cultist) if s in wanted)


def hand_audience(table: Table, seat: int) -> list[int] | None:
    """Who sees the cards of ``seat``'s hand: the seat, or everybody (None) when hands are open."""
    return None if table.mods.open_hands else [seat]


def secret_cards(table: Table, seat: int) -> dict[str, list[int]] | None:
    audience = hand_audience(table, seat)
    return None if audience is None else {"cards": audience}


def draw(table: Table, seat: int, count: int) -> list[Event]:
    """Draw ``count`` cards (fewer if the pile runs short) from the top of the pile into ``seat``'s hand."""
    cards = list(table.pile[:count])
    if not cards:
        return []
    return [ev("cards_drawn", seat=seat, cards=cards, secret=secret_cards(table, seat))]


def set_aside_from_hand(table: Table, seat: int, cards: Sequence[int], public: bool = True) -> Event:
    """Take cards out of the rite from a hand (revealed unless ``public`` is False)."""
    if public:
        return ev("hand_cards_set_aside", seat=seat, cards=list(cards))
    return ev("hand_cards_set_aside", seat=seat, cards=list(cards), face_down=True, secret=secret_cards(table, seat))


def set_aside_from_pile(table: Table, count: int) -> Event:
    """Take the top ``count`` pile cards out of the rite unseen (nobody looks at them)."""
    return ev("pile_cards_set_aside", cards=list(table.pile[:count]), secret={"cards": []})


def note_known(table: Table, knower: int, cards: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """``table.known`` plus: ``knower`` knows where these cards are (which hand holds them)."""
    extra = tuple((knower, c) for c in cards if (knower, c) not in table.known)
    return table.known + extra


def remove_cards(hand: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def with_hand(table: Table, seat: int, hand: Iterable[int]) -> Table:
    hands = list(table.hands)
    hands[seat] = tuple(hand)
    return dataclasses.replace(table, hands=tuple(hands))


TABLE_EVENTS = frozenset(
    {"cards_drawn", "hand_cards_set_aside", "pile_cards_set_aside", "card_forced", "card_returned", "cards_known"}
)


def evolve_table(table: Table, event: Event) -> Table:
    """Fold one generic table event (every rite may emit these)."""
    d = event.data
    match event.type:
        case "cards_drawn":
            cards = tuple(d["cards"])
            table = dataclasses.replace(table, pile=table.pile[len(cards):])
            return with_hand(table, d["seat"], table.hands[d["seat"]] + cards)
        case "hand_cards_set_aside":
            table = with_hand(table, d["seat"], remove_cards(table.hands[d["seat"]], d["cards"]))
            if d.get("face_down"):
                return dataclasses.replace(table, face_down=table.face_down + tuple((c, d["seat"]) for c in d["cards"]))
            return dataclasses.replace(table, set_aside=table.set_aside + tuple(d["cards"]))
        case "pile_cards_set_aside":
            cards = tuple(d["cards"])
            return dataclasses.replace(table, pile=table.pile[len(cards):], face_down=table.face_down + tuple((c, -1) for c in cards))
        case "card_forced":
            table = with_hand(table, d["giver"], remove_cards(table.hands[d["giver"]], [d["card"]]))
            return dataclasses.replace(table, trade=Trade(d["giver"], d["receiver"], d["card"]))
        case "card_returned":
            trade = table.trade
            assert trade is not None
            table = with_hand(table, trade.receiver, remove_cards(table.hands[trade.receiver], [d["card"]]) + (trade.card,))
            table = with_hand(table, trade.giver, table.hands[trade.giver] + (d["card"],))
            # both now know where the two traded cards are
            known = note_known(table, trade.giver, [trade.card])
            table = dataclasses.replace(table, known=known)
            return dataclasses.replace(table, trade=None, known=note_known(table, trade.receiver, [d["card"]]))
        case "cards_known":
            return dataclasses.replace(table, known=note_known(table, d["seat"], d["cards"]))
        case _:
            raise TypeError(f"not a table event: {event.type}")


def force_card(table: Table, giver: int, receiver: int, card: int) -> Event:
    """Slide ``card`` face down to ``receiver``, who must trade a card back without looking (``return_card``)."""
    return ev("card_forced", giver=giver, receiver=receiver, card=card, secret={"card": [giver]})


def return_card(table: Table, card: int) -> Event:
    """The receiver of a forced trade gives ``card`` back and picks up the forced card."""
    trade = table.trade
    assert trade is not None
    pair = [trade.giver, trade.receiver]
    return ev("card_returned", giver=trade.giver, receiver=trade.receiver, card=card, received=trade.card,
              secret={"card": pair, "received": pair})


def resample_table(table: Table, seat: int, rng: Any, keep: Iterable[int] = ()) -> Table:
    """The table with everything ``seat`` cannot know redistributed: other hands, the pile, unseen cards.

    Kept in place: ``seat``'s hand, open hands, cards ``seat`` knows the place of (``table.known``), cards in
    ``keep`` (public or known to ``seat`` by rite-specific means), and a forced card ``seat`` gave.
    """
    keep = set(keep)
    keep |= {c for knower, c in table.known if knower == seat}
    hidden_hands = [s for s in range(table.players) if s != seat and not table.mods.open_hands]
    pool: list[int] = []
    slots: list[tuple[str, int]] = []  # ("hand", seat) / ("pile", 0) / ("trade", 0)
    new_hands = [list(h) for h in table.hands]
    for s in hidden_hands:
        movable = [c for c in table.hands[s] if c not in keep]
        new_hands[s] = [c for c in table.hands[s] if c in keep]
        pool += movable
        slots += [("hand", s)] * len(movable)
    # With open hands every draw is public, so the pile order would show through other seats' draws: it stays.
    pile = list(table.pile)
    if not table.mods.open_hands:
        for i, c in enumerate(table.pile):
            if c not in keep:
                pool.append(c)
                slots.append(("pile", i))
    face_down = list(table.face_down)
    for i, (c, knower) in enumerate(face_down):
        if knower != seat and c not in keep:
            pool.append(c)
            slots.append(("face_down", i))
    trade = table.trade
    hide_trade = trade is not None and trade.giver != seat and trade.card not in keep
    if hide_trade:
        pool.append(trade.card)
        slots.append(("trade", 0))
    rng.shuffle(pool)
    for (kind, s), c in zip(slots, pool):
        if kind == "hand":
            new_hands[s].append(c)
        elif kind == "pile":
            pile[s] = c
        elif kind == "face_down":
            face_down[s] = (c, face_down[s][1])
        else:
            trade = dataclasses.replace(trade, card=c)
    return dataclasses.replace(
        table, hands=tuple(tuple(h) for h in new_hands), pile=tuple(pile), trade=trade, face_down=tuple(face_down)
    )


def table_view(table: Table, viewer: Any) -> dict[str, Any]:
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
        "modifiers": dataclasses.asdict(table.mods),
    }
    if table.trade is not None:
        t = table.trade
        out["trade"] = {"giver": t.giver, "receiver": t.receiver}
        if sees(viewer, [t.giver]):
            out["trade"]["card"] = t.card
    return out


# --- command schemas several rites share (one name, one schema) ------------------------------------------


class PlayCard(Schema):
    card = fields.Integer(required=True)


class DrawCard(Schema):
    pass


class EndTurn(Schema):
    pass


# --- the interface -------------------------------------------------------------------------------------


class Rite:
    """One rite. Subclasses are stateless: all state lives in the ``table`` and the rite ``state`` passed in."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    commands: ClassVar[Mapping[str, type[Schema]]] = {}
    state_types: ClassVar[tuple[type, ...]] = ()
    hooks: ClassVar[frozenset[str]] = frozenset({"direction", "opener", "open_hands", "no_power_plays"})
    draws_replacements: ClassVar[bool] = True
    privilege: ClassVar[str] = ""
    revealed_by_begin: ClassVar[frozenset[int]] = frozenset()
    """Cards whose place ``begin`` makes public (the Dunwich twins handed over from hands). While a rite is
    being chosen, the game's ``resample`` keeps these cards in place for every available rite, so that choosing
    this rite shows every seat the same thing. (Cards a rite's later public events locate, like Cthulhu in a
    summoning, are kept in place by the rite's own ``resample``: ``resample_table(..., keep=...)``.)"""

    def initial(self, table: Table) -> Any:
        """The rite state right after the Grand Cultist picks this rite (pure: no events, no randomness)."""
        raise NotImplementedError

    def begin(self, table: Table, state: Any, rng: Any) -> list[Event]:
        """Deal adjustments after the standard 5-card deal (set cards aside, re-deal, lay out a board)."""
        return []

    def to_act(self, table: Table, state: Any) -> frozenset[int]:
        raise NotImplementedError

    def legal_commands(self, table: Table, state: Any, seat: int) -> list[dict[str, Any]]:
        raise NotImplementedError

    def decide(self, table: Table, state: Any, command: Mapping[str, Any], seat: int, rng: Any) -> list[Event]:
        raise NotImplementedError

    def evolve(self, table: Table, state: Any, event: Event) -> tuple[Table, Any]:
        """Fold one of the rite's own events; may also change the table. Unknown events raise TypeError."""
        raise NotImplementedError

    def settle(self, table: Table, state: Any) -> list[Event]:
        """Events the rite makes by itself once a batch of events is folded (close a gate whose last players ran
        out of cards after a power-play, and the like). Called after every command, again and again until it
        returns nothing, so it must reach a fixed point. Default: nothing."""
        return []

    def result(self, table: Table, state: Any) -> RiteResult | None:
        """The rite's end, checked after every event batch (also after power-plays and artifact powers)."""
        raise NotImplementedError

    def view(self, table: Table, state: Any, viewer: Any) -> dict[str, Any]:
        raise NotImplementedError

    def cards(self, state: Any) -> tuple[int, ...]:
        """Every entity card the rite state holds (on the board, captured, face down, sealed)."""
        raise NotImplementedError

    def resample(self, table: Table, state: Any, seat: int, rng: Any) -> tuple[Table, Any]:
        """Redistribute what ``seat`` cannot know. Override when the rite state hides cards of its own."""
        return resample_table(table, seat, rng), state

    def invariant(self, table: Table, state: Any) -> None:
        """Assert the rite's own consistency (beyond card conservation, which the game checks)."""


class Batch:
    """The events a rite's command emits, folded as they go so later steps see the position they made."""

    def __init__(self, rite: Rite, table: Table, state: Any, rng: Any = None):
        self.rite, self.table, self.state, self.rng = rite, table, state, rng
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            if event.type in TABLE_EVENTS:
                self.table = evolve_table(self.table, event)
            else:
                self.table, self.state = self.rite.evolve(self.table, self.state, event)


def shedding_result(table: Table) -> RiteResult | None:
    """The shedding rites' win: the first cultist to empty a hand; when the pile runs out, the fewest cards
    (ties to the first in turn order)."""
    empty = [s for s, h in enumerate(table.hands) if not h]
    if empty:
        return RiteResult(empty[0], "emptied_hand")
    if not table.pile:
        fewest = min(len(h) for h in table.hands)
        return RiteResult(first_in_order(table, [s for s, h in enumerate(table.hands) if len(h) == fewest]), "fewest_cards")
    return None


class NoFields(Schema):
    """A command that is its type alone."""
