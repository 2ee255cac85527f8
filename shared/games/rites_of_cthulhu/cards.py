"""Card data for Rites of Cthulhu: the 56 entities (4 cults x ranks 0-13) and the 13 artifacts.

Entity ids are ``cult * 14 + rank`` (cults: 0 green Esoteric Order of Dagon, 1 blue Chorazos Cult, 2 yellow
Brotherhood of the Kings, 3 gray Chesuncook Witch Coven). ``source: "rulebook"`` marks a name whose cult and
rank the rulebook prints; ``"project"`` a card the project placed: either a name the project chose from
Lovecraft's stories, or (``"basis": "rulebook rank"``) a name whose rank the rulebook prints but whose cult the
project chose. GAMES.md allows only the two sources, so a card with any project choice in it is "project".

Artifact ids are 0-12. The rulebook prints no artifact card: all thirteen are project data (see
docs/rulings/rites-of-cthulhu.md for the design and balance). Their powers are applied by ``artifacts.py``
through the hooks the rites share (``state.Modifiers`` and the table helpers in ``rites/table.py``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

CULTS = ("green", "blue", "yellow", "gray")
RANKS = 14
DECK_SIZE = len(CULTS) * RANKS
HAND_SIZE = 5
"""Performing Rites: "The Grand Cultist shuffles the entities deck and deals 5 cards to each player"."""
FORBIDDEN_BOOK = 0
"""The elder sign rank of the forbidden books."""

CULT_NAMES = ("Esoteric Order of Dagon", "Chorazos Cult", "Brotherhood of the Kings", "Chesuncook Witch Coven")

_R, _RR, _P = "rulebook", "rulebook-rank", "project"

_ENTITY_NAMES: tuple[tuple[tuple[str, str], ...], ...] = (
    (  # green, the Grand Cult of Cthulhu Rises
        ("Pnakotic Fragments", _R), ("Zadok Allen", _R), ("Robert Olmstead", _R), ("Barnabas Marsh", _RR),
        ("Gustaf Johansen", _P), ("Francis Wayland Thurston", _R), ("George Gammell Angell", _R),
        ("Henry Anthony Wilcox", _R), ("Lobon", _R), ("Deep One", _R), ("Bukrog", _R), ("Cthulhu", _R),
        ("Mother Hydra", _R), ("Dagon", _R),
    ),
    (  # blue
        ("Liber Ivonis", _R), ("Swami Chandraputra", _RR), ("Harley Warren", _RR), ("Randolph Carter", _R),
        ("Klarkash-Ton", _R), ("Zkauba the Wizard", _R), ("The Dunwich Horror", _R), ("Wilbur Whateley", _R),
        ("Lavinia Whateley", _R), ("Dhole", _R), ("Umr At-Tawil", _P), ("Old Whateley", _P), ("Azathoth", _P),
        ("Yog-Sothoth", _R),
    ),
    (  # yellow
        ("The Book of Azathoth", _R), ("Enoch Bowen", _P), ("Pharaoh Nitocris", _RR), ("Abdul Reis el Drogman", _RR),
        ("Robert Harrison Blake", _R), ("Nephren-Ka", _RR), ("Pharaoh Khafra", _R), ("Walter Gilman", _R),
        ("Nightgaunt", _R), ("Kaman-Thah", _P), ("Nasht", _R), ("The Mindless Flutist", _R),
        ("The Mad Arab Abdul Alhazred", _RR), ("Nyarlathotep", _R),
    ),
    (  # gray
        ("The Necronomicon", _P), ("Brown Jenkin", _P), ("Edward Pickman Derby", _R), ("Asenath Waite", _R),
        ("Kamog", _R), ("T'yog, High Priest of Shub-Niggurath", _RR), ("Ephraim Waite", _P), ("Keziah Mason", _P),
        ("Shoggoth", _R), ("Yeb", _R), ("Nug", _R), ("Ghatanothoa", _P), ("Hastur", _R), ("Shub-Niggurath", _P),
    ),
)

ENTITIES: tuple[dict[str, Any], ...] = tuple(
    {"id": c * RANKS + r, "name": name, "cult": CULTS[c], "cult_name": CULT_NAMES[c], "rank": r,
     "forbidden_book": r == FORBIDDEN_BOOK, "source": "project" if source == _RR else source,
     **({"basis": "rulebook rank"} if source == _RR else {})}
    for c, names in enumerate(_ENTITY_NAMES)
    for r, (name, source) in enumerate(names)
)

ENTITY_BY_NAME: dict[str, int] = {e["name"]: e["id"] for e in ENTITIES}


def entity(name: str) -> int:
    """The id of the entity card called ``name``."""
    return ENTITY_BY_NAME[name]


def cult(card: int) -> int:
    """The cult (0 green, 1 blue, 2 yellow, 3 gray) of an entity card id."""
    return card // RANKS


def rank(card: int) -> int:
    """The elder sign rank (0-13) of an entity card id."""
    return card % RANKS


def card_id(cult_index: int, rank_value: int) -> int:
    return cult_index * RANKS + rank_value


CTHULHU = entity("Cthulhu")


class Symbol(StrEnum):
    """"all": every cultist follows the rule, when revealed and when its owner invokes it again. "single": any
    cultist may invoke the power once during the rite it is revealed in; later its owner may invoke it once more."""

    ALL = "all"
    SINGLE = "single"


class Timing(StrEnum):
    """"before": applies the moment it is revealed (or invoked again, which is only allowed before the rite's first
    move); "during": an ability invoked at any moment of the rite."""

    BEFORE = "before"
    DURING = "during"


class Power(StrEnum):
    REVERSE_ORDER = "reverse_order"
    OPEN_HANDS = "open_hands"
    LOW_WINS = "low_wins"
    NO_POWER_PLAYS = "no_power_plays"
    EXCAVATE = "excavate"
    OPENER_LEFT = "opener_left"
    OPENER_POOREST = "opener_poorest"
    REDRAW_ONE = "redraw_one"
    REDRAW_HAND = "redraw_hand"
    STEAL_CAPTURED = "steal_captured"
    REPLACE_COVETED = "replace_coveted"
    FORCED_TRADE = "forced_trade"
    PEEK_HAND = "peek_hand"


ARTIFACTS: tuple[dict[str, Any], ...] = tuple(
    {"id": i, "name": name, "elder_sign": value, "symbol": symbol, "timing": timing, "power": power,
     "text": text, "source": "project"}
    for i, (name, value, symbol, timing, power, text) in enumerate((
        ("The Shining Trapezohedron", 3, Symbol.ALL, Timing.BEFORE, Power.REVERSE_ORDER,
         "Turn order runs counter-clockwise (to the right) for this rite; invoked again, it flips once more."),
        ("The Glass from Leng", 2, Symbol.ALL, Timing.BEFORE, Power.OPEN_HANDS,
         "Every cultist plays this rite with the hand face up."),
        ("The Black Stone", 2, Symbol.ALL, Timing.BEFORE, Power.LOW_WINS,
         "Whenever cards are compared by elder sign this rite, the lowest wins."),
        ("The Star-Stone of Mnar", 4, Symbol.ALL, Timing.BEFORE, Power.NO_POWER_PLAYS,
         "No power-play may be made for the rest of this rite."),
        ("The Tiara of Y'ha-nthlei", 2, Symbol.ALL, Timing.BEFORE, Power.EXCAVATE,
         "Excavate another Coveted Artifact at once; its power applies too."),
        ("The Silver Key", 3, Symbol.ALL, Timing.BEFORE, Power.OPENER_LEFT,
         "The cultist to the Grand Cultist's left takes the Grand Cultist's first turn and privilege this rite."),
        ("The Bas-Relief of Cthulhu", 1, Symbol.ALL, Timing.BEFORE, Power.OPENER_POOREST,
         "The cultist with the fewest artifact points takes the first turn and privilege this rite "
         "(ties: the first of them in turn order from the Grand Cultist)."),
        ("The Lamp of Alhazred", 2, Symbol.SINGLE, Timing.DURING, Power.REDRAW_ONE,
         "Set one card of your hand aside face down and draw a replacement."),
        ("The Plutonian Drug", 1, Symbol.SINGLE, Timing.DURING, Power.REDRAW_HAND,
         "Set your whole hand aside face down and draw as many cards."),
        ("The Jade Amulet", 3, Symbol.SINGLE, Timing.DURING, Power.STEAL_CAPTURED,
         "Take one artifact from another cultist's captured artifacts."),
        ("The Crystallizer of Dreams", 2, Symbol.SINGLE, Timing.DURING, Power.REPLACE_COVETED,
         "Throw one other Coveted Artifact out of the game and excavate a replacement; its power applies."),
        ("The Scroll of T'yog", 3, Symbol.SINGLE, Timing.DURING, Power.FORCED_TRADE,
         "Slide a card face down to another cultist, who gives you a card back without looking at it."),
        ("The Mirror of Nitocris", 1, Symbol.SINGLE, Timing.DURING, Power.PEEK_HAND,
         "Look at another cultist's hand."),
    ))
)

ARTIFACT_COUNT = len(ARTIFACTS)
GLASS_FROM_LENG = next(a["id"] for a in ARTIFACTS if a["power"] == Power.OPEN_HANDS)

CARD_DATA = {"cults": list(CULTS), "cult_names": list(CULT_NAMES), "entities": list(ENTITIES),
             "artifacts": list(ARTIFACTS)}
