"""``mythos play --quick GAME`` against the real stack (issue 44): without a key it makes the player, seeks, waits on
the player's stream and comes back with the seat quick play found once another player seeks the same game."""

from __future__ import annotations

import argparse
import threading

import pytest
import requests

from session_service.cli.play import add_parser
from session_service.cli.terminal.api import Api
from session_service.cli.terminal.quick import quick_seat
from tests.support.browser import wait_for

pytestmark = pytest.mark.e2e


def test_quick_play_in_the_terminal_finds_the_seat(stack):
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["play", "--quick", "rise-of-cthulhu", "--name", "Tess", "--server", stack.url])
    args.players_given = False
    api, said, found = Api(stack.url), [], {}
    waiting = threading.Thread(target=lambda: found.update(seat=quick_seat(api, args, said.append)), daemon=True)
    waiting.start()
    wait_for(lambda: any("looking for players" in line for line in said), what="the terminal to seek")
    assert said[0].startswith("you are now the player Tess; your key")
    other = requests.post(f"{stack.url}/v1/players", json={"name": "Otto"}, timeout=10).json()
    assert requests.post(f"{stack.url}/v1/seeks", json={"game": "rise-of-cthulhu"}, headers={"Authorization": f"Bearer {other['key']}"},
                         timeout=10).status_code == 201
    waiting.join(30)
    game_id, seat = found["seat"]
    seats = requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()["seats"]
    assert seats[seat]["name"] == "Tess" and {s["name"] for s in seats} == {"Tess", "Otto"}
