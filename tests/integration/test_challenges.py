"""Challenges (session_service/use_cases/challenges.py) over the API on a real Redis: made, told on the challenged
player's stream, accepted into one table both play to its end; declined, withdrawn and lapsed, each told to the
other side; the limits and bad input refused with their codes and nothing kept; two accepts at once make one table
(on one Redis and on a Redis Cluster); a bot on ``auto``; and a challenge is its two players' only."""

from __future__ import annotations

import json
import random
import threading
import time
from types import SimpleNamespace

import pytest
import redis

from session_service.use_cases import challenges as challenges_module
from session_service.use_cases.errors import Unavailable
from tests.support.contract import Contract
from tests.support.stack import make_session_app
from tests.support.toy import GAME
from tests.support.lobby import auth, player

LAPSE_S = 300


def make_app(redis_client, prefix, **config):
    return make_session_app(redis_client, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, SSE_KEEPALIVE_S=0.2,
                            CHALLENGE_LAPSE_S=LAPSE_S, **config)[0]


@pytest.fixture
def app(real_redis, prefix):
    return make_app(real_redis, prefix, CHALLENGES_PER_PLAYER=2, CHALLENGES_TO_PLAYER=3)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def contract(client):
    return Contract(client.get("/openapi.json").get_json())


def challenge(client, by, to, **extra):
    reply = client.post("/v1/challenges", json={"to": to["id"], "game": "toy", **extra}, headers=auth(by["key"]))
    assert reply.status_code == 201, reply.json
    return reply.json


class Stream:
    """A player's stream past its first message; ``next(kind)``: the next message of that kind, skipping others."""

    def __init__(self, client, who):
        self.reply = client.get("/v1/me/stream", headers={**auth(who["key"]), "Accept": "application/x-ndjson"})
        self.lines = (json.loads(chunk) if chunk.strip() else None for chunk in self.reply.response)
        assert next(self.lines)["type"] == "tables"

    def next(self, kind, keepalives=25):
        for message in self.lines:
            if message is None:
                keepalives -= 1
                assert keepalives > 0, f"no {kind} message on the stream"
            elif message["type"] == kind:
                return message
        raise AssertionError("the stream ended")

    def until_quiet(self, keepalives=2):
        """Every message up to the ``keepalives``-th keep-alive."""
        seen = []
        for message in self.lines:
            if message is None:
                keepalives -= 1
                if not keepalives:
                    return seen
            else:
                seen.append(message)
        return seen

    def close(self):
        self.reply.close()


@pytest.fixture
def streams(client):
    opened = []

    def open_for(who):
        opened.append(Stream(client, who))
        return opened[-1]

    yield open_for
    for stream in opened:
        stream.close()


def play_to_the_end(client, game_id, keys, seed=7):
    """Both players play their seats with their player keys, a legal command at a time, until the game ends."""
    rand = random.Random(seed)
    for _ in range(2000):
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] == "finished":
            return game
        seat = rand.choice(game["to_act"])
        state = client.get(f"/v1/games/{game_id}/state", headers=auth(keys[seat])).json
        command = rand.choice(state["legal_commands"])
        reply = client.post(f"/v1/games/{game_id}/commands", json={"command": command, "expected_version": state["version"]},
                            headers=auth(keys[seat]))
        assert reply.status_code == 200, reply.json
    raise AssertionError("the game did not end")


