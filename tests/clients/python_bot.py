"""A bot written against the Python client openapi-python-client generates from the service's ``/openapi-3.1.json``
(README, "Generated clients"): it makes a player, opens a table with AI seats and plays its seat to the end from
the game's NDJSON stream alone, typed: each line read with the generated message model of its ``type``, which
files its view, its legal commands, its events and its outcome under the game's own models by the ``game`` the
message names (issue 45: a command used to be filed under another game's model of the same ``type``); each one
filed under another game's model is counted in ``Played.misfiled``. A legal command is posted as it was parsed, with
the generated ``post_command``.

The generated package is imported as ``mythos_client`` (``package_name_override``); ``tests/e2e/test_generated_clients.py``
generates it into a temporary directory and runs ``play`` for every game. By hand::

    .venv/bin/openapi-python-client generate --url http://127.0.0.1:8000/openapi-3.1.json --meta none \\
        --output-path /tmp/mythos_client --config tests/clients/openapi-python-client.yaml
    PYTHONPATH=/tmp .venv/bin/python -m tests.clients.python_bot pocket-madness
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from mythos_client import AuthenticatedClient, Client, models
from mythos_client.api.games import create_game, get_game, post_command
from mythos_client.api.lobby import create_player

MESSAGES = {"state": models.StateMessage, "event": models.EventMessage, "turn": models.TurnMessage,
            "chat": models.ChatMessage, "end": models.EndMessage, "retry": models.RetryMessage}


def pascal(words: str) -> str:
    """A game or command name as the generated models spell it: ``pocket-madness`` → ``PocketMadness``."""
    return "".join(part[:1].upper() + part[1:] for part in words.replace("-", "_").split("_"))


@dataclass
class Played:
    """What one game looked like through the generated models."""

    game: str
    outcome: Any = None
    posted: list[Any] = field(default_factory=list)  # the command models posted
    views: int = 0
    events: list[Any] = field(default_factory=list)  # the game's typed event models, one per event received
    lines: dict[str, int] = field(default_factory=dict)  # messages by type
    misfiled: list[str] = field(default_factory=list)  # each thing parsed into another game's model: its model
    commands_read: int = 0  # legal commands parsed

    def file(self, parsed: Any) -> None:
        """Count ``parsed`` misfiled unless its model is one of this game's."""
        if not type(parsed).__name__.startswith(pascal(self.game)):
            self.misfiled.append(type(parsed).__name__)


def play(base_url: str, game: str, players: int, seed: int) -> Played:
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    player = create_player.sync(client=anonymous, body=models.PlayerRequest(name="Typed bot", bot=True))
    assert isinstance(player, models.Player) and isinstance(player.key, str), player
    me = AuthenticatedClient(base_url=base_url, token=player.key, timeout=None)
    seats = [models.SeatRequest(me=True), *(models.SeatRequest(name=f"Bot {i}", ai="random") for i in range(1, players))]
    table = create_game.sync(client=me, body=models.CreateGame(game=game, seats=seats, seed=f"{seed:016x}"))
    assert type(table).__name__ == pascal(game) + "GameResource", table  # the table, by its game
    played = follow(me, table.id, game, random.Random(seed))
    over = get_game.sync(table.id, client=me)
    played.file(over)
    played.file(over.outcome)
    return played


def follow(me: AuthenticatedClient, game_id: str, game: str, rand: random.Random) -> Played:
    """Read the seat's NDJSON stream line by line (a keep-alive is an empty line), each with its message model; on
    ``state`` and ``turn`` read the view, and when the game waits on the seat post one of its legal commands."""
    played = Played(game)
    with me.get_httpx_client().stream("GET", f"/v1/games/{game_id}/events/stream",
                                      headers={"Accept": "application/x-ndjson"}) as reply:
        assert reply.status_code == 200, reply.read()
        for line in reply.iter_lines():
            if not line:
                continue
            raw = json.loads(line)
            message = MESSAGES[raw["type"]].from_dict(raw)
            played.lines[raw["type"]] = played.lines.get(raw["type"], 0) + 1
            if isinstance(message, (models.StateMessage, models.TurnMessage)):
                standing = message.data
                played.file(standing)
                if not isinstance(standing.view, models.WaitingView):
                    played.file(standing.view)
                for command in standing.legal_commands:
                    played.file(command)
                played.commands_read += len(standing.legal_commands)
                played.views += 1
                read_view(game, standing.view, standing.status)
                if 0 in standing.to_act and standing.legal_commands:
                    act(me, game_id, standing, rand, played)
            elif isinstance(message, models.EventMessage):
                event = message.data
                played.file(event)
                assert event.text.plain, event
                played.events.append(event)
            elif isinstance(message, models.EndMessage):
                played.file(message.data)
                played.outcome = message.data.outcome
                played.file(played.outcome)
                return played
    raise AssertionError(f"{game}: the stream closed before the end")


def act(me: AuthenticatedClient, game_id: str, standing: Any, rand: random.Random, played: Played) -> None:
    """Post one of the seat's legal commands as the client parsed it, with the version it was offered at (409:
    another seat moved first; the next turn message is on its way)."""
    command = rand.choice(standing.legal_commands)
    answer = post_command.sync(game_id, client=me,
                               body=models.CommandRequest(command=command, expected_version=standing.version))
    if isinstance(answer, models.CommandResult):
        played.posted.append(command)
        for event in answer.events:
            played.file(event)
    else:
        assert isinstance(answer, models.ApiError) and answer.error.code == "game/version_conflict", answer


def read_view(game: str, view: Any, status: Any) -> None:
    """Something of each game's table, read through its view model's typed fields."""
    on = str(status) == "active"
    if game == "pocket-madness":
        assert len(view.madness) == view.players and (not on or isinstance(view.hand, list))
    elif game == "arkham-ritual":
        assert all(isinstance(s, int) for s in view.sanity) and len(view.cards_in_play) > 0
    elif game == "great-old-one":
        assert all(isinstance(s.hand_size, int) for s in view.seats) and (not on or isinstance(view.hand, list))
    elif game == "rise-of-cthulhu":
        assert len(view.locations) == 4 and all(len(loc.sides) == 2 for loc in view.locations)
    elif game == "rites-of-cthulhu":
        assert isinstance(view.table.pile, int) and isinstance(view.grand_cultist, int)


if __name__ == "__main__":
    result = play(sys.argv[2] if len(sys.argv) > 2 else "http://127.0.0.1:8000", sys.argv[1], 2, 7)
    print(f"{result.game}: {len(result.posted)} commands posted, {len(result.events)} events, outcome {result.outcome}, "
          f"{len(result.misfiled)} misfiled")
