"""The Tree on the Hill's commands (besides the shared ``draw_card`` and ``end_turn``)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type

from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn


@dataclass(frozen=True, slots=True)
class PlantTree(Command, type="plant_tree"):
    """Plant a new tree with a card of your hand: only when no tree is incomplete (the Grand Cultist's first
    play), or as the play a double play forces ("Tree on the Hill", The Play)."""

    card: int = arg("an entity card id from your hand")


@dataclass(frozen=True, slots=True)
class GrowTree(Command, type="grow_tree"):
    """Play a card on an incomplete tree: the tree must stay a run of elder signs without repeats; a card next in
    sequence and of the same cult as a tree card, or the tree's fourth card, is a double play and you play again
    ("Tree on the Hill", The Play)."""

    card: int = arg("an entity card id from your hand")
    tree: int = arg("the index of an incomplete tree, in the order they were planted")


COMMANDS = by_type(PlantTree, GrowTree, DrawCard, EndTurn)
