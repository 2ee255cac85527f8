"""``mythos play`` in a pseudo-terminal against the real stack: it creates a table with AI seats, shows the seat's
view, takes numbered choices on its input and follows the stream to the end."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest
import requests

pytestmark = pytest.mark.e2e
MYTHOS = [sys.executable, "-c", "from session_service.cli.main import main; main()"]


class Terminal:
    """A child process on a pseudo-terminal: read what it prints, type lines at it."""

    def __init__(self, argv: list[str], env_key: str | None = None):
        self.master, slave = pty.openpty()
        env = {**os.environ, **({"MYTHOS_KEY": env_key} if env_key else {})}
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, close_fds=True, env=env)
        os.close(slave)
        self.seen = ""

    def read_until(self, *marks: str | re.Pattern, timeout_s: float = 60) -> str | re.Pattern:
        """Read until one of ``marks`` (a string, or a compiled pattern) is in what the terminal showed."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            hit = [m for m in marks if (m.search(self.seen) if isinstance(m, re.Pattern) else m in self.seen)]
            if hit:
                return hit[0]
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk and self.process.poll() is not None:
                    break
                self.seen += chunk.decode(errors="replace")
        raise AssertionError(f"none of {marks} within {timeout_s}s; the terminal shows:\n{self.seen[-3000:]}")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        os.close(self.master)


def test_mythos_play_creates_a_table_and_plays_it_to_the_end_by_number(stack):
    term = Terminal([*MYTHOS, "play", "--server", stack.url, "--game", "arkham-ritual", "--players", "3", "--name", "Tess"])
    try:
        term.read_until("> ")
        game_id = re.search(r"created (g_\S+);", term.seen).group(1)
        assert "Arkham Ritual" in term.seen and "sanity" in term.seen  # the seat's view is shown
        assert re.search(r"^\s+1\. \w", term.seen, re.M)  # the legal commands, numbered
        term.seen = ""
        term.type("99")
        term.read_until(re.compile(r"choose a number from 1 to \d+\r?\n> "))  # and its prompt again, before typing
        moves = 0
        while True:
            term.seen = ""
            term.type("1")
            moves += 1
            assert moves < 500
            if term.read_until("> ", "Game over") == "Game over":
                break
            assert re.search(r"^\s+1\. \w", term.seen, re.M), term.seen
        term.process.wait(30)
        assert term.process.returncode == 0
    finally:
        term.close()
    game = requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()
    assert game["status"] == "finished" and game["seats"][0]["name"] == "Tess"
    export = requests.get(f"{stack.url}/v1/games/{game_id}/export", timeout=10).json()
    assert sum(1 for c in export["commands"] if c["seat"] == 0 and c["by"] == "seat") == moves


def test_mythos_play_watches_a_table_as_a_spectator(stack):
    created = requests.post(f"{stack.url}/v1/games", json={"game": "pocket-madness", "seats": [
        {"name": "A", "ai": "random"}, {"name": "B", "ai": "random"}]}, timeout=10).json()
    term = Terminal([*MYTHOS, "play", created["id"], "--watch", "--server", stack.url])
    try:
        term.read_until("Game over", timeout_s=120)
        assert "you are a spectator" in term.seen and "> " not in term.seen
    finally:
        term.close()


def test_mythos_play_joins_an_open_seat_and_the_table_starts(stack):
    created = requests.post(f"{stack.url}/v1/games", json={"game": "arkham-ritual", "seats": [
        {"name": "A", "ai": "random"}, {"open": True}, {"name": "B", "ai": "random"}]}, timeout=10).json()
    assert created["status"] == "waiting"
    term = Terminal([*MYTHOS, "play", created["id"], "--name", "Joy", "--server", stack.url])
    try:
        term.read_until("you are seat 1")
        term.read_until("> ", "Game over", timeout_s=60)  # the full table started and the stream goes on
    finally:
        term.close()
    game = requests.get(f"{stack.url}/v1/games/{created['id']}", timeout=10).json()
    assert game["seats"][1]["name"] == "Joy" and game["status"] in ("active", "finished")


def test_mythos_play_with_a_player_key_creates_leaves_and_comes_back_to_its_seat(stack):
    key = requests.post(f"{stack.url}/v1/players", json={"name": "Kit"}, timeout=10).json()["key"]
    term = Terminal([*MYTHOS, "play", "--server", stack.url, "--game", "pocket-madness", "--key", key])
    try:
        term.read_until("you are seat 0")
        term.read_until("> ")
        game_id = re.search(r"created (\S+);", term.seen).group(1)
        assert key not in term.seen  # the secret is never printed back
    finally:
        term.close()
    mine = requests.get(f"{stack.url}/v1/me/games", headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
    assert [g["id"] for g in mine["games"]] == [game_id]
    back = Terminal([*MYTHOS, "play", game_id, "--server", stack.url], env_key=key)  # the key from $MYTHOS_KEY
    try:
        back.read_until("you are seat 0")  # its own seat again, no token and no join
        back.read_until("> ")
    finally:
        back.close()
    assert len(requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()["seats"]) == 2


def test_mythos_play_with_a_player_key_joins_an_open_seat_as_that_player(stack):
    kit = requests.post(f"{stack.url}/v1/players", json={"name": "Kit"}, timeout=10).json()
    created = requests.post(f"{stack.url}/v1/games", json={"game": "arkham-ritual", "seats": [
        {"name": "A", "ai": "random"}, {"open": True}, {"name": "B", "ai": "random"}]}, timeout=10).json()
    term = Terminal([*MYTHOS, "play", created["id"], "--server", stack.url, "--key", kit["key"]])
    try:
        term.read_until("you are seat 1")
    finally:
        term.close()
    seat = requests.get(f"{stack.url}/v1/games/{created['id']}", timeout=10).json()["seats"][1]
    assert seat["player"] == kit["id"] and seat["name"] == "Kit"
