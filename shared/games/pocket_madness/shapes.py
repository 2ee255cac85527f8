"""Pocket Madness on the wire: what ``view`` returns to each reader and what its outcome carries
(``shared.kernel.shapes``)."""

from __future__ import annotations

from shared.kernel.shapes import (
    SEAT, Shapes, array, boolean, integer, lacks, nullable, obj, requires, seats, string,
)

from shared.games.pocket_madness.cards import LOCATIONS, MADNESS_LIMIT, MAX_SET, PORTAL_NAMES
from shared.games.pocket_madness.state import Action, RoundEnd

LOCATION = integer("a Location card by its number (6 R'lyeh … 12 Underworld; the catalogue's card_data names them)",
                   enum=LOCATIONS)
PORTAL = integer("a Portal by its number, the number of its Location", enum=LOCATIONS)
CARDS = array(LOCATION, "Location cards, by number")
PHASES = ("designating", "playing", "round_over", "game_over")

OUTCOME_DETAILS = obj("The final Madness of each seat (the fewest wins)", {
    "madness": array(integer(minimum=0), "each seat's Madness tokens"),
    "lower_is_better": boolean("always true: the sanest cultist wins"),
    "rounds": integer("rounds played", minimum=1),
    "resigned": seats("seats that resigned (they cannot win)"),
}, optional=("resigned",))

TURN = obj("The turn under way", {
    "seat": SEAT,
    "extra": boolean("a Dagon turn"),
    "last": boolean("a last turn after the deck ran out (melding only)"),
    "action": nullable(string("the action taken so far this turn", enum=Action)),
    "melds": integer("sets or runs melded this turn", minimum=0, maximum=3),
    "sealed": boolean("a Portal was sealed this turn"),
    "claimed": array(PORTAL, "Portals claimed this turn"),
    "gug_claimed_before": boolean("a Dagon turn right after the turn that claimed Gug (Gug cannot be sealed)"),
    "extra_turn_owed": boolean("Dagon was sealed: another turn follows this one"),
})

PENDING = obj("A sealed Portal's power being resolved", {
    "portal": PORTAL,
    "name": string("the Portal's name", enum=PORTAL_NAMES.values()),
    "target": nullable(SEAT, "the opponent chosen, once chosen"),
    "given": integer("cards given so far (Cthulhu)", minimum=0, maximum=2),
    "target_hand": CARDS,
}, optional=("target_hand",))

VIEW = obj("Pocket Madness as its reader may know it: the public table, the reader's own hand, every hand once laid "
           "down", {
    "players": integer("seats at the table", minimum=2, maximum=4),
    "round": integer("the round, from 1", minimum=1),
    "madness": array(integer(minimum=0), "each seat's Madness tokens"),
    "madness_supply": integer("Madness tokens left in the supply", minimum=0),
    "madness_limit": integer("a round that leaves a seat at this much Madness ends the game", enum=[MADNESS_LIMIT]),
    "to_act": seats("the seats the game waits on"),
    "deck": array(obj("A card of the splayed deck, from the top", {
        "face_up": boolean(),
        "location": LOCATION,
    }, optional=("location",)), "the splayed deck, top first: a face-down card's location is shown only after the end"),
    "deck_size": integer("cards left in the deck", minimum=0),
    "face_down_in_deck": integer("face-down cards left in the deck", minimum=0),
    "hand_counts": array(integer(minimum=0), "cards in each seat's hand"),
    "known_cards": array(CARDS, "per seat, the cards everyone knows are in its hand"),
    "melds": array(array(obj("A meld in front of a seat", {
        "kind": string(enum=("run", "set")),
        "location": nullable(LOCATION, "a set's Location (null for a run)"),
        "count": integer("cards in it", minimum=3, maximum=MAX_SET),
    })), "per seat, its melds"),
    "discards": array(CARDS, "per seat, the cards discarded face up before it"),
    "portals": array(obj("A Portal card", {
        "portal": PORTAL,
        "name": string(enum=PORTAL_NAMES.values()),
        "owner": nullable(SEAT, "who holds it (null: in the pool)"),
    }), "the seven Portals"),
    "hand": CARDS,
    "hands": array(CARDS, "every seat's hand, once laid down (the deck ran out) or the game is over"),
    "seat": SEAT,
    "phase": string("designating (the first player is being chosen), playing, round_over or game_over", enum=PHASES),
    "previous_start": nullable(SEAT, "designating: the previous round's first player"),
    "chooser": nullable(SEAT, "designating: the seat that designates the first player"),
    "start_player": SEAT,
    "runs_this_round": integer("playing: runs melded this round", minimum=0),
    "next_run_madness": integer("playing: Madness each opponent takes for the next run", minimum=1),
    "shoggoth": nullable(SEAT, "playing: the seat whose Shoggoth binds its opponents"),
    "bound_by_shoggoth": boolean("playing: the seat in turn must draw exactly one card"),
    "last_turns": nullable(seats(), "playing, once the deck ran out: the seats still owed a last turn, in order"),
    "turn": TURN,
    "pending": nullable(PENDING, "playing: a Portal power being resolved"),
    "reason": string("round_over and game_over: how the round ended", enum=RoundEnd),
    "ender": nullable(SEAT, "the seat that emptied its hand"),
    "gained": array(integer(), "each seat's Madness change at the round's end"),
    "designator": nullable(SEAT, "round_over: the seat that designates the next first player"),
    "outcome": nullable(obj("The game's end, as the outcome gives it", {
        "reason": string(enum=("madness",)),
        "winners": seats(),
        "scores": array(integer()),
        "details": OUTCOME_DETAILS,
    })),
}, optional=("hand", "hands", "seat", "previous_start", "chooser", "start_player", "runs_this_round", "next_run_madness",
             "shoggoth", "bound_by_shoggoth", "last_turns", "turn", "pending", "reason", "ender", "gained", "designator",
             "outcome"))

SHAPES = Shapes(
    view=VIEW,
    seat=requires("seat", "hand"),
    spectator=lacks("seat", "hand"),
    outcome_details=OUTCOME_DETAILS,
    withheld={"round_dealt": ("face_down", "hand_0", "hand_1", "hand_2", "hand_3"), "cards_drawn": ("face_down",),
              "card_given": ("location",), "hand_looked_at": ("cards",), "card_taken": ("location",),
              "deck_card_taken": ("card",)},
)
