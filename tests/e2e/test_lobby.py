"""The lobby on the real stack, as people use it: four players made with POST /v1/players open private tables,
friends join (by invite code, or to a seat kept for them), and each plays a game of every kind to its end with
only its player key and its one stream (GET /v1/me/stream); a player resigns and the AI finishes for it; a
table nobody plays ends by itself; a retried create makes one table."""

from __future__ import annotations

import random
import threading
import time

import pytest
import requests

from tests.support.real_stack import running_stack
from tests.support.streams import StreamReader

IDLE_S = 8  # long enough for a bot on a busy machine, short enough to wait for


@pytest.fixture(scope="module")
def lobby_stack():
    """A stack of its own whose idle-table policy and sweep are short enough to watch. A resigned seat is taken over
    at `easy` (a search, half the default's think time per move: the takeover is under test, not its level)."""
    with running_stack("lobby", {"SESSION_WORKERS": "2", "RULES_WORKERS": "1", "RATE_LIMIT_PER_MINUTE": "100000",
                                 "IDLE_TABLE_S": str(IDLE_S), "SWEEP_EVERY_S": "1", "SSE_KEEPALIVE_S": "1",
                                 "TAKEOVER_AI": "easy"}) as live:
        yield live


def auth(key):
    return {"Authorization": f"Bearer {key}"}


def make_player(base, name):
    reply = requests.post(f"{base}/v1/players", json={"name": name, "bot": True}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


class Bot(threading.Thread):
    """A player that knows only its key: it follows its stream and, told it is its turn, posts a random legal
    command at that version. It plays every table it sits at, until told to stop."""

    def __init__(self, base, player, seed):
        super().__init__(daemon=True)
        self.base, self.player, self.rand = base, player, random.Random(seed)
        self.finished: dict[str, dict] = {}
        self.seen: list[str] = []
        self.stop = threading.Event()
        self.errors: list[str] = []

    def run(self):
        while not self.stop.is_set():
            try:
                with StreamReader(self.base, None, self.player["key"], path="/v1/me/stream", timeout_s=30) as stream:
                    for message in stream:
                        if self.stop.is_set():
                            return
                        self.seen.append(message.kind)
                        if message.kind == "your_turn":
                            self.act(message.data)
                        elif message.kind == "game_finished":
                            self.finished[message.data["game"]] = message.data
            except requests.RequestException:
                continue

    def act(self, turn):
        game = turn["game"]
        state = requests.get(f"{self.base}/v1/games/{game}/state", headers=auth(self.player["key"]), timeout=10).json()
        if state["version"] != turn["version"] or not state["legal_commands"]:
            return  # the game moved on: a newer your_turn follows if it still waits on this seat
        command = self.rand.choice(state["legal_commands"])
        reply = requests.post(f"{self.base}/v1/games/{game}/commands", headers=auth(self.player["key"]), timeout=10,
                              json={"command": command, "expected_version": turn["version"]})
        if reply.status_code not in (200, 409):
            self.errors.append(f"{game}: {reply.status_code} {reply.text[:200]}")


def wait_for(check, timeout_s=180.0, every_s=0.2):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every_s)
    raise AssertionError("timed out")


def test_four_players_open_join_and_play_every_game_with_keys_and_their_streams(lobby_stack):
    base = lobby_stack.url
    catalog = {g["id"]: g for g in requests.get(f"{base}/v1/catalog", timeout=10).json()["games"]}
    players = [make_player(base, name) for name in ("Ada", "Bo", "Cy", "Di")]
    bots = [Bot(base, p, i) for i, p in enumerate(players)]
    for bot in bots:
        bot.start()
    games = []
    for game_type, entry in catalog.items():
        n = max(entry["min_players"], min(4, entry["max_players"]))
        seats = [{"me": True}, {"open": True}] + [{"open": True, "player": players[2]["id"]}] * (n >= 3) + [{"open": True}] * (n - 3)
        created = requests.post(f"{base}/v1/games", headers=auth(players[0]["key"]), timeout=30,
                                json={"game": game_type, "seats": seats[:n], "visibility": "private"})
        assert created.status_code == 201, created.text
        game = created.json()
        assert game["status"] == "waiting" and game["invite"]
        # Bo joins by invite; Cy takes the seat kept for her; Di joins by invite
        assert requests.post(f"{base}/v1/games/{game['id']}/join", headers=auth(players[1]["key"]), timeout=30,
                             json={"invite": game["invite"]}).status_code == 200
        if n >= 3:
            assert requests.post(f"{base}/v1/games/{game['id']}/join", headers=auth(players[2]["key"]), timeout=30,
                                 json={}).status_code == 200
        if n >= 4:
            assert requests.post(f"{base}/v1/games/{game['id']}/join", headers=auth(players[3]["key"]), timeout=30,
                                 json={"invite": game["invite"]}).status_code == 200
        games.append((game["id"], n))
    try:
        for game_id, n in games:
            final = wait_for(lambda: (r := requests.get(f"{base}/v1/games/{game_id}", timeout=10).json())["status"] == "finished" and r,
                             timeout_s=240)
            assert final["outcome"] is not None and all(s["ai"] is None for s in final["seats"])
            assert requests.get(f"{base}/v1/games/{game_id}/audit", timeout=30).json()["replay_ok"] is True
            wait_for(lambda: all(game_id in bot.finished for bot in bots[:n]), timeout_s=30)
    finally:
        for bot in bots:
            bot.stop.set()
    assert not [e for bot in bots for e in bot.errors]
    assert all(bot.seen[0] == "tables" for bot in bots)
    assert {"game_started", "your_turn", "game_finished"} <= set(bots[1].seen)
    assert "invited" in bots[2].seen or bots[2].seen.count("game_started") >= 1
    mine = requests.get(f"{base}/v1/me/games", headers=auth(players[0]["key"]), timeout=10).json()["games"]
    assert {g["id"] for g in mine} == {g for g, _ in games}


