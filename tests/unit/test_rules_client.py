"""HttpRules, the session service's client of the rules service, against a small local HTTP server: paths
under the configured base URL, errors mapped to the kernel's exceptions, and a dead service as
service/unavailable (nothing retried)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from shared.kernel import RuleViolation
from shared.kernel.game import GameOver, MalformedCommand
from shared.wire.errors import ApiError
from session_service.rules_client import HttpRules
from tests.support.toy import GAME


class Rules(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as gunicorn answers
    replies: dict[str, tuple[int, object]] = {}
    seen: list[tuple[str, str, dict]] = []

    def do_GET(self):
        self._answer(*self.replies.get(self.path, (404, {})))

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append((self.path, self.headers["Content-Type"], body))
        self._answer(*self.replies.get(self.path, (404, {})))

    def _answer(self, status, body):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    Rules.replies, Rules.seen = {}, []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Rules)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def state():
    return GAME.replay(GAME.start(2, {}, b"e")[1])


def error(code):
    return {"error": {"code": code, "message": "no", "details": {"why": 1}}}


@pytest.mark.parametrize("prefix", ["", "/internal/rules"])
def test_decide_posts_the_encoded_state_under_the_base_url_and_reads_the_events(server, prefix):
    event = {"type": "card_drawn", "data": {"seat": 0}, "secret": {}}
    Rules.replies = {f"{prefix}/v1/decide": (200, {"events": [event], "rules_version": "1"}), f"{prefix}/healthz": (200, {})}
    rules = HttpRules(server + prefix + "/")
    for _ in range(3):  # the connection is kept and reused
        events = rules.decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01\x02")
        assert [(e.type, e.data) for e in events] == [("card_drawn", {"seat": 0})]
    path, content_type, body = Rules.seen[-1]
    assert (path, content_type) == (f"{prefix}/v1/decide", "application/json")
    assert body == {"game": GAME.id, "state": json.loads(json.dumps(GAME.codec.encode(state()))), "command": {"type": "draw_card"},
                    "seat": 0, "entropy": "0102"}
    assert rules.ready() is True


@pytest.mark.parametrize("status, raised", [(422, RuleViolation), (409, GameOver), (400, MalformedCommand)])
def test_refusals_come_back_as_the_kernels_exceptions(server, status, raised):
    Rules.replies = {"/v1/decide": (status, error("rules/not_your_turn"))}
    with pytest.raises(raised) as info:
        HttpRules(server).decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01")
    if raised is RuleViolation:
        assert info.value.code == "rules/not_your_turn" and info.value.details == {"why": 1}


@pytest.mark.parametrize("reply", [(500, error("x")), (200, b"not json"), (503, {"no": "error"}), (302, {})])
def test_anything_else_is_service_unavailable(server, reply):
    Rules.replies = {"/v1/decide": reply}
    with pytest.raises(ApiError) as info:
        HttpRules(server).decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01")
    assert info.value.status == 503 and info.value.code == "service/unavailable"
    assert len(Rules.seen) == 1  # never retried


def test_a_rules_service_that_is_not_there_is_unavailable_and_not_ready(server):
    rules = HttpRules("http://127.0.0.1:1", timeout_s=2)
    with pytest.raises(ApiError) as info:
        rules.decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01")
    assert info.value.status == 503
    assert rules.ready() is False
