"""Toy on the wire: what ``view`` returns to each reader and what its outcome carries (``shared.kernel.shapes``)."""

from __future__ import annotations

from shared.kernel.shapes import SEAT, Shapes, array, integer, lacks, obj, one_of

CARD = integer("a card by its value", minimum=1, maximum=12)

VIEW = obj("Toy as its reader may know it: the reader's own hand, the other hands as counts", {
    "turn": SEAT,
    "points": array(integer(minimum=0), "each seat's points"),
    "deck_size": integer(minimum=0),
    "hands": array(one_of(array(CARD), integer(minimum=0)), "per seat: the cards of a hand the reader may see (its "
                                                            "own; every hand once the game is over), else how many"),
    "deck": array(CARD, "the deck, top first (only once the game is over)"),
}, optional=("deck",))

SHAPES = Shapes(view=VIEW, spectator=lacks("deck"), withheld={"game_started": ("deck",), "card_dealt": ("card",),
                                                              "card_drawn": ("card",)})
