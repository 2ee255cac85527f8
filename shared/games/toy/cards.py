"""Toy's cards: twelve cards valued 1–12 (project data, the template's stand-in for a rulebook's card list)."""

from __future__ import annotations

CARDS = tuple(range(1, 13))
TARGET = 15  # points that end the game

CARD_DATA = {"cards": [{"value": value, "source": "project"} for value in CARDS]}
