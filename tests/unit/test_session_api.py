"""The session service's HTTP API on fakeredis with the rules in process, on the toy game."""

from __future__ import annotations

import fakeredis
import orjson
import pytest

from deploy.stacks.dev import free_port
from session_service.http.app import create_app
from session_service.rules_client import HttpRules
from session_service.storage import redis_clients
from tests.support.stack import TEST_TOKEN_SECRET, make_session_app
from tests.support.toy import GAME


@pytest.fixture
def app_and_scheduler(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)


@pytest.fixture
def client(app_and_scheduler):
    return app_and_scheduler[0].test_client()


def create(client, seats=None, **extra):
    seats = seats or [{"name": "Ada"}, {"name": "Bo"}]
    reply = client.post("/v1/games", json={"game": "toy", "seats": seats, **extra})
    assert reply.status_code == 201, reply.json
    return reply.json


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_a_created_game_returns_tokens_once_and_a_seed_commitment(client):
    game = create(client)
    assert all("token" in s for s in game["seats"])
    assert len(game["seed_commitment"]) == 64 and "seed" not in game
    again = client.get(f"/v1/games/{game['id']}").json
    assert all("token" not in s for s in again["seats"])
    assert again["to_act"] == [0] and again["outcome"] is None


def test_a_seat_sees_its_own_card_and_not_the_others(client):
    game = create(client)
    mine = client.get(f"/v1/games/{game['id']}/state", headers=auth(game["seats"][0]["token"])).json
    assert isinstance(mine["view"]["hands"][0], list) and mine["view"]["hands"][1] == 1
    assert mine["legal_commands"]
    spectator = client.get(f"/v1/games/{game['id']}/state").json
    assert spectator["view"]["hands"] == [1, 1] and spectator["legal_commands"] == []


def test_a_command_returns_its_events_redacted_for_the_caller(client):
    game = create(client)
    start = game["version"]  # the table opened, two cards dealt, the game started
    reply = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}, "expected_version": start},
                        headers=auth(game["seats"][0]["token"]))
    assert reply.status_code == 200, reply.json
    assert reply.json["version"] == start + 1 and "card" in reply.json["events"][0]["data"]
    other = client.get(f"/v1/games/{game['id']}/events?after={start}", headers=auth(game["seats"][1]["token"])).json
    assert other["events"][0]["data"] == {"seat": 0}


def test_a_stale_expected_version_is_a_409_with_the_current_version(client):
    game = create(client)
    reply = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}, "expected_version": 1},
                        headers=auth(game["seats"][0]["token"]))
    assert reply.status_code == 409
    assert reply.json["error"]["code"] == "game/version_conflict"
    assert reply.json["error"]["details"]["current_version"] == game["version"]


def test_the_same_idempotency_key_writes_once_and_answers_the_same(client):
    game = create(client)
    headers = {**auth(game["seats"][0]["token"]), "Idempotency-Key": "k-1"}
    first = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=headers)
    second = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=headers)
    assert first.status_code == second.status_code == 200
    assert first.json == second.json
    assert client.get(f"/v1/games/{game['id']}").json["version"] == game["version"] + 1


