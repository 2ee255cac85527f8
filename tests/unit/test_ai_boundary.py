"""The AI knows only what its seat knows, by construction, and every level plays a legal command in budget.

The package cannot reach the store (no import of the session service, Redis or RQ, checked statically and in a
fresh interpreter); it gets a ``SeatKnowledge`` whose only window on the position is ``AiHooks.resample``; and for
every registered game, two positions that differ only in what the seat cannot know give the same search (the
same move, the same statistics) from the same random stream.
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path

import pytest

from shared.ai import LEVELS, SeatKnowledge, choose, search
from shared.games import GAMES
from tests.support.properties import random_playout

AI_DIR = Path(__file__).resolve().parents[2] / "shared" / "ai"
ALLOWED = {"__future__", "json", "math", "random", "collections", "dataclasses", "typing", "shared.ai", "shared.kernel"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(("." * node.level) + (node.module or ""))
    return names


def _allowed(name: str) -> bool:
    return any(name == ok or name.startswith(ok + ".") for ok in ALLOWED)


def test_the_ai_package_imports_only_the_kernel_and_the_standard_library_it_needs():
    files = sorted(AI_DIR.glob("*.py"))
    assert files
    bad = {f"{f.name}: {name}" for f in files for name in _imports(f) if not _allowed(name)}
    assert not bad, f"the AI package reaches beyond the kernel: {sorted(bad)}"


def test_importing_the_ai_loads_no_store_service_or_queue():
    code = ("import sys, shared.ai; bad = [m for m in sys.modules if m.split('.')[0] in "
            "{'session_service', 'rules_service', 'redis', 'rq', 'flask', 'gevent', 'gunicorn'}]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]", f"importing shared.ai loads {out}"


def _decisions(game, players: int, seed: int, wanted: int):
    """Positions of a random playout where a waited seat has a real choice, spread over the game."""
    play = random_playout(game, players, seed, keep_states=True)
    found = []
    for state in play.states[len(play.states) // 5 :: 3]:
        if game.decider.outcome(state) is not None:
            continue
        for seat in sorted(game.decider.to_act(state)):
            if len(game.decider.legal_commands(state, seat)) > 1:
                found.append((state, seat))
                break
        if len(found) == wanted:
            break
    return found


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_positions_the_seat_cannot_tell_apart_get_the_same_search(game_id):
    game = GAMES[game_id]
    players = max(game.catalogue.min_players, 2)
    differed = 0
    for state, seat in _decisions(game, players, 11, 8):
        other = game.ai.resample(state, seat, random.Random(5))
        if other == state:
            continue  # nothing hidden from the seat here (or the draw put it back as it was)
        differed += 1
        here, there = SeatKnowledge.of(game, state, seat), SeatKnowledge.of(game, other, seat)
        assert here.legal == there.legal and here.view == there.view
        a, b = search(here, 3, random.Random(99)), search(there, 3, random.Random(99))
        assert a.best in here.legal
        assert (a.best, a.root, a.iterations) == (b.best, b.root, b.iterations), (
            f"{game_id}: the search of seat {seat} depends on what it cannot know")
    assert differed, f"{game_id}: no position had anything hidden from the seat, so this test proved nothing"


class StepClock:
    """A clock that moves a fixed step each time it is read: budgets in tests, with no wall-clock."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_a_legal_command_within_its_budget(game_id, level):
    game = GAMES[game_id]
    (state, seat), = _decisions(game, max(game.catalogue.min_players, 2), 23, 1)
    knowledge = SeatKnowledge.of(game, state, seat)
    spec = LEVELS[level]
    clock = StepClock(spec.seconds / 40 if spec.seconds else 1.0)  # the think time runs out after 40 clock reads
    command = choose(knowledge, level, random.Random(7), clock=clock)
    assert command in knowledge.legal
    assert clock.now <= spec.seconds + 2 * clock.step or spec.playouts == 0


def test_the_wall_clock_caps_a_search_whose_think_time_does_not_pass():
    """A starved worker: the CPU clock hardly moves, and the wall clock stops the search at WALL_FACTOR times
    the think time."""
    from shared.ai.levels import WALL_FACTOR

    game = GAMES["arkham-ritual"]
    (state, seat), = _decisions(game, 3, 5, 1)
    knowledge = SeatKnowledge.of(game, state, seat)
    cpu, wall = StepClock(1e-6), StepClock(LEVELS["hard"].seconds / 20)
    assert choose(knowledge, "hard", random.Random(1), clock=cpu, wall=wall) in knowledge.legal
    assert WALL_FACTOR * LEVELS["hard"].seconds <= wall.now <= (WALL_FACTOR + 0.2) * LEVELS["hard"].seconds


def test_a_search_stopped_by_its_clock_still_plays_the_best_move_so_far():
    game = GAMES["arkham-ritual"]
    (state, seat), = _decisions(game, 3, 5, 1)
    knowledge = SeatKnowledge.of(game, state, seat)
    clock = StepClock(1.0)
    result = search(knowledge, 10_000, random.Random(3), clock=clock, deadline=60.0)
    assert result.stopped_by_clock and 0 < result.iterations < 60
    assert result.best in knowledge.legal and result.root


def test_the_catalogue_offers_every_level_for_every_game():
    for game in GAMES.values():
        assert set(game.ai.levels) == set(LEVELS)
