"""Over HTTP, each seat receives exactly what the kernel lets it know, for every registered game.

A seeded kernel playout is replayed on the real stack with every seat human. While it runs, each seat reads
its state and its events. Once it is over, the export gives the full log, and every response is compared
with the kernel: the view is ``view(state at v, seat)``, the legal commands are ``legal_commands(state at v,
seat)``, and every event is the record redacted for that seat, told in words from that redaction (its
``text``). The property suites prove those kernel functions reveal nothing hidden (non-interference); this
proves the HTTP layer adds nothing to them.
"""

from __future__ import annotations

import json

import pytest

from shared.games import GAMES
from shared.kernel import Event
from shared.kernel.table import Seating
from shared.kernel.table_narration import voice_for
from shared.records import client_event
from tests.support.client import ApiClient
from tests.support.properties import random_playout

pytestmark = pytest.mark.e2e
READS = 25  # state reads per seat over the game


def normal(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_each_seat_receives_exactly_its_redacted_share(stack, game_id):
    game, seed = GAMES[game_id], 4242
    players = max(game.catalogue.min_players, 3) if game.catalogue.max_players >= 3 else game.catalogue.min_players
    playout = random_playout(game, players, seed)
    api = ApiClient(stack.url)
    created = api.create(game_id, [{"name": f"Seat {i}"} for i in range(players)], options=playout.options,
                         seed=seed.to_bytes(8, "big").hex())
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    stride = max(1, len(playout.commands) // READS)
    states, received = [], {s: [] for s in tokens}
    version = created["version"]
    for index, (seat, command) in enumerate(playout.commands):
        if index % stride == 0:
            for reader, token in tokens.items():
                states.append((reader, api.get(f"/v1/games/{created['id']}/state", token).json()))
                received[reader] += api.get(f"/v1/games/{created['id']}/events", token, after=max(0, version - 8)).json()["events"]
        reply = api.post_command(created["id"], tokens[seat], command, version)
        assert reply.status_code == 200, reply.text
        received[seat] += reply.json()["events"]
        version = reply.json()["version"]

    export = api.get(f"/v1/games/{created['id']}/export").json()
    records = {r["v"]: r for r in export["events"]}
    events = [Event.from_json(r) for r in export["events"]]
    seating = Seating(game)
    for reader, state in states:
        position = seating.fold(None, events[: state["version"]]).game
        assert state["view"] == normal(game.decider.view(position, reader)), (reader, state["version"])
        assert state["legal_commands"] == normal([c.to_wire() for c in game.decider.legal_commands(position, reader)]), (
            reader, state["version"])
    names = [f"Seat {i}" for i in range(players)]
    for reader, got in received.items():
        assert got, "every seat received events"
        voice = voice_for(game, reader, names)
        for event in got:
            assert event == normal(client_event(records[event["version"]], reader, voice, game.id)), (reader, event["version"])
