"""Arkham Ritual on the wire: what ``view`` returns to each reader and what its outcome carries
(``shared.kernel.shapes``)."""

from __future__ import annotations

from shared.kernel.shapes import (
    SEAT, Shapes, array, boolean, const, integer, lacks, nullable, obj, requires, seats, string,
)

from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.state import Drawing, Finished, GameEnd, Offered, Passing, Peeking, Resolving, RoundEnd

CARD = integer("a card by its id (the catalogue's card_data gives its name, kind and colour)", minimum=0)
CARDS = array(CARD)
COLOUR = string("a card's colour", enum=(C.SANE, C.CURSED))
PHASES = ["setting_up", *(kind.__name__.lower() for kind in (Drawing, Passing, Offered, Peeking, Resolving, Finished))]

OUTCOME_DETAILS = obj("How the game went", {
    "competitive": boolean("the competitive variant: only the most Sanity wins"),
    "rounds": integer("rounds played", minimum=1),
    "resigned": seats("seats that resigned (they cannot win)"),
}, optional=("resigned",))

VIEW = obj("Arkham Ritual as its reader may know it: every held card but the reader's own, the public piles, and "
           "what the reader saw face down itself", {
    "game": const("arkham-ritual"),
    "players": integer("seats at the table", minimum=C.MIN_PLAYERS, maximum=C.MAX_PLAYERS),
    "phase": string("drawing, passing (the Active Player passes the card it drew), offered (a Follower takes or "
                    "passes it on), peeking (a Magical Orb look), finished; setting_up only when read at a version "
                    "before the first deal", enum=PHASES),
    "round": integer("the round, from 1", minimum=1),
    "to_act": seats("the seats the game waits on"),
    "active": nullable(SEAT, "the Active Player (null between a round's start and its choice)"),
    "sanity": array(integer(minimum=0, maximum=C.MAX_SANITY), "each seat's Sanity"),
    "doom_track": boolean("losses follow the Doom Track (an option)"),
    "doom": nullable(integer(minimum=1), "the Doom Track's loss this round (null without the track)"),
    "competitive": boolean("the competitive variant (an option)"),
    "cards_in_play": array(CARD, "the cards this game is played with"),
    "cards": array(nullable(CARD), "each seat's card in front of it (null: the reader's own, which it cannot see, or one not yet "
                                        "dealt)"),
    "dummies": array(nullable(CARD), "the Dummy players' cards, face up (null: not yet dealt)"),
    "deck_size": integer("cards left in the Deck", minimum=0),
    "deck_top_colour": nullable(COLOUR, "the Deck's top card's colour, when a Shining Trapezohedron showed it"),
    "discards": array(CARD, "discarded cards, face up"),
    "removed_count": integer("cards removed from the game face down", minimum=0),
    "hands_on_table": seats("seats whose card lies on the table (they have left the round)"),
    "cleared_of_great_old_one": seats("seats everyone knows hold no Great Old One"),
    "passed_card": nullable(obj("The card going round face down", {
        "holder": SEAT,
        "passers": seats("who passed it on, in order"),
        "colour": nullable(COLOUR, "its colour, when a Shining Trapezohedron showed it"),
        "card": CARD,
    }, optional=("card",)), "the card being passed (its id only for a reader who saw it)"),
    "peeking": nullable(obj("A Magical Orb look under way", {"seat": SEAT, "card": CARD}, optional=("card",)),
                        "the seat looking at the top card (the card only for that seat)"),
    "last_round": nullable(obj("The last round's end, revealed", {
        "round": integer(minimum=1),
        "cause": string("how it ended", enum=RoundEnd),
        "cards": array(CARD, "each seat's card, revealed"),
        "dummy_cards": CARDS,
        "survived": nullable(array(boolean()), "who kept its Sanity, per seat (null when nobody lost any)"),
        "great_old_one_holder": nullable(SEAT, "who held the awakened Great Old One"),
    })),
    "outcome": nullable(obj("The game's end, as the outcome gives it", {
        "reason": string(enum=GameEnd),
        "winners": seats(),
        "scores": array(integer()),
        "details": OUTCOME_DETAILS,
    })),
    "seat": SEAT,
    "remembered": obj("What the reader saw face down itself", {
        "own_card": nullable(CARD, "its own card, when it saw it"),
        "own_card_colour": nullable(COLOUR, "its own card's colour, when shown"),
        "deck_top": nullable(CARD, "the Deck's top card, when it saw it"),
        "removed": array(CARD, "cards it removed from the game"),
    }),
    "deck": array(CARD, "the Deck, top first (only once the game is over)"),
    "removed": array(CARD, "every removed card (only once the game is over)"),
}, optional=("round", "to_act", "active", "doom_track", "doom", "competitive", "cards_in_play", "cards", "dummies",
             "deck_size", "deck_top_colour", "discards", "removed_count", "hands_on_table", "cleared_of_great_old_one",
             "passed_card", "peeking", "last_round", "outcome", "seat", "remembered", "deck", "removed"))

SHAPES = Shapes(
    view=VIEW,
    seat=requires("seat", "remembered"),
    spectator=lacks("seat", "remembered", "deck", "removed"),
    outcome_details=OUTCOME_DETAILS,
    withheld={"hand_dealt": ("card",), "deck_formed": ("cards",), "card_drawn": ("card",),
              "top_card_removed": ("card",), "card_taken": ("card",), "top_card_seen": ("card",)},
)
