"""The one HTTP edge (shared/wire/edge.py): every route of both services, the session service's hot command route
included, gets every cross-cutting concern from the same place (issue 32): the request id, the standard headers,
CORS, the error body, the metrics and one log line. Nothing else may answer: Flask has no hook of its own but the
one that tells the edge which rule matched, and no error handler."""

from __future__ import annotations

import io
import logging
import re

import orjson
import pytest

from rules_service.app import create_app as rules_app
from shared.wire import logs
from shared.wire.edge import Cors, note_route
from tests.support.stack import make_session_app
from tests.support.toy import GAME

ORIGIN = "https://table.example"


@pytest.fixture
def captured(monkeypatch):
    monkeypatch.setenv("LOG_FORMAT", "json")
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    out = io.StringIO()
    handler = logs.configure(("mythos",), stream=out)
    yield out
    logging.getLogger("mythos").removeHandler(handler)


def logged(out: io.StringIO) -> list[dict]:
    return [line for line in map(orjson.loads, out.getvalue().splitlines()) if line.get("event") == "request"]


def session(fake_redis, prefix, **config):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, **{"RATE_LIMIT_PER_MINUTE": 0, **config})[0]


@pytest.fixture(params=["session", "rules"])
def app(request, fake_redis, prefix):
    return rules_app({"GAMES": {"toy": GAME}}) if request.param == "rules" else session(fake_redis, prefix)


def requests_of(app) -> list[tuple[str, str, str]]:
    """One request to every rule of the app, each method it takes (arguments filled with a made-up value)."""
    found = []
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: "g_nothing" if m.group(1) == "game_id" else "x", rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((method, path, rule.rule))
    return found


def test_flask_answers_nothing_itself(app):
    """Every concern is the edge's: a Flask hook or error handler would be a second edge for the routes it covers."""
    assert dict(app.before_request_funcs) == {None: [note_route]}
    assert not any(app.after_request_funcs.values()) and not any(app.teardown_request_funcs.values())
    assert not any(handlers for spec in app.error_handler_spec.values() for handlers in spec.values())
    for blueprint in app.blueprints.values():
        assert not blueprint.before_request_funcs and not blueprint.after_request_funcs
        assert not any(handlers for spec in blueprint.error_handler_spec.values() for handlers in spec.values())


def test_every_route_gets_every_concern(app, captured):
    client, metrics = app.test_client(), app.extensions["metrics"]
    for method, path, rule in requests_of(app):
        before = len(logged(captured))
        reply = client.open(path, method=method, json={} if method == "POST" else None,
                            headers={"Origin": ORIGIN, "X-Request-Id": "edge-1"})
        where = f"{method} {path}: {reply.status_code}"
        assert reply.headers["X-Request-Id"] == "edge-1", where
        assert reply.headers["X-Content-Type-Options"] == "nosniff", where
        assert reply.headers["Access-Control-Allow-Origin"] == "*", where
        assert "RateLimit-Remaining" in reply.headers["Access-Control-Expose-Headers"], where
        assert "Access-Control-Allow-Credentials" not in reply.headers, where
        if reply.status_code >= 400:
            error = reply.get_json()["error"]
            assert set(error) == {"code", "message", "details"}, where
        (line,) = logged(captured)[before:]
        assert line["request_id"] == "edge-1" and line["status"] == reply.status_code, where
        assert line["route"] in (rule, "unmatched"), where
        if reply.status_code >= 400:
            assert line["error"] == reply.get_json()["error"]["code"], where
        if not rule.endswith("/stream"):
            count = metrics.requests.labels(method, line["route"], str(reply.status_code))._value.get()
            assert count >= 1, where
        reply.close()


def test_the_hot_command_route_gets_the_same(fake_redis, prefix, captured):
    app = session(fake_redis, prefix, RATE_LIMIT_PER_MINUTE=50)
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    seat = {"Authorization": f"Bearer {game['seats'][0]['token']}", "Origin": ORIGIN, "X-Request-Id": "cmd-1"}
    path = f"/v1/games/{game['id']}/commands"
    played = client.post(path, json={"command": {"type": "draw_card"}}, headers=seat)
    refused = client.post(path, json={"command": {"type": "draw_card"}}, headers=seat)
    assert (played.status_code, refused.status_code) == (200, 422)
    for reply in (played, refused):
        assert reply.headers["X-Request-Id"] == "cmd-1" and reply.headers["X-Content-Type-Options"] == "nosniff"
        assert reply.headers["Access-Control-Allow-Origin"] == "*" and reply.headers["RateLimit-Limit"] == "50"
    assert refused.json["error"]["code"] == "rules/not_your_turn"
    lines = logged(captured)[-2:]
    assert [(line["route"], line["status"], line["seat"], line["game_id"]) for line in lines] == [
        ("/v1/games/<game_id>/commands", 200, 0, game["id"]), ("/v1/games/<game_id>/commands", 422, 0, game["id"])]
    assert lines[1]["error"] == "rules/not_your_turn"
    metrics = app.extensions["metrics"].requests
    assert metrics.labels("POST", "/v1/games/<game_id>/commands", "200")._value.get() == 1
    assert metrics.labels("POST", "/v1/games/<game_id>/commands", "422")._value.get() == 1