def test_a_challenge_is_told_accepted_and_both_players_play_its_one_table_to_the_end(client, contract, streams):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    ada_stream, cy_stream = streams(ada), streams(cy)
    made = challenge(client, ada, cy, options={"target": 5})
    contract.check("Challenge", made)
    assert made["status"] == "open" and made["challenger"]["seat"] == 0 and made["challenged"]["seat"] == 1
    told = cy_stream.next("challenge")
    contract.check("PlayerStreamMessage", told)
    assert told["data"]["challenge"] == made
    assert client.get("/v1/challenges", headers=auth(cy["key"])).json == {"incoming": [made], "outgoing": []}
    assert client.get("/v1/challenges", headers=auth(ada["key"])).json == {"incoming": [], "outgoing": [made]}

    accepted = client.post(f"/v1/challenges/{made['id']}/accept", headers=auth(cy["key"]))
    assert accepted.status_code == 200, accepted.json
    table = accepted.json["table"]
    assert accepted.json["status"] == "accepted" and table.startswith("g_")
    for stream, seat in ((ada_stream, 0), (cy_stream, 1)):
        message = stream.next("challenge_accepted")
        contract.check("PlayerStreamMessage", message)
        assert message["data"] | {"challenge": None} == {"game": table, "game_type": "toy", "seat": seat,
                                                         "version": message["data"]["version"], "rated": False,
                                                         "challenge": None}
        assert message["data"]["challenge"] == accepted.json
    game = client.get(f"/v1/games/{table}").json
    assert [(s["player"], s["name"]) for s in game["seats"]] == [(ada["id"], "Ada"), (cy["id"], "Cy")]
    assert game["status"] == "active" and game["options"]["target"] == 5 and "rated" not in game
    for who in (ada, cy):
        assert [g["id"] for g in client.get("/v1/me/games", headers=auth(who["key"])).json["games"]] == [table]
        assert client.get("/v1/challenges", headers=auth(who["key"])).json == {"incoming": [], "outgoing": []}
    assert play_to_the_end(client, table, {0: ada["key"], 1: cy["key"]})["outcome"]["winners"]
    assert client.get(f"/v1/challenges/{made['id']}", headers=auth(ada["key"])).json == accepted.json


def test_declined_and_withdrawn_challenges_are_told_to_the_other_side_and_answered_once(client, contract, streams):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    ada_stream, cy_stream = streams(ada), streams(cy)
    first = challenge(client, ada, cy)
    assert client.post(f"/v1/challenges/{first['id']}/accept", headers=auth(ada["key"])).json["error"]["code"] == \
        "challenge/not_yours", "the challenger does not answer its own challenge"
    declined = client.post(f"/v1/challenges/{first['id']}/decline", headers=auth(cy["key"]))
    assert declined.status_code == 200 and declined.json["status"] == "declined"
    told = ada_stream.next("challenge_declined")
    contract.check("PlayerStreamMessage", told)
    assert told["data"]["challenge"] == declined.json
    again = client.post(f"/v1/challenges/{first['id']}/accept", headers=auth(cy["key"]))
    assert again.status_code == 409 and again.json["error"] == {
        "code": "challenge/closed", "message": "this challenge is declined already", "details": {"status": "declined"}}

    second = challenge(client, ada, cy)
    assert client.delete(f"/v1/challenges/{second['id']}", headers=auth(cy["key"])).status_code == 403
    assert client.delete(f"/v1/challenges/{second['id']}", headers=auth(ada["key"])).status_code == 204
    withdrawn = cy_stream.next("challenge_withdrawn")
    contract.check("PlayerStreamMessage", withdrawn)
    assert withdrawn["data"]["challenge"]["id"] == second["id"] and withdrawn["data"]["challenge"]["status"] == "withdrawn"
    assert client.delete(f"/v1/challenges/{second['id']}", headers=auth(ada["key"])).status_code == 409
    assert client.post(f"/v1/challenges/{second['id']}/decline", headers=auth(cy["key"])).status_code == 409
    assert not [m for m in cy_stream.until_quiet() if m["type"].startswith("challenge_")], "the answerer is not told"
    assert client.get("/v1/me/games", headers=auth(cy["key"])).json["games"] == []


def test_a_challenge_lapses_unanswered_and_both_streams_say_so(app, client, contract, streams):
    moment = [1_900_000_000.0]
    app.extensions["challenges"].clock = lambda: moment[0]
    ada, cy = player(client, "Ada"), player(client, "Cy")
    ada_stream, cy_stream = streams(ada), streams(cy)
    made = challenge(client, ada, cy)
    assert made["expires_at"] == "2030-03-17T17:51:40.000Z"  # made at 17:46:40, CHALLENGE_LAPSE_S later
    moment[0] += LAPSE_S - 1
    assert app.extensions["challenges"].lapse_due() == 0
    moment[0] += 1
    assert client.get("/v1/challenges", headers=auth(cy["key"])).json["incoming"] == []
    assert client.get(f"/v1/challenges/{made['id']}", headers=auth(cy["key"])).json["status"] == "expired"
    assert app.extensions["challenges"].lapse_due() == 1 and app.extensions["challenges"].lapse_due() == 0
    for stream in (ada_stream, cy_stream):
        told = stream.next("challenge_expired")
        contract.check("PlayerStreamMessage", told)
        assert told["data"]["challenge"]["id"] == made["id"] and told["data"]["challenge"]["status"] == "expired"
    assert client.post(f"/v1/challenges/{made['id']}/accept", headers=auth(cy["key"])).json["error"]["details"] == \
        {"status": "expired"}

    late = challenge(client, ada, cy)  # lapsed, and found so by an answer before the workers' round
    moment[0] += LAPSE_S
    refused = client.post(f"/v1/challenges/{late['id']}/accept", headers=auth(cy["key"]))
    assert refused.status_code == 409 and refused.json["error"]["details"] == {"status": "expired"}
    assert ada_stream.next("challenge_expired")["data"]["challenge"]["id"] == late["id"]
    assert app.extensions["challenges"].lapse_due() == 0
    assert client.get("/v1/me/games", headers=auth(cy["key"])).json["games"] == []


