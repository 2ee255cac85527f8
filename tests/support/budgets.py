"""How many seeded random playouts the property suite spends on each game, in one table.

A game's line in ``BUDGETS`` is played by its own property file (``tests/property/test_<package>_properties.py``,
through ``kernel_runs``): the kernel's properties (``check_game_properties``) at every ``every``-th position, one
test per playout, so the runs spread over the suite's workers game by game. A registered game without a line gets
``DEFAULT`` from ``tests/property/test_every_registered_game.py``: two sparsely checked playouts at each player
count, so a new game is covered before anyone sizes its budget. Long or wide games get more seeds at a lower
density; the seeds are fixed, so a failure names a playout anyone can replay. ``make test`` plays every other seed
of each line (every player count still), ``make soak`` (``MYTHOS_SOAK=1``) the whole table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from shared.games.arkham_ritual import cards as arkham_cards
from shared.kernel import Game
from tests.support.breadth import WHOLE  # make soak (MYTHOS_SOAK=1): the whole table


@dataclass(frozen=True)
class Budget:
    """Playouts of ``seeds`` at each player count of ``players`` (None: every count the game allows), checked at
    every ``every``-th position, with the options ``options(seed)`` (None: the defaults)."""

    seeds: Sequence[int]
    every: int
    players: Sequence[int] | None = None
    options: Callable[[int], dict[str, Any] | None] = field(default=lambda seed: None)


ARKHAM_GREAT_OLD_ONES = arkham_cards.GROUPS["great_old_one"]
ARKHAM_ALTERNATES = {
    "event_card": "shining_trapezohedron",
    "investigator_or_wary_student": "wary_student",
    "cultist_or_mad_professor": "mad_professor",
}


def arkham_options(seed: int) -> dict[str, Any]:
    """Arkham Ritual's options cycled by seed: each Great Old One, the alternates, the Doom Track, the competitive
    variant."""
    options: dict[str, Any] = {"great_old_one": ARKHAM_GREAT_OLD_ONES[seed % 4]}
    if seed % 2:
        options.update(ARKHAM_ALTERNATES)
    if seed % 3 == 1:
        options["doom_track"] = True
    if seed % 5 == 2:
        options["competitive"] = True
    return options


DEFAULT = (Budget(seeds=(101, 202), every=9),)

BUDGETS: dict[str, tuple[Budget, ...]] = {
    "arkham-ritual": (Budget(range(12), every=2, options=arkham_options),),
    "great-old-one": (
        Budget(range(30), every=1, players=(2,)),
        Budget(range(20), every=2, players=(3,)),
        Budget(range(14), every=2, players=(4,)),
        Budget(range(12), every=3, players=(5, 6)),
    ),
    "pocket-madness": (Budget(range(1, 16, 2), every=3), Budget(range(0, 16, 2), every=4)),
    "rise-of-cthulhu": (Budget(range(16), every=1), Budget(range(100, 160), every=7)),
    "rites-of-cthulhu": tuple(Budget([seed * 7919 + players for seed in range(4)], every=5, players=(players,))
                              for players in range(2, 7)),
}


def property_runs(games: dict[str, Game]) -> list[tuple[str, int, int, int, dict[str, Any] | None]]:
    """Every ``(game id, players, seed, every, options)`` playout the table asks for, game by game (``DEFAULT`` for
    a game without a line)."""
    runs = []
    for game_id, game in sorted(games.items()):
        low, high = game.catalogue.min_players, game.catalogue.max_players
        for budget in BUDGETS.get(game_id, DEFAULT):
            seeds = budget.seeds if WHOLE or game_id not in BUDGETS else budget.seeds[::2]
            for players in budget.players or range(low, high + 1):
                runs += [(game_id, players, seed, budget.every, budget.options(seed)) for seed in seeds]
    return runs


def kernel_runs(game: Game) -> list[Any]:
    """``game``'s line of the table as pytest parameters ``players, seed, every, options``, one per playout."""
    return [pytest.param(players, seed, every, options, id=f"{players}p-seed{seed}")
            for _, players, seed, every, options in property_runs({game.id: game})]
