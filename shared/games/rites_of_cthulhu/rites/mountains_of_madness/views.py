"""At the Mountains of Madness's view; the map is face up, so the rite hides nothing of its own."""

from __future__ import annotations

from typing import Any

from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.cards import rank
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.cards import RIDGE_SIZE
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.state import MountainsState
from shared.games.rites_of_cthulhu.rites.shedding import turn
from shared.games.rites_of_cthulhu.rites.table import resample_hands_and_pile
from shared.games.rites_of_cthulhu.state import Tabletop

resample = resample_hands_and_pile
"""Only the table hides cards: other hands and the pile."""


def view(table: Tabletop, state: MountainsState, viewer: Viewer) -> dict[str, Any]:
    return {
        "elder_sign": state.ridge[0] if state.ridge else None,
        "ridge": sorted(state.ridge, key=rank),
        "slopes": [{"ridge_card": s.ridge_card, "side": s.side, "cards": list(s.cards)} for s in state.slopes],
        "turn": turn(table, state),
        "played_this_turn": state.played,
        "drew": state.drew,
    }


def cards(state: MountainsState) -> tuple[int, ...]:
    return state.ridge + tuple(c for s in state.slopes for c in s.cards)


def invariant(table: Tabletop, state: MountainsState) -> None:
    ranks = sorted(rank(c) for c in state.ridge)
    assert len(ranks) <= RIDGE_SIZE and ranks == list(range(ranks[0], ranks[0] + len(ranks))) if ranks else True
