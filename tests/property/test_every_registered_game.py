"""Every registered game, at every player count, keeps every property over random playouts.

This file names no game: a game added to the registry is covered here with no change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.games import GAMES
from shared.wire.catalog import catalog
from tests.support.properties import check_game_properties

ROOT = Path(__file__).resolve().parents[2]
CASES = [(g.id, n) for g in GAMES.values() for n in range(g.min_players, g.max_players + 1)]


@pytest.mark.parametrize("game_id, players", CASES)
@pytest.mark.parametrize("seed", [101, 202])
def test_random_playouts_keep_every_property(game_id, players, seed):
    check_game_properties(GAMES[game_id], players, seed * 7 + players, every=9)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_written_rulings(game_id):
    rulings = ROOT / "docs" / "rulings" / f"{game_id}.md"
    assert rulings.exists() and len(rulings.read_text()) > 500


def _cards(value):
    if isinstance(value, dict):
        if "source" in value:
            yield value
        for inner in value.values():
            yield from _cards(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _cards(inner)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_card_data_marks_every_card_with_its_source_and_is_json(game_id):
    data = GAMES[game_id].card_data
    json.dumps(data)
    cards = list(_cards(data))
    assert cards, "card_data lists the cards, each with a source"
    assert {c["source"] for c in cards} <= {"rulebook", "project"}


def test_the_catalogue_lists_every_game_with_json_schemas_for_its_commands():
    entries = {e["id"]: e for e in catalog(GAMES)["games"]}
    assert set(entries) == set(GAMES)
    for entry in entries.values():
        assert entry["commands"] and all(s["properties"]["type"]["enum"] == [k] for k, s in entry["commands"].items())
        assert "random" in entry["ai_levels"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_position_of_the_log_has_a_view_for_every_viewer(game_id):
    """Time travel (state?at=N) shows any version, including those inside setup's batch of events."""
    from shared.kernel import EVERYONE, fold

    game = GAMES[game_id]
    play = check_game_properties(game, game.min_players, 5, every=10_000)
    state = None
    for event in play.events:
        state = fold(game, [event], state)
        for viewer in (*range(game.min_players), None, EVERYONE):
            json.dumps(game.view(state, viewer))
