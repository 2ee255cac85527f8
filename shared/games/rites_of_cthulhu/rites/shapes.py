"""What every rite's view shares on the wire: the entity cards, and the table around the rites (``table.py``'s
``table_view``). Each rite describes its own view in its ``shapes.py``; the game's ``shapes.py`` puts them together."""

from __future__ import annotations

from shared.kernel.shapes import SEAT, array, boolean, by_seat, integer, nullable, obj, one_of, string

from shared.games.rites_of_cthulhu.cards import CULTS, DECK_SIZE

CARD = integer("an entity card by its id (the catalogue's card_data gives its name, cult and rank)", minimum=0,
               maximum=DECK_SIZE - 1)
CARDS = array(CARD)
CULT = string("a cult", enum=CULTS)
POINTS = by_seat(integer(minimum=0), "elder sign points so far, by seat")
CAPTURED = by_seat(CARDS, "cards captured, by seat")

TABLE = obj("The table around the rites: hands, the pile and what the artifacts changed", {
    "hands": by_seat(one_of(CARDS, integer(minimum=0)), "by seat: the cards of a hand the reader may see (its own, "
                                                        "or every hand while hands are open), else how many it holds"),
    "pile": integer("cards in the entities pile", minimum=0),
    "set_aside": array(CARD, "cards set aside face up"),
    "set_aside_face_down": integer("cards set aside face down", minimum=0),
    "set_aside_face_down_seen": array(CARD, "the face-down set-aside cards the reader has seen"),
    "traded": array(obj("A card the reader saw change hands", {"card": CARD, "seat": SEAT})),
    "modifiers": obj("What the artifacts changed for this rite", {
        "direction": integer("1: clockwise, -1: counter-clockwise", enum=(1, -1)),
        "opener": nullable(SEAT, "who takes the Grand Cultist's first turn (null: the Grand Cultist)"),
        "low_wins": boolean("rank comparisons are inverted"),
        "open_hands": boolean("every hand is played face up"),
        "no_power_plays": boolean("power-plays are forbidden this rite"),
    }),
    "peeked": array(obj("Cards the reader saw in a hand", {"seat": SEAT, "cards": CARDS})),
    "trade": obj("A forced trade under way: the receiver answers with a card", {
        "giver": SEAT,
        "receiver": SEAT,
        "card": CARD,
    }, optional=("card",)),
}, optional=("trade",))
