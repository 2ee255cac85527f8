"""The rules service's internal hop (rules_service/hop.py) and its client (``HopRules``): frames in and out on kept
connections, every refusal as the public API answers it, and nothing a broken or hostile frame can do but close
its own connection."""

from __future__ import annotations

import io
import logging
import socket
import struct

import orjson
import pytest

from rules_service import hop
from rules_service.app import POSITION_BOUNDS
from session_service.rules_client import FRAME, HopRules
from session_service.use_cases.errors import Unavailable
from shared.kernel import RuleViolation, entropy_for
from shared.wire.commands import MalformedCommand
from shared.wire import logs
from tests.support.toy import GAME

GAMES = {"toy": GAME}


@pytest.fixture
def served():
    listener = hop.listen("127.0.0.1:0")
    stop = hop.start(listener, GAMES, POSITION_BOUNDS, 128 * 1024)
    yield listener.getsockname()[1]
    stop.set()
    listener.close()


def state():
    return GAME.replay(GAME.start(2, {}, b"e")[1])


def framed(document) -> bytes:
    data = orjson.dumps(document)
    return FRAME.pack(len(data)) + data


def read_answer(sock: socket.socket) -> dict:
    head = b""
    while len(head) < 4:
        head += sock.recv(4 - len(head))
    (size,) = struct.unpack("!I", head)
    body = b""
    while len(body) < size:
        body += sock.recv(size - len(body))
    return orjson.loads(body)


def decide_request(command, seat=0):
    return {"op": "decide", "game": "toy", "rules_version": GAME.rules_version, "state": GAME.codec.encode(state()),
            "command": command, "seat": seat, "entropy": "ab"}


def test_frames_split_and_joined_are_answered_in_order(served):
    with socket.create_connection(("127.0.0.1", served)) as sock:
        one, two = framed(decide_request({"type": "draw_card"})), framed({"op": "ping"})
        sock.sendall(one[:3])  # a frame in pieces
        sock.sendall(one[3:10])
        sock.sendall(one[10:] + two)  # the rest, and a whole second frame behind it
        first, second = read_answer(sock), read_answer(sock)
    assert first["status"] == 200 and first["body"]["events"] and first["body"]["rules_version"] == GAME.rules_version
    assert second == {"status": 200, "body": {"status": "ok"}}


@pytest.mark.parametrize("document, status, code", [
    (b"{not json", 400, "request/malformed"),
    ([1, 2], 400, "request/malformed"),
    ({"op": "drop_tables"}, 400, "request/malformed"),
    ({"op": "decide", "game": "toy"}, 400, "request/malformed"),  # the schema's refusal, as the public API's
    ({**decide_request({"type": "draw_card"}), "seat": 65}, 400, "request/malformed"),
    ({**decide_request({"type": "draw_card"}), "game": "chess"}, 422, "rules/unknown_game"),
    (decide_request({"type": "no_such"}), 422, None),
])
def test_a_bad_request_is_refused_and_the_connection_serves_on(served, document, status, code):
    with socket.create_connection(("127.0.0.1", served)) as sock:
        data = document if isinstance(document, bytes) else orjson.dumps(document)
        sock.sendall(FRAME.pack(len(data)) + data)
        answer = read_answer(sock)
        assert answer["status"] == status, answer
        assert code is None or answer["body"]["error"]["code"] == code
        sock.sendall(framed({"op": "ping"}))
        assert read_answer(sock)["status"] == 200


def test_a_frame_past_the_limit_ends_its_connection_only(served):
    with socket.create_connection(("127.0.0.1", served)) as sock:
        sock.sendall(FRAME.pack(hop.MAX_FRAME_BYTES + 1) + b"x" * 100)
        assert sock.recv(10) == b""  # closed, unread
    assert HopRules(f"tcp://127.0.0.1:{served}").ready()  # everyone else is served


def test_an_answer_past_the_cap_is_refused():
    small = hop.Hop(GAMES, POSITION_BOUNDS, max_answer_bytes=10)
    answer = orjson.loads(small.answer(orjson.dumps(decide_request({"type": "draw_card"}))))
    assert answer["status"] == 413 and answer["body"]["error"]["details"] == {"max_answer_bytes": 10}


def test_the_client_decides_and_maps_refusals_as_the_http_client(served):
    client = HopRules(f"tcp://127.0.0.1:{served}")
    ruling = client.decide(GAME, state(), {"type": "draw_card"}, 0, entropy_for(b"s", 1))
    assert [e.type for e in ruling.events] and ruling.kept
    with pytest.raises(RuleViolation):
        client.decide(GAME, state(), {"type": "no_such"}, 0, b"e")
    with pytest.raises(MalformedCommand):
        client.decide(GAME, state(), {"type": 7}, 0, b"e")
    options, setup = client.setup(GAME, 2, {}, b"e")
    assert setup and isinstance(options, dict)


def test_a_kept_connection_the_server_closed_is_replaced_and_a_dead_service_is_unavailable(served):
    client = HopRules(f"tcp://127.0.0.1:{served}")
    assert client.ready() and len(client._idle) == 1
    client._idle[0].sock.shutdown(socket.SHUT_RDWR)  # as a server gone idle, or restarted, would leave it
    assert client.ready()  # sent again on a new connection: a ping, a setup and a decide are pure
    dead = HopRules(f"tcp://127.0.0.1:{free_port()}", timeout_s=1)
    assert not dead.ready()
    with pytest.raises(Unavailable):
        dead.decide(GAME, state(), {"type": "draw_card"}, 0, b"e")


def test_a_failure_is_a_500_logged_under_the_caller_s_request_id(monkeypatch):
    out = io.StringIO()
    handler = logs.configure(("mythos",), stream=out)
    try:
        monkeypatch.setattr(hop.decisions, "decided", lambda *args: 1 / 0)
        answer = orjson.loads(hop.Hop(GAMES, POSITION_BOUNDS, 1024).answer(orjson.dumps(
            {**decide_request({"type": "draw_card"}), "request_id": "req-7"})))
    finally:
        logging.getLogger("mythos").removeHandler(handler)
    assert answer == {"status": 500, "body": {"error": {"code": "service/internal", "details": {},
                                                        "message": "something went wrong on our side"}}}
    assert "request_id=req-7" in out.getvalue() and "ZeroDivisionError" in out.getvalue()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
