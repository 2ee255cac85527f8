"""A small HTTP client for the public API, as a third-party bot would write it."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

import requests


@dataclass
class ApiClient:
    base: str
    http: requests.Session = None  # type: ignore[assignment]

    def __post_init__(self):
        self.http = self.http or requests.Session()

    def create(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        reply = self.http.post(f"{self.base}/v1/games", json={"game": game, "seats": seats, **extra}, timeout=30)
        assert reply.status_code == 201, reply.text
        return reply.json()

    def get(self, path: str, token: str | None = None, **params: Any) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.get(self.base + path, headers=headers, params=params, timeout=30)

    def post_command(self, game_id: str, token: str, command: dict[str, Any], expected_version: int | None = None,
                     key: str | None = None) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"}
        if key:
            headers["Idempotency-Key"] = key
        return self.http.post(f"{self.base}/v1/games/{game_id}/commands", headers=headers,
                              json={"command": command, "expected_version": expected_version}, timeout=30)

    def wait_finished(self, game_id: str, timeout_s: float = 120) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            game = self.get(f"/v1/games/{game_id}").json()
            if game["status"] == "finished":
                return game
            time.sleep(0.2)
        raise AssertionError(f"{game_id} did not finish in {timeout_s}s: {game}")

    def play_humans(self, game: dict[str, Any], seed: int, max_commands: int = 5000) -> dict[str, Any]:
        """Play every human seat through legal_commands until the game ends (AI seats play themselves)."""
        rand = random.Random(seed)
        tokens = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}
        for _ in range(max_commands):
            resource = self.get(f"/v1/games/{game['id']}").json()
            if resource["status"] == "finished":
                return resource
            mine = [s for s in resource["to_act"] if s in tokens]
            if not mine:
                time.sleep(0.02)
                continue
            seat = rand.choice(mine)
            state = self.get(f"/v1/games/{game['id']}/state", tokens[seat]).json()
            if not state["legal_commands"]:
                continue
            reply = self.post_command(game["id"], tokens[seat], rand.choice(state["legal_commands"]), state["version"])
            assert reply.status_code in (200, 409), reply.text
        raise AssertionError("the game did not end")


def replay_over_http(api: ApiClient, playout: Any, seed: int) -> dict[str, Any]:
    """Play a kernel playout (tests.support.properties.random_playout) over HTTP: same seed, same commands,
    every seat human, each command posted with its expected version. Returns the finished game resource."""
    game = api.create(playout.game.id, [{"name": f"Seat {i}"} for i in range(playout.players)],
                      options=playout.options, seed=seed.to_bytes(8, "big").hex())
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    version = game["version"]
    for seat, command in playout.commands:
        reply = api.post_command(game["id"], tokens[seat], command, version)
        assert reply.status_code == 200, reply.text
        version = reply.json()["version"]
    return api.get(f"/v1/games/{game['id']}").json() | {"tokens": tokens}
