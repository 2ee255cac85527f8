"""Around the table on the real stack, over HTTP (issue 31; issue 33 items 1 and 6): an invitee declines and another
player takes the seat; a joiner leaves before the start; a stranger's join-and-abort loop leaves the lobby standing;
the lobby describes each table; a finished table's rematch starts with a new seed once both accept and is dropped on
a decline; two players chat while a spectators' channel never reaches their streams; a muted player's lines never
reach the one who muted. Short games: two people, ended by a resignation. On the suite's shared stack."""

from __future__ import annotations

import pytest
import requests

from tests.support.streams import StreamReader

pytestmark = pytest.mark.e2e
GAME = "pocket-madness"


def auth(key):
    return {"Authorization": f"Bearer {key}"}


def make_player(base, name):
    reply = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def post(base, path, key=None, body=None):
    return requests.post(f"{base}{path}", json=body if body is not None else {}, headers=auth(key) if key else {}, timeout=30)


def open_table(base, key, seats, **extra):
    reply = post(base, "/v1/games", key, {"game": GAME, "seats": seats, **extra})
    assert reply.status_code == 201, reply.text
    return reply.json()


def chat_texts(messages, until_text):
    """The chat lines a stream's messages carry up to the one saying ``until_text``."""
    said = []
    for message in messages:
        if message.kind == "chat":
            said.append((message.data["channel"], message.data["from"]["name"], message.data["text"]))
            if message.data["text"] == until_text:
                return said
    raise AssertionError(f"the stream ended before {until_text!r}: {said}")


@pytest.fixture(scope="module")
def people(stack):
    return {name: make_player(stack.url, name) for name in ("Ada", "Bo", "Cy", "Di")}


def test_an_invitee_declines_another_player_takes_the_seat_and_a_joiner_leaves_before_the_start(stack, people):
    base, ada, bo, cy, di = stack.url, *(people[n] for n in ("Ada", "Bo", "Cy", "Di"))
    game = open_table(base, ada["key"], [{"me": True}, {"open": True, "player": cy["id"]}, {"open": True}],
                      visibility="private")
    with StreamReader(base, None, ada["key"], path="/v1/me/stream", ndjson=True) as mine:
        messages = iter(mine)
        assert next(messages).kind == "tables"
        assert post(base, f"/v1/games/{game['id']}/decline", cy["key"]).status_code == 200
        declined = next(m for m in messages if m.kind == "seat_declined")
        assert declined.data["name"] == "Cy" and declined.data["seat"] == 1
    joined = post(base, f"/v1/games/{game['id']}/join", di["key"], {"invite": game["invite"]})
    assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text
    bo_seat = post(base, f"/v1/games/{game['id']}/join", bo["key"], {"invite": game["invite"]}).json()["seat"]
    assert requests.get(f"{base}/v1/games/{game['id']}", timeout=10).json()["status"] == "active"
    late = post(base, f"/v1/games/{game['id']}/leave", bo["key"])
    assert late.status_code == 409 and late.json()["error"]["code"] == "game/started"
    assert bo_seat == 2
    waiting = open_table(base, ada["key"], [{"me": True}, {"open": True}, {"open": True}])
    guest = post(base, f"/v1/games/{waiting['id']}/join", None, {"name": "Guest"}).json()
    left = post(base, f"/v1/games/{waiting['id']}/leave", guest["token"])
    assert left.status_code == 200 and [e["type"] for e in left.json()["events"]] == ["table_seat_left"]
    table = requests.get(f"{base}/v1/games/{waiting['id']}", timeout=10).json()
    assert table["status"] == "waiting" and [s["open"] for s in table["seats"]] == [False, True, True]
    log = [e["type"] for e in requests.get(f"{base}/v1/games/{game['id']}/events", headers=auth(ada["key"]),
                                            timeout=10).json()["events"]]
    assert log[:4] == ["table_opened", "table_seat_declined", "table_seat_joined", "table_seat_joined"]
    assert post(base, f"/v1/games/{waiting['id']}/abort", ada["key"]).status_code == 200