def test_http_s_own_refusals_are_the_api_s_error_body(app):
    client = app.test_client()
    assert client.get("/v1/nothing-here").json["error"]["code"] == "request/not_found"
    wrong = client.delete("/v1/catalog")
    assert wrong.status_code == 405 and wrong.json["error"]["code"] == "request/method_not_allowed"
    assert "GET" in wrong.headers["Allow"]
    long = client.get("/v1/" + "x" * 5000)
    assert long.status_code == 414 and long.json["error"]["code"] == "request/too_large"
    big = client.post("/v1/games" if "/v1/games" in [r.rule for r in app.url_map.iter_rules()] else "/v1/decide",
                      data=b"{" + b" " * (app.config["MAX_CONTENT_LENGTH"] + 1) + b"}", content_type="application/json")
    assert big.status_code == 413 and big.json["error"]["code"] == "request/too_large"


def test_a_body_that_is_not_json_is_refused_by_name(fake_redis, prefix):
    reply = session(fake_redis, prefix).test_client().post("/v1/games", data="game=toy",
                                                           content_type="application/x-www-form-urlencoded")
    assert reply.status_code == 415 and reply.json["error"]["code"] == "request/unsupported_media_type"


def test_a_failure_is_a_500_with_the_error_body_and_a_logged_traceback(fake_redis, prefix, captured, monkeypatch):
    from session_service.http import api

    monkeypatch.setattr(api, "catalog", lambda games: 1 / 0)
    reply = session(fake_redis, prefix).test_client().get("/v1/catalog", headers={"X-Request-Id": "boom-1"})
    assert reply.status_code == 500 and reply.json["error"]["code"] == "service/internal"
    assert reply.headers["X-Request-Id"] == "boom-1"
    failure = [orjson.loads(line) for line in captured.getvalue().splitlines() if "ZeroDivisionError" in line]
    assert failure and failure[0]["request_id"] == "boom-1" and failure[0]["level"] == "ERROR"


def test_a_storage_failure_is_a_503_that_says_when_to_retry(prefix):
    from session_service.storage import redis_clients

    app = session(redis_clients.connect("redis://127.0.0.1:1"), prefix)  # the service's own client: no retry backoff
    reply = app.test_client().get("/v1/games/g_anything")
    assert reply.status_code == 503 and reply.json["error"]["code"] == "service/unavailable"
    assert reply.headers["Retry-After"] == "2"


# -- CORS (issue 29, item 4) ------------------------------------------------------------------------------------

def preflight(client, origin=ORIGIN, path="/v1/games"):
    return client.options(path, headers={"Origin": origin, "Access-Control-Request-Method": "POST",
                                         "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"})


def test_a_preflight_is_answered_for_any_origin_by_default(app):
    reply = preflight(app.test_client())
    assert reply.status_code == 204 and reply.data == b""
    assert reply.headers["Access-Control-Allow-Origin"] == "*"
    allowed = {h.strip().lower() for h in reply.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "last-event-id"} <= allowed
    assert {"GET", "POST", "PATCH", "DELETE"} <= {m.strip() for m in reply.headers["Access-Control-Allow-Methods"].split(",")}
    assert int(reply.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in reply.headers


def test_answers_expose_the_headers_a_client_reads(fake_redis, prefix):
    client = session(fake_redis, prefix, RATE_LIMIT_PER_MINUTE=10).test_client()
    created = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]},
                          headers={"Origin": ORIGIN})
    exposed = {h.strip() for h in created.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "Mythos-Replicated",
            "X-Request-Id", "Location"} <= exposed
    assert created.headers["RateLimit-Limit"] == "10"


def test_a_list_of_origins_lets_those_in_and_no_other(fake_redis, prefix):
    client = session(fake_redis, prefix, CORS_ORIGINS=f"{ORIGIN}, https://other.example/").test_client()
    for origin in (ORIGIN, "https://other.example"):
        assert preflight(client, origin).headers["Access-Control-Allow-Origin"] == origin
        answer = client.get("/v1/catalog", headers={"Origin": origin})
        assert answer.headers["Access-Control-Allow-Origin"] == origin and answer.headers["Vary"] == "Origin"
    stranger = preflight(client, "https://evil.example")
    assert "Access-Control-Allow-Origin" not in stranger.headers
    assert "Access-Control-Allow-Origin" not in client.get("/v1/catalog", headers={"Origin": "https://evil.example"}).headers


def test_no_origin_may_call_when_the_list_is_empty(fake_redis, prefix):
    client = session(fake_redis, prefix, CORS_ORIGINS="").test_client()
    assert "Access-Control-Allow-Origin" not in preflight(client).headers
    assert "Access-Control-Allow-Origin" not in client.get("/v1/catalog", headers={"Origin": ORIGIN}).headers


def test_a_stream_answers_cors_too(fake_redis, prefix):
    client = session(fake_redis, prefix).test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    reply = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Origin": ORIGIN}, buffered=False)
    try:
        assert reply.status_code == 200 and reply.headers["Access-Control-Allow-Origin"] == "*"
    finally:
        reply.close()


@pytest.mark.parametrize("setting, origins", [("*", None), ("", frozenset()), (" https://a.example/ ,https://b.example",
                                                                            frozenset({"https://a.example", "https://b.example"}))])
def test_the_setting_reads_as_documented(setting, origins):
    assert Cors.parse(setting).origins == origins
