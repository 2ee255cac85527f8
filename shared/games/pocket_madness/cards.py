"""Pocket Madness card data: the 63 Location cards, the 7 Portal cards and the Madness tokens.

Everything here is printed in the rulebook (contents list and the Portal card texts). A Location and its
Portal share a number: the number printed on a Location card is how many copies of it exist, and melding a
set of that Location claims the Portal of the same number.
"""

from __future__ import annotations

LOCATION_NAMES = {
    6: "R'lyeh",
    7: "Arkham Asylum",
    8: "Lomar",
    9: "Innsmouth",
    10: "Valley of the Kings",
    11: "Dunwich",
    12: "Underworld",
}
LOCATIONS = tuple(sorted(LOCATION_NAMES))
COPIES = {number: number for number in LOCATIONS}
TOTAL_CARDS = sum(COPIES.values())
FULL_DECK = tuple(number for number in LOCATIONS for _ in range(COPIES[number]))

CTHULHU, AZATHOTH, SHUB_NIGGURATH, DAGON, NYARLATHOTEP, SHOGGOTH, GUG = LOCATIONS
PORTAL_NAMES = {
    CTHULHU: "Cthulhu",
    AZATHOTH: "Azathoth",
    SHUB_NIGGURATH: "Shub-Niggurath",
    DAGON: "Dagon",
    NYARLATHOTEP: "Nyarlathotep",
    SHOGGOTH: "Shoggoth",
    GUG: "Gug",
}
PORTAL_TEXT = {
    CTHULHU: "Distribute 1 or 2 cards from your hand to 1 or 2 players (your choice).",
    AZATHOTH: "Discard 1 random card from each opponent's hand. These cards are discarded face-up before each player.",
    SHUB_NIGGURATH: "Look at an opponent's hand cards, take 1 card of your choice, and add it to your hand.",
    DAGON: "You immediately take another complete turn.",
    NYARLATHOTEP: "Take the card of your choice, no matter where it is in the deck. You can take a face-down card.",
    SHOGGOTH: "Until your next turn, your opponents must draw 1 Location card for their action.",
    GUG: "Pass your turn. This Portal card cannot be played immediately after having been drawn.",
}

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MADNESS_TOKENS = 40
HAND_SIZE = 2  # Setup 3: cards dealt to each player
FACE_DOWN_CARDS = 17  # Setup 4: cards set aside unseen and shuffled back face down
MADNESS_LIMIT = 10  # End of the Game: a round that ends with someone at 10 or more ends the game
MAX_DRAW = 3  # Persevere: the top 1, 2 or 3 cards
MIN_SET = 3  # Open a Portal: 3 or more identical cards
MAX_SET = max(COPIES.values())  # every copy of the largest Location
MAX_MELDS_PER_TURN = 3  # up to 3 sets, or up to 3 runs
MAX_GIFTS = 2  # Cthulhu: 1 or 2 cards

CARD_DATA = {
    "locations": [
        {"number": n, "name": LOCATION_NAMES[n], "copies": COPIES[n], "portal": n, "source": "rulebook"} for n in LOCATIONS
    ],
    "portals": [
        {"number": n, "name": PORTAL_NAMES[n], "location": n, "text": PORTAL_TEXT[n], "source": "rulebook"}
        for n in LOCATIONS
    ],
    "madness_tokens": {"count": MADNESS_TOKENS, "source": "rulebook"},
    "setup": {
        "hand_size": HAND_SIZE,
        "face_down_cards": FACE_DOWN_CARDS,
        "madness_limit": MADNESS_LIMIT,
        "source": "rulebook",
    },
}
