"""Toy's views and hidden information: what a seat may know, and the worlds it cannot tell apart."""

from __future__ import annotations

import random
from typing import Any

from shared.kernel import EVERYONE, replace, sees
from shared.kernel.events import Viewer

from shared.games.toy.cards import CARDS
from shared.games.toy.state import ToyState


def view(state: ToyState, viewer: Viewer) -> dict[str, Any]:
    """Built from public facts plus the viewer's own hand: other hands are counts, the deck its size."""
    return {
        "turn": state.turn,
        "points": list(state.points),
        "deck_size": len(state.deck),
        "hands": [list(h) if sees(viewer, [s]) else len(h) for s, h in enumerate(state.hands)],
        **({"deck": list(state.deck)} if viewer is EVERYONE else {}),
    }


def resample(state: ToyState, seat: int, rand: random.Random) -> ToyState:
    """A world ``seat`` cannot tell from this one: the deck and the other hands dealt afresh from their cards.
    Drawn directly (never the real state handed back), from what the seat knows only: the unseen cards are
    sorted before they are shuffled, so two worlds the seat cannot tell apart resample alike."""
    pool = sorted([*state.deck, *(c for s, h in enumerate(state.hands) if s != seat for c in h)])
    rand.shuffle(pool)
    hands, i = [], 0
    for s, h in enumerate(state.hands):
        if s == seat:
            hands.append(h)
        else:
            hands.append(tuple(pool[i : i + len(h)]))
            i += len(h)
    return replace(state, hands=tuple(hands), deck=tuple(pool[i:]))


def invariant(state: ToyState) -> None:
    """Every card is in one place: the deck, a hand, or played (then its value is in its player's points)."""
    cards = list(state.deck) + [c for h in state.hands for c in h]
    assert len(set(cards)) == len(cards) and set(cards) <= set(CARDS), "a card is in two places, or is no card"
    assert sum(cards) + sum(state.points) == sum(CARDS), "points are not the values of the cards played"
