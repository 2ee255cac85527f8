"""``mythos play`` in a pseudo-terminal against the real stack: it creates a table with AI seats, draws the seat's
table with card names, takes numbered choices on its input, tells the log in sentences and follows the stream to
the end, where it names the winners (and stays for a rematch until q); a choice typed while other seats move at once
is never refused."""

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

from session_service.cli.terminal.session import GAME_ENDED_FIRST
from shared.games import GAMES
from tests.support.client import ApiClient
from tests.support.replays import replay_until

pytestmark = pytest.mark.e2e
MYTHOS = [sys.executable, "-c", "from session_service.cli.main import main; main()"]
# What the client answers to a number it does not post (session_service/cli/terminal/session.py), one per number.
NOT_POSTED = ("no move to make right now", "Type l to list the moves open to you out of turn.", "Your move is on its way.",
              "choose again", GAME_ENDED_FIRST)


class Terminal:
    """A child process on a pseudo-terminal: read what it prints, type lines at it."""

    def __init__(self, argv: list[str], env_key: str | None = None, columns: int | None = None):
        self.master, slave = pty.openpty()
        env = {**os.environ, **({"MYTHOS_KEY": env_key} if env_key else {}), **({"COLUMNS": str(columns)} if columns else {})}
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

    def read_to_end(self, timeout_s: float = 30) -> None:
        """Read what the terminal shows until the child closes it."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    return
                if not chunk:
                    return
                self.seen += chunk.decode(errors="replace")
            elif self.process.poll() is not None:
                return
        raise AssertionError(f"the terminal stayed open past {timeout_s}s:\n{self.seen[-3000:]}")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        os.close(self.master)


def catalogue(stack) -> dict[str, dict]:
    return {g["id"]: g for g in requests.get(f"{stack.url}/v1/catalog", timeout=10).json()["games"]}


def names_on_the_first_screen(game: str, view: dict, seat: int, data: dict) -> list[str]:
    """What the first screen must show by name, from the seat's view and the catalogue's card data: your hand
    (Arkham Ritual: the cards in front of the others), and Pocket Madness's whole deck by position."""
    if game == "pocket-madness":
        names = {loc["number"]: loc["name"] for loc in data["locations"]}
        deck = [f"{n} {names[c['location']]}" for n, c in enumerate(view["deck"], 1) if c.get("face_up")]
        return [names[c] for c in view["hand"]] + deck
    if game == "arkham-ritual":
        names = {c["id"]: c["name"] for c in data["cards"]}
        return [names[c] for s, c in enumerate(view["cards"]) if s != seat and c is not None]
    if game == "rise-of-cthulhu":
        rows = {**data["cultists"], **data["monsters"], **data["artifacts"]}
        return [rows[c].get("name") or f"{rows[c]['colour'].capitalize()} {rows[c]['number']}" for c in view["hand"]]
    if game == "great-old-one":
        names = {c["id"]: c["name"] for c in data["cards"]}
        return [names[c] for c in view["hand"]]
    names = {e["id"]: e["name"] for e in data["entities"]}
    return [names[c] for c in view["table"]["hands"][str(seat)]]


@pytest.mark.parametrize("game, players", [("pocket-madness", 2), ("arkham-ritual", 3), ("rise-of-cthulhu", 2),
                                           ("great-old-one", 2), ("rites-of-cthulhu", 4)])