def bad_requests():
    T = "TOKEN0"
    return [
        ("post", "/v1/games", {"game": "nope", "seats": [{"name": "a"}, {"name": "b"}]}, None, 422, "rules/unknown_game"),
        ("post", "/v1/games", {"game": "toy", "seats": [{"name": "a"}]}, None, 422, "rules/player_count"),
        ("post", "/v1/games", {"game": "toy", "seats": "x"}, None, 400, "request/malformed"),
        ("post", "/v1/games", {"game": "toy", "seats": [{"name": ""}, {"name": "b"}]}, None, 400, "request/malformed"),
        ("post", "/v1/games", {"game": "toy", "seats": [{"name": "a", "ai": "genius"}, {"name": "b"}]}, None, 422, "rules/unknown_ai"),
        ("post", "/v1/games", {"game": "toy", "seats": [{"name": "a"}, {"name": "b"}], "options": {"x": 1}}, None, 422, "rules/invalid_option"),
        ("post", "/v1/games", {"game": "toy", "seats": [{"name": "a"}, {"name": "b"}], "turn_timeout_s": -1}, None, 400, "request/malformed"),
        ("post", "/v1/games", {"game": "toy", "seats": [{"name": "a"}, {"name": "b"}], "evil": 1}, None, 400, "request/malformed"),
        ("post", "COMMANDS", {"command": {"type": "draw_card"}}, None, 401, "auth/missing_token"),
        ("post", "COMMANDS", {"command": {"type": "draw_card"}}, "wrong", 401, "auth/bad_token"),
        ("post", "COMMANDS", {"command": {"type": "draw_card"}, "expected_version": -1}, T, 400, "request/malformed"),
        ("post", "COMMANDS", {"command": {"type": "draw_card"}, "expected_version": "3"}, T, 400, "request/malformed"),
        ("post", "COMMANDS", {"command": {"type": "draw_card"}, "expected_version": 10**40}, T, 400, "request/malformed"),
        ("post", "COMMANDS", {"command": {"type": "summon_cthulhu"}}, T, 422, "rules/unknown_command"),
        ("post", "COMMANDS", {"command": {"type": "play_card", "card": "seven"}}, T, 400, "request/malformed"),
        ("post", "COMMANDS", {"command": {"type": "play_card", "card": 99}}, T, 422, "rules/card_not_in_hand"),
        ("post", "COMMANDS", {"command": "draw"}, T, 400, "request/malformed"),
        ("post", "COMMANDS", {"command": {"no": "type"}}, T, 400, "request/malformed"),
        ("post", "COMMANDS", [1, 2, 3], T, 400, "request/malformed"),
        ("post", "COMMANDS", {}, T, 400, "request/malformed"),
        ("post", "/v1/games/g_missing/commands", {"command": {"type": "draw_card"}}, T, 404, "game/not_found"),
        ("get", "/v1/games/g_missing", None, None, 404, "game/not_found"),
        ("get", "/v1/games/{x}", None, None, 404, "game/not_found"),
        ("get", "STATE?at=999", None, None, 422, "game/version_out_of_range"),
        ("get", "STATE?at=abc", None, None, 400, "request/malformed"),
        ("get", "STATE?seat=1", None, T, 403, "auth/not_your_seat"),
        ("get", "EVENTS?limit=0", None, None, 400, "request/malformed"),
        ("get", "/v1/nowhere", None, None, 404, "request/not_found"),
        ("get", "EXPORT", None, None, 409, "game/not_finished"),
    ]


@pytest.mark.parametrize("method, path, body, token, status, code", bad_requests())
def test_bad_requests_get_the_error_body_and_write_nothing(client, fake_redis, method, path, body, token, status, code):
    game = create(client)
    gid = game["id"]
    path = (path.replace("COMMANDS", f"/v1/games/{gid}/commands").replace("STATE", f"/v1/games/{gid}/state")
            .replace("EVENTS", f"/v1/games/{gid}/events").replace("EXPORT", f"/v1/games/{gid}/export"))
    headers = {}
    if token == "TOKEN0":
        headers = auth(game["seats"][0]["token"])
    elif token:
        headers = auth(token)
    before = {k: fake_redis.dump(k) for k in fake_redis.scan_iter() if b":rate" not in k}
    reply = getattr(client, method)(path, json=body, headers=headers) if body is not None else getattr(client, method)(path, headers=headers)
    assert reply.status_code == status, reply.json
    assert reply.json["error"]["code"] == code
    assert set(reply.json["error"]) == {"code", "message", "details"}
    after = {k: fake_redis.dump(k) for k in fake_redis.scan_iter() if b":rate" not in k}
    if method == "post" and path != "/v1/games":
        assert after == before


def test_a_body_that_is_not_json_is_malformed(client):
    game = create(client)
    reply = client.post(f"/v1/games/{game['id']}/commands", data=b"\xff{", content_type="application/json",
                        headers=auth(game["seats"][0]["token"]))
    assert reply.status_code == 400 and reply.json["error"]["code"] == "request/malformed"


