"""The Dunwich Horror on the wire: the rite's part of the view (``views.py``)."""

from __future__ import annotations

from shared.kernel.shapes import SEAT, array, integer, nullable, obj, seats, string

from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import Building, Claims, Freed, Replacing, Revealed, Turn
from shared.games.rites_of_cthulhu.rites.shapes import CAPTURED, CARD, CARDS, POINTS

ELDER_SIGN = integer("a card's elder sign points", minimum=0)

VIEW = obj("The Dunwich Horror: reveal and capture the farmhouse walls that hold the twins", {
    "phase": string(enum=(kind.__name__.lower() for kind in (Building, Replacing, Turn, Revealed, Claims, Freed))),
    "turn": nullable(SEAT, "whose turn it is (during claims: the revealer's; null while walls are built or replaced)"),
    "twins": array(obj("A twin", {"card": CARD, "elder_sign": ELDER_SIGN})),
    "walls": array(obj("A wall of the farmhouse", {
        "slot": integer(minimum=0),
        "twin": CARD,
        "status": string(enum=("face_down", "face_up", "captured")),
        "card": CARD,
        "elder_sign": ELDER_SIGN,
    }, optional=("card", "elder_sign")), "a face-down wall's card only once the game is over"),
    "captured": CAPTURED,
    "points": POINTS,
    "discards": CARDS,
    "replacing": seats("replacing: the seats still replacing cards"),
    "revealed_wall": integer("revealed: the wall just revealed", minimum=0),
    "claims": obj("claims: who may still claim the revealed wall", {
        "revealer": SEAT,
        "wall": integer(minimum=0),
        "passed": seats(),
        "waiting": seats(),
    }),
    "last_claims": obj("How the last claims ended", {
        "wall": integer(minimum=0),
        "claimant": nullable(SEAT, "who took the wall (null: nobody)"),
    }),
}, optional=("replacing", "revealed_wall", "claims", "last_claims"))
