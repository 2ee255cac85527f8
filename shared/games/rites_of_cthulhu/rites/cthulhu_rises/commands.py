"""Cthulhu Rises's commands."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type


@dataclass(frozen=True, slots=True)
class PlayCard(Command, type="play_card"):
    """Play a card on the gate: its first card opens it and sets the dominant cult; the others must follow the
    dominant cult if they can; a green card from a cultist who opened a gate casts a spell to summon Cthulhu
    ("Cthulhu Rises", The Play)."""

    card: int = arg("an entity card id from your hand")


@dataclass(frozen=True, slots=True)
class ForceCard(Command, type="force_card"):
    """Having closed the gate, slide a card face down to another cultist, who gives you a card back without
    looking at it ("Closing a Gate")."""

    card: int = arg("the entity card id you force, from your hand")
    seat: int = arg("the seat of another cultist who holds cards")


@dataclass(frozen=True, slots=True)
class DeclineTrade(Command, type="decline_trade"):
    """Having closed the gate, force no card on anyone ("Closing a Gate": the reward is optional)."""


COMMANDS = by_type(PlayCard, ForceCard, DeclineTrade)
