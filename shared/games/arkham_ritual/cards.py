"""Arkham Ritual's 28 cards as data (rulebook sections 2, 9 and 10).

Every card is a JSON-compatible dict. The rulebook gives the card list, colours and effects; it names only one
of the five artifact types (Candelabra, Example 2), so the other four names are project data, marked so. Card
ids are stable: artifact type ``t`` is cards ``3t`` and ``3t+1`` (sane) and ``3t+2`` (cursed).

Which 22 of the 28 are used is decided by the options: the default set and one card from each alternate group.
"""

from __future__ import annotations

from typing import Any, cast

SANE = "sane"
CURSED = "cursed"

ARTIFACT = "artifact"
EVENT = "event"
CHARACTER = "character"
GREAT_OLD_ONE = "great_old_one"

# Section 10-1: five artifact types, 2 sane + 1 cursed each. Only the Candelabra is named by the rulebook.
ARTIFACT_TYPES: tuple[dict[str, Any], ...] = (
    {"key": "candelabra", "name": "Candelabra", "source": "rulebook"},
    {"key": "silver_key", "name": "Silver Key", "source": "project"},
    {"key": "ritual_dagger", "name": "Ritual Dagger", "source": "project"},
    {"key": "bone_flute", "name": "Bone Flute", "source": "project"},
    {"key": "obsidian_idol", "name": "Obsidian Idol", "source": "project"},
)

_ARTIFACTS = [
    {
        "id": 3 * t + i,
        "key": kind["key"],
        "name": kind["name"],
        "kind": ARTIFACT,
        "artifact": kind["key"],
        "colour": CURSED if i == 2 else SANE,
        "group": None,
        "default": True,
        "source": kind["source"],
        "text": "No special effect." + (" Cursed." if i == 2 else ""),
    }
    for t, kind in enumerate(ARTIFACT_TYPES)
    for i in range(3)
]


def _card(id_: int, key: str, name: str, kind: str, colour: str, group: str | None, default: bool, text: str) -> dict[str, Any]:
    return {
        "id": id_,
        "key": key,
        "name": name,
        "kind": kind,
        "artifact": None,
        "colour": colour,
        "group": group,
        "default": default,
        "source": "rulebook",
        "text": text,
    }


# Sections 10-2 to 10-4. ``group`` names the alternate slot a card fills (section 9); the option of the same name
# picks one card of each group.
_OTHERS = [
    _card(15, "elder_sign", "Elder Sign", EVENT, SANE, None, True, "When discarded, the round ends immediately."),
    _card(16, "gate", "Gate", EVENT, SANE, None, True,
          "When discarded, a Great Old One held by any player is resolved. Two Gates are never the same card."),
    _card(17, "gate", "Gate", EVENT, SANE, None, True,
          "When discarded, a Great Old One held by any player is resolved. Two Gates are never the same card."),
    _card(18, "magical_orb", "Magical Orb", EVENT, SANE, "event_card", True,
          "When discarded, the discarder looks at the top card of the Deck, then returns it or removes it face down."),
    _card(19, "shining_trapezohedron", "Shining Trapezohedron", EVENT, SANE, "event_card", False,
          "When discarded, the discarder looks at the top card of the Deck: sane, gain 1 Sanity (max 7); "
          "otherwise lose 1."),
    _card(20, "investigator", "Investigator", CHARACTER, SANE, "investigator_or_wary_student", True,
          "At the end of a round, gain 1 Sanity (max 7) if you survived."),
    _card(21, "wary_student", "Wary Student", CHARACTER, SANE, "investigator_or_wary_student", False,
          "At the end of a round you never survive, but you only ever lose 1 Sanity."),
    _card(22, "cultist", "Cultist", CHARACTER, SANE, "cultist_or_mad_professor", True,
          "At the end of a round, cursed cards survive instead of sane ones (section 7-2)."),
    _card(23, "mad_professor", "Mad Professor", CHARACTER, SANE, "cultist_or_mad_professor", False,
          "At the end of a round, everyone holding anything but an Artifact fails to survive."),
    _card(24, "cthulhu", "Cthulhu", GREAT_OLD_ONE, CURSED, "great_old_one", True,
          "All other players lose Sanity equal to the number of players minus 1."),
    _card(25, "nyarlathotep", "Nyarlathotep", GREAT_OLD_ONE, CURSED, "great_old_one", False,
          "The player(s) with the most Sanity, other than the holder, lose the normal amount; the holder gains "
          "what they lost (max 7)."),
    _card(26, "yog_sothoth", "Yog-Sothoth", GREAT_OLD_ONE, CURSED, "great_old_one", False,
          "All but the least-Sanity player and the holder are consumed; on a tie for least, the holder drops to 1 "
          "and everyone else loses 1."),
    _card(27, "hastur", "Hastur", GREAT_OLD_ONE, CURSED, "great_old_one", False,
          "Artifact holders fail: they lose the normal amount plus the number of players holding cursed cards."),
]

