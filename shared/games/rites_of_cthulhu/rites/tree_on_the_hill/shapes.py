"""The Tree on the Hill on the wire: the rite's part of the view (``views.py``)."""

from __future__ import annotations

from shared.kernel.shapes import SEAT, array, boolean, obj

from shared.games.rites_of_cthulhu.rites.shapes import CARDS

VIEW = obj("The Tree on the Hill: grow trees of cards of different ranks; the first to empty their hand wins", {
    "trees": array(obj("A tree", {"cards": CARDS, "complete": boolean("it has all its cards")})),
    "turn": SEAT,
    "must_play_again": boolean("the seat in turn must play again"),
    "drew": boolean("the seat in turn drew a card this turn"),
})
