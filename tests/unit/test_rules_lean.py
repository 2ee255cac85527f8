"""The rules service's decide without Flask (rules_service/lean.py): for every kind of decide request the
answer is the one Flask gives with the lean path taken out, byte for byte (status, headers, body), with the
same metrics and log line; and the lean path does answer the session service's kind itself, refusals included,
deciding each once."""

from __future__ import annotations

import io
import logging
from typing import Any

import orjson
import pytest

from rules_service.app import create_app
from rules_service.lean import LeanDecide
from shared.wire import logs
from tests.support.absurd import long_hands, million_card_hands
from tests.unit.test_rules_decide_fast import BODIES


def apps(**config: Any):
    """The same service twice: as deployed (lean decide in front) and with Flask alone; and how many requests
    the deployed one passed on to Flask."""
    lean, plain = create_app(config), create_app(config)
    assert isinstance(lean.wsgi_app, LeanDecide)
    plain.wsgi_app = plain.wsgi_app.wsgi  # type: ignore[attr-defined, method-assign]
    passed = []
    inner = lean.wsgi_app.wsgi

    def counting(environ, start_response):
        passed.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    lean.wsgi_app.wsgi = counting
    return lean, plain, passed


def answer(app, data: bytes, content_type: str = "application/json", path: str = "/v1/decide",
           headers: dict[str, str] | None = None):
    reply = app.test_client().post(path, data=data, content_type=content_type, headers={"X-Request-Id": "r-1", **(headers or {})})
    return reply.status, list(reply.headers.items()), reply.data


def rule_violations() -> list[dict]:
    wrong_seat = [{**b, "seat": b["seat"] + 1} for b in BODIES[:12]]
    return wrong_seat + [{**BODIES[0], "game": "no_such_game"}, {**BODIES[0], "rules_version": "0.0.0-none"},
                         {**BODIES[0], "command": {"type": "no_such_command"}}, {**BODIES[0], "entropy": "abc"}]


@pytest.mark.parametrize("index", range(len(BODIES)))
def test_a_session_service_decide_is_answered_without_flask_as_flask_answers_it(index):
    lean, plain, passed = apps()
    data = orjson.dumps(BODIES[index])
    assert answer(lean, data) == answer(plain, data)
    assert passed == []


@pytest.mark.parametrize("index", range(len(rule_violations())))
def test_a_refused_decide_is_answered_once_without_flask_as_flask_answers_it(index):
    lean, plain, passed = apps()
    data = orjson.dumps(rule_violations()[index])
    status, headers, body = answer(lean, data)
    assert (status, headers, body) == answer(plain, data)
    assert status[:3] in ("400", "409", "422") and orjson.loads(body)["error"]["code"]
    assert passed == []


def test_oversized_and_broken_positions_are_refused_as_before_deciding_once():
    for game, body in (million_card_hands(), long_hands(100)):
        lean, plain, passed = apps(GAMES={game.id: game})
        data = orjson.dumps({"entropy": "00", **body})
        status, headers, reply = answer(lean, data)
        assert (status, headers, reply) == answer(plain, data)
        assert status[:3] in ("400", "413") and passed == []


@pytest.mark.parametrize("case", ["query", "text/plain", "events", "extra field", "not JSON", "answer too long", "legal-commands"])
def test_anything_else_goes_to_flask_and_is_answered_as_before(case):
    config = {"MAX_ANSWER_BYTES": 10} if case == "answer too long" else {}
    lean, plain, passed = apps(**config)
    path, content_type, body = "/v1/decide", "application/json", dict(BODIES[0])
    data = orjson.dumps(body)
    if case == "query":
        path += "?x=1"
    elif case == "text/plain":
        content_type = "text/plain"
    elif case == "events":
        data = orjson.dumps({k: v for k, v in body.items() if k != "state"} | {"events": []})
    elif case == "extra field":
        data = orjson.dumps({**body, "extra": 1})
    elif case == "not JSON":
        data = b"{'game': 1}"
    elif case == "legal-commands":
        path = "/v1/legal-commands"
        data = orjson.dumps({k: body[k] for k in ("game", "seat", "state")})
    assert answer(lean, data, content_type, path) == answer(plain, data, content_type, path)
    assert passed == [path.partition("?")[0]]


def test_the_lean_path_counts_and_logs_a_request_as_flask_does(monkeypatch):
    monkeypatch.setenv("LOG_FORMAT", "json")
    out = io.StringIO()
    handler = logs.configure(("mythos",), stream=out)
    try:
        lines = []
        for app in apps()[:2]:
            for body in (BODIES[0], {**BODIES[0], "seat": BODIES[0]["seat"] + 1}):
                answer(app, orjson.dumps(body))
            metrics = app.test_client().get("/metrics").data.decode()
            logged = [orjson.loads(line) for line in out.getvalue().splitlines() if '"event":"request"' in line]
            out.truncate(0), out.seek(0)
            for fields in logged:
                del fields["ts"], fields["duration_ms"], fields["pid"]
            counted = sorted(line.split(" ")[0] for line in metrics.splitlines()
                             if line.startswith(("http_requests_total{", "http_request_seconds_count{")))
            lines.append((logged, counted))
    finally:
        logging.getLogger("mythos").removeHandler(handler)
    (lean_logged, lean_counted), (plain_logged, plain_counted) = lines
    assert len(lean_logged) == 2 and lean_logged == plain_logged  # the two decides (/metrics logs at DEBUG)
    assert lean_logged[1]["error"].startswith("rules/")
    assert lean_counted == plain_counted and 'http_requests_total{method="POST",route="/v1/decide",status="422"}' in lean_counted
