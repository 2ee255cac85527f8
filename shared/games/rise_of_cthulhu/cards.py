"""Rise of Cthulhu card data: Locations from the rulebook; Cultists, Old Ones, Monsters and Artifacts designed
by the project (the rulebook names the card types and counts but prints no card text).

Every card is a JSON-compatible dict with its ``source``. The rules read the ``effect`` keys, so an owner of the
physical cards can replace names, texts and numbers here without touching ``rules.py``, as long as each card
keeps one of the effect keys the rules implement. See ``docs/rulings/rise-of-cthulhu.md`` for the design.
"""

from __future__ import annotations

from typing import Any, cast

LOCATIONS: tuple[str, ...] = ("arkham", "dunwich", "innsmouth", "kingsport")
"""The four Locations in letter order: A for Arkham, D for Dunwich, I for Innsmouth, K for Kingsport."""

LETTERS: dict[str, str] = {"A": "arkham", "D": "dunwich", "I": "innsmouth", "K": "kingsport"}

LOCATION_CARDS: dict[str, dict[str, Any]] = {
    name: {"id": name, "kind": "location", "name": name.capitalize(), "letter": letter, "source": "rulebook"}
    for letter, name in LETTERS.items()
}

# -- Cultists: 5 colours x numbers 1-10 = 50 cards. The rulebook's runs (2-3-4, 8-9-10) fix the range 1-10;
# -- five colours make 50 and leave five cards of each number, so three of a number is reachable but rare.
COLOURS: tuple[str, ...] = ("green", "blue", "red", "purple", "yellow")
NUMBERS: tuple[int, ...] = tuple(range(1, 11))

CULTISTS: dict[str, dict[str, Any]] = {
    f"{colour}-{number}": {
        "id": f"{colour}-{number}",
        "kind": "cultist",
        "colour": colour,
        "number": number,
        "source": "project",
    }
    for colour in COLOURS
    for number in NUMBERS
}

# -- Old Ones: six cards, three used per game. ``order`` is the column of letters on the card's right side.
OLD_ONES: dict[str, dict[str, Any]] = {
    "azathoth": {
        "name": "Azathoth",
        "order": ["A", "D", "K", "I"],
        "effect": "azathoth",
        "text": "The Blind Idiot God. While Azathoth is awake the game is won on points, not Locations. "
        "The influencing player draws an Artifact card.",
    },
    "hastur": {
        "name": "Hastur",
        "order": ["A", "K", "I", "D"],
        "effect": "hastur",
        "text": "The Unspeakable. The influencing player destroys one of the opponent's Cultist cards at a "
        "Location without an Old One.",
    },
    "yog-sothoth": {
        "name": "Yog-Sothoth",
        "order": ["D", "A", "I", "K"],
        "effect": "yog_sothoth",
        "text": "The Key and the Gate. The influencing player moves the Dark Hunter to a Location without an "
        "Old One (it destroys as usual) or back to its place between the Cultist Deck and the Valley.",
    },
    "shub-niggurath": {
        "name": "Shub-Niggurath",
        "order": ["D", "I", "K", "A"],
        "effect": "shub_niggurath",
        "text": "The Black Goat of the Woods with a Thousand Young. The influencing player draws two cards "
        "from the Cultist Deck.",
    },
    "cthulhu": {
        "name": "Cthulhu",
        "order": ["I", "K", "A", "D"],
        "effect": "cthulhu",
        "text": "Dead Cthulhu waits dreaming no more. The opponent's highest Cultist card at each Location "
        "without an Old One is destroyed.",
    },
    "nyarlathotep": {
        "name": "Nyarlathotep",
        "order": ["K", "I", "D", "A"],
        "effect": "nyarlathotep",
        "text": "The Crawling Chaos. The influencing player draws a Monster card.",
    },
}
for _id, _card in OLD_ONES.items():
    _card.update(id=_id, kind="old_one", source="project")

