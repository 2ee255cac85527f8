"""One move inside the search: decide, and the state after it as the decision folded it (never a second fold); in a
playout, the game's ``simulate`` where it has one (the state alone, built directly)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shared.kernel.commands import Command
from shared.kernel.decision import Decided
from shared.kernel.game import Decider, Game


def step(rules: Decider, state: Any, command: Command, seat: int, rng: random.Random) -> Decided[Any]:
    """The events of ``command`` and the state after them, with entropy drawn from the search's ``rng``. The game's
    ``decide`` folds its events as it emits them (``Decision``), which is half the cost of a move: its state is
    taken as it is."""
    return rules.decide(state, command, seat, entropy(rng))


def entropy(rng: random.Random) -> bytes:
    """A move's entropy, drawn from the search's ``rng`` (the same draw on every path, so the paths search alike)."""
    return rng.getrandbits(256).to_bytes(32, "big")


def simulator(game: Game) -> Callable[[Any, Command, int, random.Random], Any]:
    """How a playout moves: the game's ``simulate`` (``decide``'s state, without events or checks) where it has one,
    else ``decide``'s state; called inside ``simulating()``, so a command ``simulate`` hands to ``decide`` builds no
    events either."""
    simulate, decide = game.ai.simulate, game.decider.decide
    if simulate is None:
        return lambda state, command, seat, rng: decide(state, command, seat, entropy(rng)).state
    return lambda state, command, seat, rng: simulate(state, command, seat, entropy(rng))
