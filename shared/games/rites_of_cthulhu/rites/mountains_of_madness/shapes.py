"""At the Mountains of Madness on the wire: the rite's part of the view (``views.py``)."""

from __future__ import annotations

from shared.kernel.shapes import SEAT, array, boolean, integer, nullable, obj, string

from shared.games.rites_of_cthulhu.rites.mountains_of_madness.cards import Side
from shared.games.rites_of_cthulhu.rites.shapes import CARD, CARDS

VIEW = obj("At the Mountains of Madness: extend the ridge and its slopes; the first to empty their hand wins", {
    "elder_sign": nullable(CARD, "the ridge's first card"),
    "ridge": array(CARD, "the ridge, by rank"),
    "slopes": array(obj("A slope above or below a ridge card", {
        "ridge_card": CARD,
        "side": string(enum=Side),
        "cards": CARDS,
    })),
    "turn": SEAT,
    "played_this_turn": integer("cards the seat in turn played this turn", minimum=0),
    "drew": boolean("the seat in turn drew a card this turn"),
})
