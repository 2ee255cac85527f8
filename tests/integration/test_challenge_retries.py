"""A challenge sent again with its ``Idempotency-Key`` (session_service/use_cases/challenges.py, "Retries") over the
API on a real Redis: the same challenge, told once, counted once; another body under the key refused as a create's
is; another player's same key its own request; identical requests at once make one challenge (on one Redis and on a
Redis Cluster)."""

from __future__ import annotations

import threading

import pytest

from tests.integration.test_challenges import kept, make_app
from tests.support.lobby import auth, player


@pytest.fixture
def app(real_redis, prefix):
    return make_app(real_redis, prefix, CHALLENGES_PER_PLAYER=2, TABLES_PER_CLIENT_PER_HOUR=3)


@pytest.fixture
def client(app):
    return app.test_client()


def send(client, by, to, key, **extra):
    return client.post("/v1/challenges", json={"to": to["id"], "game": "toy", **extra},
                       headers={**auth(by["key"]), "Idempotency-Key": key})


def challenges_told(app, who):
    """The ``challenge`` notices of the player's stream (what it says besides what it repeats as it opens)."""
    return [n["challenge"]["id"] for n in app.extensions["players"].recent_notices(who["id"], 20) if n["type"] == "challenge"]


def test_a_challenge_sent_again_with_its_key_answers_the_same_challenge_told_and_counted_once(app, client, real_redis, prefix):
    ada, cy, eve = (player(client, name) for name in ("Ada", "Cy", "Eve"))
    first = send(client, ada, cy, "retry-1", options={"target": 5})
    assert first.status_code == 201, first.json
    for _ in range(3):
        again = send(client, ada, cy, "retry-1", options={"target": 5})
        assert (again.status_code, again.json) == (201, first.json)
    assert len([k for k in kept(real_redis, prefix) if k.endswith(":challenge")]) == 1
    assert challenges_told(app, cy) == [first.json["id"]], "the challenged player's stream says `challenge` once"

    other = send(client, ada, cy, "retry-1", options={"target": 7})
    assert other.status_code == 422 and other.json["error"]["code"] == "request/idempotency_key_reused"
    second = send(client, ada, eve, "retry-2")  # CHALLENGES_PER_PLAYER: 2, and the retries counted none
    assert second.status_code == 201 and second.json["id"] != first.json["id"]
    over = send(client, ada, eve, "retry-3")
    assert over.status_code == 429 and over.json["error"]["details"]["quota"] == "challenges_per_player"
    theirs = send(client, eve, cy, "retry-1", options={"target": 5})  # another player's same key: its own request
    assert theirs.status_code == 201 and theirs.json["id"] not in (first.json["id"], second.json["id"])
    assert send(client, cy, eve, "retry-4").json["error"]["details"]["quota"] == "tables_per_hour", \
        "three challenges counted as tables from this address (TABLES_PER_CLIENT_PER_HOUR: 3), retries none"
    assert client.get("/v1/challenges", headers=auth(cy["key"])).json["incoming"] == [first.json, theirs.json]


def test_a_retry_finds_what_became_of_its_challenge_and_a_refused_one_frees_its_key(client):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    refused = send(client, ada, cy, "fix-me", options={"target": 0})
    assert refused.status_code == 422 and refused.json["error"]["code"] == "rules/invalid_option"
    made = send(client, ada, cy, "fix-me", options={"target": 5})  # nothing was made: the key is free again
    assert made.status_code == 201, made.json
    accepted = client.post(f"/v1/challenges/{made.json['id']}/accept", headers=auth(cy["key"])).json
    again = send(client, ada, cy, "fix-me", options={"target": 5})
    assert (again.status_code, again.json) == (201, accepted)
    assert [g["id"] for g in client.get("/v1/me/games", headers=auth(ada["key"])).json["games"]] == [accepted["table"]]


def test_a_bot_on_auto_challenged_again_with_the_key_answers_its_one_table(client):
    ada, bot = player(client, "Ada"), player(client, "Botty", bot=True)
    client.patch("/v1/me", json={"accept_challenges": "auto"}, headers=auth(bot["key"]))
    first, again = (send(client, ada, bot, "auto-1") for _ in range(2))
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert first.json["status"] == "accepted"
    assert [g["id"] for g in client.get("/v1/me/games", headers=auth(bot["key"])).json["games"]] == [first.json["table"]]


def test_the_document_lists_the_key_on_create_challenge(client):
    operation = client.get("/openapi.json").get_json()["paths"]["/v1/challenges"]["post"]
    assert [p["name"] for p in operation.get("parameters", []) if p["in"] == "header"] == ["Idempotency-Key"]


def identical_requests_make_one_challenge(app, count=8):
    client = app.test_client()
    ada, cy = player(client, "Ada"), player(client, "Cy")
    barrier, answers = threading.Barrier(count), []

    def make():
        mine = app.test_client()
        barrier.wait()
        reply = send(mine, ada, cy, "race-1")
        answers.append((reply.status_code, reply.json))

    threads = [threading.Thread(target=make) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [status for status, _ in answers] == [201] * count, answers
    assert len({body["id"] for _, body in answers}) == 1
    assert challenges_told(app, cy) == [answers[0][1]["id"]]
    assert [c["id"] for c in client.get("/v1/challenges", headers=auth(ada["key"])).json["outgoing"]] == [answers[0][1]["id"]]


def test_identical_requests_at_once_make_one_challenge(app):
    identical_requests_make_one_challenge(app)


def test_identical_requests_at_once_make_one_challenge_on_redis_cluster(cluster_redis, prefix):
    identical_requests_make_one_challenge(make_app(cluster_redis, prefix))