def test_the_lobby_survives_a_strangers_join_and_abort_loop_and_describes_each_table(stack, people):
    """Issue 33 (1): a stranger listed the waiting tables, joined each anonymously and aborted it (64 writes ended 32
    tables). And (6): private tables cannot crowd the public ones out of a page."""
    base, ada = stack.url, people["Ada"]
    mine = [open_table(base, ada["key"], [{"me": True}, {"open": True}, {"name": "Bot", "ai": "random"}],
                       turn_timeout_s=600)["id"] for _ in range(3)]
    for _ in range(12):
        open_table(base, ada["key"], [{"me": True}, {"open": True}], visibility="private")
    page = requests.get(f"{base}/v1/games", params={"status": "waiting", "game": GAME, "limit": 10}, timeout=10).json()
    listed = {g["id"]: g for g in page["games"]}
    assert set(mine) <= set(listed)
    table = listed[mine[0]]
    assert table["host"] == {"name": "Ada", "player": ada["id"], "seats": [0]} and table["turn_timeout_s"] == 600
    assert [(s["name"], s["open"], s["ai"]) for s in table["seats"]] == [("Ada", False, None), (None, True, None),
                                                                        ("Bot", False, "random")]
    assert table["watchers"] == 0
    with StreamReader(base, mine[0], ndjson=True):
        assert requests.get(f"{base}/v1/games/{mine[0]}", timeout=10).json()["watchers"] == 1
    refusals, seats = [], []
    for game in page["games"]:  # the attack: join each listed table as a stranger, then abort it (only Ada's here:
        if game["host"].get("player") != ada["id"]:  # the stack is the suite's)
            continue
        seat = post(base, f"/v1/games/{game['id']}/join", None, {"name": "Mallory"})
        if seat.status_code == 200:
            seats.append((game["id"], seat.json()["token"]))
            refusals.append(post(base, f"/v1/games/{game['id']}/abort", seat.json()["token"]).json()["error"]["code"])
    assert len(refusals) == len(mine) and set(refusals) == {"auth/not_your_seat"}
    assert all(requests.get(f"{base}/v1/games/{g}", timeout=10).json()["status"] == "active" for g in mine)
    for game_id, token in seats:  # the tables end (the Bot wins), leaving nothing for the shared stack's worker
        post(base, f"/v1/games/{game_id}/resign", ada["key"])
        post(base, f"/v1/games/{game_id}/resign", token)


def finished_table(base, ada, bo):
    game = open_table(base, ada["key"], [{"me": True}, {"open": True}])
    assert post(base, f"/v1/games/{game['id']}/join", bo["key"]).status_code == 200
    assert post(base, f"/v1/games/{game['id']}/resign", bo["key"]).status_code == 200
    return requests.get(f"{base}/v1/games/{game['id']}", timeout=10).json()


