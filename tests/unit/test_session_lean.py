"""The session service's command route without Flask's dispatch (session_service/http/lean.py): the same script of
requests, played against the service as deployed (the lean path in front) and against Flask alone, gets the same
answers (status, headers in order, body; only times, hashes and the rate window's clock may differ), the same log
lines and the same metrics; the lean path does play the plainly put commands itself, refusals included, and
passes everything else on to Flask before anything is counted. A hook added to the app that the lean path does
not stand in for fails here."""

from __future__ import annotations

import io
import logging
from typing import Any

import fakeredis
import orjson
import pytest
from werkzeug.middleware.proxy_fix import ProxyFix

import session_service.use_cases.tables as tables_module
from session_service.use_cases.players import KEY_PREFIX
from session_service.http.lean import AFTER_HOOKS, BEFORE_HOOKS, LeanCommand
from shared.wire import logs
from tests.support.stack import make_session_app
from tests.support.toy import GAME

SEED = (7).to_bytes(8, "big").hex()
PLAYER_KEY = KEY_PREFIX + "a" * 32  # shaped as one, of no player and no seat here
CHANGING = frozenset({"at", "hash", "prev_hash"})  # times, and the hash chain over them
CLOCKED = frozenset({"RateLimit-Reset", "Retry-After"})  # seconds to the rate window's end


def lean_of(app) -> LeanCommand:
    wsgi = app.wsgi_app.app if isinstance(app.wsgi_app, ProxyFix) else app.wsgi_app
    assert isinstance(wsgi, LeanCommand)
    return wsgi


def service(lean: bool, **config: Any):
    """The service on a Redis of its own, with the lean path or without it, and the paths it passed to Flask."""
    app, _ = make_session_app(fakeredis.FakeRedis(server=fakeredis.FakeServer()), "mt-lean", {"toy": GAME},
                              ALLOW_CLIENT_SEED=True, **{"RATE_LIMIT_PER_MINUTE": 0, **config})
    front = lean_of(app)
    passed: list[str] = []
    flask_only = front.wsgi

    def counting(environ, start_response):
        passed.append(environ["PATH_INFO"])
        return flask_only(environ, start_response)

    front.wsgi = counting
    if not lean:
        if isinstance(app.wsgi_app, ProxyFix):
            app.wsgi_app.app = counting
        else:
            app.wsgi_app = counting
    return app, passed


def normal(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ("…" if k in CHANGING else normal(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [normal(v) for v in value]
    return value


def seen(reply) -> tuple[Any, ...]:
    headers = [(k, "…" if k in CLOCKED else v) for k, v in reply.headers.items()]
    body = normal(orjson.loads(reply.data)) if reply.is_json else reply.data
    return reply.status, headers, body


def script(app, requests: list[tuple[str, Any, dict[str, str]]]) -> list[tuple[Any, ...]]:
    """Create a seeded toy game, then send each (path under the game, body, headers): ``{seat0}``/``{seat1}`` in
    a header stand for the seats' tokens; a body of bytes is sent as it is."""
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}], "seed": SEED},
                       headers={"X-Request-Id": "create"}).json
    tokens = {f"{{seat{s['seat']}}}": s["token"] for s in game["seats"]}
    answers = []
    for i, (path, body, headers) in enumerate(requests):
        for name, token in tokens.items():
            headers = {k: v.replace(name, token) for k, v in headers.items()}
        url = path if path.startswith("/v1/") else f"/v1/games/{game['id']}{path}"
        data = body if isinstance(body, bytes) else orjson.dumps(body)
        content_type = headers.pop("Content-Type", "application/json")
        answers.append(seen(client.post(url, data=data, content_type=content_type, headers={"X-Request-Id": f"r{i}", **headers})))
    return answers


SEAT0, SEAT1 = {"Authorization": "Bearer {seat0}"}, {"Authorization": "Bearer {seat1}"}
DRAW = {"command": {"type": "draw_card"}}
PLAYED = [  # plainly put: the lean path plays them, refusals included
    ("/commands", {**DRAW, "expected_version": 5}, {**SEAT0, "Idempotency-Key": "k1"}),
    ("/commands", {**DRAW, "expected_version": 5}, {**SEAT0, "Idempotency-Key": "k1"}),  # the same answer again
    ("/commands", {"command": {"type": "pass"}, "expected_version": 5}, {**SEAT0, "Idempotency-Key": "k1"}),  # key reused
    ("/commands", {**DRAW, "expected_version": 5}, SEAT1),  # a stale version: 409
    ("/commands", DRAW, SEAT0),  # not this seat's turn: 422
    ("/commands", {"command": {"type": "no_such_command"}}, SEAT1),  # 400 or 422 from the rules
    ("/commands", DRAW, {"Authorization": "Bearer not-a-token"}),  # 401
    ("/commands", DRAW, {"Authorization": f"Bearer {PLAYER_KEY}", "Idempotency-Key": "k9"}),  # a player key of no seat: 401
    ("/commands", DRAW, {"Authorization": "bearer  {seat1} "}),  # the token however the header is spelt
    ("/v1/games/g_0000000000000000/commands", DRAW, SEAT0),  # no such game: 404
]
PASSED = [  # anything else: Flask answers it, nothing counted before
    ("/commands", DRAW, {}),  # no token
    ("/commands", DRAW, {"Authorization": "Basic abc"}),
    ("/commands?x=1", DRAW, SEAT1),
    ("/commands", DRAW, {**SEAT1, "Content-Type": "text/plain"}),
    ("/commands", DRAW, {**SEAT1, "Idempotency-Key": "k" * 129}),
    ("/commands", {**DRAW, "extra": 1}, SEAT1),
    ("/commands", b"{'command': 1}", SEAT1),
    ("/v1/games/g.bad/commands", DRAW, SEAT1),
    ("/commands/", DRAW, SEAT1),
]