def kept(real_redis, prefix):
    """What Redis holds of challenges: the challenges themselves, the players' open ones, the due ones."""
    return sorted(k.decode() for pattern in ("*:challenge", "*:chout", "*:chin", "*:challenges:due")
                  for k in real_redis.scan_iter(f"{prefix}:{pattern}"))


def test_the_limits_and_bad_input_are_refused_with_their_codes_and_nothing_is_kept(client, real_redis, prefix, streams):
    ada, cy, eve, dan = (player(client, name) for name in ("Ada", "Cy", "Eve", "Dan"))
    cy_stream = streams(cy)
    assert client.patch("/v1/me", json={"accept_challenges": "never"}, headers=auth(eve["key"])).status_code == 200
    refusals = [
        ({"to": ada["id"], "game": "toy"}, 422, "challenge/self"),
        ({"to": "p_nobody", "game": "toy"}, 404, "player/not_found"),
        ({"to": eve["id"], "game": "toy"}, 422, "challenge/not_accepting"),
        ({"to": cy["id"], "game": "chess"}, 422, "rules/unknown_game"),
        ({"to": cy["id"], "game": "toy", "seats": 5}, 422, "rules/player_count"),
        ({"to": cy["id"], "game": "toy", "options": {"target": 0}}, 422, "rules/invalid_option"),
        ({"to": cy["id"], "game": "toy", "options": {"colour": 1}}, 422, "rules/invalid_option"),
        ({"to": cy["id"], "game": "toy", "seats": 3, "ai": "grandmaster"}, 422, "rules/unknown_ai"),
        ({"to": cy["id"], "game": "toy", "seats": 1}, 400, "request/malformed"),
        ({"to": cy["id"], "game": "toy", "rated": 1}, 400, "request/malformed"),
        ({"game": "toy"}, 400, "request/malformed"),
        ({"to": cy["id"], "game": "toy", "colour": "white"}, 400, "request/malformed"),
    ]
    for body, status, code in refusals:
        reply = client.post("/v1/challenges", json=body, headers=auth(ada["key"]))
        assert (reply.status_code, reply.json["error"]["code"]) == (status, code), body
    seat_token = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "A"}, {"name": "B"}]}).json["seats"][0]["token"]
    for token in (None, seat_token, "pk_madeup"):
        reply = client.post("/v1/challenges", json={"to": cy["id"], "game": "toy"}, headers=auth(token) if token else {})
        assert reply.status_code == 401
    assert client.patch("/v1/me", json={"accept_challenges": "auto"}, headers=auth(cy["key"])).json["error"]["code"] == \
        "player/not_a_bot"
    assert client.patch("/v1/me", json={"accept_challenges": "always"}, headers=auth(cy["key"])).status_code == 400
    assert client.get("/v1/me", headers=auth(cy["key"])).json["accept_challenges"] == "manual"
    assert kept(real_redis, prefix) == [] and cy_stream.until_quiet() == []

    made = [challenge(client, ada, cy), challenge(client, ada, dan)]  # CHALLENGES_PER_PLAYER: 2
    over = client.post("/v1/challenges", json={"to": cy["id"], "game": "toy"}, headers=auth(ada["key"]))
    assert over.status_code == 429 and over.json["error"]["details"] == {"quota": "challenges_per_player", "limit": 2}
    assert client.delete(f"/v1/challenges/{made[0]['id']}", headers=auth(ada["key"])).status_code == 204
    made.append(challenge(client, ada, cy))  # a withdrawn one frees its place
    challenge(client, eve, cy)  # CHALLENGES_TO_PLAYER: 3 open to Cy
    challenge(client, dan, cy)
    full = client.post("/v1/challenges", json={"to": cy["id"], "game": "toy"}, headers=auth(eve["key"]))
    assert full.status_code == 429 and full.json["error"]["details"]["quota"] == "challenges_to_player"
    assert len(client.get("/v1/challenges", headers=auth(eve["key"])).json["outgoing"]) == 1, "the refused one is not kept"
    assert len(client.get("/v1/challenges", headers=auth(cy["key"])).json["incoming"]) == 3