def test_mythos_play_plays_each_game_to_its_end_in_names_and_sentences(stack, game, players):
    data = catalogue(stack)[game]["card_data"]
    term = Terminal([*MYTHOS, "play", "--server", stack.url, "--game", game, "--players", str(players), "--name", "Tess"])
    try:
        term.read_until("> ")
        found = re.search(r"created (g_\S+); your seat token \(keep it to come back\): (\S+)", term.seen)
        game_id, token = found.group(1), found.group(2)
        state = requests.get(f"{stack.url}/v1/games/{game_id}/state", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
        first = " ".join(line.strip() for line in term.seen.splitlines())  # a name wrapped over two lines reads as one
        for name in names_on_the_first_screen(game, state["view"], 0, data):
            assert name in first, f"{name!r} is not on the screen:\n{term.seen}"
        assert re.search(r"^Now: your move", term.seen, re.M) and re.search(r"^\s+1\. [A-Z]", term.seen, re.M)
        term.seen = ""
        term.type("99")
        # and its prompt again, before typing; a number typed while the stream's first messages redraw the table (the
        # moves not listed again yet) is answered as such, and asked again once they are
        said = term.read_until(re.compile(r"choose a number from 1 to \d+\r?\n> "), "no move to make right now")
        if said == "no move to make right now":
            term.read_until(re.compile(r"\n\s+1\. [A-Z][\s\S]*\n> "))
            term.seen = ""
            term.type("99")
            term.read_until(re.compile(r"choose a number from 1 to \d+\r?\n> "))
        moves, shown = 0, first
        while True:
            term.seen = ""
            term.type("1")
            moves += 1
            assert moves < 600
            seen = term.read_until("> ", "Final scores")
            if seen == "Final scores":
                break  # what it read is added below, once, with the rest of the end
            shown += term.seen
        term.read_until(re.compile(r"Final scores: .*\n"))
        term.read_until("Type rematch to offer a rematch")  # a person stays for a rematch and the chat, until q
        term.type("q")
        term.read_to_end()  # with the answer to a number typed as the game ended, which may come after the end
        shown += term.seen
        term.process.wait(30)
        assert term.process.returncode == 0
    finally:
        term.close()
    resource = requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()
    assert resource["status"] == "finished" and resource["seats"][0]["name"] == "Tess"
    winners = [resource["seats"][s]["name"] for s in resource["outcome"]["winners"]]
    said = ", ".join(winners[:-1]) + " and " + winners[-1] if len(winners) > 1 else winners[0] if winners else "nobody"
    assert re.search(rf"^Winners?: {re.escape(said)}\.", shown, re.M), shown[-3000:]  # the winners by name
    assert "[" not in shown and "{" not in shown, "an id list or JSON on the screen"
    assert "refused" not in shown and "unknown" not in shown
    export = requests.get(f"{stack.url}/v1/games/{game_id}/export", timeout=10).json()
    # each number typed went in once, unless the client said it was not posted: typed after the seat's move went in
    # (under a prompt shown again while others moved at once), when only moves out of turn were open (Rites: listed on
    # l, not by a number), while the seat's last move was still on its way, against choices the table had moved on
    # from, or as the game's last move was made (the client says one of these once for each number it did not post)
    unposted = sum(shown.count(said) for said in NOT_POSTED)
    posted = sum(1 for c in export["commands"] if c["seat"] == 0 and c["by"] == "seat")
    assert posted == moves - unposted, f"{posted} posted, {moves} typed, {unposted} not posted:\n{shown[-3000:]}"


def test_a_sealed_bid_typed_while_the_others_bid_is_never_refused(stack):
    """Out of the Aeons: every seat bids at once. The others' bids arrive while the prompt is open; the choice
    typed after them goes in (the client reads the stream on its own thread and posts with the latest version)."""
    api = ApiClient(stack.url)
    rites = GAMES["rites-of-cthulhu"]

    def bidders(state):
        return {s for s in range(state.players) if any(c.type == "bid" for c in rites.decider.legal_commands(state, s))}

    game_id, tokens, _, _ = replay_until(api, rites, 3, 4, lambda state, _: bidders(state) == {0, 1, 2, 3})
    term = Terminal([*MYTHOS, "play", game_id, f"--token={tokens[0]}", "--seat", "0", "--server", stack.url])
    try:
        term.read_until(re.compile(r"\d+\. Bid .*\n(.*\n)*> "))
        for seat in (1, 2, 3):  # the others bid, each moving the table on while seat 0's prompt is open
            bid = next(c for c in api.get(f"/v1/games/{game_id}/state", tokens[seat]).json()["legal_commands"] if c["type"] == "bid")
            assert api.post_command(game_id, tokens[seat], bid).status_code == 200
            term.read_until(f"Seat {seat} placed a bid face down")
        term.read_until(re.compile(r"Seat 3 placed a bid face down\r?\n> "))  # the same choices, the prompt back under the log
        term.seen = ""
        term.type("1")
        term.read_until("You bid ")
        term.read_until("bids for")  # every bid is in: they are turned up
        assert "refused" not in term.seen and "moved on" not in term.seen
    finally:
        term.close()
    events = api.get(f"/v1/games/{game_id}/events", tokens[0]).json()["events"]
    assert [e for e in events if e["type"] == "bid_sealed" and e["seat"] == 0]


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
        term.read_until("you are Joy (seat 1)")
        term.read_until("> ", "Game over", timeout_s=60)  # the full table started and the stream goes on
    finally:
        term.close()
    game = requests.get(f"{stack.url}/v1/games/{created['id']}", timeout=10).json()
    assert game["seats"][1]["name"] == "Joy" and game["status"] in ("active", "finished")


def test_mythos_play_with_a_player_key_creates_leaves_and_comes_back_to_its_seat(stack):
    key = requests.post(f"{stack.url}/v1/players", json={"name": "Kit"}, timeout=10).json()["key"]
    term = Terminal([*MYTHOS, "play", "--server", stack.url, "--game", "pocket-madness", "--key", key])
    try:
        term.read_until("you are Kit (seat 0)")
        term.read_until("> ")
        game_id = re.search(r"created (\S+);", term.seen).group(1)
        assert key not in term.seen  # the secret is never printed back
    finally:
        term.close()
    mine = requests.get(f"{stack.url}/v1/me/games", headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
    assert [g["id"] for g in mine["games"]] == [game_id]
    back = Terminal([*MYTHOS, "play", game_id, "--server", stack.url], env_key=key)  # the key from $MYTHOS_KEY
    try:
        back.read_until("you are Kit (seat 0)")  # its own seat again, no token and no join
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
        term.read_until("you are Kit (seat 1)")
    finally:
        term.close()
    seat = requests.get(f"{stack.url}/v1/games/{created['id']}", timeout=10).json()["seats"][1]
    assert seat["player"] == kit["id"] and seat["name"] == "Kit"
