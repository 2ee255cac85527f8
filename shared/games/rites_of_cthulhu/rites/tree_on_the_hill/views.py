"""The Tree on the Hill's view; every tree is face up, so the rite hides nothing of its own."""

from __future__ import annotations

from typing import Any

from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.cards import rank
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.cards import TREE_SIZE
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.state import TreeState
from shared.games.rites_of_cthulhu.rites.shedding import turn
from shared.games.rites_of_cthulhu.rites.table import resample_hands_and_pile
from shared.games.rites_of_cthulhu.state import Tabletop

resample = resample_hands_and_pile
"""Only the table hides cards: other hands and the pile."""


def view(table: Tabletop, state: TreeState, viewer: Viewer) -> dict[str, Any]:
    return {
        "trees": [{"cards": list(t), "complete": len(t) == TREE_SIZE} for t in state.trees],
        "turn": turn(table, state),
        "must_play_again": state.again,
        "drew": state.drew,
    }


def cards(state: TreeState) -> tuple[int, ...]:
    return tuple(c for t in state.trees for c in t)


def invariant(table: Tabletop, state: TreeState) -> None:
    for t in state.trees:
        assert len(t) <= TREE_SIZE and len({rank(c) for c in t}) == len(t)
