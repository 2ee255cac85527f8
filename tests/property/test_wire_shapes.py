"""Every view, event, legal command and outcome of seeded random games conforms to the OpenAPI document's
components (issue 29, item 2), strictly: no field the document does not describe.

The games are played in process (``random_playout``), their events told as the API tells them (``client_event``,
at the table: ``table_opened`` … ``table_ended``) to two seats, a spectator and, once over, everyone; every
seat's and a spectator's view at each position (``<Game>SeatView``, ``<Game>SpectatorView``: a spectator's view
holds no hand), every seat's legal commands (``<Game>Command``) and the outcome (``<Game>Outcome``, whole-number
scores as integers). The same checks of what the services really send, over HTTP and their streams, are
``tests/e2e/test_wire_contract.py``'s.
"""

from __future__ import annotations

import fakeredis
import orjson
import pytest

from shared.games import GAMES
from shared.games.toy import GAME as TOY
from shared.kernel import EVERYONE
from shared.kernel.table_narration import heard, voice_for
from shared.records import GENESIS, client_event, make_records
from shared.wire.contract import pascal
from tests.property.test_every_game_narrates import NAMES, table_log
from tests.support.contract import Contract
from tests.support.properties import random_playout
from tests.support.stack import make_session_app

ALL = {**GAMES, TOY.id: TOY}  # the template too
SEEDS = range(3)
EVERY = 4  # the views and legal commands of every fourth position (every position's events)


@pytest.fixture(scope="module")
def contract() -> Contract:
    app = make_session_app(fakeredis.FakeRedis(), "shapes", ALL)[0]
    return Contract(app.test_client().get("/openapi.json").get_json())


def wire(value):
    return orjson.loads(orjson.dumps(value))


def players_for(game, seed: int) -> int:
    low, high = game.catalogue.min_players, min(game.catalogue.max_players, 6)
    return low + seed % (high - low + 1)


def options_for(game, seed: int) -> dict | None:
    switches = {name: True for name, option in game.catalogue.options.items() if option.type == "bool"}
    return switches if seed % 2 else None


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_every_event_a_reader_receives_conforms_to_its_component(contract, game_id):
    game, name = ALL[game_id], pascal(game_id)
    seen: set[str] = set()
    for seed in SEEDS:
        players = players_for(game, seed)
        log = table_log(game, players, seed, options_for(game, seed))
        records = make_records(log, version=0, prev_hash=GENESIS, cause={"id": "c", "seat": 1, "type": "t", "by": "seat"},
                               command=None, at="2026-01-01T00:00:00.000Z", rules_version=game.rules_version)
        for viewer, reader in [(0, 0), (players - 1, players - 1), (None, None), (EVERYONE, 0)]:
            voice = voice_for(game, reader, NAMES[:players])
            for record in records:
                voice = heard(voice, record["type"], record["data"])
                event = wire(client_event(record, viewer, voice, game.id))
                contract.check(name + pascal(record["type"]) + "Event", event)
                seen.add(record["type"])
    contract.check(name + "Event", event)  # the union takes it too (the last one: table_ended)
    assert "table_ended" in seen


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_every_view_legal_command_and_outcome_conforms_to_its_component(contract, game_id):
    game, name = ALL[game_id], pascal(game_id)
    legal = []
    for seed in SEEDS:
        play = random_playout(game, players_for(game, seed), seed, options_for(game, seed), keep_states=True)
        for state in play.states[::EVERY] + [play.state]:
            over = game.decider.outcome(state) is not None
            for seat in range(play.players):
                contract.check(name + ("View" if over else "SeatView"), wire(game.decider.view(state, seat)))
                legal += [c.to_wire() for c in game.decider.legal_commands(state, seat)]
            contract.check(name + "SpectatorView", wire(game.decider.view(state, None)))
            contract.check(name + "View", wire(game.decider.view(state, EVERYONE)))
        outcome = wire(game.decider.outcome(play.state).to_json())
        contract.check(name + "Outcome", outcome)
        assert all(type(score) is int for score in outcome["scores"]), f"{game_id}: scores {outcome['scores']}"
    for command in legal:  # each by its own component (the union tries every one of them), then one by the union
        contract.check(name + pascal(command["type"]), wire(command))
    contract.check(name + "Command", wire(legal[0]))


@pytest.mark.parametrize("game_id", sorted(ALL))
def test_a_view_read_between_the_events_of_one_command_conforms_too(contract, game_id):
    """``?at=`` reads a view at any version, also between the events one command appended (an Arkham Ritual round
    begun whose Active Player is not yet chosen): every position after every event of a game conforms."""
    game, name = ALL[game_id], pascal(game_id)
    play = random_playout(game, players_for(game, 1), 1, options_for(game, 1))
    state = None
    for event in play.events:
        state = game.decider.evolve(state, event)
        contract.check(name + "View", wire(game.decider.view(state, EVERYONE)))
        contract.check(name + "SpectatorView", wire(game.decider.view(state, None)))
        contract.check(name + "SeatView", wire(game.decider.view(state, 0)))


def test_a_spectators_view_with_a_hand_in_it_does_not_conform(contract):
    """The spectator's component is no formality: a view that shows a hand to a spectator is refused by it."""
    game = GAMES["pocket-madness"]
    play = random_playout(game, 2, 1)
    leaked = wire(game.decider.view(play.states[0], 0))
    assert contract.problems("PocketMadnessSeatView", leaked) == []
    assert contract.problems("PocketMadnessSpectatorView", leaked)


def test_an_undescribed_field_or_a_fractional_whole_score_does_not_conform(contract):
    game = GAMES["rise-of-cthulhu"]
    play = random_playout(game, 2, 3)
    outcome = wire(game.decider.outcome(play.state).to_json())
    assert contract.problems("RiseOfCthulhuOutcome", {**outcome, "scores": [float(s) + 0.5 for s in outcome["scores"]]})
    assert contract.problems("RiseOfCthulhuView", {**wire(game.decider.view(play.state, EVERYONE)), "secret_deck": []})
