"""Cthulhu: The Great Old One on the wire: what ``view`` returns to each reader and what its outcome carries
(``shared.kernel.shapes``)."""

from __future__ import annotations

from shared.kernel.shapes import (
    SEAT, Shapes, array, boolean, integer, lacks, nullable, obj, requires, seats, string,
)

from shared.games.great_old_one.cards import CONNECTIONS, PAIRS_TO_END
from shared.games.great_old_one.state import EndReason, Step

CARD = integer("a card by its id (the catalogue's card_data gives its name and kind)", minimum=0)
CARDS = array(CARD)
PHASES = ["opening", *(step.value for step in Step), "over"]

OUTCOME_DETAILS = obj("How the game ended", {
    "end": string("what ended it", enum=EndReason),
    "great_old_one": nullable(SEAT, "who held the Great Old One at the end"),
    "pairs": array(integer(minimum=0), "pairs in each seat's area"),
    "resigned": seats("seats that resigned (they cannot win)"),
}, optional=("resigned",))

SEAT_AREA = obj("A seat's area and hand size", {
    "seat": SEAT,
    "hand_size": integer(minimum=0),
    "pairs": array(obj("A pair of Story cards in the area", {
        "cards": CARDS,
        "matched": boolean("two copies of one story (else linked by a shared connection)"),
        "connections": array(string(enum=(key for key, _, _ in CONNECTIONS)), "the connections the pair names"),
    })),
    "horrors": array(CARD, "Horror cards in the area"),
    "cultist": boolean("the Cultist is in the area"),
    "score": integer("points so far"),
    "warded": boolean("protected from the next Horror"),
    "opening_done": boolean("opening: the seat has finished its opening swaps"),
    "hand": array(CARD, "its hand: the reader's own, or every hand once the game is over"),
}, optional=("opening_done", "hand"))

VIEW = obj("The Great Old One as its reader may know it: every area, the centre, the reader's own hand, every hand "
           "once revealed at the end", {
    "phase": string("opening, then each turn's step (draw, call, recruit, horror), over", enum=PHASES),
    "turn": SEAT,
    "turn_number": integer("turns begun so far", minimum=0),
    "first_player": SEAT,
    "deck_size": integer(minimum=0),
    "centre": array(CARD, "the centre's face-up Story cards"),
    "removed": array(CARD, "cards removed from the game"),
    "horror_played": boolean("a Horror was played this turn"),
    "seats": array(SEAT_AREA, "every seat, in order"),
    "pairs_to_end": integer("the pair that ends the game", enum=[PAIRS_TO_END]),
    "finish_round": boolean("the finish-round variant (an option)"),
    "final_round": boolean("the last round is under way (finish-round variant)"),
    "hand": array(CARD, "the reader's own hand"),
    "deck": array(CARD, "the deck, top first (only once the game is over)"),
    "end_reason": string("over: what ended the game", enum=EndReason),
}, optional=("hand", "deck", "end_reason"))

SHAPES = Shapes(
    view=VIEW,
    seat=requires("hand"),
    spectator=lacks("hand", "deck"),
    outcome_details=OUTCOME_DETAILS,
    withheld={"deck_shuffled": ("order",), "cards_dealt": ("cards",), "card_drawn": ("card",), "card_taken": ("card",),
              "card_given": ("card",), "story_called": ("card",)},
)
