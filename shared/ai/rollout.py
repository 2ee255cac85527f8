"""The playout after the tree: a fast default policy to the end of the game (or to where the game judges the
position), and the result for every seat."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shared.ai.step import simulator, step
from shared.kernel.commands import Command
from shared.kernel.decision import simulating
from shared.kernel.game import Game

MAX_COMMANDS = 3000  # a playout that long is scored as a draw
CLOCK_EVERY = 8  # commands between looks at the clock
INTERJECT = 0.1  # how often a seat the game does not wait on is offered its out-of-turn plays
BARE = True  # playouts move by the game's ``simulate`` inside ``simulating()``: no events built (they read only
# states), no command checked again; False: the full path, ``decide`` with its events (as before issue 46)
DISCOUNT = 0.999  # per command: a result that many commands away counts that much less (toward an even 1/2)


def discounted(rewards: list[float], commands: int) -> list[float]:
    """``rewards`` ``commands`` commands from the search's root, pulled toward 1/2 by ``DISCOUNT`` per command: a
    win sooner is worth more than a win later, a loss later less bad than a loss sooner (issue 46: the search
    scored winning now and winning later alike, and passed certain wins)."""
    keep = DISCOUNT ** commands
    return [0.5 + (r - 0.5) * keep for r in rewards]


class Rollout:
    """Plays a world to its end. The game's ``rollout_policy(state, seat, legal, rng)`` picks the command where
    it has one, else a uniformly random legal command; the seat that moves is one the game waits on, or now
    and then (``INTERJECT``) another seat with an out-of-turn play."""

    def __init__(self, game: Game, rng: random.Random, clock: Callable[[], float] | None, deadline: float | None):
        self.rules, self.rng, self.clock, self.deadline = game.decider, rng, clock, deadline
        self.policy = game.ai.rollout_policy
        self.value = game.ai.playout_value
        self.simulate = simulator(game)
        self.commands = 0  # played so far, over every playout (for the benchmark)

    def play(self, state: Any, start: Any = None, depth: int = 0) -> list[float] | None:
        """Each seat's reward (1 for a winner, else 0; a draw, 1/players each, when no end comes; the game's
        ``playout_value`` of the position where it judges one reached from ``start``, the world the iteration
        drew), ``discounted`` by the commands from the root (``depth`` of them in the tree before this playout);
        ``None`` when the clock passed the deadline on the way. The moves are simulated (``BARE``)."""
        if not BARE:
            return self._play(state, start, depth, lambda s, c, seat, r: step(self.rules, s, c, seat, r).state)
        with simulating():
            return self._play(state, start, depth, self.simulate)

    def _play(self, state: Any, start: Any, depth: int, move: Callable[[Any, Command, int, random.Random], Any]
              ) -> list[float] | None:
        rng, policy, value, outcome, mover = self.rng, self.policy, self.value, self.rules.outcome, self._mover
        timed = self.clock is not None and self.deadline is not None
        start = state if start is None else start
        for count in range(MAX_COMMANDS):
            final = outcome(state)
            if final is not None:
                return discounted([1.0 if s in final.winners else 0.0 for s in range(state.players)], depth + count)
            if value is not None:
                judged: list[float] | None = value(start, state)
                if judged is not None:
                    return discounted(judged, depth + count)
            if timed and count % CLOCK_EVERY == 0 and self.clock() >= self.deadline:  # type: ignore[misc,operator]
                return None
            seat, legal = mover(state)
            if not legal:
                break
            command = policy(state, seat, legal, rng) if policy is not None else rng.choice(legal)
            state = move(state, command, seat, rng)
            self.commands += 1
        return [1.0 / state.players] * state.players

    def _mover(self, state: Any) -> tuple[int, list[Command]]:
        rules, rng = self.rules, self.rng
        waited = rules.to_act(state)
        if rules.out_of_turn and rng.random() < INTERJECT:
            others = [s for s in range(state.players) if s not in waited]
            if others:
                other = rng.choice(others)
                legal = rules.legal_commands(state, other)
                if legal:
                    return other, legal
        if not waited:
            return 0, []
        seat = rng.choice(sorted(waited))
        return seat, rules.legal_commands(state, seat)