# -- Monsters: played on a Location (never the Dark Hunter's), free (not one of the turn's two plays), then
# -- discarded unless the card stays. ``old_one_locations`` says whether an Old One's Location may be chosen.
MONSTERS: dict[str, dict[str, Any]] = {
    "shoggoth": {
        "name": "Shoggoth",
        "effect": "destroy_highest",
        "old_one_locations": True,
        "text": "Destroy the highest Cultist card on your opponent's side of this Location.",
    },
    "deep-one": {
        "name": "Deep One",
        "effect": "stay",
        "points": 4,
        "old_one_locations": True,
        "text": "Stays on your side of this Location, worth 4 points. It is not a Cultist: set abilities and "
        "the Dark Hunter ignore it.",
    },
    "byakhee": {
        "name": "Byakhee",
        "effect": "carry_hunter",
        "old_one_locations": False,
        "text": "The Dark Hunter flies to this Location and destroys there as usual.",
    },
    "nightgaunt": {
        "name": "Nightgaunt",
        "effect": "to_valley",
        "old_one_locations": True,
        "text": "Put one of your opponent's Cultist cards at this Location on top of the Valley.",
    },
    "mi-go": {
        "name": "Mi-Go",
        "effect": "move_own",
        "old_one_locations": True,
        "text": "Move one of your Cultist cards from another Location without an Old One to your side of this "
        "Location. Moving is not playing: no set ability.",
    },
    "ghoul": {
        "name": "Ghoul",
        "effect": "free_play",
        "old_one_locations": True,
        "text": "Play a Cultist card from your hand on your side of this Location as a free play. Set "
        "abilities apply.",
    },
    "dhole": {
        "name": "Dhole",
        "effect": "destroy_all",
        "old_one_locations": False,
        "text": "Destroy every Cultist card on both sides of this Location.",
    },
    "star-vampire": {
        "name": "Star Vampire",
        "effect": "steal_low",
        "max_number": 5,
        "old_one_locations": False,
        "text": "One of your opponent's Cultist cards of value 5 or less at this Location crosses to your "
        "side. Crossing is not playing: no set ability.",
    },
}
for _id, _card in MONSTERS.items():
    _card.update(id=_id, kind="monster", source="project")

# -- Artifacts: played from hand during your turn, free, then discarded.
ARTIFACTS: dict[str, dict[str, Any]] = {
    "necronomicon": {
        "name": "Necronomicon",
        "effect": "draw_two",
        "text": "Draw two cards from the Cultist Deck.",
    },
    "silver-key": {
        "name": "Silver Key",
        "effect": "move_hunter",
        "text": "Move the Dark Hunter to a Location without an Old One (it destroys as usual) or back to its "
        "place.",
    },
    "elder-sign": {
        "name": "Elder Sign",
        "effect": "play_on_old_one",
        "text": "Play a Cultist card from your hand on your side of a Location with an Old One as a free play. "
        "Set abilities apply.",
    },
    "powder-of-ibn-ghazi": {
        "name": "Powder of Ibn-Ghazi",
        "effect": "destroy_one",
        "text": "Destroy one of your opponent's Cultist cards at any Location.",
    },
    "lamp-of-alhazred": {
        "name": "Lamp of Alhazred",
        "effect": "take_from_valley",
        "text": "Take any one card from the Valley into your hand.",
    },
    "glass-from-leng": {
        "name": "Glass from Leng",
        "effect": "extra_action",
        "text": "Take one extra action this turn (a draw or a play).",
    },
}
for _id, _card in ARTIFACTS.items():
    _card.update(id=_id, kind="artifact", source="project")

OLD_ONE_SLOT = "old-one"
"""A face-down Old One in the Cultist Deck. Which Old One it is is decided only when it wakes (see the rulings)."""

CARD_DATA: dict[str, Any] = {
    "locations": LOCATION_CARDS,
    "cultists": CULTISTS,
    "old_ones": OLD_ONES,
    "monsters": MONSTERS,
    "artifacts": ARTIFACTS,
    "counts": {"cultists": 50, "monsters": 8, "artifacts": 6, "old_ones": 6, "old_ones_used": 3, "locations": 4},
}


_NUMBER: dict[str, int] = {card: cast(int, data["number"]) for card, data in CULTISTS.items()}
_COLOUR: dict[str, str] = {card: cast(str, data["colour"]) for card, data in CULTISTS.items()}


def number(card: str) -> int:
    """A Cultist's number (read from the card data once: the rules and the AI's playouts read it on every move)."""
    return _NUMBER[card]


def colour(card: str) -> str:
    """A Cultist's colour (read once, as ``number``)."""
    return _COLOUR[card]


def kind(card: str) -> str:
    if card in CULTISTS:
        return "cultist"
    if card in MONSTERS:
        return "monster"
    if card in ARTIFACTS:
        return "artifact"
    if card in OLD_ONES:
        return "old_one"
    raise KeyError(card)


def placement(old_one: str) -> tuple[str, ...]:
    """The Locations an Old One tries, top of its letter column first."""
    return tuple(LETTERS[letter] for letter in OLD_ONES[old_one]["order"])
