"""The AI levels the catalogue offers, as search budgets: playouts per move and think time per move."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.ai.knowledge import SeatKnowledge
from shared.ai.ismcts import search


@dataclass(frozen=True)
class Level:
    """``playouts``: iterations of the search per move (0: a uniformly random legal command); ``seconds``:
    the think time per move, a hard cap after which the best move so far is played."""

    name: str
    playouts: int
    seconds: float


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("random", 0, 0.0),
        Level("easy", 24, 0.25),
        Level("medium", 200, 0.5),
        Level("hard", 10_000, 1.0),
    )
}


WALL_FACTOR = 3.0  # on a busy machine a move may take this many times its think time in wall clock, no more


def choose(knowledge: SeatKnowledge, level: str, rng: random.Random, clock: Callable[[], float] | None = None,
           wall: Callable[[], float] | None = None) -> dict[str, Any] | None:
    """The command ``level`` plays for the seat; ``None`` when it has none.

    ``clock`` measures the think time (seconds: ``time.process_time`` for "one second of one core", so a busy
    machine does not weaken the AI); ``wall``, if given, is the hard cap: the search also stops once
    ``WALL_FACTOR`` times the think time has passed on it. With neither, only the level's playouts bound the
    search, and the choice is a function of the knowledge and ``rng`` alone (what the tests rely on)."""
    spec = LEVELS[level]
    if not knowledge.legal:
        return None
    if spec.playouts == 0 or len(knowledge.legal) == 1:
        return rng.choice(knowledge.legal)
    if clock is None:
        return search(knowledge, spec.playouts, rng).best
    thought = _elapsed(clock, wall)
    return search(knowledge, spec.playouts, rng, clock=thought, deadline=spec.seconds).best


def _elapsed(clock: Callable[[], float], wall: Callable[[], float] | None) -> Callable[[], float]:
    """Think time used so far: ``clock``'s, or the wall clock's divided by ``WALL_FACTOR`` when that is more."""
    start = clock()
    if wall is None:
        return lambda: clock() - start
    wall_start = wall()
    return lambda: max(clock() - start, (wall() - wall_start) / WALL_FACTOR)
