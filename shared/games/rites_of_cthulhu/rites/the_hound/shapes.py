"""The Hound on the wire: the rite's part of the view (``views.py``)."""

from __future__ import annotations

from shared.kernel.shapes import SEAT, array, boolean, by_seat, integer, nullable, obj, seats, string

from shared.games.rites_of_cthulhu.rites.shapes import CARD, CARDS, POINTS
from shared.games.rites_of_cthulhu.rites.the_hound.cards import Choice
from shared.games.rites_of_cthulhu.rites.the_hound.state import Digging, Emptied, Laying, PeekPrivilege, Placed, Placing

GRAVE = integer("a grave, from 0", minimum=0)

VIEW = obj("The Hound: send ghouls to peek at and dig up graves; sealed henchmen decide who loots", {
    "phase": string(enum=(kind.__name__.lower() for kind in (Laying, PeekPrivilege, Placing, Placed, Digging, Emptied))),
    "graves": array(obj("A grave", {
        "grave": GRAVE,
        "ghouls": array(obj("A ghoul placed on it", {"seat": SEAT, "card": CARD})),
        "status": string(enum=("face_down", "face_up", "looted")),
        "card": CARD,
        "peeked": boolean("the reader peeked at this face-down grave"),
        "looted_by": SEAT,
    }, optional=("card", "peeked", "looted_by")), "a face-down grave's card only for a reader who peeked"),
    "points": POINTS,
    "discards": CARDS,
    "turn": SEAT,
    "placed_at": GRAVE,
    "dig": obj("digging: the partners' sealed choices", {
        "grave": GRAVE,
        "sealed": seats("the partners who sealed"),
        "choices": by_seat(obj("A sealed choice the reader made", {
            "choice": string(enum=Choice),
            "card": nullable(CARD),
        }), "the reader's own sealed choice"),
        "cards": by_seat(nullable(CARD), "henchmen shown while hands are open"),
    }, optional=("choices", "cards")),
}, optional=("turn", "placed_at", "dig"))
