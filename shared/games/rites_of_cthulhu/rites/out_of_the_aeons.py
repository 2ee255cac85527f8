"""Out of the Aeons (Rites of Cthulhu rulebook, "Out of the Aeons", p. 41): sealed bids for the yellow cards.

The 14 Brotherhood of the Kings (yellow) cards are shuffled into a sub-deck; every other card is dealt evenly
(2 players 14 each, 3: 14, 4: 10, 5: 8, 6: 7) and the remainders are set aside unseen. Each round the top
yellow card is turned face up, the Grand Cultist may (once per rite) discard it before the bidding, then every
cultist seals one card from her hand as a bid; once all have bid the bids are revealed together: the highest
elder sign takes the yellow card, a tie for the highest discards it, and every bid is discarded. The rite ends
when the sub-deck is exhausted or no cultist has a card left; captured cards score their elder sign and The
Book of Azathoth doubles one other captured card. Power-plays draw no replacements in this rite.

Rulings (docs/rulings/rites-of-cthulhu.md, second part): the Book doubles the highest other captured card; a
cultist whose hand is empty sits a round out; the Grand Cultist is asked at each reveal until she uses her
discard; a tie for the rite goes to the first tied cultist in turn order from the Grand Cultist.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


from shared.kernel import Event, ev, sees

from shared.games.rites_of_cthulhu.cards import entity
from shared.games.rites_of_cthulhu.rites.base import (
    Batch,
    NoFields,
    PlayCard,
    Rite,
    RiteResult,
    Table,
    best,
    cult,
    draw,
    first_in_order,
    hand_audience,
    opener,
    rank,
    remove_cards,
    require,
    turn_order,
    violation,
    with_hand,
)
from shared.games.rites_of_cthulhu.rites.dunwich_horror import redistribute

YELLOW = 2
BOOK_OF_AZATHOTH = entity("The Book of Azathoth")
DEAL = {2: 14, 3: 14, 4: 10, 5: 8, 6: 7}
"""Cards dealt to each cultist by player count (the rulebook's table; at most 14, one per yellow card)."""


# --- state --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealing:
    """The rite was picked; the cards are not re-dealt yet."""


@dataclass(frozen=True, slots=True)
class Privilege:
    """The rite's opener (the Grand Cultist unless an artifact gave her privilege away) may discard the revealed
    card before the bidding, once a rite. The seat is read when needed: an artifact may change it."""


@dataclass(frozen=True, slots=True)
class Bidding:
    """The seats still to seal a bid this round."""

    waiting: frozenset[int]


@dataclass(frozen=True, slots=True)
class Ended:
    """The sub-deck is exhausted or nobody has a card left."""


@dataclass(frozen=True, slots=True)
class AeonsState:
    phase: Dealing | Privilege | Bidding | Ended
    sub_deck: tuple[int, ...] = ()
    revealed: int | None = None
    bids: tuple[tuple[int, int], ...] = ()
    captured: tuple[tuple[int, ...], ...] = ()
    discards: tuple[int, ...] = ()
    remainders: tuple[int, ...] = ()
    privilege_used: bool = False


def score(cards: tuple[int, ...]) -> int:
    """Each captured card scores its elder sign; The Book of Azathoth doubles the best other captured card."""
    total = sum(rank(c) for c in cards)
    others = [rank(c) for c in cards if c != BOOK_OF_AZATHOTH]
    if BOOK_OF_AZATHOTH in cards and others:
        total += max(others)
    return total


class OutOfTheAeons(Rite):
    id = "out_of_the_aeons"
    title = "Out of the Aeons"
    summary = (
        "Bid one sealed card at a time for the 14 Brotherhood of the Kings cards; the highest elder sign takes the "
        "card, ties discard it. Most captured points wins; The Book of Azathoth doubles another captured card."
    )
    privilege = "Reveals the yellow cards and may discard one revealed card before the bidding, once this rite."
    commands = {"bid": PlayCard, "discard_revealed": NoFields, "keep_revealed": NoFields}
    state_types = (AeonsState, Dealing, Privilege, Bidding, Ended)
    hooks = frozenset({"opener", "open_hands", "no_power_plays", "low_wins"})
    draws_replacements = False

    # -- setup -------------------------------------------------------------------------------------------

    def initial(self, table: Table) -> AeonsState:
        return AeonsState(phase=Dealing(), captured=((),) * table.players)

    def begin(self, table: Table, state: AeonsState, rng: Any) -> list[Event]:
        """The Deal: the yellow sub-deck, every other card dealt evenly, the remainders set aside unseen."""
        pool = [c for hand in table.hands for c in hand] + list(table.pile)
        yellows = sorted(c for c in pool if cult(c) == YELLOW)
        others = sorted(c for c in pool if cult(c) != YELLOW)
        rng.shuffle(yellows)
        rng.shuffle(others)
        each = min(DEAL.get(table.players, 14), len(others) // table.players)
        dealt = others[: each * table.players]
        batch = Batch(self, table, state)
        batch.emit(
            ev(
                "aeons_cards_regathered",
                hand_size=each,
                remainder_count=len(others) - len(dealt),
                sub_deck=yellows,
                deck=dealt,
                remainders=others[len(dealt):],
                secret={"sub_deck": [], "deck": [], "remainders": []},
            )
        )
        for seat in turn_order(batch.table, table.grand_cultist):
            batch.emit(*draw(batch.table, seat, each))
        self._next_round(batch)
        return batch.events

    # -- who acts and what they may do -----------------------------------------------------------------

    def to_act(self, table: Table, state: AeonsState) -> frozenset[int]:
        phase = state.phase
        if isinstance(phase, Privilege):
            return frozenset({opener(table)})
        if isinstance(phase, Bidding):
            return phase.waiting
        return frozenset()

    def legal_commands(self, table: Table, state: AeonsState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(table, state):
            return []
        if isinstance(state.phase, Privilege):
            return [{"type": "discard_revealed"}, {"type": "keep_revealed"}]
        return [{"type": "bid", "card": c} for c in sorted(table.hands[seat])]

    # -- decide ------------------------------------------------------------------------------------------

    def decide(self, table: Table, state: AeonsState, command: Mapping[str, Any], seat: int, rng: Any) -> list[Event]:
        kind = command["type"]
        phase = state.phase
        batch = Batch(self, table, state)
        if kind in ("discard_revealed", "keep_revealed"):
            require(
                isinstance(phase, Privilege) and opener(table) == seat,
                "rules/no_discard_privilege",
                "Only the Grand Cultist decides, once a card is revealed and before the bidding, whether to discard it.",
            )
            if kind == "discard_revealed":
                batch.emit(ev("revealed_card_discarded", seat=seat, card=state.revealed))
                self._next_round(batch)
            else:
                batch.emit(ev("bidding_opened", card=state.revealed, bidders=self._bidders(table)))
            return batch.events
        if kind != "bid":
            raise violation("rules/unknown_command", f"Out of the Aeons has no command {kind!r}.")
        require(isinstance(phase, Bidding), "rules/not_bidding", "Nobody is bidding right now.")
        require(seat in phase.waiting, "rules/already_bid", "You have already bid this round, or you sit it out.")
        card = command["card"]
        require(card in table.hands[seat], "rules/card_not_in_hand", "Bid with a card from your own hand.")
        audience = hand_audience(table, seat)
        batch.emit(ev("bid_sealed", seat=seat, card=card, secret=None if audience is None else {"card": audience}))
        if not batch.state.phase.waiting:
            self._resolve(batch)
        return batch.events

    def settle(self, table: Table, state: AeonsState) -> list[Event]:
        """A cultist whose hand a power-play emptied before she bid sits the round out (the reveal may follow)."""
        phase = state.phase
        if not isinstance(phase, Bidding):
            return []
        empty = sorted(s for s in phase.waiting if not table.hands[s])
        if not empty:
            return []
        batch = Batch(self, table, state)
        for seat in empty:
            batch.emit(ev("bid_passed", seat=seat, reason="empty_hand"))
        if not batch.state.phase.waiting:
            self._resolve(batch)
        return batch.events

    def _bidders(self, table: Table) -> list[int]:
        return [s for s in range(table.players) if table.hands[s]]

    def _resolve(self, batch: Batch) -> None:
        """All have bid: one public reveal; the highest elder sign takes the card, a tie for the highest discards it."""
        state = batch.state
        bids = sorted(state.bids)
        batch.emit(ev("bids_revealed", card=state.revealed, bids=[list(b) for b in bids]))
        if bids:
            top = best(batch.table, (rank(c) for _, c in bids))
            leaders = [s for s, c in bids if rank(c) == top]
            if len(leaders) == 1:
                batch.emit(ev("yellow_card_won", seat=leaders[0], card=state.revealed, bid=dict(bids)[leaders[0]]))
            else:
                batch.emit(ev("yellow_card_tied", card=state.revealed, seats=leaders))
        else:
            batch.emit(ev("yellow_card_tied", card=state.revealed, seats=[]))
        self._next_round(batch)

    def _next_round(self, batch: Batch) -> None:
        """Turn over the next yellow card, or end the rite when the sub-deck or every hand is empty."""
        state, table = batch.state, batch.table
        bidders = self._bidders(table)
        if not state.sub_deck or not bidders:
            batch.emit(ev("aeons_ended", unrevealed=len(state.sub_deck), points=self._points(state)))
            return
        privilege = not state.privilege_used
        batch.emit(ev("yellow_card_revealed", card=state.sub_deck[0], privilege=privilege, bidders=[] if privilege else bidders))

    # -- evolve --------------------------------------------------------------------------------------------

    def evolve(self, table: Table, state: AeonsState, event: Event) -> tuple[Table, AeonsState]:
        d = event.data
        replace = dataclasses.replace
        match event.type:
            case "aeons_cards_regathered":
                table = replace(table, hands=((),) * table.players, pile=tuple(d["deck"]), known=())
                return table, replace(state, sub_deck=tuple(d["sub_deck"]), remainders=tuple(d["remainders"]))
            case "yellow_card_revealed":
                phase = Privilege() if d["privilege"] else Bidding(frozenset(d["bidders"]))
                return table, replace(state, revealed=d["card"], sub_deck=state.sub_deck[1:], phase=phase)
            case "revealed_card_discarded":
                return table, replace(
                    state, discards=state.discards + (d["card"],), revealed=None, privilege_used=True
                )
            case "bidding_opened":
                return table, replace(state, phase=Bidding(frozenset(d["bidders"])))
            case "bid_sealed":
                phase = state.phase
                assert isinstance(phase, Bidding)
                table = with_hand(table, d["seat"], remove_cards(table.hands[d["seat"]], [d["card"]]))
                bids = tuple(sorted(state.bids + ((d["seat"], d["card"]),)))
                return table, replace(state, bids=bids, phase=Bidding(phase.waiting - {d["seat"]}))
            case "bid_passed":
                phase = state.phase
                assert isinstance(phase, Bidding)
                return table, replace(state, phase=Bidding(phase.waiting - {d["seat"]}))
            case "bids_revealed":
                return table, replace(state, bids=(), discards=state.discards + tuple(c for _, c in d["bids"]))
            case "yellow_card_won":
                captured = list(state.captured)
                captured[d["seat"]] = captured[d["seat"]] + (d["card"],)
                return table, replace(state, captured=tuple(captured), revealed=None)
            case "yellow_card_tied":
                return table, replace(state, discards=state.discards + (d["card"],), revealed=None)
            case "aeons_ended":
                return table, replace(state, phase=Ended())
            case _:
                raise TypeError(f"Out of the Aeons has no event {event.type!r}")

    # -- end, view, conservation ---------------------------------------------------------------------------

    @staticmethod
    def _points(state: AeonsState) -> list[int]:
        return [score(cards) for cards in state.captured]

    def result(self, table: Table, state: AeonsState) -> RiteResult | None:
        """The Win: the most points (ties: the first of them in turn order from the Grand Cultist)."""
        if not isinstance(state.phase, Ended):
            return None
        points = self._points(state)
        top = max(points)
        return RiteResult(first_in_order(table, [s for s, p in enumerate(points) if p == top]), "yellow_cards_taken")

    def view(self, table: Table, state: AeonsState, viewer: Any) -> dict[str, Any]:
        phase = state.phase
        out: dict[str, Any] = {
            "phase": type(phase).__name__.lower(),
            "sub_deck": len(state.sub_deck),
            "revealed": state.revealed,
            "privilege_used": state.privilege_used,
            "captured": {str(s): list(cards) for s, cards in enumerate(state.captured)},
            "points": {str(s): p for s, p in enumerate(self._points(state))},
            "discards": list(state.discards),
            "remainders": len(state.remainders),
            "bids_sealed": [s for s, _ in state.bids],
        }
        if isinstance(phase, Privilege):
            out["privileged"] = opener(table)
        if isinstance(phase, Bidding):
            out["waiting"] = sorted(phase.waiting)
        if sees(viewer, ()):  # full information only (the audit)
            out["sub_deck_order"] = list(state.sub_deck)
            out["remainder_cards"] = list(state.remainders)
        shown = {s: c for s, c in state.bids if hand_audience(table, s) is None or sees(viewer, [s])}
        if shown:
            out["bids"] = {str(s): c for s, c in shown.items()}
        return out

    def cards(self, state: AeonsState) -> tuple[int, ...]:
        revealed = () if state.revealed is None else (state.revealed,)
        captured = tuple(c for cards in state.captured for c in cards)
        return state.sub_deck + revealed + tuple(c for _, c in state.bids) + captured + state.discards + state.remainders

    def resample_hidden(self, table: Table, state: AeonsState, seat: int, rng: Any) -> tuple[Table, AeonsState]:
        """Everything ``seat`` cannot know: other hands, others' sealed bids and the remainders together; the
        yellow sub-deck's order."""
        sub_deck = list(state.sub_deck)
        rng.shuffle(sub_deck)
        return self._pool(table, dataclasses.replace(state, sub_deck=tuple(sub_deck)), seat, rng, with_bids=True)

    def resample(self, table: Table, state: AeonsState, seat: int, rng: Any) -> tuple[Table, AeonsState]:
        """What no other seat's next move can show ``seat``: other hands, the remainders, the sub-deck below its top.

        The last bid reveals every sealed bid and turns over the next yellow card, so those stay in place: the
        kernel's one-move non-interference check compares that move's events in both worlds (``resample_hidden``
        redistributes them too).
        """
        rest = list(state.sub_deck[1:])
        rng.shuffle(rest)
        return self._pool(table, dataclasses.replace(state, sub_deck=state.sub_deck[:1] + tuple(rest)), seat, rng, with_bids=False)

    def _pool(self, table: Table, state: AeonsState, seat: int, rng: Any, with_bids: bool) -> tuple[Table, AeonsState]:
        hidden_bids = [i for i, (s, _) in enumerate(state.bids) if with_bids and s != seat and hand_audience(table, s) is not None]
        extra = list(state.remainders) + [state.bids[i][1] for i in hidden_bids]
        table, tail = redistribute(table, seat, rng, extra)
        remainders, bid_cards = tuple(tail[: len(state.remainders)]), tail[len(state.remainders):]
        bids = list(state.bids)
        for i, card in zip(hidden_bids, bid_cards):
            bids[i] = (bids[i][0], card)
        return table, dataclasses.replace(state, remainders=remainders, bids=tuple(bids))

    def invariant(self, table: Table, state: AeonsState) -> None:
        if isinstance(state.phase, Dealing):
            return
        assert all(cult(c) == YELLOW for c in state.sub_deck)
        assert state.revealed is None or cult(state.revealed) == YELLOW
        assert all(cult(c) == YELLOW for cards in state.captured for c in cards)
        assert len({s for s, _ in state.bids}) == len(state.bids)
        if isinstance(state.phase, (Privilege, Bidding)):
            assert state.revealed is not None
        if isinstance(state.phase, Bidding):
            assert not state.phase.waiting & {s for s, _ in state.bids}

