"""One move inside the search: decide, and the state after it as the decision folded it (never a second fold)."""

from __future__ import annotations

import random
from typing import Any

from shared.kernel.commands import Command
from shared.kernel.decision import Decided
from shared.kernel.game import Decider


def step(rules: Decider, state: Any, command: Command, seat: int, rng: random.Random) -> Decided[Any]:
    """The events of ``command`` and the state after them, with entropy drawn from the search's ``rng``. The game's
    ``decide`` folds its events as it emits them (``Decision``), which is half the cost of a move: its state is
    taken as it is."""
    return rules.decide(state, command, seat, rng.getrandbits(256).to_bytes(32, "big"))
