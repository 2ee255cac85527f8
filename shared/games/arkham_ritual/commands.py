"""Arkham Ritual's commands: one typed record per command type (``shared.kernel.commands``). The docstrings and field
descriptions are the catalogue's words for client authors, with the rulebook section each follows (arkham-ritual.md);
each command's JSON Schema is derived from its record."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type


@dataclass(frozen=True, slots=True)
class DrawCard(Command, type="draw_card"):
    """The Active Player draws the top card of the Deck and secretly looks at it (6-1, steps 1 and 2)."""


@dataclass(frozen=True, slots=True)
class PassCard(Command, type="pass_card"):
    """Pass the face-down card, without looking at it if you did not draw it, to a player with a hand on the
    table (6-1 step 3; 6-2-2). The Active Player may not keep it. When no hand is left on the table, the last
    Follower passes to nobody: the card is discarded without effect and the round ends (6-2-2)."""

    to: int | None = arg("the seat that receives the card, one with a hand on the table; null (or left out) only when "
                         "no hand is left on the table", default=None)


@dataclass(frozen=True, slots=True)
class TakeCard(Command, type="take_card"):
    """Take the card you were passed: discard the card you hold face up, take the new one without looking at it,
    then resolve the discarded Event card (6-2-1; 10-2)."""


@dataclass(frozen=True, slots=True)
class ReturnTopCard(Command, type="return_top_card"):
    """Magical Orb: put the card you looked at back on top of the Deck (10-2)."""


@dataclass(frozen=True, slots=True)
class RemoveTopCard(Command, type="remove_top_card"):
    """Magical Orb: remove the card you looked at from the game, face down (10-2)."""


COMMANDS = by_type(DrawCard, PassCard, TakeCard, ReturnTopCard, RemoveTopCard)
