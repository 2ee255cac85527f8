"""Turn timers on the real stack: when a seat's time is up, the worker plays a random legal command for it."""

from __future__ import annotations

import time

import pytest

from shared.games import GAMES
from tests.support.client import ApiClient

pytestmark = pytest.mark.e2e


def test_an_expired_turn_is_played_for_the_seat_and_recorded_as_a_timeout(stack):
    api = ApiClient(stack.url)
    game = api.create(next(iter(GAMES)), [{"name": "Slow"}, {"name": "Slower"}], turn_timeout_s=1)
    assert api.get(f"/v1/games/{game['id']}/state", game["seats"][0]["token"]).json()["deadline"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and api.get(f"/v1/games/{game['id']}").json()["version"] == game["version"]:
        time.sleep(0.2)
    events = api.get(f"/v1/games/{game['id']}/events", after=game["version"]).json()["events"]
    assert events and events[0]["by"] == "timeout"
    assert events[0]["seat"] in game["to_act"]
