"""Cthulhu Rises: trick-taking with gates, the Grand Cult (green) as trump, and the summoning of Cthulhu.

Rulebook pages 14-23. Win by holding Cthulhu when the last gate closes, or by an overthrow: open a gate,
capture Cthulhu, then close a later gate (the overthrow winner may trade a Coveted Artifact).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields

from shared.kernel import ev
from shared.games.rites_of_cthulhu.cards import CTHULHU
from shared.games.rites_of_cthulhu.rites import base
from shared.games.rites_of_cthulhu.rites.base import GRAND_CULT, PlayCard, Rite, RiteResult, Table, cult, rank, require

# The Deal: the deck must divide evenly among the cultists; these many cards are set aside unseen.
DISCARDS = {2: 0, 3: 2, 4: 0, 5: 1, 6: 2}
HAND_SIZE = 5


class ForceCard(Schema):
    card = fields.Integer(required=True)
    seat = fields.Integer(required=True)


class DeclineTrade(Schema):
    pass


@dataclass(frozen=True, slots=True)
class CthulhuRisesState:
    gate_number: int = 1
    gate: tuple[tuple[int, int], ...] = ()
    """Cards played on the open gate, in order: (seat, card). The first is the opener's."""
    leader: int | None = None
    """Who opens the next gate (None before the first: the rite's opener)."""
    eligible: frozenset[int] = frozenset()
    """Cultists who have opened a gate: eligible to summon Cthulhu (their cards lie vertically)."""
    center: bool = False
    """Cthulhu lies in the middle of the table, at the center of the gate."""
    captor: int | None = None
    captured_at: int = 0
    """The gate in which the captor captured Cthulhu."""
    holder_at_start: int | None = None
    """The captor when the open gate was opened (an overthrow needs a capture in an earlier gate)."""
    taken: tuple[tuple[int, ...], ...] = ()
    """Each cultist's personal discard pile of gate cards taken."""
    forcing: int | None = None
    """The cultist who closed the last gate and may now force a card trade."""
    overthrow: int | None = None


