"""Rites of Cthulhu on the wire: what ``view`` returns to each reader and what its outcome carries
(``shared.kernel.shapes``). The rite under way is one of the rites' own views, told apart by its ``id``."""

from __future__ import annotations

from typing import Any

from shared.kernel.shapes import (
    SEAT, Shapes, array, boolean, by_seat, const, integer, obj, one_of, seats, string,
)

from shared.games.rites_of_cthulhu.cards import ARTIFACT_COUNT
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.shapes import VIEW as CTHULHU_RISES
from shared.games.rites_of_cthulhu.rites.dunwich_horror.shapes import VIEW as DUNWICH_HORROR
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.shapes import VIEW as MOUNTAINS_OF_MADNESS
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.shapes import VIEW as OUT_OF_THE_AEONS
from shared.games.rites_of_cthulhu.rites.shapes import CARDS, TABLE
from shared.games.rites_of_cthulhu.rites.the_hound.shapes import VIEW as THE_HOUND
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.shapes import VIEW as TREE_ON_THE_HILL
from shared.games.rites_of_cthulhu.state import Choosing, Claiming, Finished, Performing

RITE_VIEWS = {"cthulhu_rises": CTHULHU_RISES, "tree_on_the_hill": TREE_ON_THE_HILL,
              "mountains_of_madness": MOUNTAINS_OF_MADNESS, "dunwich_horror": DUNWICH_HORROR,
              "out_of_the_aeons": OUT_OF_THE_AEONS, "the_hound": THE_HOUND}
if set(RITE_VIEWS) != set(RITES):  # a rite added to the registry describes its view here too
    raise ImportError(f"rites without a view shape: {sorted(set(RITES) - set(RITE_VIEWS))}")

ARTIFACT = integer("an artifact by its id (the catalogue's card_data names it)", minimum=0, maximum=ARTIFACT_COUNT - 1)
RITE_ID = string("a rite by its id", enum=RITES)


def rite_view(rite_id: str) -> dict[str, Any]:
    """The view of the rite under way: its id, title and whether it has begun, then the rite's own fields."""
    own = RITE_VIEWS[rite_id]
    return obj(own["description"], {
        "id": const(rite_id),
        "title": string(enum=(RITES[rite_id].title,)),
        "begun": boolean("the rite's deal is done"),
        **own["properties"],
    }, optional=set(own["properties"]) - set(own["required"]))


OUTCOME_DETAILS = obj("Nothing beyond the scores, save the seats that resigned", {
    "resigned": seats("seats that resigned (they cannot win)"),
}, optional=("resigned",))

VIEW = obj("Rites of Cthulhu as its reader may know it: the Grand Cultist, the artifacts, the table and the rite under "
           "way", {
    "players": integer("seats at the table", minimum=2, maximum=6),
    "grand_cultist": SEAT,
    "rites_total": integer("rites this game plays", minimum=1),
    "rites_played": array(RITE_ID, "rites performed, in order"),
    "rites_available": array(RITE_ID, "rites the Grand Cultist may still choose"),
    "stage": string("choosing (the Grand Cultist picks a rite), performing, claiming (the rite's winner claims "
                    "artifacts), finished",
                    enum=(kind.__name__.lower() for kind in (Choosing, Performing, Claiming, Finished))),
    "to_act": seats("the seats the game waits on"),
    "coveted": array(ARTIFACT, "the Coveted Artifacts on offer"),
    "captured": by_seat(array(ARTIFACT), "artifacts each seat captured"),
    "scores": by_seat(integer(minimum=0), "elder sign points of each seat's artifacts"),
    "artifact_deck": array(ARTIFACT, "artifacts left to excavate"),
    "thrown_out": array(ARTIFACT),
    "second_used": array(ARTIFACT, "artifacts whose second invocation was used"),
    "fresh_used": array(ARTIFACT),
    "first_draws": array(CARDS, "per seat, the cards it drew first this rite"),
    "table": TABLE,
    "rite": one_of(*(rite_view(rite_id) for rite_id in RITES), discriminator="id",
                   description="performing: the rite under way, by its id"),
    "claiming": SEAT,
    "pile_order": array(CARDS["items"], "the pile, top first (only once the game is over)"),
    "face_down": array(array(integer(), min_items=2, max_items=2),
                       "the face-down set-aside cards, each [card, who saw it: a seat, -1 nobody, -2 everybody] (only "
                       "once the game is over)"),
}, optional=("rite", "claiming", "pile_order", "face_down"))

SHAPES = Shapes(
    view=VIEW,
    spectator={"if": {"properties": {"table": {"properties": {"modifiers": {"properties": {"open_hands": {"const": False}}}}}}},
               "then": {"properties": {"table": {"properties": {"hands": {"additionalProperties": {"type": "integer"}}}}}}},
    outcome_details=OUTCOME_DETAILS,
    withheld={"entities_shuffled": ("order",), "cards_drawn": ("cards",), "cards_known": ("cards",),
              "hand_cards_set_aside_face_down": ("cards",), "pile_cards_set_aside": ("cards",), "card_forced": ("card",),
              "card_returned": ("card", "received"), "bid_sealed": ("card",), "aeons_cards_regathered":
              ("deck", "remainders", "sub_deck"), "dunwich_discards_reshuffled": ("order",),
              "farmhouse_walls_built": ("walls",), "graveyard_laid": ("graves",), "grave_peeked": ("card",),
              "henchman_sealed": ("card", "choice"), "dummy_returned": ("card",)},
)
