"""The Great Old One's views and hidden information: what a seat may know, and the worlds it cannot tell apart."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from shared.kernel import EVERYONE, sees
from shared.kernel.events import Viewer

from shared.games.great_old_one.cards import (
    CENTRE_SIZE, CULTIST, DECK_SIZE, HORROR_CARDS, PAIRS_TO_END, SIGN_CARDS, STORY_CARDS, pair_connections,
)
from shared.games.great_old_one.memory import known_to
from shared.games.great_old_one.rules import score
from shared.games.great_old_one.state import GreatOldOneState, Opening, Over, Turn, last_turn


def view(state: GreatOldOneState, viewer: Viewer) -> dict[str, Any]:
    """Public facts, plus the viewer's own hand; all hands once they are revealed at the end."""
    phase, turn = state.phase, last_turn(state)
    revealed = isinstance(phase, Over)
    seats = []
    for s in range(state.players):
        area = state.areas[s]
        entry: dict[str, Any] = {
            "seat": s,
            "hand_size": len(state.hands[s]),
            "pairs": [{"cards": list(p.cards), "matched": p.matched, "connections": list(p.connections)} for p in area.pairs],
            "horrors": list(area.horrors),
            "cultist": area.cultist,
            "score": score(area),
            "warded": s in state.warded,
        }
        if isinstance(phase, Opening):
            entry["opening_done"] = s in phase.done
        if revealed or sees(viewer, [s]):
            entry["hand"] = list(state.hands[s])
        seats.append(entry)
    out: dict[str, Any] = {
        "phase": phase.step.value if isinstance(phase, Turn) else "over" if revealed else "opening",
        "turn": state.first_player if turn is None else turn.seat,
        "turn_number": 0 if turn is None else turn.number,
        "first_player": state.first_player,
        "deck_size": len(state.deck),
        "centre": list(state.centre),
        "removed": list(state.removed),
        "horror_played": turn is not None and turn.horror_played,
        "seats": seats,
        "pairs_to_end": PAIRS_TO_END,
        "finish_round": state.finish_round,
        "final_round": turn is not None and turn.final_round,
    }
    if isinstance(viewer, int) and 0 <= viewer < state.players:
        out["hand"] = list(state.hands[viewer])
    if viewer is EVERYONE:
        out["deck"] = list(state.deck)
    if isinstance(phase, Over):
        out["end_reason"] = phase.reason.value
    return out


def resample(state: GreatOldOneState, seat: int, rand: random.Random) -> GreatOldOneState:
    """A world ``seat`` cannot tell from this one, drawn directly: the deck and the other hands dealt afresh from
    their cards, keeping every hand's size and the cards the seat saw go into a hand (``memory.py``: a Yellow Sign's,
    a Call's, a Story switched in) where they are (once the game is over the hands are revealed: only the deck). The
    unseen cards are sorted before they are shuffled, so the world drawn depends only on what the seat knows; of
    ``known`` the world keeps the seat's own entries only (the others' are theirs to know)."""
    others = [] if isinstance(state.phase, Over) else [s for s in range(state.players) if s != seat]
    seen = known_to(state, seat)
    hidden = sorted([*state.deck, *(c for s in others for c in state.hands[s] if c not in seen.get(s, ()))])
    rand.shuffle(hidden)
    hands = list(state.hands)
    for s in others:
        kept = sorted(seen.get(s, ()))
        size = len(state.hands[s]) - len(kept)
        hands[s], hidden = tuple(sorted([*kept, *hidden[:size]])), hidden[size:]
    known = tuple(k for k in state.known if k[0] == seat)
    return replace(state, hands=tuple(hands), deck=tuple(hidden), known=known)


def resample_unrevealable(state: GreatOldOneState, seat: int, rand: random.Random) -> GreatOldOneState:
    """Redistribute only what no single move of another seat can show ``seat``: the order of the deck. (A Call
    on a third seat says publicly whether the named card was handed over, a Yellow Sign shows the receiver a
    card of the giver's hand and a 7th pair reveals every hand, so hands stay as they are.)"""
    deck = list(state.deck)
    rand.shuffle(deck)
    return replace(state, deck=tuple(deck))


def invariant(state: GreatOldOneState) -> None:
    """Every card is in exactly one place; the centre holds three Story cards; areas hold what they may."""
    places: list[int] = list(state.deck) + list(state.centre) + list(state.removed)
    for hand, area in zip(state.hands, state.areas, strict=True):
        assert list(hand) == sorted(hand), "hands are kept sorted"
        places += hand
        places += [c for p in area.pairs for c in p.cards]
        places += area.horrors
        if area.cultist:
            places.append(CULTIST)
        assert all(pair_connections(*p.cards) == (p.matched, p.connections) for p in area.pairs)
        assert all(h in HORROR_CARDS for h in area.horrors)
    if isinstance(state.phase, Opening) and not state.centre:
        return  # mid-setup
    assert sorted(places) == list(range(DECK_SIZE)), "every card is in exactly one place"
    assert len(state.centre) == CENTRE_SIZE and all(c in STORY_CARDS for c in state.centre)
    assert all(c in SIGN_CARDS for c in state.removed)
    turn = last_turn(state)
    assert turn is None or 0 <= turn.seat < state.players
    assert 0 <= state.first_player < state.players
