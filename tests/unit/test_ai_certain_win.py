"""An AI seat never passes a certain win (issue 46): where a command wins in every world the seat could be in,
``medium`` and ``hard`` play such a command; and the search's values prefer a win sooner to a win later.

The positions are every game's, found by random play: those where a waited seat has a command that ends the game
with it among the winners in each of ``WORLDS`` worlds drawn from its knowledge (the test's own draws, not the
AI's). Before the fix, ``hard`` took such a win in 3 of 6 Pocket Madness and 4 of 6 Rise of Cthulhu positions.
"""

from __future__ import annotations

import random

import pytest

from shared.ai import LEVELS, Level, SeatKnowledge, choose
from shared.ai.rollout import discounted
from shared.ai.step import step
from shared.games import GAMES
from tests.support.properties import random_playout

WORLDS = 24
WANTED = 4  # positions a game, at least one


def wins_everywhere(knowledge: SeatKnowledge, command, worlds: list) -> bool:
    rules, rand = knowledge.game.decider, random.Random(0)
    for world in worlds:
        final = rules.outcome(step(rules, world, command, knowledge.seat, rand).state)
        if final is None or knowledge.seat not in final.winners:
            return False
    return True


def certain_positions(game, players: int):
    """(knowledge, worlds, winning commands) where a waited seat has a command winning in every world drawn."""
    found = []
    for seed in range(200):
        play = random_playout(game, players, 1000 + seed, keep_states=True)
        for state in play.states[-12:]:
            if game.decider.outcome(state) is not None:
                continue
            for seat in sorted(game.decider.to_act(state)):
                knowledge = SeatKnowledge.of(game, state, seat)
                if len(knowledge.legal) < 2:
                    continue
                rand = random.Random(seed)
                worlds = [knowledge.resample(rand) for _ in range(WORLDS)]
                winning = [c for c in knowledge.legal if wins_everywhere(knowledge, c, worlds)]
                if winning and len(winning) < len(knowledge.legal):
                    found.append((knowledge, worlds, winning))
        if len(found) >= WANTED:
            return found
    return found


@pytest.fixture
def small_budgets(monkeypatch):
    """A search of a few dozen playouts, no clock: the property must not rest on the budget."""
    for name in ("medium", "hard"):
        spec = LEVELS[name]
        monkeypatch.setitem(LEVELS, name, Level(name, 40, spec.seconds, spec.publish_after))


@pytest.mark.parametrize("game_id", sorted(g for g in GAMES if g != "toy"))
def test_medium_and_hard_take_a_command_that_wins_in_every_world_the_seat_could_be_in(game_id, small_budgets):
    game = GAMES[game_id]
    players = max(2, game.catalogue.min_players)
    positions = certain_positions(game, players)
    assert positions, f"no position with a certain win found in {game_id}"
    for level in ("medium", "hard"):
        for i, (knowledge, worlds, winning) in enumerate(positions):
            chosen = choose(knowledge, level, random.Random(i))
            assert chosen in winning or wins_everywhere(knowledge, chosen, worlds), (level, chosen, winning)


def test_a_win_sooner_is_worth_more_and_a_loss_later_less_bad():
    soon, late = discounted([1.0, 0.0], 3), discounted([1.0, 0.0], 40)
    assert soon[0] > late[0] > 0.5 > late[1] > soon[1]
    assert discounted([0.5, 0.5], 100) == [0.5, 0.5]