class CthulhuRises(Rite):
    id = "cthulhu_rises"
    title = "Cthulhu Rises"
    summary = "Gates (tricks) with green as trump; capture Cthulhu and keep him, or overthrow."
    privilege = "The Grand Cultist opens the first gate and is at once eligible to summon Cthulhu."
    commands = {"play_card": PlayCard, "force_card": ForceCard, "decline_trade": DeclineTrade}
    state_types = (CthulhuRisesState,)
    hooks = Rite.hooks | {"low_wins"}

    # --- setup -----------------------------------------------------------------------------------

    def initial(self, table: Table) -> CthulhuRisesState:
        return CthulhuRisesState(taken=((),) * table.players)

    def begin(self, table: Table, state: CthulhuRisesState, rng: Any) -> list:
        """The Deal: set aside, unseen, the cards that keep the deck divisible by the number of cultists."""
        count = DISCARDS[table.players]
        return [base.set_aside_from_pile(table, count)] if count else []

    # --- whose turn -------------------------------------------------------------------------------

    def _opener_of_gate(self, table: Table, state: CthulhuRisesState) -> int | None:
        start = base.opener(table) if state.leader is None else state.leader
        for s in base.turn_order(table, start):
            if table.hands[s]:
                return s
        return None

    def _next_to_play(self, table: Table, state: CthulhuRisesState) -> int | None:
        """The next cultist to play on the open gate: in turn order, skipping those with empty hands."""
        if not state.gate:
            return self._opener_of_gate(table, state)
        played = {s for s, _ in state.gate}
        for s in base.turn_order(table, state.gate[0][0]):
            if s not in played and table.hands[s]:
                return s
        return None

    def to_act(self, table: Table, state: CthulhuRisesState) -> frozenset[int]:
        if state.overthrow is not None:
            return frozenset()
        if state.forcing is not None:
            return frozenset({state.forcing})
        seat = self._next_to_play(table, state)
        return frozenset() if seat is None else frozenset({seat})

    # --- rules ------------------------------------------------------------------------------------

    def _playable(self, table: Table, state: CthulhuRisesState, seat: int) -> list[int]:
        hand = table.hands[seat]
        options = list(hand)
        if state.gate_number == 1:
            # No summoning in the first gate: Cthulhu stays in hand; the first opener may not lead green.
            options = [c for c in options if c != CTHULHU] or options
            if not state.gate:
                options = [c for c in options if cult(c) != GRAND_CULT] or options
        if state.gate:
            dominant = cult(state.gate[0][1])
            following = [c for c in options if cult(c) == dominant]
            if following:
                options = following
        return sorted(options)

    def legal_commands(self, table: Table, state: CthulhuRisesState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(table, state):
            return []
        if state.forcing is not None:
            targets = [s for s in range(table.players) if s != seat and table.hands[s]]
            out: list[dict[str, Any]] = [{"type": "decline_trade"}]
            out += [{"type": "force_card", "card": c, "seat": t} for c in sorted(table.hands[seat]) for t in targets]
            return out
        return [{"type": "play_card", "card": c} for c in self._playable(table, state, seat)]

    def decide(self, table: Table, state: CthulhuRisesState, command: Any, seat: int, rng: Any) -> list:
        require(seat in self.to_act(table, state), "rules/not_your_turn", "It is not your turn in this rite.")
        kind = command["type"]
        if state.forcing is not None:
            if kind == "decline_trade":
                return [ev("forced_trade_declined", seat=seat)]
            require(kind == "force_card", "rules/must_decide_forced_trade",
                    "You closed the gate: force a card on another cultist or decline first.")
            card, target = command["card"], command["seat"]
            require(card in table.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.")
            require(0 <= target < table.players and target != seat and bool(table.hands[target]),
                    "rules/no_such_trade_partner", "Force the card on another cultist who holds cards.")
            return [ev("forced_trade_offered", seat=seat, receiver=target), base.force_card(table, seat, target, card)]
        require(kind == "play_card", "rules/must_play_to_gate", "Play a card on the gate.")
        return self._play(table, state, seat, command["card"])

    def _play(self, table: Table, state: CthulhuRisesState, seat: int, card: int) -> list:
        hand = table.hands[seat]
        require(card in hand, "rules/card_not_in_hand", "That card is not in your hand.")
        if state.gate_number == 1 and card == CTHULHU:
            require(all(c == CTHULHU for c in hand), "rules/no_summoning_in_first_gate",
                    "Cthulhu must stay in your hand until the first gate closes.")
        if state.gate_number == 1 and not state.gate and cult(card) == GRAND_CULT:
            require(all(cult(c) == GRAND_CULT for c in hand), "rules/no_green_lead_in_first_gate",
                    "The first gate may not be opened with a card of the Grand Cult.")
        if state.gate:
            dominant = cult(state.gate[0][1])
            require(cult(card) == dominant or not any(cult(c) == dominant for c in hand),
                    "rules/must_follow_dominant_cult", "You must play a card of the gate's dominant cult.")
        opening = not state.gate
        events = [ev("card_played_to_gate", seat=seat, card=card, opened=opening)]
        after = base.with_hand(table, seat, base.remove_cards(hand, [card]))
        # Hands are kept at 5 by drawing after playing (a hand short of Cthulhu since a summoning draws two).
        drawn = base.draw(after, seat, HAND_SIZE - len(after.hands[seat]))
        events += drawn
        for e in drawn:
            after = base.evolve_table(after, e)
        eligible = state.eligible | {seat} if opening else state.eligible
        if cult(card) == GRAND_CULT and seat in eligible and state.gate_number > 1:
            events += self._summon(after, state, card)
        return events

    def _summon(self, table: Table, state: CthulhuRisesState, card: int) -> list:
        """A spell to summon Cthulhu: he comes to the center of the gate from a hand or from his captor."""
        if card == CTHULHU or state.center or any(c == CTHULHU for _, c in state.gate):
            return []
        for s, hand in enumerate(table.hands):
            if CTHULHU in hand:
                # No replacement now: the holder refills after her next play (a draw caused by another
                # cultist's move would show her a card from the pile out of her own turn).
                return [ev("cthulhu_summoned", seat=s, source="hand")]
        if state.captor is not None:
            return [ev("cthulhu_summoned", seat=state.captor, source="captured")]
        return [ev("summoning_failed")]

    def _close(self, table: Table, state: CthulhuRisesState) -> tuple[int, bool]:
        """Closing a gate: the highest green card wins, else the highest card of the dominant cult."""
        greens = [(s, c) for s, c in state.gate if cult(c) == GRAND_CULT]
        dominant = cult(state.gate[0][1])
        contenders = greens or [(s, c) for s, c in state.gate if cult(c) == dominant]
        top = base.best(table, (rank(c) for _, c in contenders))
        closer = next(s for s, c in contenders if rank(c) == top)
        return closer, closer in state.eligible

    # --- fold -------------------------------------------------------------------------------------

    def evolve(self, table: Table, state: CthulhuRisesState, event: Any) -> tuple[Table, CthulhuRisesState]:
        d = event.data
        match event.type:
            case "card_played_to_gate":
                seat, card = d["seat"], d["card"]
                table = base.with_hand(table, seat, base.remove_cards(table.hands[seat], [card]))
                state = dataclasses.replace(state, gate=state.gate + ((seat, card),))
                if d["opened"]:
                    state = dataclasses.replace(state, eligible=state.eligible | {seat}, holder_at_start=state.captor)
                return table, state
            case "gate_closed":
                return table, self._closed(table, state, d)
            case "cthulhu_summoned":
                if d["source"] == "hand":
                    table = base.with_hand(table, d["seat"], base.remove_cards(table.hands[d["seat"]], [CTHULHU]))
                return table, dataclasses.replace(state, center=True, captor=None)
            case "summoning_failed":
                return table, state
            case "forced_trade_offered" | "forced_trade_declined":
                return table, dataclasses.replace(state, forcing=None)
            case _:
                raise TypeError(f"Cthulhu Rises has no event {event.type}")

    def settle(self, table: Table, state: CthulhuRisesState) -> list:
        """Closing a gate: once every cultist holding cards has played on it."""
        if not state.gate or self._next_to_play(table, state) is not None:
            return []
        closer, eligible = self._close(table, state)
        in_gate = state.center or any(c == CTHULHU for _, c in state.gate)
        cthulhu = ("captured" if eligible else "center") if in_gate else None
        # An overthrow: the closer already held Cthulhu, captured in an earlier gate, when this gate opened
        # (a summoning in this gate brings him to the center, and the closer takes him back).
        overthrow = state.holder_at_start == closer
        return [ev("gate_closed", seat=closer, cards=[c for _, c in state.gate], cthulhu=cthulhu, overthrow=overthrow)]

    def _closed(self, table: Table, state: CthulhuRisesState, d: Any) -> CthulhuRisesState:
        closer = d["seat"]
        captor, center, captured_at = state.captor, state.center, state.captured_at
        if d["cthulhu"] == "captured":
            captor, center, captured_at = closer, False, state.gate_number
        elif d["cthulhu"] == "center":
            captor, center = None, True
        taken = list(state.taken)
        taken[closer] = taken[closer] + tuple(c for c in d["cards"] if c != CTHULHU)
        others_hold = any(table.hands[s] for s in range(table.players) if s != closer)
        overthrow = closer if d["overthrow"] else None
        return dataclasses.replace(
            state,
            gate=(),
            gate_number=state.gate_number + 1,
            leader=closer,
            captor=captor,
            center=center,
            captured_at=captured_at,
            taken=tuple(taken),
            forcing=closer if (overthrow is None and table.hands[closer] and others_hold) else None,
            overthrow=overthrow,
        )

    # --- end --------------------------------------------------------------------------------------

    def result(self, table: Table, state: CthulhuRisesState) -> RiteResult | None:
        if state.overthrow is not None:
            return RiteResult(state.overthrow, "overthrow", may_trade_artifact=True)
        if state.gate or state.forcing is not None or table.trade is not None:
            return None
        if table.pile or any(table.hands):
            return None
        if state.captor is None:
            return RiteResult(None, "cthulhu_not_captured")
        return RiteResult(state.captor, "holds_cthulhu")

    def cards(self, state: CthulhuRisesState) -> tuple[int, ...]:
        out = [c for _, c in state.gate] + [c for pile in state.taken for c in pile]
        if (state.center or state.captor is not None) and CTHULHU not in out:
            out.append(CTHULHU)
        return tuple(out)

    def resample(self, table: Table, state: CthulhuRisesState, seat: int, rng: Any) -> tuple[Table, Any]:
        # Cthulhu keeps his place: a summoning spell reveals who holds him, so moving him would change what
        # other seats' moves publicly show (see the rulings: bots know where Cthulhu is).
        return base.resample_table(table, seat, rng, keep={CTHULHU}), state

    def invariant(self, table: Table, state: CthulhuRisesState) -> None:
        assert not (state.center and state.captor is not None)
        assert len(state.gate) <= table.players

    def view(self, table: Table, state: CthulhuRisesState, viewer: Any) -> dict[str, Any]:
        nxt = self._next_to_play(table, state)
        return {
            "gate_number": state.gate_number,
            "gate": [{"seat": s, "card": c, "vertical": s in state.eligible} for s, c in state.gate],
            "dominant_cult": base.CULTS[cult(state.gate[0][1])] if state.gate else None,
            "grand_cult": base.CULTS[GRAND_CULT],
            "to_play": None if state.forcing is not None else nxt,
            "eligible": sorted(state.eligible),
            "cthulhu": "center" if state.center else ("captured" if state.captor is not None else "unseen"),
            "captor": state.captor,
            "taken": {str(s): list(p) for s, p in enumerate(state.taken)},
            "forcing": state.forcing,
        }
