"""Cthulhu Rises's view and hidden information: the gates are face up; only Cthulhu's place needs care."""

from __future__ import annotations

import random
from typing import Any

from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.cards import CTHULHU, CULTS, cult
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.cards import GRAND_CULT
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.rules import next_to_play
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.state import CthulhuRisesState
from shared.games.rites_of_cthulhu.rites.table import resample_table
from shared.games.rites_of_cthulhu.state import Tabletop


def view(table: Tabletop, state: CthulhuRisesState, viewer: Viewer) -> dict[str, Any]:
    return {
        "gate_number": state.gate_number,
        "gate": [{"seat": s, "card": c, "vertical": s in state.eligible} for s, c in state.gate],
        "dominant_cult": CULTS[cult(state.gate[0][1])] if state.gate else None,
        "grand_cult": CULTS[GRAND_CULT],
        "to_play": None if state.forcing is not None else next_to_play(table, state),
        "eligible": sorted(state.eligible),
        "cthulhu": "center" if state.center else ("captured" if state.captor is not None else "unseen"),
        "captor": state.captor,
        "taken": {str(s): list(p) for s, p in enumerate(state.taken)},
        "forcing": state.forcing,
    }


def cards(state: CthulhuRisesState) -> tuple[int, ...]:
    out = [c for _, c in state.gate] + [c for pile in state.taken for c in pile]
    if (state.center or state.captor is not None) and CTHULHU not in out:
        out.append(CTHULHU)
    return tuple(out)


def resample(table: Tabletop, state: CthulhuRisesState, seat: int, rng: random.Random,
             keep: frozenset[int] = frozenset()) -> tuple[Tabletop, CthulhuRisesState]:
    """Other hands and the pile; Cthulhu keeps his place: a summoning spell reveals who holds him, so moving him
    would change what other seats' moves publicly show (see the rulings: bots know where Cthulhu is)."""
    return resample_table(table, seat, rng, keep | {CTHULHU}), state


def invariant(table: Tabletop, state: CthulhuRisesState) -> None:
    assert not (state.center and state.captor is not None)
    assert len(state.gate) <= table.players