@pytest.mark.parametrize("limit", [0, 4])
def test_the_same_script_gets_the_same_answers_with_and_without_the_lean_path(limit):
    requests = PLAYED + PASSED + PLAYED[:2]
    (lean, passed), (plain, _) = service(True, RATE_LIMIT_PER_MINUTE=limit), service(False, RATE_LIMIT_PER_MINUTE=limit)
    answers = script(lean, requests)
    assert answers == script(plain, requests)
    statuses = [status[:3] for status, _, _ in answers]
    if limit:
        assert "429" in statuses  # the limit, its headers and its refusal, both ways
    else:
        assert statuses[:10] == ["200", "200", "422", "409", "422", statuses[5], "401", "401", "200", "404"]
        assert statuses[5] in ("400", "422")
    assert len(passed) == len(PASSED) + 1  # + the game's creation


def test_behind_trusted_proxies_the_address_counted_is_the_same():
    requests = [("/commands", DRAW, {"Authorization": "Bearer nobody", "X-Forwarded-For": f"10.9.9.{i}, 10.0.0.{i % 2}"})
                for i in range(5)]
    config = {"RATE_LIMIT_PER_MINUTE": 2, "TRUSTED_PROXIES": 1}
    answers = script(service(True, **config)[0], requests)
    assert answers == script(service(False, **config)[0], requests)
    assert [status[:3] for status, _, _ in answers] == ["401", "401", "401", "401", "429"]


def test_a_failure_after_the_count_is_answered_by_flask_as_before(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    lean, passed = service(True, RATE_LIMIT_PER_MINUTE=10)
    plain, _ = service(False, RATE_LIMIT_PER_MINUTE=10)
    monkeypatch.setattr(tables_module.Tables, "command", broken)
    answers = script(lean, PLAYED[:1])
    assert answers == script(plain, PLAYED[:1]) and answers[0][0] == "500 INTERNAL SERVER ERROR"
    assert ("RateLimit-Limit", "10") in answers[0][1] and passed == ["/v1/games"]  # the creation only


def test_storage_down_is_answered_by_flask_as_before():
    answers = []
    for lean in (True, False):
        app, _ = service(lean, RATE_LIMIT_PER_MINUTE=10)
        client = app.test_client()
        game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
        app.extensions["tables"].store.redis.connection_pool.connection_kwargs["server"].connected = False
        reply = client.post(f"/v1/games/{game['id']}/commands", json=DRAW, headers={"X-Request-Id": "r",
                            "Authorization": f"Bearer {game['seats'][0]['token']}"})
        answers.append(seen(reply))
    assert answers[0] == answers[1] and answers[0][0] == "503 SERVICE UNAVAILABLE"


def test_the_lean_path_logs_and_counts_each_request_as_flask_does(monkeypatch):
    monkeypatch.setenv("LOG_FORMAT", "json")
    command = tables_module.Tables.command

    def logging_command(*args, **kwargs):  # a line logged while a command is played carries its request's id
        logging.getLogger("mythos.session").warning("playing")
        return command(*args, **kwargs)

    monkeypatch.setattr(tables_module.Tables, "command", logging_command)
    out = io.StringIO()
    handler = logs.configure(("mythos",), stream=out)
    seen_by: list[tuple[list[dict], list[str]]] = []
    try:
        for lean in (True, False):
            app, _ = service(lean, RATE_LIMIT_PER_MINUTE=4)
            script(app, PLAYED + PASSED[:2])
            lines = [orjson.loads(line) for line in out.getvalue().splitlines()]
            out.truncate(0), out.seek(0)
            for line in lines:
                for field in ("ts", "duration_ms", "pid", "game_id"):
                    line.pop(field, None)
            metrics = app.test_client().get("/metrics").data.decode().splitlines()
            counted = [m for m in metrics if m.startswith(("http_requests_total{", "http_request_seconds_count{", "mythos_commands_total{"))]
            seen_by.append((lines, sorted(counted)))
    finally:
        logging.getLogger("mythos").removeHandler(handler)
    assert seen_by[0] == seen_by[1]
    requests = [line for line in seen_by[0][0] if line.get("event") == "request"]
    assert len(requests) == 1 + len(PLAYED) + 2 and {"seat", "request_id", "status"} <= requests[1].keys()
    assert [line["request_id"] for line in seen_by[0][0] if line["msg"] == "playing"][:2] == ["r0", "r1"]


def test_the_lean_path_stands_in_for_every_hook_of_the_app():
    app, _ = service(True)
    assert tuple(f.__name__ for f in app.before_request_funcs[None]) == BEFORE_HOOKS
    assert tuple(f.__name__ for f in app.after_request_funcs[None]) == AFTER_HOOKS
    assert not app.teardown_request_funcs and not app.url_value_preprocessors
    for blueprint in app.blueprints.values():
        assert not blueprint.before_request_funcs and not blueprint.after_request_funcs, blueprint.name