def test_a_player_who_muted_the_challenger_is_refused_to_it_as_one_on_never_and_its_open_challenge_stays(
        client, real_redis, prefix, streams):
    ada, cy, eve, bot = (player(client, name, bot=name == "Botty") for name in ("Ada", "Cy", "Eve", "Botty"))
    before = challenge(client, ada, cy)
    cy_stream = streams(cy)
    assert cy_stream.next("challenge")["data"]["challenge"]["id"] == before["id"]
    client.patch("/v1/me", json={"accept_challenges": "never"}, headers=auth(eve["key"]))
    client.patch("/v1/me", json={"accept_challenges": "auto"}, headers=auth(bot["key"]))
    never = client.post("/v1/challenges", json={"to": eve["id"], "game": "toy"}, headers=auth(ada["key"]))
    for muter in (cy, bot):
        assert client.post(f"/v1/players/{ada['id']}/mute", headers=auth(muter["key"])).status_code == 200
        muted = client.post("/v1/challenges", json={"to": muter["id"], "game": "toy"}, headers=auth(ada["key"]))
        assert (muted.status_code, muted.json) == (422, never.json), "the challenger cannot tell a mute from `never`"
    assert never.json["error"]["code"] == "challenge/not_accepting"
    assert kept(real_redis, prefix).count(f"{prefix}:{{{before['id']}}}:challenge") == 1
    assert len([k for k in kept(real_redis, prefix) if k.endswith(":challenge")]) == 1, "nothing kept of the refused"
    assert cy_stream.until_quiet() == []
    assert [c["id"] for c in client.get("/v1/challenges", headers=auth(cy["key"])).json["incoming"]] == [before["id"]]
    assert client.post(f"/v1/challenges/{before['id']}/accept", headers=auth(cy["key"])).json["status"] == "accepted"
    client.post(f"/v1/players/{ada['id']}/unmute", headers=auth(cy["key"]))
    assert challenge(client, ada, cy)["status"] == "open"


def test_a_challenge_is_its_two_players_only(client):
    ada, cy, eve = (player(client, name) for name in ("Ada", "Cy", "Eve"))
    made = challenge(client, ada, cy)
    assert client.get("/v1/challenges", headers=auth(eve["key"])).json == {"incoming": [], "outgoing": []}
    made_up = client.get("/v1/challenges/c_madeup", headers=auth(eve["key"]))
    for ask in (lambda path: client.get(path, headers=auth(eve["key"])),
                lambda path: client.post(path + "/accept", headers=auth(eve["key"])),
                lambda path: client.post(path + "/decline", headers=auth(eve["key"])),
                lambda path: client.delete(path, headers=auth(eve["key"]))):
        reply = ask(f"/v1/challenges/{made['id']}")
        assert (reply.status_code, reply.json) == (404, made_up.json), "the same answer as for one that never was"
    assert made_up.json["error"]["code"] == "challenge/not_found"
    assert client.get(f"/v1/challenges/{made['id']}", headers=auth(cy["key"])).json["status"] == "open"


def test_a_challenge_made_before_the_stream_opened_is_told_as_it_opens(client, streams):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    made = challenge(client, ada, cy)
    assert streams(cy).next("challenge")["data"]["challenge"] == made


def test_a_rated_challenge_of_three_seats_is_a_rated_table_with_an_ai_seat(client):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    made = challenge(client, ada, cy, rated=True, seats=3, ai="random", turn_timeout_s=600)
    table = client.post(f"/v1/challenges/{made['id']}/accept", headers=auth(cy["key"])).json["table"]
    game = client.get(f"/v1/games/{table}").json
    assert game["rated"] is True and game["visibility"] == "public" and game["turn_timeout_s"] == 600
    assert [(s["player"], s["ai"]) for s in game["seats"]] == [(ada["id"], None), (cy["id"], None), (None, "random")]


