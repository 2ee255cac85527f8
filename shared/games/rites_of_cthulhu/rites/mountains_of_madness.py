"""At the Mountains of Madness: the Elder Sign, a four-card ridge, slopes stepping by one, and cliffs.

Rulebook pages 35-40. Only elder signs count. The first cultist to play out the hand wins.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields, validate

from shared.kernel import ev
from shared.games.rites_of_cthulhu.rites import base
from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn, Rite, RiteResult, Table, rank, require

RIDGE_SIZE = 4
SIDES = ("above", "below")


class ExtendRidge(Schema):
    card = fields.Integer(required=True)


class PlayOnSlope(Schema):
    card = fields.Integer(required=True)
    ridge_card = fields.Integer(required=True)
    side = fields.String(required=True, validate=validate.OneOf(SIDES))


class PlayCliff(Schema):
    book = fields.Integer(required=True)
    card = fields.Integer(required=True)
    ridge_card = fields.Integer(required=True)
    side = fields.String(required=True, validate=validate.OneOf(SIDES))


@dataclass(frozen=True, slots=True)
class Slope:
    ridge_card: int
    side: str
    cards: tuple[int, ...]
    """Bottom first; a cliff's forbidden book lies under the card played with it."""


@dataclass(frozen=True, slots=True)
class MountainsState:
    ridge: tuple[int, ...] = ()
    """The Elder Sign first, then the other ridge cards in the order played."""
    slopes: tuple[Slope, ...] = ()
    turn: int | None = None
    played: int = 0
    """Cards played by the cultist on turn this turn."""
    drew: bool = False


def fits_ridge(ridge: tuple[int, ...], card: int) -> bool:
    """The ridge: up to four cards in a run, no forbidden books."""
    if rank(card) == 0 or len(ridge) >= RIDGE_SIZE:
        return False
    if not ridge:
        return True
    ranks = [rank(c) for c in ridge]
    return rank(card) in (min(ranks) - 1, max(ranks) + 1)