def test_a_huge_body_is_refused(client):
    reply = client.post("/v1/games", data=b"[" * 200_000, content_type="application/json")
    assert reply.status_code == 413 and reply.json["error"]["code"] == "request/too_large"


def test_ai_seats_play_by_themselves_to_the_end(app_and_scheduler):
    app, scheduler = app_and_scheduler
    client = app.test_client()
    game = create(client, seats=[{"name": "A", "ai": "random"}, {"name": "B", "ai": "random"}, {"name": "C", "ai": "random"}])
    scheduler.run_ai()
    final = client.get(f"/v1/games/{game['id']}").json
    assert final["status"] == "finished" and final["outcome"]["winners"]
    assert "seed" in final
    audit = client.get(f"/v1/games/{game['id']}/audit").json
    assert audit == {**audit, "chain_ok": True, "replay_ok": True, "seed_ok": True, "first_divergence": None}


def test_a_stale_ai_job_does_nothing(app_and_scheduler):
    from session_service.worker import jobs

    app, scheduler = app_and_scheduler
    game = create(app.test_client(), seats=[{"name": "A", "ai": "random"}, {"name": "B"}])
    start = game["version"]
    assert jobs.ai_turn(game["id"], 0, start - 1) == "stale"
    assert jobs.ai_turn(game["id"], 0, start) == "played"
    assert jobs.ai_turn(game["id"], 0, start) == "stale"


def test_state_at_a_past_version_and_full_information_after_the_end(app_and_scheduler):
    app, scheduler = app_and_scheduler
    client = app.test_client()
    game = create(client, seats=[{"name": "A", "ai": "random"}, {"name": "B"}])
    token = game["seats"][1]["token"]
    early = client.get(f"/v1/games/{game['id']}/state?at=2", headers=auth(token)).json
    assert early["version"] == 2 and early["view"]["hands"][0] in (0, 1)  # redacted while running


def test_snapshots_change_nothing_but_speed(app_and_scheduler, fake_redis):
    app, scheduler = app_and_scheduler
    client = app.test_client()
    tables = app.extensions["tables"]
    tables.snapshot_every = 2
    game = create(client, seats=[{"name": "A", "ai": "random"}, {"name": "B", "ai": "random"}])
    scheduler.run_ai()
    with_snapshots = client.get(f"/v1/games/{game['id']}/state").json
    tables.positions._cache.clear()
    fake_redis.delete(tables.store.key(game["id"], "snap"))
    assert client.get(f"/v1/games/{game['id']}/state").json == with_snapshots


def test_export_verifies_offline(app_and_scheduler):
    from shared.audit import verify_export

    app, scheduler = app_and_scheduler
    client = app.test_client()
    game = create(client, seats=[{"name": "A", "ai": "random"}, {"name": "B", "ai": "random"}])
    scheduler.run_ai()
    export = orjson.loads(client.get(f"/v1/games/{game['id']}/export").data)
    assert verify_export(export, {"toy": GAME})["ok"]
    tampered = export["events"][3]["data"]
    tampered["card"] = tampered["card"] % 12 + 1  # another card than the one dealt
    assert not verify_export(export, {"toy": GAME})["ok"]


def test_openapi_describes_every_route(client):
    paths = client.get("/openapi.json").json["paths"]
    for path in ["/v1/catalog", "/v1/games", "/v1/games/{game_id}", "/v1/games/{game_id}/state", "/v1/games/{game_id}/commands",
                 "/v1/games/{game_id}/events", "/v1/games/{game_id}/events/stream", "/v1/games/{game_id}/audit",
                 "/v1/games/{game_id}/export", "/healthz", "/readyz", "/metrics"]:
        assert path in paths, path