def test_a_player_resigns_and_the_ai_finishes_the_game_for_the_seat(lobby_stack):
    base = lobby_stack.url
    players = [make_player(base, name) for name in ("Eve", "Fay", "Gus")]
    bots = [Bot(base, players[0], 10), Bot(base, players[2], 12)]
    for bot in bots:
        bot.start()
    game = requests.post(f"{base}/v1/games", headers=auth(players[0]["key"]), timeout=30, json={
        "game": "pocket-madness", "seats": [{"me": True}, {"open": True}, {"open": True}]}).json()
    for p in players[1:]:
        assert requests.post(f"{base}/v1/games/{game['id']}/join", headers=auth(p["key"]), json={}, timeout=30).status_code == 200
    resigned = requests.post(f"{base}/v1/games/{game['id']}/resign", headers=auth(players[1]["key"]), timeout=30)
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["events"][0]["type"] == "table_seat_resigned"
    refused = requests.post(f"{base}/v1/games/{game['id']}/commands", headers=auth(players[1]["key"]), timeout=30,
                            json={"command": {"type": "draw_cards", "count": 1}})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "rules/resigned"
    try:
        final = wait_for(lambda: (r := requests.get(f"{base}/v1/games/{game['id']}", timeout=10).json())["status"] == "finished" and r,
                         timeout_s=240)
    finally:
        for bot in bots:
            bot.stop.set()
    assert 1 not in final["outcome"]["winners"] and final["seats"][1]["resigned"] is True and final["seats"][1]["ai"] == "easy"
    events = requests.get(f"{base}/v1/games/{game['id']}/events", params={"limit": 1000}, timeout=30).json()["events"]
    resign_at = next(e["version"] for e in events if e["type"] == "table_seat_resigned")
    assert any(e["seat"] == 1 and e["by"] == "ai" and e["version"] > resign_at for e in events), " ".join(f'{e["version"]}:{e["type"]}:{e["seat"]}:{e["by"]}' for e in events[-40:])
    assert requests.get(f"{base}/v1/games/{game['id']}/audit", timeout=30).json()["replay_ok"] is True


def test_a_table_nobody_plays_ends_by_itself_and_a_retried_create_makes_one_table(lobby_stack):
    base = lobby_stack.url
    body = {"game": "arkham-ritual", "seats": [{"name": "Ha"}, {"name": "Io"}, {"name": "Jo"}]}
    first = requests.post(f"{base}/v1/games", json=body, headers={"Idempotency-Key": "lobby-create-1"}, timeout=30)
    again = requests.post(f"{base}/v1/games", json=body, headers={"Idempotency-Key": "lobby-create-1"}, timeout=30)
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"] and first.json()["seats"][0]["token"] == again.json()["seats"][0]["token"]
    game_id = first.json()["id"]
    final = wait_for(lambda: (r := requests.get(f"{base}/v1/games/{game_id}", timeout=10).json())["status"] == "finished" and r,
                     timeout_s=IDLE_S + 30)
    assert final["outcome"]["reason"] == "abandoned" and final["outcome"]["winners"] == []
    assert requests.get(f"{base}/v1/games/{game_id}/audit", timeout=30).json()["replay_ok"] is True
