"""Request and job log lines (issue 22): one line each, with the request id, game id, seat, status and duration,
as JSON or text; a client's X-Request-Id is kept only when it is safe; and no secret ever reaches a log."""

from __future__ import annotations

import io
import logging

import orjson
import pytest

from shared.wire import logs
from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.fixture
def captured(monkeypatch):
    """Everything the service logs, as LOG_FORMAT=json would write it."""
    monkeypatch.setenv("LOG_FORMAT", "json")
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    out = io.StringIO()
    handler = logs.configure(("mythos",), stream=out)
    yield out
    logging.getLogger("mythos").removeHandler(handler)


@pytest.fixture
def app_and_scheduler(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)


def lines(out: io.StringIO) -> list[dict]:
    return [orjson.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def requests_logged(out: io.StringIO) -> list[dict]:
    return [line for line in lines(out) if line.get("event") == "request"]


def test_one_line_per_request_with_its_id_game_seat_status_and_duration(app_and_scheduler, captured):
    client = app_and_scheduler[0].test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    token = game["seats"][0]["token"]
    reply = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}},
                        headers={"Authorization": f"Bearer {token}", "X-Request-Id": "req-42.a"})
    assert reply.status_code == 200 and reply.headers["X-Request-Id"] == "req-42.a"
    refused = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}},
                          headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 422
    logged = requests_logged(captured)
    assert [line["route"] for line in logged] == ["/v1/games", "/v1/games/<game_id>/commands", "/v1/games/<game_id>/commands"]
    create, command, not_yours = logged
    assert create["status"] == 201 and "game_id" not in create
    assert command == {**command, "request_id": "req-42.a", "game_id": game["id"], "seat": 0, "status": 200, "method": "POST"}
    assert isinstance(command["duration_ms"], float) and command["level"] == "INFO"
    assert not_yours["status"] == 422 and not_yours["error"] == "rules/not_your_turn" and not_yours["seat"] == 0
    assert not_yours["request_id"] == refused.headers["X-Request-Id"] != "req-42.a"


@pytest.mark.parametrize("offered", ["has space", "tab\there", "<b>", "x" * 129, "quote\"d", "", "semi;colon", "é"])
def test_an_unsafe_request_id_is_replaced_not_logged(app_and_scheduler, captured, offered):
    client = app_and_scheduler[0].test_client()
    reply = client.get("/v1/games/g_nonexistent000", headers={"X-Request-Id": offered})
    assert reply.status_code == 404
    rid = reply.headers["X-Request-Id"]
    assert rid != offered and logs.REQUEST_ID.fullmatch(rid)
    (line,) = requests_logged(captured)
    assert line["request_id"] == rid and line["error"] == "game/not_found"
    if offered:
        assert offered not in captured.getvalue()


def test_no_token_key_seed_or_hidden_card_reaches_the_log(app_and_scheduler, captured):
    app, scheduler = app_and_scheduler
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bot", "ai": "random"}]}).json
    token = game["seats"][0]["token"]
    seat = {"Authorization": f"Bearer {token}"}
    client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}}, headers=seat)
    scheduler.run_ai(limit=1)
    client.get(f"/v1/games/{game['id']}/state", headers=seat)
    client.get(f"/v1/games/{game['id']}/events", headers=seat)
    client.get(f"/v1/games/{game['id']}/audit")
    client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}},
                headers={"Authorization": "Bearer not-a-real-token-but-secret-looking"})
    tables = app.extensions["tables"]
    meta = tables.meta(game["id"])
    assert not meta.over, "the seed would be public once the game is over"
    hands = tables.position(game["id"]).table.game.hands
    text = captured.getvalue()
    assert requests_logged(captured) and any(line.get("event") == "job" for line in lines(captured))
    for secret in (token, "not-a-real-token-but-secret-looking", meta.seed.hex(), "Bearer", "Authorization"):
        assert secret not in text
    for line in lines(captured):  # the fields are chosen: no body, no view, no event, no card
        assert not {"card", "cards", "hands", "view", "events", "command", "seed", "token", "deck"} & set(line), line
        assert set(line) <= {"ts", "level", "logger", "msg", "pid", "event", "request_id", "method", "route", "status",
                             "duration_ms", "game_id", "seat", "error", "job", "version", "result"}, line
    assert len(hands[0]) == 2, "seat 0 held hidden cards while all this was logged"


def test_a_job_writes_one_line_with_its_game_seat_version_and_result(app_and_scheduler, captured):
    app, scheduler = app_and_scheduler
    client = app.test_client()
    game = client.post("/v1/games", json={"game": "toy", "seats": [{"name": "Bot", "ai": "random"}, {"name": "Ada"}]}).json
    assert scheduler.run_ai(limit=1) == 1
    (job,) = [line for line in lines(captured) if line.get("event") == "job"]
    assert job == {**job, "job": "ai_turn", "game_id": game["id"], "seat": 0, "version": game["version"], "result": "played"}


def test_text_is_the_default_and_reads_as_one_line(app_and_scheduler, monkeypatch):
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    monkeypatch.setenv("LOG_LEVEL", "INFO")
    out = io.StringIO()
    handler = logs.configure(("mythos",), stream=out)
    try:
        client = app_and_scheduler[0].test_client()
        client.get("/v1/games/g_nonexistent000", headers={"X-Request-Id": "abc"})
        client.get("/healthz")  # a probe: DEBUG, so not at INFO
    finally:
        logging.getLogger("mythos").removeHandler(handler)
    (line,) = out.getvalue().splitlines()
    assert "mythos.request: GET /v1/games/<game_id> 404" in line
    assert "request_id=abc" in line and "game_id=g_nonexistent000" in line and "error=game/not_found" in line


def test_json_makes_gunicorns_own_lines_json_and_text_leaves_them_alone(monkeypatch):
    import logging.config

    monkeypatch.setenv("LOG_FORMAT", "text")
    assert logs.gunicorn_logconfig() == {}
    monkeypatch.setenv("LOG_FORMAT", "json")
    config = logs.gunicorn_logconfig()
    assert config["loggers"]["gunicorn.access"]["level"] == "CRITICAL"  # the request lines replace it
    out = io.StringIO()
    config["handlers"]["error_console"]["stream"] = out
    root_level = logging.getLogger().level
    logging.config.dictConfig(config)
    try:
        logging.getLogger("gunicorn.error").info("Booting worker with pid: %s", 7)
    finally:
        for name in ("gunicorn.error", "gunicorn.access"):
            logging.getLogger(name).handlers.clear()
        logging.getLogger().setLevel(root_level)
    assert orjson.loads(out.getvalue())["msg"] == "Booting worker with pid: 7"


def test_a_quiet_sweep_is_one_line_at_debug(app_and_scheduler, captured):
    from session_service.worker import jobs

    counts = jobs.sweep_once()
    assert {k: counts[k] for k in ("games", "requeued", "idle_ended")} == {"games": 0, "requeued": 0, "idle_ended": 0}
    (line,) = [line for line in lines(captured) if line.get("event") == "job"]
    assert line == {**line, "job": "sweep", "result": "0 requeued, 0 idle tables ended", "games": 0, "level": "DEBUG"}