def test_a_bot_on_auto_accepts_as_it_is_challenged_and_its_key_holds_the_seat(client, contract, streams):
    ada, bot = player(client, "Ada"), player(client, "Botty", bot=True)
    bot_stream = streams(bot)
    changed = client.patch("/v1/me", json={"accept_challenges": "auto"}, headers=auth(bot["key"]))
    assert changed.status_code == 200 and changed.json["accept_challenges"] == "auto"
    contract.check("Me", changed.json)
    made = challenge(client, ada, bot)
    assert made["status"] == "accepted" and made["challenged"]["bot"] is True
    (told,) = [m for m in bot_stream.until_quiet() if m["type"].startswith("challenge")]
    assert told["type"] == "challenge_accepted" and (told["data"]["game"], told["data"]["seat"]) == (made["table"], 1)
    assert client.get(f"/v1/games/{made['table']}").json["seats"][1]["bot"] is True
    assert play_to_the_end(client, made["table"], {0: ada["key"], 1: bot["key"]})["status"] == "finished"
    assert client.patch("/v1/me", json={"accept_challenges": "manual"}, headers=auth(bot["key"])).status_code == 200
    assert challenge(client, ada, bot)["status"] == "open"
    assert bot_stream.next("challenge")["data"]["challenge"]["status"] == "open"


