"""Every registered game, at every player count, keeps every property over random playouts.

This file names no game: a game added to the registry is covered here with no change. How many playouts each game
gets, at which density and with which options, is the one table of ``tests/support/budgets.py``: a game's own
property file plays its line (so the runs spread over the workers file by file), and this file plays ``DEFAULT``
for a registered game that has no line yet.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from shared.games import GAMES
from shared.games.toy import GAME as TOY
from shared.kernel import RuleViolation, entropy_for
from shared.kernel.game import NOT_YOUR_TURN
from shared.wire.catalog import catalog
from tests.support.budgets import BUDGETS, property_runs
from tests.support.properties import check_game_properties, random_playout

ROOT = Path(__file__).resolve().parents[2]
# A registered game with no line in the table, else the template game (unregistered, with no line): either way the
# DEFAULT budget is played, so the path a new game takes first is never left untried.
UNSIZED = {game_id: game for game_id, game in GAMES.items() if game_id not in BUDGETS} or {TOY.id: TOY}


@pytest.mark.parametrize("game_id, players, seed, every, options", property_runs(UNSIZED))
def test_random_playouts_keep_every_property(game_id, players, seed, every, options):
    check_game_properties(UNSIZED[game_id], players, seed, options, every=every)


def package_of(game_id: str) -> str:
    return GAMES[game_id].decider.decide.__module__.split(".")[2]


@pytest.mark.parametrize("game_id", sorted(BUDGETS))
def test_a_budgeted_game_is_played_at_every_player_count_by_its_own_property_file(game_id):
    game = GAMES[game_id]
    counts = {players for _, players, *_ in property_runs({game_id: game})}
    assert counts == set(range(game.catalogue.min_players, game.catalogue.max_players + 1))
    own = ROOT / "tests" / "property" / f"test_{package_of(game_id)}_properties.py"
    assert "kernel_runs(GAME)" in own.read_text(), f"{own.name} does not play its line of tests/support/budgets.py"


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
    data = GAMES[game_id].catalogue.card_data
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
def test_every_command_and_every_field_in_the_catalogue_has_a_description(game_id):
    """A client author reads the catalogue, not our code: each command says what it does in the game's words
    (and which rulebook section it follows), and so does each of its fields."""
    entry = next(e for e in catalog({game_id: GAMES[game_id]})["games"])
    missing = [kind for kind, schema in entry["commands"].items() if len(schema.get("description", "")) < 12]
    missing += [f"{kind}.{name}" for kind, schema in entry["commands"].items()
                for name, field in schema["properties"].items() if len(field.get("description", "")) < 8]
    assert not missing, f"{game_id}: no description for {missing}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_declares_a_fact_for_each_event_type(game_id):
    """Typed events: the property suite checks every event against its fact, so every game must declare them."""
    assert len(GAMES[game_id].decider.facts) > 0


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_position_of_the_log_has_a_view_for_every_viewer(game_id):
    """Time travel (state?at=N) shows any version, including those inside setup's batch of events."""
    from shared.kernel import EVERYONE, fold

    game = GAMES[game_id]
    play = check_game_properties(game, game.catalogue.min_players, 5, every=10_000)
    state = None
    for event in play.events:
        state = fold(game, [event], state)
        for viewer in (*range(game.catalogue.min_players), None, EVERYONE):
            json.dumps(game.decider.view(state, viewer))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_no_game_command_or_event_takes_a_name_the_table_uses(game_id):
    """The table's commands and facts share each log with the game's: their names are reserved."""
    from shared.kernel.table import TABLE_COMMANDS

    game = GAMES[game_id]
    assert not set(game.catalogue.commands) & TABLE_COMMANDS
    assert not [kind.TYPE for kind in game.decider.facts if kind.TYPE.startswith("table_")]


def _unreachable(*args):
    raise AssertionError("the game's decide was reached: the kernel let a seat it does not wait on play")


@pytest.mark.parametrize("game_id", [*sorted(GAMES), TOY.id])
def test_the_kernel_refuses_an_ordinary_command_from_a_seat_the_game_does_not_wait_on(game_id):
    """One turn check, in the kernel: at positions of a random playout, each ordinary command a waited seat may post
    (a type the game does not list as out of turn) is refused from every other seat with ``rules/not_your_turn``
    before the game's ``decide`` runs (here it fails if reached); and such a seat is never offered one."""
    game = GAMES.get(game_id, TOY)
    blind = dataclasses.replace(game, decider=dataclasses.replace(game.decider, decide=_unreachable))
    players = game.catalogue.max_players
    play = random_playout(game, players, seed=43, keep_states=True)
    refused = 0
    for index, state in enumerate(play.states[::3]):
        rules = game.decider
        if rules.outcome(state) is not None:
            continue
        waited = rules.to_act(state)
        ordinary = [c for s in sorted(waited) for c in rules.legal_commands(state, s) if c.type not in rules.out_of_turn]
        for seat in sorted(set(range(players)) - waited):
            assert all(c.type in rules.out_of_turn for c in rules.legal_commands(state, seat)), (game_id, seat)
            for command in ordinary[:3]:
                with pytest.raises(RuleViolation) as info:
                    blind.checked_decide(state, command, seat, entropy_for(b"turn", index))
                assert info.value.code == NOT_YOUR_TURN and info.value.details == {"to_act": sorted(waited)}
                refused += 1
    assert refused >= 5, f"{game_id}: only {refused} commands from seats not waited on were tried"
