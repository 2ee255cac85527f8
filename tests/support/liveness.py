"""Liveness, the kernel's guarantee that no game can freeze (docs: ARCHITECTURE.md "Liveness"), checked over playouts.

At every position of a running game: the game waits on some seat; each seat it waits on has an ordinary command
(one that is not an out-of-turn play), and the turn timer's choice for it is one of those and does not raise (a
seat it does not wait on may only play out of turn: ``properties.check_who_may_act``); and every command
``legal_commands`` lists, for any seat, is accepted by the kernel's ``checked_decide``.

``liveness_playout`` checks every position of one playout, moving either at random (a random acting seat, then a
random command, as ``properties.random_playout``) or with a bias towards the rare positions where a game could
freeze: out-of-turn plays taken whenever a seat has one (power-plays and artifacts in Rites, which empty hands and
piles and force trades), and, looking one move ahead, the move after which a waited seat has the fewest options.
``Coverage`` counts what was checked.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from shared.kernel import Event, RuleViolation, entropy_for, fold
from shared.kernel.game import Game
from tests.support.properties import check_who_may_act

Decided = list[tuple[int, Any, list[Event], Any]]
"""Every (seat, command, events, state after) a position offers, each decided: the playout moves on to the state
the chosen decision left (its events' fold: ``Decided``), so no move is folded a second time."""


@dataclass
class Coverage:
    """What the liveness playouts checked: positions, commands decided, tight positions (a waited seat with a single
    ordinary command), out-of-turn plays made, and ``features`` a game-specific probe saw (rare positions)."""

    playouts: int = 0
    positions: int = 0
    decided: int = 0
    tight: int = 0
    out_of_turn: int = 0
    features: Counter[str] = field(default_factory=Counter)

    def merge(self, other: Coverage) -> None:
        self.playouts += other.playouts
        self.positions += other.positions
        self.decided += other.decided
        self.tight += other.tight
        self.out_of_turn += other.out_of_turn
        self.features.update(other.features)


def check_liveness(game: Game, state: Any, entropy: bytes, rand: random.Random, where: str = "") -> Decided:
    """The liveness properties at one position (nothing to check once the game is over); every command offered,
    with the events deciding it gives and the state they leave. ``where`` says which playout and step, for the failure message."""
    if game.decider.outcome(state) is not None:
        return []
    assert game.decider.to_act(state), f"{game.id}{where}: the game is running but waits on nobody"
    decided: Decided = []
    for seat in range(game.players(state)):
        legal = game.decider.legal_commands(state, seat)
        try:
            check_who_may_act(game, state, seat, legal, rand)
        except AssertionError as breach:
            raise AssertionError(f"{breach}{where} (legal: {legal})") from None
        for command in legal:
            try:
                events, after = game.checked_decide(state, command, seat, entropy)
            except RuleViolation as refused:
                raise AssertionError(f"{game.id}{where}: seat {seat} is offered {command}, and decide refuses it: "
                                     f"{refused.code} ({refused})") from None
            decided.append((seat, command, events, after))
    return decided


Probe = Callable[[Any], Iterable[str]]
"""A game's probe for rare positions: the features of a position worth counting (e.g. "trade pending")."""


@dataclass(frozen=True)
class Bias:
    """How a playout chooses among the decided moves: ``out_of_turn`` the chance of taking an out-of-turn play when
    one is offered; ``tight`` the chance of looking one move ahead (at up to ``lookahead`` moves) and taking the one
    that leaves a waited seat the fewest ordinary commands. Zero for both is a uniformly random playout."""

    out_of_turn: float = 0.0
    tight: float = 0.0
    lookahead: int = 4

    def choose(self, game: Game, state: Any, decided: Decided, rand: random.Random) -> tuple[int, Any, list[Event], Any]:
        if self.out_of_turn and rand.random() < self.out_of_turn:
            optional = [d for d in decided if d[1].type in game.decider.out_of_turn]
            if optional:
                return rand.choice(optional)
        if self.tight and rand.random() < self.tight:
            options = rand.sample(decided, min(len(decided), self.lookahead))
            return min(options, key=lambda d: (_slack(game, d[3]), rand.random()))
        seat = rand.choice(sorted({s for s, _, _, _ in decided}))
        return rand.choice([d for d in decided if d[0] == seat])


RANDOM = Bias()
TOWARDS_RARE = Bias(out_of_turn=0.5, tight=0.5)


def _slack(game: Game, state: Any) -> int:
    """How many ordinary commands the most constrained waited seat has (a finished game is no constraint)."""
    if game.decider.outcome(state) is not None:
        return 1 << 20
    return min((sum(c.type not in game.decider.out_of_turn for c in game.decider.legal_commands(state, seat))
                for seat in game.decider.to_act(state)), default=0)


def liveness_playout(game: Game, state: Any, seed: int, bias: Bias, coverage: Coverage, probe: Probe | None = None,
                     stop: Callable[[Any], bool] | None = None, max_commands: int = 3000, label: str = "") -> Any:
    """Play from ``state`` until the game ends (or ``stop`` says so), checking liveness at every position; the
    state reached. Failures name the game, ``label``, the seed and the step, so a breach can be replayed."""
    rand = random.Random(seed)
    game_seed = seed.to_bytes(8, "big")
    coverage.playouts += 1
    for step in range(max_commands):
        if game.decider.outcome(state) is not None or (stop is not None and stop(state)):
            return state
        decided = check_liveness(game, state, entropy_for(game_seed, step), rand, f" ({label} seed {seed} step {step})")
        coverage.positions += 1
        coverage.decided += len(decided)
        if any(sum(1 for s, c, _, _ in decided if s == seat and c.type not in game.decider.out_of_turn) == 1
               for seat in game.decider.to_act(state)):
            coverage.tight += 1
        if probe is not None:
            coverage.features.update(probe(state))
        seat, command, _, state = bias.choose(game, state, decided, rand)
        coverage.out_of_turn += command.type in game.decider.out_of_turn
    raise AssertionError(f"{game.id} ({label} seed {seed}): no end after {max_commands} commands")


def started(game: Game, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
    """A freshly set-up game."""
    _, events = game.start(players, options, entropy_for(seed.to_bytes(8, "big"), 0))
    return fold(game, events)
