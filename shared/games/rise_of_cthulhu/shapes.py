"""Rise of Cthulhu on the wire: what ``view`` returns to each reader and what its outcome carries
(``shared.kernel.shapes``)."""

from __future__ import annotations

from shared.kernel.shapes import (
    SEAT, Shapes, array, boolean, integer, lacks, nullable, obj, requires, seats, string,
)

from shared.games.rise_of_cthulhu.cards import LOCATIONS, OLD_ONE_SLOT, OLD_ONES
from shared.games.rise_of_cthulhu.rules import Reason

CARD = string("a card by its id (a Cultist such as green-7, a Monster, an Artifact; the catalogue's card_data "
              f"describes each; {OLD_ONE_SLOT!r}: an Old One's face-down slot in the Cultist Deck)")
CARDS = array(CARD)
LOCATION = string("a Location", enum=LOCATIONS)
OLD_ONE = string("an Old One", enum=OLD_ONES)
PER_SEAT = array(integer(minimum=0), "one number per seat")

OUTCOME_DETAILS = obj("The tie-breaks, in the rulebook's order", {
    "azathoth": boolean("Azathoth awoke: Locations do not count"),
    "locations": PER_SEAT,
    "points": PER_SEAT,
    "artifacts_acquired": PER_SEAT,
    "monsters_played": PER_SEAT,
    "hand_sizes": PER_SEAT,
    "resigned": seats("seats that resigned (they cannot win)"),
}, optional=("resigned",))

VIEW = obj("Rise of Cthulhu as its reader may know it: the public table, hand counts, what each side has seen the "
           "other take, and the reader's own hand", {
    "phase": string("turn, owed_draws (draws owed after an awakening), awakening (an Old One's power to resolve), over",
                    enum=("turn", "owed_draws", "awakening", "over")),
    "current": SEAT,
    "to_act": seats("the seats the game waits on"),
    "actions_taken": integer(minimum=0),
    "actions_allowed": integer(minimum=0),
    "must_draw_from_deck": boolean("the seat in turn must draw from the Cultist Deck next"),
    "deck_size": integer(minimum=0),
    "old_ones_in_deck_at": array(integer(minimum=0), "places in the Cultist Deck (0: the top) holding an Old One"),
    "valley": array(CARD, "the Valley's face-up cards"),
    "discard": CARDS,
    "spent": array(CARD, "Monsters and Artifacts played and gone"),
    "monster_deck_size": integer(minimum=0),
    "artifact_deck_size": integer(minimum=0),
    "hunter": nullable(LOCATION, "where the Dark Hunter stands"),
    "locations": array(obj("A Location and both sides' cards at it", {
        "name": LOCATION,
        "old_one": nullable(OLD_ONE, "the Old One awoken there"),
        "facing": nullable(SEAT, "the side it faces (null: neutral)"),
        "sides": array(obj("One seat's side of the Location", {
            "cultists": CARDS,
            "monsters": CARDS,
            "points": integer(minimum=0),
        }), "seat 0's side, then seat 1's", min_items=2, max_items=2),
    })),
    "awake": array(OLD_ONE, "Old Ones awoken, in order"),
    "not_awake": array(OLD_ONE),
    "pending_power": nullable(obj("An awoken Old One's power to resolve", {
        "old_one": OLD_ONE,
        "location": LOCATION,
        "influencer": SEAT,
        "drawn_by": SEAT,
    })),
    "owed_draws": PER_SEAT,
    "hand_sizes": PER_SEAT,
    "hand_counts": array(obj("Cards in a hand, by kind", {
        "cultists": integer(minimum=0),
        "monsters": integer(minimum=0),
        "artifacts": integer(minimum=0),
    })),
    "known_in_hand": array(CARDS, "per seat, the cards both seats have seen go into its hand"),
    "points": PER_SEAT,
    "locations_facing": PER_SEAT,
    "artifacts_acquired": PER_SEAT,
    "monsters_played": PER_SEAT,
    "seat": SEAT,
    "hand": array(CARD, "the reader's own hand"),
    "hands": array(CARDS, "both hands (only once the game is over)"),
    "deck": array(CARD, "the Cultist Deck, top first (only once the game is over)"),
    "monster_deck": CARDS,
    "artifact_deck": CARDS,
    "outcome": obj("The game's end, as the outcome gives it", {
        "reason": string(enum=Reason),
        "winners": seats(),
        "scores": array(integer()),
        "details": OUTCOME_DETAILS,
    }),
}, optional=("seat", "hand", "hands", "deck", "monster_deck", "artifact_deck", "outcome"))

SHAPES = Shapes(
    view=VIEW,
    seat=requires("seat", "hand"),
    spectator=lacks("seat", "hand", "hands", "deck", "monster_deck", "artifact_deck"),
    outcome_details=OUTCOME_DETAILS,
    withheld={"game_set_up": ("deck", "monster_deck", "artifact_deck"), "cards_dealt": ("cards",),
              "card_drawn": ("card",), "monster_drawn": ("card",), "artifact_drawn": ("card",)},
)
