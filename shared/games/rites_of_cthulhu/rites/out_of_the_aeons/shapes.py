"""Out of the Aeons on the wire: the rite's part of the view (``views.py``)."""

from __future__ import annotations

from shared.kernel.shapes import SEAT, boolean, by_seat, integer, nullable, obj, seats, string

from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.state import Bidding, Dealing, Ended, Privilege
from shared.games.rites_of_cthulhu.rites.shapes import CAPTURED, CARD, CARDS, POINTS

VIEW = obj("Out of the Aeons: seal bids for the yellow cards turned over one by one", {
    "phase": string(enum=(kind.__name__.lower() for kind in (Dealing, Privilege, Bidding, Ended))),
    "sub_deck": integer("yellow cards still to turn over", minimum=0),
    "revealed": nullable(CARD, "the yellow card bid for"),
    "privilege_used": boolean(),
    "captured": CAPTURED,
    "points": POINTS,
    "discards": CARDS,
    "remainders": integer("cards set aside unseen", minimum=0),
    "bids_sealed": seats("seats that sealed a bid"),
    "privileged": SEAT,
    "waiting": seats("bidding: the seats still to bid"),
    "sub_deck_order": CARDS,
    "remainder_cards": CARDS,
    "bids": by_seat(CARD, "the bids the reader may see: its own, and every bid once turned over"),
}, optional=("privileged", "waiting", "sub_deck_order", "remainder_cards", "bids"))
