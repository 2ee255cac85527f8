"""The Tree on the Hill: plant and grow trees of four cards forming a run; first to empty the hand wins.

Rulebook pages 24-28. Cults matter only for double plays (a card of the same cult and next in sequence to a card
of the tree, or the card that completes a tree), which force another play.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields

from shared.kernel import ev
from shared.games.rites_of_cthulhu.rites import base
from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn, Rite, RiteResult, Table, cult, rank, require

TREE_SIZE = 4


class PlantTree(Schema):
    card = fields.Integer(required=True)


class GrowTree(Schema):
    card = fields.Integer(required=True)
    tree = fields.Integer(required=True)


@dataclass(frozen=True, slots=True)
class TreeState:
    trees: tuple[tuple[int, ...], ...] = ()
    turn: int | None = None
    """Whose turn it is (None before the first play: the rite's opener)."""
    again: bool = False
    """The cultist on turn scored a double play and must play another card."""
    drew: bool = False
    """The cultist on turn could not play and drew a card: may play it, or end the turn."""


def fits(tree: tuple[int, ...], card: int) -> bool:
    """A card grows an incomplete tree if the tree stays a run without repeats (extended at either end)."""
    if len(tree) >= TREE_SIZE:
        return False
    ranks = {rank(c) for c in tree}
    if rank(card) in ranks:
        return False
    ranks.add(rank(card))
    return max(ranks) - min(ranks) == len(ranks) - 1


def is_double_play(tree: tuple[int, ...], card: int) -> bool:
    """Double play: the card completes the tree, or matches the cult of a tree card it is next in sequence to."""
    if len(tree) + 1 == TREE_SIZE:
        return True
    return any(cult(c) == cult(card) and abs(rank(c) - rank(card)) == 1 for c in tree)


class TreeOnTheHill(Rite):
    id = "tree_on_the_hill"
    title = "The Tree on the Hill"
    summary = "Grow trees of four-card runs; a double play forces another play; first with an empty hand wins."
    privilege = "The Grand Cultist plays first and plants the first tree with any card."
    commands = {"plant_tree": PlantTree, "grow_tree": GrowTree, "draw_card": DrawCard, "end_turn": EndTurn}
    state_types = (TreeState,)

    def initial(self, table: Table) -> TreeState:
        return TreeState()

    def _turn(self, table: Table, state: TreeState) -> int:
        return base.opener(table) if state.turn is None else state.turn

    def to_act(self, table: Table, state: TreeState) -> frozenset[int]:
        return frozenset({self._turn(table, state)})

    def _incomplete(self, state: TreeState) -> list[int]:
        return [i for i, t in enumerate(state.trees) if len(t) < TREE_SIZE]

    def _plays(self, table: Table, state: TreeState, seat: int) -> list[dict[str, Any]]:
        hand = sorted(table.hands[seat])
        incomplete = self._incomplete(state)
        out = [{"type": "grow_tree", "card": c, "tree": i} for c in hand for i in incomplete if fits(state.trees[i], c)]
        # Planting: only when no tree is incomplete, or as the play that follows a double play.
        if state.again or not incomplete:
            out += [{"type": "plant_tree", "card": c} for c in hand]
        return out

    def legal_commands(self, table: Table, state: TreeState, seat: int) -> list[dict[str, Any]]:
        if seat != self._turn(table, state):
            return []
        plays = self._plays(table, state, seat)
        if state.drew:
            return plays + [{"type": "end_turn"}]
        return plays or [{"type": "draw_card"}]

    def decide(self, table: Table, state: TreeState, command: Any, seat: int, rng: Any) -> list:
        require(seat == self._turn(table, state), "rules/not_your_turn", "It is not your turn in this rite.")
        kind = command["type"]
        plays = self._plays(table, state, seat)
        if kind == "draw_card":
            require(not state.drew, "rules/already_drew", "You have already drawn this turn.")
            require(not plays, "rules/must_play_if_able", "You can play a card, so you may not draw.")
            return [ev("drew_unable_to_play", seat=seat), *base.draw(table, seat, 1)]
        if kind == "end_turn":
            require(state.drew, "rules/must_play_if_able", "You must play a card (or draw if you cannot).")
            return [ev("turn_passed", seat=base.next_seat(table, seat))]
        require(command in plays, *self._why(table, state, seat, command))
        card = command["card"]
        if kind == "plant_tree":
            tree, double = len(state.trees), False
        else:
            tree = command["tree"]
            double = is_double_play(state.trees[tree], card)
        events = [ev("card_played_to_tree", seat=seat, card=card, tree=tree, planted=kind == "plant_tree",
                     double_play=double)]
        if not double and len(table.hands[seat]) > 1:
            events.append(ev("turn_passed", seat=base.next_seat(table, seat)))
        return events

    def _why(self, table: Table, state: TreeState, seat: int, command: Any) -> tuple[str, str]:
        card = command["card"]
        if card not in table.hands[seat]:
            return "rules/card_not_in_hand", "That card is not in your hand."
        if command["type"] == "plant_tree":
            return "rules/must_play_on_incomplete_tree", "You may not plant a new tree while a tree is incomplete."
        tree = command.get("tree", -1)
        if not 0 <= tree < len(state.trees):
            return "rules/no_such_tree", "There is no such tree."
        return "rules/tree_must_be_a_run", "A tree is a run of four elder signs without repeats."

    def evolve(self, table: Table, state: TreeState, event: Any) -> tuple[Table, TreeState]:
        d = event.data
        match event.type:
            case "card_played_to_tree":
                table = base.with_hand(table, d["seat"], base.remove_cards(table.hands[d["seat"]], [d["card"]]))
                trees = list(state.trees)
                if d["planted"]:
                    trees.append((d["card"],))
                else:
                    trees[d["tree"]] = trees[d["tree"]] + (d["card"],)
                return table, dataclasses.replace(state, trees=tuple(trees), turn=d["seat"], again=d["double_play"],
                                                  drew=False)
            case "drew_unable_to_play":
                return table, dataclasses.replace(state, turn=d["seat"], drew=True)
            case "turn_passed":
                return table, dataclasses.replace(state, turn=d["seat"], again=False, drew=False)
            case _:
                raise TypeError(f"The Tree on the Hill has no event {event.type}")

    def result(self, table: Table, state: TreeState) -> RiteResult | None:
        return base.shedding_result(table)

    def cards(self, state: TreeState) -> tuple[int, ...]:
        return tuple(c for t in state.trees for c in t)

    def invariant(self, table: Table, state: TreeState) -> None:
        for t in state.trees:
            assert len(t) <= TREE_SIZE and len({rank(c) for c in t}) == len(t)

    def view(self, table: Table, state: TreeState, viewer: Any) -> dict[str, Any]:
        return {
            "trees": [{"cards": list(t), "complete": len(t) == TREE_SIZE} for t in state.trees],
            "turn": self._turn(table, state),
            "must_play_again": state.again,
            "drew": state.drew,
        }
