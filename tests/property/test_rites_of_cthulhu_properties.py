"""Property tests for Rites of Cthulhu: random playouts at every player count, plus the game's own properties."""

from __future__ import annotations

import pytest

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.state import Finished
from tests.support.budgets import kernel_runs
from tests.support.properties import check_game_properties, random_playout


@pytest.mark.parametrize("players, seed, every, options", kernel_runs(GAME))
def test_random_playouts_keep_every_property(players, seed, every, options):
    """The kernel's properties over this game's line of tests/support/budgets.py."""
    check_game_properties(GAME, players, seed, options, every=every)


@pytest.mark.parametrize("players", [2, 5])
def test_the_play_all_six_option_plays_every_available_rite(players):
    play = check_game_properties(GAME, players, 31 + players, {"play_all_rites": True}, every=9)
    assert len(play.state.played) == play.state.rites_total == min(6, len(RITES))


@pytest.mark.parametrize("seed", range(20))
def test_every_game_ends_with_the_artifacts_conserved_and_scores_from_captured_artifacts(seed):
    players = 2 + seed % 5
    play = random_playout(GAME, players, 1000 + seed)
    state = play.state
    assert isinstance(state.stage, Finished)
    outcome = GAME.decider.outcome(state)
    assert max(outcome.scores) == max(outcome.scores[s] for s in outcome.winners)
    assert len(state.played) == state.rites_total
