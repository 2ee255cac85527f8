"""A seeded kernel playout replayed over HTTP, every seat a human seat of the test's: a way to bring a real table
to a position a test needs (a knock race, a sealed bid) without scripting a whole game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.kernel.game import Game
from tests.support.client import ApiClient
from tests.support.properties import random_playout


def replay_until(api: ApiClient, game: Game, seed: int, players: int,
                 stop: Callable[[Any, dict[str, Any]], bool]) -> tuple[str, dict[int, str], int, Any]:
    """Replay a seeded kernel playout over HTTP until ``stop(state_after, command)`` holds; return the game's id,
    the seats' tokens, its version and the kernel's state there."""
    play = random_playout(game, players, seed, keep_states=True)
    created = api.create(game.id, [{"name": f"Seat {i}"} for i in range(players)], options=play.options,
                         seed=seed.to_bytes(8, "big").hex())
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    version = created["version"]
    for index, (seat, command) in enumerate(play.commands):
        reply = api.post_command(created["id"], tokens[seat], command, version)
        assert reply.status_code == 200, reply.text
        version = reply.json()["version"]
        if stop(play.states[index + 1], command):
            return created["id"], tokens, version, play.states[index + 1]
    raise AssertionError("the playout never reached the position")