def accept_at_once(app, challenge_id, key, count=8):
    """``count`` accepts of one challenge sent together, each from its own client; their answers."""
    barrier, answers = threading.Barrier(count), []

    def accept():
        client = app.test_client()
        barrier.wait()
        reply = client.post(f"/v1/challenges/{challenge_id}/accept", headers=auth(key))
        answers.append((reply.status_code, reply.json))

    threads = [threading.Thread(target=accept) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def double_accept_makes_one_table(app):
    client = app.test_client()
    ada, cy = player(client, "Ada"), player(client, "Cy")
    made = challenge(client, ada, cy)
    answers = accept_at_once(app, made["id"], cy["key"])
    assert [status for status, _ in answers] == [200] * 8, answers
    tables = {body["table"] for _, body in answers}
    assert len(tables) == 1
    for who in (ada, cy):
        assert [g["id"] for g in client.get("/v1/me/games", headers=auth(who["key"])).json["games"]] == list(tables)
        told = [n for n in app.extensions["players"].recent_notices(who["id"], 20) if n["type"] == "challenge_accepted"]
        assert [n["game"] for n in told] == list(tables)
    assert client.get(f"/v1/games/{tables.pop()}").json["status"] == "active"


def test_two_accepts_at_once_make_one_table(app):
    double_accept_makes_one_table(app)


def test_two_accepts_at_once_make_one_table_on_redis_cluster(cluster_redis, prefix):
    double_accept_makes_one_table(make_app(cluster_redis, prefix))


def test_an_accept_that_loses_the_race_answers_the_winners_table_once_it_is_written(app, client, monkeypatch):
    """Forced, not left to the threads' timing: the second accept arrives while the first has won and not yet written
    its table; it waits for the table, and both answers name it."""
    ada, cy = player(client, "Ada"), player(client, "Cy")
    made = challenge(client, ada, cy)
    waiting, second = threading.Event(), {}
    real_sleep, real_open = time.sleep, challenges_module.open_for
    monkeypatch.setattr(challenges_module, "time", SimpleNamespace(
        monotonic=time.monotonic, time=time.time, sleep=lambda s: (waiting.set(), real_sleep(s))))

    def open_late(*args, **kwargs):
        threading.Thread(target=lambda: second.update(reply=app.test_client().post(
            f"/v1/challenges/{made['id']}/accept", headers=auth(cy["key"])))).start()
        assert waiting.wait(10), "the second accept never waited"
        return real_open(*args, **kwargs)

    monkeypatch.setattr(challenges_module, "open_for", open_late)
    first = client.post(f"/v1/challenges/{made['id']}/accept", headers=auth(cy["key"]))
    for _ in range(200):
        if "reply" in second:
            break
        real_sleep(0.05)
    assert first.status_code == second["reply"].status_code == 200
    assert first.json == second["reply"].json and first.json["table"]
    assert len(client.get("/v1/me/games", headers=auth(cy["key"])).json["games"]) == 1


def test_a_challenge_read_while_its_table_is_written_names_a_table_that_is_there(app, client, monkeypatch):
    """Forced as above: the challenger reads the challenge after the accept won and before its table is written;
    the answer names the table only once ``GET /v1/games/{table}`` finds it (it was a 404 for a moment)."""
    ada, cy = player(client, "Ada"), player(client, "Cy")
    made = challenge(client, ada, cy)
    waiting, read = threading.Event(), {}
    real_sleep, real_open = time.sleep, challenges_module.open_for
    monkeypatch.setattr(challenges_module, "time", SimpleNamespace(
        monotonic=time.monotonic, time=time.time, sleep=lambda s: (waiting.set(), real_sleep(s))))

    def open_late(*args, **kwargs):
        def look() -> None:
            reader = app.test_client()
            shown = reader.get(f"/v1/challenges/{made['id']}", headers=auth(ada["key"])).json
            read.update(shown=shown, game=reader.get(f"/v1/games/{shown['table']}").status_code)
        threading.Thread(target=look).start()
        assert waiting.wait(10), "the read never waited for the table"
        return real_open(*args, **kwargs)

    monkeypatch.setattr(challenges_module, "open_for", open_late)
    assert client.post(f"/v1/challenges/{made['id']}/accept", headers=auth(cy["key"])).status_code == 200
    for _ in range(200):
        if "game" in read:
            break
        real_sleep(0.05)
    assert read["shown"]["status"] == "accepted" and read["game"] == 200, read


def test_an_accept_whose_table_cannot_be_opened_leaves_the_challenge_open(client, monkeypatch):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    made = challenge(client, ada, cy)

    def down(*args, **kwargs):
        raise Unavailable("the rules service")

    real_open = challenges_module.open_for
    monkeypatch.setattr(challenges_module, "open_for", down)
    refused = client.post(f"/v1/challenges/{made['id']}/accept", headers=auth(cy["key"]))
    assert refused.status_code == 503 and refused.json["error"]["code"] == "service/unavailable"
    assert client.get(f"/v1/challenges/{made['id']}", headers=auth(cy["key"])).json["status"] == "open"
    assert client.get("/v1/me/games", headers=auth(cy["key"])).json["games"] == []
    bot = player(client, "Botty", bot=True)
    client.patch("/v1/me", json={"accept_challenges": "auto"}, headers=auth(bot["key"]))
    auto = client.post("/v1/challenges", json={"to": bot["id"], "game": "toy"}, headers=auth(ada["key"]))
    assert auto.status_code == 503, "a bot on auto that cannot be seated: no challenge is left behind"
    assert [c["id"] for c in client.get("/v1/challenges", headers=auth(ada["key"])).json["outgoing"]] == [made["id"]]
    assert client.get("/v1/challenges", headers=auth(bot["key"])).json["incoming"] == []
    monkeypatch.setattr(challenges_module, "open_for", real_open)
    assert client.post(f"/v1/challenges/{made['id']}/accept", headers=auth(cy["key"])).json["status"] == "accepted"


def test_a_process_that_dies_while_writing_a_challenge_leaves_none_whose_lapse_goes_untold(app, client, real_redis,
                                                                                           prefix, monkeypatch):
    """A challenge is two writes, the challenge and its entry among the due ones (the workers' round tells both
    players of its lapse by it). Written the other way round, a death between them left an open challenge the
    round never finds: nobody told of its lapse. Now a death at either write leaves no challenge, or a due entry
    with nothing behind it that the round drops."""
    moment = [1_900_000_000.0]
    challenges = app.extensions["challenges"]
    challenges.clock = lambda: moment[0]
    ada, cy = player(client, "Ada"), player(client, "Cy")
    records = challenges.records

    def dies(*args, **kwargs):
        raise redis.exceptions.ConnectionError("the process died here")

    for write in ("zadd", "put"):
        with monkeypatch.context() as m:
            if write == "zadd":
                m.setattr(records._redis, "zadd", dies)
            else:
                m.setattr(records, "_put", dies)
            refused = client.post("/v1/challenges", json={"to": cy["id"], "game": "toy"}, headers=auth(ada["key"]))
            assert refused.status_code == 503, refused.json
        assert not list(real_redis.scan_iter(f"{prefix}:*:challenge"))
    moment[0] += LAPSE_S
    assert challenges.lapse_due() == 0
    assert not list(real_redis.scan_iter(f"{prefix}:*:challenges:due")), "the round dropped the entry"