CARDS: tuple[dict[str, Any], ...] = tuple(_ARTIFACTS + _OTHERS)
BY_ID: dict[int, dict[str, Any]] = {card["id"]: card for card in CARDS}
assert sorted(BY_ID) == list(range(28))

# The alternate groups (section 9) as option name -> the card keys it may pick, default first.
GROUPS: dict[str, tuple[str, ...]] = {
    "event_card": ("magical_orb", "shining_trapezohedron"),
    "investigator_or_wary_student": ("investigator", "wary_student"),
    "cultist_or_mad_professor": ("cultist", "mad_professor"),
    "great_old_one": ("cthulhu", "nyarlathotep", "yog_sothoth", "hastur"),
}

MIN_PLAYERS, MAX_PLAYERS = 3, 7
FULL_TABLE = 5  # 14: below five players, Dummy players make up the difference
MAX_SANITY = 7  # FAQ Q5
START_SANITY = 7  # 3: seven Sanity Markers each
CARDS_IN_PLAY = 22

# Card keys the rules name (sections 10-2 to 10-4).
ELDER_SIGN, GATE, MAGICAL_ORB, SHINING_TRAPEZOHEDRON = "elder_sign", "gate", "magical_orb", "shining_trapezohedron"
INVESTIGATOR, WARY_STUDENT, CULTIST, MAD_PROFESSOR = "investigator", "wary_student", "cultist", "mad_professor"
CTHULHU, NYARLATHOTEP, YOG_SOTHOTH, HASTUR = "cthulhu", "nyarlathotep", "yog_sothoth", "hastur"


def cards_in_play(choices: dict[str, str]) -> tuple[int, ...]:
    """The 22 card ids of a game: every card without a group, plus the chosen card of each group (section 9)."""
    return tuple(
        card["id"] for card in CARDS if card["group"] is None or choices.get(card["group"]) == card["key"]
    )


def key(card: int) -> str:
    return cast(str, BY_ID[card]["key"])


def is_sane(card: int) -> bool:
    return bool(BY_ID[card]["colour"] == SANE)


def is_artifact(card: int) -> bool:
    return bool(BY_ID[card]["kind"] == ARTIFACT)


def artifact_type(card: int) -> str | None:
    return cast(str | None, BY_ID[card]["artifact"])


def is_great_old_one(card: int) -> bool:
    return bool(BY_ID[card]["kind"] == GREAT_OLD_ONE)


def name(card: int) -> str:
    return cast(str, BY_ID[card]["name"])


CARD_DATA: dict[str, Any] = {
    "cards": [dict(card) for card in CARDS],
    "artifact_types": [dict(kind) for kind in ARTIFACT_TYPES],
    "groups": {group: list(keys) for group, keys in GROUPS.items()},
    "cards_in_play": CARDS_IN_PLAY,
    "max_sanity": MAX_SANITY,
    "notes": "Artifact names other than Candelabra are project data (source: project); the rulebook gives "
    "only their number, colours and lack of effect.",
}