def test_every_operation_has_an_operation_id_and_a_summary_and_statuses_are_enumerated(client):
    document = client.get("/openapi.json").json
    for path in ["/v1/players", "/v1/games/{game_id}/join", "/v1/games/{game_id}/start", "/v1/games/{game_id}/resign",
                 "/v1/games/{game_id}/abort", "/v1/me/games", "/v1/me/stream"]:
        assert path in document["paths"], path
    ids = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            assert operation.get("operationId") and operation.get("summary"), f"{method} {path}"
            ids.append(operation["operationId"])
    assert len(ids) == len(set(ids))
    tables = document["components"]["schemas"]
    statuses = tables[tables["GameResource"]["oneOf"][0]["$ref"].rsplit("/", 1)[1]]["properties"]["status"]["enum"]
    assert statuses == ["waiting", "active", "finished", "aborted"]
    state = next(p for p in document["paths"]["/v1/games/{game_id}/state"]["get"]["parameters"] if p["name"] == "at")
    assert state["schema"]["minimum"] == 1
    stream = document["paths"]["/v1/games/{game_id}/events/stream"]["get"]["parameters"]
    assert "Last-Event-ID" in {p["name"] for p in stream}


def test_metrics_count_requests_and_commands(client):
    game = create(client)
    client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=auth(game["seats"][0]["token"]))
    text = client.get("/metrics").data.decode()
    assert 'mythos_commands_total{game="toy",result="ok"} 1.0' in text
    assert "http_request_seconds_bucket" in text


def test_a_client_seed_is_refused_unless_the_operator_allows_it(client):
    reply = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "a"}, {"name": "b"}], "seed": "00ff"})
    assert reply.status_code == 422 and "MYTHOS_ALLOW_CLIENT_SEED" in reply.json["error"]["message"]


def test_an_allowed_client_seed_reproduces_the_deal(fake_redis, prefix):
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, ALLOW_CLIENT_SEED=True)
    client = app.test_client()
    views = []
    for _ in range(2):
        game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "a"}, {"name": "b"}], "seed": "00ff"}).json
        views.append(client.get(f"/v1/games/{game['id']}/state", headers=auth(game["seats"][0]["token"])).json["view"])
    assert views[0] == views[1]


def test_an_allowed_client_seed_with_a_trailing_newline_is_malformed_not_a_500(fake_redis, prefix):
    """``^…$`` let "00f\\n" through (Python's ``$`` matches before a final newline) and bytes.fromhex then raised."""
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, ALLOW_CLIENT_SEED=True)
    reply = app.test_client().post("/v1/games", json={"game": "toy", "seats": [{"name": "a"}, {"name": "b"}], "seed": "00f\n"})
    assert (reply.status_code, reply.json["error"]["code"]) == (400, "request/malformed")
    assert "seed" in reply.json["error"]["details"]["fields"]["json"]
    assert fake_redis.zcard(f"{prefix}:games") == 0


def test_a_503_says_when_to_try_again(prefix):
    """Storage down, or the rules service unreachable: 503 with Retry-After (issue 16), nothing written."""
    nowhere = redis_clients.connect(f"redis://127.0.0.1:{free_port()}")  # the service's own client: no retry backoff
    app, _ = make_session_app(nowhere, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=100)
    for reply in (app.test_client().post("/v1/games", json={"game": "toy", "seats": [{"name": "a"}, {"name": "b"}]}),
                  app.test_client().get("/readyz")):
        assert reply.status_code == 503 and reply.headers["Retry-After"] == "2", reply.data
    rules_down = create_app({"REDIS": fakeredis.FakeRedis(), "KEY_PREFIX": prefix, "RULES": HttpRules(f"http://127.0.0.1:{free_port()}"),
                             "GAMES": {"toy": GAME}, "SCHEDULER": None, "RATE_LIMIT_PER_MINUTE": 0,
                             "TOKEN_SECRET": TEST_TOKEN_SECRET})
    reply = rules_down.test_client().post("/v1/games", json={"game": "toy", "seats": [{"name": "a"}, {"name": "b"}]})
    assert (reply.status_code, reply.json["error"]["code"], reply.headers["Retry-After"]) == (503, "service/unavailable", "2")