class MountainsOfMadness(Rite):
    id = "mountains_of_madness"
    title = "At the Mountains of Madness"
    summary = "Build a four-card ridge, slopes stepping by one, cliffs with forbidden books; empty your hand."
    privilege = "The Grand Cultist declares the Elder Sign (the first ridge card) and may play on."
    commands = {"extend_ridge": ExtendRidge, "play_on_slope": PlayOnSlope, "play_cliff": PlayCliff,
                "draw_card": DrawCard, "end_turn": EndTurn}
    state_types = (MountainsState, Slope)

    def initial(self, table: Table) -> MountainsState:
        return MountainsState()

    def _turn(self, table: Table, state: MountainsState) -> int:
        return base.opener(table) if state.turn is None else state.turn

    def to_act(self, table: Table, state: MountainsState) -> frozenset[int]:
        return frozenset({self._turn(table, state)})

    def _top(self, state: MountainsState, ridge_card: int, side: str) -> int:
        for slope in state.slopes:
            if slope.ridge_card == ridge_card and slope.side == side:
                return slope.cards[-1]
        return ridge_card

    def _plays(self, table: Table, state: MountainsState, seat: int) -> list[dict[str, Any]]:
        hand = sorted(table.hands[seat])
        out: list[dict[str, Any]] = []
        on_ridge = [c for c in hand if fits_ridge(state.ridge, c)]
        out += [{"type": "extend_ridge", "card": c} for c in on_ridge]
        if not state.ridge:
            return out
        spots = [(r, side) for r in state.ridge for side in SIDES]
        # Ridge before slopes: a card that can extend the ridge may not go on a slope.
        free = [c for c in hand if c not in on_ridge]
        for c in free:
            for r, side in spots:
                if abs(rank(c) - rank(self._top(state, r, side))) == 1:
                    out.append({"type": "play_on_slope", "card": c, "ridge_card": r, "side": side})
        for book in sorted({c for c in hand if rank(c) == 0}):
            for c in free:
                if c != book:
                    out += [{"type": "play_cliff", "book": book, "card": c, "ridge_card": r, "side": side}
                            for r, side in spots]
        return out

    def legal_commands(self, table: Table, state: MountainsState, seat: int) -> list[dict[str, Any]]:
        if seat != self._turn(table, state):
            return []
        plays = self._plays(table, state, seat)
        if state.played or state.drew:
            return plays + [{"type": "end_turn"}]
        return plays or [{"type": "draw_card"}]

    def decide(self, table: Table, state: MountainsState, command: Any, seat: int, rng: Any) -> list:
        require(seat == self._turn(table, state), "rules/not_your_turn", "It is not your turn in this rite.")
        kind = command["type"]
        plays = self._plays(table, state, seat)
        if kind == "draw_card":
            require(not state.drew and not state.played, "rules/already_played_or_drew",
                    "You may only draw at the start of your turn.")
            require(not plays, "rules/must_play_if_able", "You can play a card, so you may not draw.")
            return [ev("drew_unable_to_play", seat=seat), *base.draw(table, seat, 1)]
        if kind == "end_turn":
            require(bool(state.played or state.drew), "rules/must_play_if_able",
                    "You must play a card (or draw if you cannot) before ending your turn.")
            return [ev("turn_passed", seat=base.next_seat(table, seat))]
        if command not in plays:
            raise self._why(table, state, seat, command)
        if kind == "extend_ridge":
            return [ev("ridge_extended", seat=seat, card=command["card"])]
        if kind == "play_on_slope":
            return [ev("slope_played", seat=seat, cards=[command["card"]], ridge_card=command["ridge_card"],
                       side=command["side"], cliff=False)]
        after = base.with_hand(table, seat, base.remove_cards(table.hands[seat], [command["book"], command["card"]]))
        return [ev("slope_played", seat=seat, cards=[command["book"], command["card"]],
                   ridge_card=command["ridge_card"], side=command["side"], cliff=True), *base.draw(after, seat, 1)]

    def _why(self, table: Table, state: MountainsState, seat: int, command: Any) -> Exception:
        hand = table.hands[seat]
        cards = [command["card"]] + ([command["book"]] if "book" in command else [])
        if any(c not in hand for c in cards) or len(set(cards)) != len(cards):
            return base.violation("rules/card_not_in_hand", "That card is not in your hand.")
        if command["type"] == "extend_ridge":
            if rank(command["card"]) == 0:
                return base.violation("rules/no_forbidden_books_in_ridge", "Forbidden books may not be part of the ridge.")
            return base.violation("rules/ridge_must_be_a_run", "The ridge is a run of at most four cards.")
        if not state.ridge:
            return base.violation("rules/declare_the_elder_sign", "The Elder Sign must be declared first.")
        if command["ridge_card"] not in state.ridge:
            return base.violation("rules/no_such_slope", "Slopes grow above and below ridge cards only.")
        if fits_ridge(state.ridge, command["card"]):
            return base.violation("rules/ridge_before_slopes", "A card that can extend the ridge must go on the ridge.")
        if command["type"] == "play_cliff":
            return base.violation("rules/cliff_needs_a_forbidden_book", "A cliff is a forbidden book with any other card.")
        return base.violation("rules/slopes_step_by_one", "A slope card must be one above or below the card it covers.")

    def evolve(self, table: Table, state: MountainsState, event: Any) -> tuple[Table, MountainsState]:
        d = event.data
        match event.type:
            case "ridge_extended":
                table = base.with_hand(table, d["seat"], base.remove_cards(table.hands[d["seat"]], [d["card"]]))
                return table, dataclasses.replace(state, ridge=state.ridge + (d["card"],), turn=d["seat"],
                                                  played=state.played + 1)
            case "slope_played":
                table = base.with_hand(table, d["seat"], base.remove_cards(table.hands[d["seat"]], d["cards"]))
                slopes = list(state.slopes)
                for i, slope in enumerate(slopes):
                    if slope.ridge_card == d["ridge_card"] and slope.side == d["side"]:
                        slopes[i] = dataclasses.replace(slope, cards=slope.cards + tuple(d["cards"]))
                        break
                else:
                    slopes.append(Slope(d["ridge_card"], d["side"], tuple(d["cards"])))
                return table, dataclasses.replace(state, slopes=tuple(slopes), turn=d["seat"],
                                                  played=state.played + len(d["cards"]))
            case "drew_unable_to_play":
                return table, dataclasses.replace(state, turn=d["seat"], drew=True)
            case "turn_passed":
                return table, dataclasses.replace(state, turn=d["seat"], played=0, drew=False)
            case _:
                raise TypeError(f"At the Mountains of Madness has no event {event.type}")

    def result(self, table: Table, state: MountainsState) -> RiteResult | None:
        return base.shedding_result(table)

    def cards(self, state: MountainsState) -> tuple[int, ...]:
        return state.ridge + tuple(c for s in state.slopes for c in s.cards)

    def invariant(self, table: Table, state: MountainsState) -> None:
        ranks = sorted(rank(c) for c in state.ridge)
        assert len(ranks) <= RIDGE_SIZE and ranks == list(range(ranks[0], ranks[0] + len(ranks))) if ranks else True

    def view(self, table: Table, state: MountainsState, viewer: Any) -> dict[str, Any]:
        return {
            "elder_sign": state.ridge[0] if state.ridge else None,
            "ridge": sorted(state.ridge, key=rank),
            "slopes": [{"ridge_card": s.ridge_card, "side": s.side, "cards": list(s.cards)} for s in state.slopes],
            "turn": self._turn(table, state),
            "played_this_turn": state.played,
            "drew": state.drew,
        }