def test_a_finished_tables_rematch_starts_with_a_new_seed_once_both_accept_and_is_dropped_on_a_decline(stack, people):
    base, ada, bo = stack.url, people["Ada"], people["Bo"]
    old = finished_table(base, ada, bo)
    assert old["status"] == "finished"
    audit = requests.get(f"{base}/v1/games/{old['id']}/audit", timeout=30).json()
    with StreamReader(base, None, bo["key"], path="/v1/me/stream", ndjson=True) as bos:
        messages = iter(bos)
        assert next(messages).kind == "tables"
        offered = post(base, f"/v1/games/{old['id']}/rematch", ada["key"]).json()["rematch"]
        assert offered["status"] == "offered" and offered["accepted"] == [0]
        told = next(m for m in messages if m.kind == "rematch")
        assert told.data["by"]["name"] == "Ada" and told.data["answer"] == "offer"
        declined = post(base, f"/v1/games/{old['id']}/rematch/decline", bo["key"])
        assert declined.json()["rematch"]["status"] == "declined"
        assert next(m for m in messages if m.kind == "rematch").data["answer"] == "decline"
    assert post(base, f"/v1/games/{old['id']}/rematch", bo["key"]).json()["rematch"]["accepted"] == [1]
    made = post(base, f"/v1/games/{old['id']}/rematch", ada["key"]).json()["rematch"]
    assert made["status"] == "accepted" and made["game"]
    new = requests.get(f"{base}/v1/games/{made['game']}", timeout=10).json()
    assert new["status"] == "active" and new["rematch_of"] == old["id"]
    assert new["seed_commitment"] != old["seed_commitment"]
    assert [s["player"] for s in new["seats"]] == [ada["id"], bo["id"]]
    state = requests.get(f"{base}/v1/games/{new['id']}/state", headers=auth(bo["key"]), timeout=10).json()
    assert state["status"] == "active", "Bo's key holds his seat at the new table"
    assert post(base, f"/v1/games/{new['id']}/resign", bo["key"]).status_code == 200
    ended = requests.get(f"{base}/v1/games/{new['id']}", timeout=10).json()
    assert ended["seed"] != old["seed"]
    assert requests.get(f"{base}/v1/games/{old['id']}/audit", timeout=30).json() == audit


def test_two_players_chat_and_the_spectators_channel_never_reaches_their_streams_and_mutes_hold(stack, people):
    base, ada, bo, cy, di = stack.url, *(people[n] for n in ("Ada", "Bo", "Cy", "Di"))
    game = open_table(base, ada["key"], [{"me": True}, {"open": True}])
    assert post(base, f"/v1/games/{game['id']}/join", bo["key"]).status_code == 200
    path = f"/v1/games/{game['id']}/chat"
    with StreamReader(base, game["id"], ada["key"], ndjson=True) as adas, \
            StreamReader(base, game["id"], cy["key"], ndjson=True) as watchers:
        adas, watching = iter(adas), iter(watchers)
        assert post(base, path, ada["key"], {"text": "good luck"}).status_code == 201
        assert post(base, path, cy["key"], {"text": "Bo has the better hand"}).json()["channel"] == "spectators"
        assert post(base, path, di["key"], {"text": "agreed"}).status_code == 201
        assert post(base, path, bo["key"], {"text": "you too"}).status_code == 201
        assert chat_texts(adas, "you too") == [("players", "Ada", "good luck"), ("players", "Bo", "you too")]
        assert chat_texts(watching, "you too") == [
            ("players", "Ada", "good luck"), ("spectators", "Cy", "Bo has the better hand"),
            ("spectators", "Di", "agreed"), ("players", "Bo", "you too")]
        assert post(base, f"/v1/players/{bo['id']}/mute", ada["key"]).json()["muted"] is True
        assert post(base, path, bo["key"], {"text": "you will lose"}).status_code == 201
        assert post(base, path, ada["key"], {"text": "we shall see"}).status_code == 201
        assert chat_texts(adas, "we shall see") == [("players", "Ada", "we shall see")]
        assert chat_texts(watching, "we shall see")[-2:] == [("players", "Bo", "you will lose"), ("players", "Ada", "we shall see")]
    texts = lambda: [m["text"] for m in requests.get(f"{base}{path}", headers=auth(ada["key"]), timeout=10).json()["messages"]]  # noqa: E731
    assert texts() == ["good luck", "we shall see"]
    refused = requests.get(f"{base}{path}", params={"channel": "spectators"}, headers=auth(bo["key"]), timeout=10)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "chat/not_your_channel"
    assert post(base, f"/v1/players/{bo['id']}/unmute", ada["key"]).json()["muted"] is False
    assert texts() == ["good luck", "you too", "you will lose", "we shall see"]
    before = requests.get(f"{base}/v1/games/{game['id']}", timeout=10).json()["version"]
    assert before == requests.get(f"{base}/v1/games/{game['id']}/events", headers=auth(ada["key"]),
                                  params={"limit": 1000}, timeout=10).json()["version"], "no chat in the log"
    post(base, f"/v1/games/{game['id']}/resign", bo["key"])
