"""The Tree on the Hill's commands (besides the shared ``draw_card`` and ``end_turn``)."""

from __future__ import annotations

from marshmallow import Schema, fields

from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn


class PlantTree(Schema):
    """Plant a new tree with a card of your hand: only when no tree is incomplete (the Grand Cultist's first
    play), or as the play a double play forces ("Tree on the Hill", The Play)."""

    card = fields.Integer(required=True, metadata={"description": "an entity card id from your hand"})


class GrowTree(Schema):
    """Play a card on an incomplete tree: the tree must stay a run of elder signs without repeats; a card next in
    sequence and of the same cult as a tree card, or the tree's fourth card, is a double play and you play again
    ("Tree on the Hill", The Play)."""

    card = fields.Integer(required=True, metadata={"description": "an entity card id from your hand"})
    tree = fields.Integer(required=True,
                          metadata={"description": "the index of an incomplete tree, in the order they were planted"})


COMMANDS = {"plant_tree": PlantTree, "grow_tree": GrowTree, "draw_card": DrawCard, "end_turn": EndTurn}
