"""Every registered game replays its golden transcript byte for byte (``python -m tests.golden --write``)."""

from __future__ import annotations

import pytest

from shared.games import GAMES
from tests.golden import path_for, transcript


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_seeded_game_replays_its_golden_transcript(game_id):
    game = GAMES[game_id]
    path = path_for(game)
    assert path.exists(), f"no golden transcript for {game_id}: run python -m tests.golden --write {game_id}"
    recorded = path.read_bytes().splitlines()
    for number, (want, got) in enumerate(zip(recorded, transcript(game), strict=False)):
        assert got == want, f"{game_id}: line {number} differs from the golden transcript (python -m tests.golden to see)"
    assert len(list(transcript(game))) == len(recorded), f"{game_id}: the game is not as long as its transcript"


def test_every_registered_game_has_a_golden_transcript():
    assert all(path_for(game).exists() for game in GAMES.values())
