"""Challenges against the real stack over HTTP (issue 45): one made is read on the challenged player's stream,
accepted, told on both streams, and both players play its one table to the end with their keys; accepts sent at once
make one table; a bot on ``auto`` is seated as it is challenged."""

from __future__ import annotations

import threading

import pytest
import requests

from tests.support.client import ApiClient
from tests.support.contract import Contract
from tests.support.streams import StreamReader

pytestmark = pytest.mark.e2e
GAME = "pocket-madness"


def auth(key):
    return {"Authorization": f"Bearer {key}"}


def player(stack, name, bot=False):
    reply = requests.post(f"{stack.url}/v1/players", json={"name": name, "bot": bot}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def challenge(stack, by, to):
    reply = requests.post(f"{stack.url}/v1/challenges", json={"to": to["id"], "game": GAME}, headers=auth(by["key"]),
                          timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def opened(stack, who):
    """The player's stream, read past its first message (from then on, nothing told to the player is missed)."""
    stream = StreamReader(stack.url, None, who["key"], ndjson=True, path="/v1/me/stream")
    messages = iter(stream)
    assert next(messages).kind == "tables"
    return stream, messages


def next_of(messages, kind, keepalives=80):
    """The next message of ``kind`` (the shared stack's keep-alives come every quarter second: 20 s at most)."""
    for message in messages:
        if message.kind == "keepalive":
            keepalives -= 1
            assert keepalives > 0, f"no {kind} on the stream"
        elif message.kind == kind:
            return message.data
    raise AssertionError("the stream ended")


def test_a_challenge_is_told_accepted_and_its_one_table_played_to_the_end(stack):
    contract = Contract(requests.get(f"{stack.url}/openapi.json", timeout=10).json())
    ada, cy = player(stack, "Ada"), player(stack, "Cy")
    (ada_stream, ada_says), (cy_stream, cy_says) = opened(stack, ada), opened(stack, cy)
    try:
        made = challenge(stack, ada, cy)
        told = next_of(cy_says, "challenge")
        contract.check("ChallengePlayerMessage", {"type": "challenge", "data": told})
        assert told["challenge"]["id"] == made["id"] and told["challenge"]["challenger"]["name"] == "Ada"
        accepted = requests.post(f"{stack.url}/v1/challenges/{made['id']}/accept", headers=auth(cy["key"]), timeout=10)
        assert accepted.status_code == 200, accepted.text
        table = accepted.json()["table"]
        for says, seat in ((ada_says, 0), (cy_says, 1)):
            notice = next_of(says, "challenge_accepted")
            contract.check("ChallengeAcceptedPlayerMessage", {"type": "challenge_accepted", "data": notice})
            assert (notice["game"], notice["seat"], notice["game_type"]) == (table, seat, GAME)
    finally:
        ada_stream.close()
        cy_stream.close()
    api = ApiClient(stack.url)
    seats = {"id": table, "seats": [{"seat": 0, "token": ada["key"]}, {"seat": 1, "token": cy["key"]}]}
    finished = api.play_humans(seats, seed=45)
    assert finished["status"] == "finished" and [s["player"] for s in finished["seats"]] == [ada["id"], cy["id"]]
    for who in (ada, cy):
        assert requests.get(f"{stack.url}/v1/challenges", headers=auth(who["key"]), timeout=10).json() == {
            "incoming": [], "outgoing": []}


def test_accepts_sent_at_once_make_one_table(stack):
    ada, cy = player(stack, "Ada"), player(stack, "Cy")
    made = challenge(stack, ada, cy)
    barrier, answers = threading.Barrier(6), []

    def accept():
        barrier.wait()
        reply = requests.post(f"{stack.url}/v1/challenges/{made['id']}/accept", headers=auth(cy["key"]), timeout=20)
        answers.append((reply.status_code, reply.json().get("table")))

    threads = [threading.Thread(target=accept) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(answers) == 6 and {status for status, _ in answers} == {200}, answers
    tables = {table for _, table in answers}
    mine = requests.get(f"{stack.url}/v1/me/games", headers=auth(ada["key"]), timeout=10).json()["games"]
    assert len(tables) == 1 and [g["id"] for g in mine] == list(tables)


def test_a_bot_on_auto_is_seated_as_it_is_challenged(stack):
    ada, bot = player(stack, "Ada"), player(stack, "Botty", bot=True)
    assert requests.patch(f"{stack.url}/v1/me", json={"accept_challenges": "auto"}, headers=auth(bot["key"]),
                          timeout=10).json()["accept_challenges"] == "auto"
    bot_stream, bot_says = opened(stack, bot)
    try:
        made = challenge(stack, ada, bot)
        assert made["status"] == "accepted"
        notice = next_of(bot_says, "challenge_accepted")
    finally:
        bot_stream.close()
    assert (notice["game"], notice["seat"]) == (made["table"], 1)
    seats = requests.get(f"{stack.url}/v1/games/{made['table']}", timeout=10).json()["seats"]
    assert seats[1]["player"] == bot["id"] and seats[1]["bot"] is True
