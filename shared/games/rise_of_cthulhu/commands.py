"""Rise of Cthulhu's commands: one typed record per command type (``shared.kernel.commands``); the docstrings and
field descriptions are the catalogue's words for client authors (rulebook sections in parentheses, rulings in
docs/rulings/rise-of-cthulhu.md), and each command's JSON Schema is derived from its record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.kernel import Command, arg, by_type

from shared.games.rise_of_cthulhu.cards import LOCATIONS

PLACES = ", ".join(LOCATIONS)
RECALL = ("true to use the three-of-a-colour set this play makes to send the Dark Hunter back between the Cultist "
          "Deck and the Valley (Set Abilities); only offered while the Dark Hunter is out")


def _location(description: str, otherwise: str = "", **kw: Any) -> Any:
    return arg(f"{description} (one of {PLACES}){otherwise}", enum=LOCATIONS, **kw)


def _card(kind: str, example: str) -> Any:
    return arg(f"the {kind} card from your hand, e.g. {example} (see card_data)")


def _recall() -> Any:
    return arg(RECALL, default=False)


@dataclass(frozen=True, slots=True)
class DrawCard(Command, type="draw_card"):
    """An action: draw the top card of the Cultist Deck (only you see it; a face-down Old One there wakes) or of
    the Valley (your opponent sees which) (How to play; Old Ones)."""

    source: str = arg("where to draw from: deck (the Cultist Deck) or valley", enum=("deck", "valley"))


@dataclass(frozen=True, slots=True)
class PlayCultist(Command, type="play_cultist"):
    """An action: play a Cultist card from your hand on your side of a Location without an Old One or the Dark
    Hunter; its set abilities follow (How to play; Set Abilities)."""

    card: str = _card("Cultist", "red-7")
    location: str = _location("the Location to play on")
    recall_hunter: bool = _recall()


@dataclass(frozen=True, slots=True)
class PlayToValley(Command, type="play_to_valley"):
    """An action: play a Cultist card on the Valley (higher than its top card or of the same colour) and move the
    Dark Hunter to another Location without an Old One, where it destroys the highest Cultist (Dark Hunter)."""

    card: str = _card("Cultist", "red-7")
    hunter_to: str = _location("the Location the Dark Hunter moves to (without an Old One, not where it stands)")


@dataclass(frozen=True, slots=True)
class PlayMonster(Command, type="play_monster"):
    """A free play in your turn, before its last action: a Monster card from your hand on a Location (never the
    Dark Hunter's), which acts there and is discarded unless it stays (Set Abilities; ruling 22)."""

    card: str = _card("Monster", "shoggoth")
    location: str = _location("the Location the Monster is played on")
    target: str | None = arg("the Cultist card the Monster acts on where it needs one (Nightgaunt, Mi-Go, Ghoul, Star "
                             "Vampire), else null", default=None)
    recall_hunter: bool = _recall()


@dataclass(frozen=True, slots=True)
class PlayArtifact(Command, type="play_artifact"):
    """A free play in your turn, before its last action: an Artifact card from your hand, then discarded (Set
    Abilities; ruling 22)."""

    card: str = _card("Artifact", "silver-key")
    target: str | None = arg("what the Artifact acts on where it needs one: the Cultist card from your hand (Elder "
                             "Sign), the opponent's Cultist card to destroy (Powder of Ibn-Ghazi), the Valley card to "
                             "take (Lamp of Alhazred), a Location or home (Silver Key); else null", default=None)
    location: str | None = _location("the Old One's Location the Elder Sign plays on", ", else null", default=None)
    recall_hunter: bool = _recall()


@dataclass(frozen=True, slots=True)
class ResolvePower(Command, type="resolve_power"):
    """The player the woken Old One's Location faces reaps its power, even out of turn (Old Ones; ruling 17)."""

    target: str | None = arg("the power's choice where it takes one: Hastur, the opponent's Cultist card to destroy; "
                             "Yog-Sothoth, the Location the Dark Hunter moves to or home; else null", default=None)


@dataclass(frozen=True, slots=True)
class DrawOwedCards(Command, type="draw_owed_cards"):
    """The player who drew an Old One draws its replacement from the Cultist Deck once its power is resolved, with
    any draws a card still owed (Old Ones; ruling 19)."""


COMMANDS = by_type(DrawCard, PlayCultist, PlayToValley, PlayMonster, PlayArtifact, ResolvePower, DrawOwedCards)
