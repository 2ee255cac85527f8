"""One move inside the search: decide, and the state after it without folding the events a second time."""

from __future__ import annotations

import random
from typing import Any

from shared.kernel.decision import folded
from shared.kernel.events import Event
from shared.kernel.game import Game


def step(game: Game, state: Any, command: dict[str, Any], seat: int, rng: random.Random) -> tuple[list[Event], Any]:
    """The events of ``command`` and the state after them. A game's ``decide`` folds its events as it emits
    them (``Decision``), which is half the cost of a move: that state is reused when the kernel can tell it
    is exactly the fold of these events from ``state``, else the events are folded here."""
    events = game.decide(state, command, seat, rng.getrandbits(256).to_bytes(32, "big"))
    after = folded(state, events)
    if after is None:
        after = state
        for event in events:
            after = game.evolve(after, event)
    return events, after
