"""Toy's events: one fact per event type, the contract between ``decide``, ``evolve`` and the record."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact, Facts


@dataclass(frozen=True, slots=True)
class GameStarted(Fact, type="game_started"):
    """The deck after the deal, shuffled (secret from every seat until the game ends)."""

    players: int
    deck: list[int]


@dataclass(frozen=True, slots=True)
class CardDealt(Fact, type="card_dealt"):
    """One card dealt face down to ``seat`` (only that seat sees which)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Fact, type="card_drawn"):
    """``seat`` drew the top card of the deck (only that seat sees which)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Fact, type="card_played"):
    """``seat`` played ``card`` face up and scored its value."""

    seat: int
    card: int


FACTS = Facts(GameStarted, CardDealt, CardDrawn, CardPlayed)
