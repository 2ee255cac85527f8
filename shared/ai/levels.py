"""The AI levels the catalogue offers, as search budgets: playouts per move and think time per move."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from shared.ai.knowledge import SeatKnowledge
from shared.ai.ismcts import Model, Search, certain_win, search
from shared.kernel.commands import Command


@dataclass(frozen=True)
class Level:
    """``playouts``: iterations of the search per move (0: a uniformly random legal command); ``seconds``:
    the think time per move, a hard cap after which the best move so far is played; ``publish_after``: the bounds
    of the delay after which each of its moves is made public, forced or not (``delay``)."""

    name: str
    playouts: int
    seconds: float
    publish_after: tuple[float, float] = (0.3, 0.8)

    def delay(self, rng: random.Random) -> float:
        """How long after the game came to wait on the seat its move is published: one draw from this level's
        distribution (uniform on ``publish_after``), the same for every move however many commands the seat had,
        so the clock says nothing of its hand. Its least value lies above the think time (plus ``MARGIN_S``): a
        search always ends before its move is due."""
        low, high = self.publish_after
        return rng.uniform(low, high)


MARGIN_S = 0.1  # what a move needs besides its search (the position, the seat's knowledge), within its delay

LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("random", 0, 0.0, (0.3, 0.8)),
        Level("easy", 24, 0.25, (0.6, 1.2)),
        Level("medium", 200, 0.5, (0.9, 1.8)),
        Level("hard", 10_000, 1.0, (1.5, 3.0)),
    )
}
TIMER = Level("timer", 0, 0.0, (0.3, 0.8))  # the turn timer's moves are published the same way (worker/jobs.py)


WALL_FACTOR = 3.0  # on a busy machine a move may take this many times its think time in wall clock, no more


CERTAIN = frozenset({"medium", "hard"})  # the levels that check for a certain win before they search


def choose(knowledge: SeatKnowledge, level: str, rng: random.Random, clock: Callable[[], float] | None = None,
           wall: Callable[[], float] | None = None, think_s: float | None = None,
           wall_s: float | None = None) -> Command | None:
    """The command ``level`` plays for the seat; ``None`` when it has none.

    ``clock`` measures the think time (seconds: ``time.thread_time`` for "one second of one core", so a busy
    machine does not weaken the AI); ``wall``, if given, is the hard cap: the search also stops once ``wall_s``
    (by default ``WALL_FACTOR`` times the think time) has passed on it. ``think_s`` replaces the level's think time
    (the worker's ``AI_TIME_SCALE``). With neither clock, only the level's playouts bound the search, and the choice
    is a function of the knowledge and ``rng`` alone (what the tests rely on)."""
    return plan(knowledge, level, rng, clock, wall, think_s, wall_s).best


def plan(knowledge: SeatKnowledge, level: str, rng: random.Random, clock: Callable[[], float] | None = None,
         wall: Callable[[], float] | None = None, think_s: float | None = None, wall_s: float | None = None,
         playouts: int | None = None, opponents: Model | None = None) -> Search:
    """``choose``'s decision with what it did (its search, when it searched): for the strength table. ``playouts``
    replaces the level's budget; ``opponents`` tells the search how the other seats play (``search``)."""
    spec = LEVELS[level]
    if not knowledge.legal:
        return Search(None)
    if spec.playouts == 0 or len(knowledge.legal) == 1:
        return Search(rng.choice(knowledge.legal))
    if level in CERTAIN:
        won = certain_win(knowledge, rng)
        if won is not None:
            return Search(won)
    budget = spec.playouts if playouts is None else playouts
    if clock is None:
        return search(knowledge, budget, rng, opponents=opponents)
    think = spec.seconds if think_s is None else think_s
    thought = _elapsed(clock, wall, think, WALL_FACTOR * think if wall_s is None else wall_s)
    return search(knowledge, budget, rng, clock=thought, deadline=think, opponents=opponents)


def _elapsed(clock: Callable[[], float], wall: Callable[[], float] | None, think: float = 1.0,
             wall_s: float = WALL_FACTOR) -> Callable[[], float]:
    """Think time used so far: ``clock``'s, or, when more, the share of ``wall_s`` passed on the wall clock scaled
    to the think time (so the search stops at ``think`` of CPU or ``wall_s`` of wall clock, whichever comes first)."""
    start = clock()
    if wall is None:
        return lambda: clock() - start
    wall_start, per_wall = wall(), (think / wall_s if wall_s > 0 else float("inf"))
    return lambda: max(clock() - start, (wall() - wall_start) * per_wall)
