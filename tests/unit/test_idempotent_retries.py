"""A repeated Idempotency-Key gets the first answer and writes nothing, whatever happened to the game since.

The session service looks the key up before deciding only where the first answer would otherwise be lost;
on the fresh path the append script finds it. These pin each path: the game moved on (with and without
expected_version), the rules would accept the command again, the game has ended.
"""

from __future__ import annotations

import pytest

from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.fixture
def client(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0].test_client()


def post(client, game, seat, command, key=None, expected=None):
    headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}", **({"Idempotency-Key": key} if key else {})}
    return client.post(f"/v1/games/{game['id']}/commands", json={"command": command, "expected_version": expected}, headers=headers)


def version(client, game):
    return client.get(f"/v1/games/{game['id']}").json["version"]


@pytest.fixture
def game(client):
    reply = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]})
    assert reply.status_code == 201
    return reply.json


def test_a_retry_with_its_expected_version_after_the_game_moved_gets_the_first_answer(client, game):
    start = version(client, game)
    first = post(client, game, 0, {"type": "draw_card"}, "k", expected=start)
    assert post(client, game, 1, {"type": "draw_card"}).status_code == 200
    again = post(client, game, 0, {"type": "draw_card"}, "k", expected=start)
    assert (again.status_code, again.json) == (200, first.json)
    assert version(client, game) == start + 2


def test_a_retry_the_rules_would_accept_again_writes_nothing(client, game):
    first = post(client, game, 0, {"type": "draw_card"}, "k")
    assert post(client, game, 1, {"type": "draw_card"}).status_code == 200
    moved = version(client, game)  # seat 0 may draw again now: only the key tells the retry apart
    again = post(client, game, 0, {"type": "draw_card"}, "k")
    assert (again.status_code, again.json) == (200, first.json)
    assert version(client, game) == moved


def test_a_retry_after_the_game_ended_gets_the_first_answer_and_a_new_command_does_not(client, game):
    first = post(client, game, 0, {"type": "draw_card"}, "k")
    seat = 1
    for turn in range(40):
        if client.get(f"/v1/games/{game['id']}").json["status"] == "finished":
            break
        token = game["seats"][seat]["token"]
        legal = client.get(f"/v1/games/{game['id']}/state", headers={"Authorization": f"Bearer {token}"}).json["legal_commands"]
        assert post(client, game, seat, legal[-1], f"t{turn}").status_code == 200
        seat = 1 - seat
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "finished"
    again = post(client, game, 0, {"type": "draw_card"}, "k")
    assert (again.status_code, again.json) == (200, first.json)
    assert post(client, game, 0, {"type": "draw_card"}, "new").json["error"]["code"] == "game/finished"


def test_a_seat_cannot_swallow_its_timers_move_by_sending_the_timers_key_first(client, game):
    """The timer's key lives in a namespace no client key can spell (it once was ``timeout:<version>``, the same
    namespace as the seat's own keys: a seat that sent that key first made itself immune to its timer)."""
    from session_service.worker import jobs

    start = version(client, game)
    final = start + 2 * 3  # the version at which the timer will act, after the three rounds below
    for spelling in (f"timeout:{final}", f"timeout:0:{final}", str(final)):
        # each a spelling of the timer's key at ``final``, stored first under seat 0's own keys
        assert post(client, game, 0, {"type": "draw_card"}, spelling, expected=start).status_code == 200
        assert post(client, game, 1, {"type": "draw_card"}).status_code == 200
        start = version(client, game)
    assert start == final
    assert jobs.turn_timeout(game["id"], 0, start) == "played"
    assert version(client, game) == start + 1
    last = client.get(f"/v1/games/{game['id']}/events?after={start}").json["events"]
    assert [e["by"] for e in last] == ["timeout"]
