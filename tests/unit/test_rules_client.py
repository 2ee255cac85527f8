"""HttpRules, the session service's client of the rules service, against a small local HTTP server: paths
under the configured base URL, errors mapped to the kernel's exceptions, and a dead service as
service/unavailable (nothing retried)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from shared.kernel import RuleViolation
from shared.kernel.game import GameOver
from shared.wire.commands import MalformedCommand
from session_service.use_cases.errors import Unavailable
from session_service.rules_client import HopRules, HttpRules, LocalRules
from session_service.use_cases.ports import RulesPort
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
    Rules.replies = {f"{prefix}/v1/decide": (200, {"events": [event], "rules_version": GAME.rules_version}), f"{prefix}/healthz": (200, {})}
    rules = HttpRules(server + prefix + "/")
    for _ in range(3):  # the connection is kept and reused
        events = rules.decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01\x02").events
        assert [(e.type, e.data) for e in events] == [("card_drawn", {"seat": 0})]
    path, content_type, body = Rules.seen[-1]
    assert (path, content_type) == (f"{prefix}/v1/decide", "application/json")
    assert body == {"game": GAME.id, "rules_version": GAME.rules_version, "state": json.loads(json.dumps(GAME.codec.encode(state()))), "command": {"type": "draw_card"},
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
    with pytest.raises(Unavailable) as info:
        HttpRules(server).decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01")
    assert info.value.code == "service/unavailable"
    assert len(Rules.seen) == 1  # never retried


@pytest.mark.parametrize("reply", [(200, {"events": [], "rules_version": "toy/0"}), (422, error("rules/unknown_rules_version"))])
def test_a_rules_process_of_another_release_is_unavailable_not_a_decision(server, reply):
    """In a rolling deploy a rules process may not (or no longer) provide the game's version: nothing it says
    is recorded under the game's version, and the player is not told the rules refused the move."""
    Rules.replies = {"/v1/decide": reply}
    with pytest.raises(Unavailable):
        HttpRules(server).decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01")


def test_a_rules_service_that_is_not_there_is_unavailable_and_not_ready(server):
    rules = HttpRules("http://127.0.0.1:1", timeout_s=2)
    with pytest.raises(Unavailable) as info:
        rules.decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01")
    assert info.value.code == "service/unavailable"
    assert rules.ready() is False


class RawServer:
    """A socket server answering each connection's requests with scripted raw bytes, one script per connection
    (None: close without answering); it records every request it read."""

    def __init__(self, scripts):
        import socket

        self.scripts, self.requests = list(scripts), []
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while self.scripts:
            conn, _ = self.sock.accept()
            with conn:
                for answer in self.scripts.pop(0):
                    request = self._read(conn)
                    if request is None:
                        break  # the client closed the connection: nothing more to read on it
                    self.requests.append(request)
                    if answer is None:
                        break
                    conn.sendall(answer)

    @staticmethod
    def _read(conn):
        """One request (its request line and JSON body), or None once the client has closed the connection (a
        closed socket reads b"" for ever: looping on it spun a core for the rest of the test process)."""
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        while len(body) < length:
            chunk = conn.recv(65536)
            if not chunk:
                return None
            body += chunk
        return head.split(b"\r\n")[0], json.loads(body) if body else None


def answer(body: bytes, *extra: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + b"".join(extra) + b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


EVENTS = json.dumps({"events": [{"type": "card_drawn", "data": {"seat": 0}, "secret": {}}], "rules_version": GAME.rules_version}).encode()


def test_a_kept_connection_the_server_closed_is_replaced_and_the_request_sent_once_more():
    server = RawServer([[answer(EVENTS), None], [answer(EVENTS)]])  # the first connection closes after one answer
    rules = HttpRules(server.url)
    for _ in range(2):
        assert [e.type for e in rules.decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01").events] == ["card_drawn"]
    assert [line for line, _ in server.requests] == [b"POST /v1/decide HTTP/1.1"] * 3  # the second sent twice


def test_a_new_connection_closed_without_an_answer_is_unavailable_and_not_sent_again():
    server = RawServer([[None], [answer(EVENTS)]])
    with pytest.raises(Unavailable):
        HttpRules(server.url).decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01")
    assert len(server.requests) == 1


@pytest.mark.parametrize("reply", [
    b"HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n" + EVENTS,  # cut short, then closed
    b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" + EVENTS[:5],  # not JSON
    b"SSH-2.0-OpenSSH\r\n\r\n",  # not HTTP
])
def test_an_answer_cut_short_or_not_http_is_unavailable_and_not_sent_again(reply):
    server = RawServer([[reply], [answer(EVENTS)]])  # the reply, then the connection closed
    with pytest.raises(Unavailable):
        HttpRules(server.url).decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01")
    assert len(server.requests) == 1


def test_chunked_and_close_delimited_answers_are_read():
    chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"".join(
        b"%x\r\n%s\r\n" % (len(part), part) for part in (EVENTS[:7], EVENTS[7:])) + b"0\r\n\r\n"
    server = RawServer([[chunked, b"HTTP/1.0 200 OK\r\n\r\n" + EVENTS]])
    rules = HttpRules(server.url)
    for _ in range(2):
        assert [e.type for e in rules.decide(GAME, state(), {"type": "draw_card"}, 0, b"\x01").events] == ["card_drawn"]
    assert len(server.requests) == 2


def test_the_three_rules_clients_are_the_use_cases_rules_port():
    """``Tables.rules`` is a ``RulesPort`` (issue 43): the hop, the HTTP API and the in-process rules alike."""
    for client in (HopRules("tcp://127.0.0.1:1", b"s" * 32), HttpRules("http://127.0.0.1:1"), LocalRules()):
        assert isinstance(client, RulesPort)
