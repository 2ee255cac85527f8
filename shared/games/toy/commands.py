"""Toy's commands: one typed record per command type (``shared.kernel.commands``); the docstring and each field's
description are the catalogue's words for client authors, and its JSON Schema is derived from the record."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type

from shared.games.toy.cards import CARDS


@dataclass(frozen=True, slots=True)
class DrawCard(Command, type="draw_card"):
    """Draw the top card of the deck into your hand (only you see it). Rule 2."""


@dataclass(frozen=True, slots=True)
class PlayCard(Command, type="play_card"):
    """Play a card from your hand face up and score its value. Rule 3."""

    card: int = arg(f"a card in your hand ({CARDS[0]}–{CARDS[-1]})")


COMMANDS = by_type(DrawCard, PlayCard)
