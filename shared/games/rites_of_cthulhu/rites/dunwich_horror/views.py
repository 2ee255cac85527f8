"""The Dunwich Horror's view and hidden information: the face-down walls are the rite's own secret."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from shared.kernel import sees
from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.cards import HAND_SIZE, rank
from shared.games.rites_of_cthulhu.rites.dunwich_horror.cards import TWINS, WALLS_PER_TWIN, twin_of
from shared.games.rites_of_cthulhu.rites.dunwich_horror.rules import face_down, points, turn_seat, to_act, wall_card
from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import (
    Building,
    Claims,
    DunwichState,
    Freed,
    Replacing,
    Revealed,
)
from shared.games.rites_of_cthulhu.rites.table import pooled_resample, resample_below
from shared.games.rites_of_cthulhu.state import Tabletop


def view(table: Tabletop, state: DunwichState, viewer: Viewer) -> dict[str, Any]:
    phase = state.phase
    walls = []
    for slot, card in enumerate(state.walls):
        wall: dict[str, Any] = {"slot": slot, "twin": twin_of(slot)}
        if card is None:
            wall["status"] = "captured"
        elif slot in state.face_up:
            wall.update(status="face_up", card=card, elder_sign=rank(card))
        else:
            wall["status"] = "face_down"
            if sees(viewer, ()):  # full information only (the audit)
                wall["card"] = card
        walls.append(wall)
    out: dict[str, Any] = {
        "phase": type(phase).__name__.lower(),
        "turn": turn_seat(table, state),
        "twins": [{"card": c, "elder_sign": rank(c)} for c in state.twins],
        "walls": walls,
        "captured": {str(s): list(cards) for s, cards in enumerate(state.captured)},
        "points": {str(s): p for s, p in enumerate(points(state))},
        "discards": list(state.discards),
    }
    if isinstance(phase, Replacing):
        out["replacing"] = sorted(phase.waiting)
    if isinstance(phase, Revealed):
        out["revealed_wall"] = phase.wall
    if isinstance(phase, Claims):
        out["claims"] = {"revealer": phase.revealer, "wall": phase.wall, "passed": list(phase.passed),
                         "waiting": sorted(to_act(table, state))}
    if state.last_claims is not None:
        out["last_claims"] = {"wall": state.last_claims.wall, "claimant": state.last_claims.claimant}
    return out


def cards(state: DunwichState) -> tuple[int, ...]:
    walls = tuple(c for c in state.walls if c is not None)
    return state.twins + walls + tuple(c for cards in state.captured for c in cards) + state.discards


def resample(table: Tabletop, state: DunwichState, seat: int, rng: random.Random,
             keep: frozenset[int] = frozenset()) -> tuple[Tabletop, DunwichState]:
    """Everything ``seat`` cannot know: other hands, the pile and every face-down wall card, together."""
    slots = face_down(state)
    table, shuffled = pooled_resample(table, seat, rng, [wall_card(state, i) for i in slots], keep)
    walls = list(state.walls)
    for slot, card in zip(slots, shuffled):
        walls[slot] = card
    return table, replace(state, walls=tuple(walls))


def resample_unrevealable(table: Tabletop, state: DunwichState, seat: int, rng: random.Random,
             keep: frozenset[int] = frozenset()) -> tuple[Tabletop, DunwichState]:
    """What no other seat's next move can show ``seat``: other hands and the pile below its top 5 cards.

    Another seat's move may reveal any wall card, and closing a claim window refills the revealer (who may be
    ``seat``) from the top of the pile, so those stay in place."""
    return resample_below(table, seat, rng, HAND_SIZE, keep), state


def invariant(table: Tabletop, state: DunwichState) -> None:
    if isinstance(state.phase, Building):
        return
    assert state.twins == TWINS
    assert len(state.walls) == 2 * WALLS_PER_TWIN
    assert all(state.walls[i] is not None for i in state.face_up)
    assert len(state.captured) == table.players
    phase = state.phase
    if isinstance(phase, Revealed):
        assert phase.wall in state.face_up
    if isinstance(phase, Claims):
        assert phase.wall in state.face_up and phase.revealer not in phase.passed
    if isinstance(phase, Freed):
        assert all(c is None for c in state.walls)
