"""The rules service's internal hop (rules_service/hop.py) and its client (``HopRules``): frames in and out on kept
connections, every refusal as the public API answers it, and nothing a broken or hostile frame can do but close
its own connection."""

from __future__ import annotations

import io
import logging
import socket
import threading
import time

import orjson
import pytest

from rules_service import hop
from rules_service.app import POSITION_BOUNDS
from session_service.rules_client import HopRules
from session_service.use_cases.errors import Unavailable
from shared.kernel import RuleViolation, entropy_for, fold
from shared.wire.commands import MalformedCommand
from shared.wire import logs
from shared.wire.hop_frame import FRAME, client_proof
from tests.support import hop_peer
from tests.support.stack import TEST_HOP_SECRET
from tests.support.toy import GAME

GAMES = {"toy": GAME}
SECRET = TEST_HOP_SECRET.encode()


@pytest.fixture
def served():
    listener = hop.listen("127.0.0.1:0")
    stop = hop.start(listener, GAMES, POSITION_BOUNDS, 128 * 1024, SECRET)
    yield listener.getsockname()[1]
    stop.set()
    listener.close()


def state():
    return GAME.replay(GAME.start(2, {}, b"e")[1])


def framed(document) -> bytes:
    data = orjson.dumps(document)
    return FRAME.pack(len(data)) + data


def connected(port: int, secret: bytes = SECRET, peer: str = "a" * 32) -> socket.socket:
    return hop_peer.connected(port, secret, peer)


def decide_request(command, seat=0):
    return {"op": "decide", "game": "toy", "rules_version": GAME.rules_version, "state": GAME.codec.encode(state()),
            "command": command, "seat": seat, "entropy": "ab"}


def test_frames_split_and_joined_are_answered_in_order(served):
    with connected(served) as sock:
        one, two = framed(decide_request({"type": "draw_card"})), framed({"op": "ping"})
        sock.sendall(one[:3])  # a frame in pieces
        sock.sendall(one[3:10])
        sock.sendall(one[10:] + two)  # the rest, and a whole second frame behind it
        first, second = hop_peer.read(sock), hop_peer.read(sock)
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
    with connected(served) as sock:
        data = document if isinstance(document, bytes) else orjson.dumps(document)
        sock.sendall(FRAME.pack(len(data)) + data)
        answer = hop_peer.read(sock)
        assert answer["status"] == status, answer
        assert code is None or answer["body"]["error"]["code"] == code
        sock.sendall(framed({"op": "ping"}))
        assert hop_peer.read(sock)["status"] == 200


def test_a_frame_past_the_limit_ends_its_connection_only(served):
    with connected(served) as sock:
        sock.sendall(FRAME.pack(hop.MAX_FRAME_BYTES + 1) + b"x" * 100)
        assert sock.recv(10) == b""  # closed, unread
    assert HopRules(f"tcp://127.0.0.1:{served}", SECRET).ready()  # everyone else is served


def test_an_answer_past_the_cap_is_refused():
    small = hop.Hop(GAMES, POSITION_BOUNDS, max_answer_bytes=10, secret=SECRET)
    answer = orjson.loads(small.answer(orjson.dumps(decide_request({"type": "draw_card"})), "peer"))
    assert answer["status"] == 413 and answer["body"]["error"]["details"] == {"max_answer_bytes": 10}


def test_the_client_decides_and_maps_refusals_as_the_http_client(served):
    client = HopRules(f"tcp://127.0.0.1:{served}", SECRET)
    ruling = client.decide(GAME, state(), {"type": "draw_card"}, 0, entropy_for(b"s", 1))
    assert [e.type for e in ruling.events] and ruling.kept
    with pytest.raises(RuleViolation):
        client.decide(GAME, state(), {"type": "no_such"}, 0, b"e")
    with pytest.raises(MalformedCommand):
        client.decide(GAME, state(), {"type": 7}, 0, b"e")
    options, setup = client.setup(GAME, 2, {}, b"e")
    assert setup and isinstance(options, dict)


def test_a_kept_connection_the_server_closed_is_replaced_and_a_dead_service_is_unavailable(served):
    client = HopRules(f"tcp://127.0.0.1:{served}", SECRET)
    assert client.ready() and len(client._idle) == 1
    client._idle[0].sock.shutdown(socket.SHUT_RDWR)  # as a server gone idle, or restarted, would leave it
    assert client.ready()  # sent again on a new connection: a ping, a setup and a decide are pure
    dead = HopRules(f"tcp://127.0.0.1:{free_port()}", SECRET, timeout_s=1)
    assert not dead.ready()
    with pytest.raises(Unavailable):
        dead.decide(GAME, state(), {"type": "draw_card"}, 0, b"e")


def test_a_failure_is_a_500_logged_under_the_caller_s_request_id(monkeypatch):
    out = io.StringIO()
    handler = logs.configure(("mythos",), stream=out)
    try:
        monkeypatch.setattr(hop.decisions, "decided", lambda *args: 1 / 0)
        answer = orjson.loads(hop.Hop(GAMES, POSITION_BOUNDS, 1024, SECRET).answer(orjson.dumps(
            {**decide_request({"type": "draw_card"}), "request_id": "req-7"}), "peer"))
    finally:
        logging.getLogger("mythos").removeHandler(handler)
    assert answer == {"status": 500, "body": {"error": {"code": "service/internal", "details": {},
                                                        "message": "something went wrong on our side"}}}
    assert "request_id=req-7" in out.getvalue() and "ZeroDivisionError" in out.getvalue()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The hop's door (issue 41, M1): only a holder of the hop's secret is answered, and the positions it keeps for one
# peer are no one else's: another's name is answered exactly as a name that was never given.

@pytest.mark.parametrize("first", [
    decide_request({"type": "draw_card"}),  # no hello at all
    {"op": "ping"},
    {"op": "hello", "peer": "a" * 32, "nonce": "b" * 32, "proof": "0" * 64},  # a wrong proof
    {"op": "hello", "peer": "a" * 32, "nonce": "b" * 32, "proof": None},
])
def test_a_connection_without_the_hop_s_secret_is_refused_and_closed(served, first):
    with socket.create_connection(("127.0.0.1", served)) as sock:
        assert set(hop_peer.read(sock)) == {"hop", "challenge"}
        sock.sendall(framed(first) + framed({"op": "ping"}))
        assert hop_peer.read(sock) == {"status": 401, "body": {"error": {
            "code": "hop/unauthenticated", "details": {}, "message": "this connection has not proved the hop's secret"}}}
        assert sock.recv(10) == b""  # nothing more: the ping behind it is never answered


def test_a_hello_proved_with_another_secret_or_another_challenge_is_refused(served):
    with pytest.raises(AssertionError):
        connected(served, secret=b"another secret entirely, 32+ characters long").close()
    with socket.create_connection(("127.0.0.1", served)) as sock:
        hop_peer.read(sock)  # this connection's challenge; the proof below is for another's
        sock.sendall(framed({"op": "hello", "peer": "a" * 32, "nonce": "b" * 32,
                             "proof": client_proof(SECRET, "0" * 32, "a" * 32, "b" * 32)}))
        assert hop_peer.read(sock)["status"] == 401
    assert not HopRules(f"tcp://127.0.0.1:{served}", b"not the secret at all, but long enough", timeout_s=2).ready()
    with pytest.raises(Unavailable):
        HopRules(f"tcp://127.0.0.1:{served}", b"not the secret at all, but long enough").decide(GAME, state(), {"type": "draw_card"}, 0, b"e")


def test_a_client_refuses_a_hop_that_does_not_prove_the_secret():
    """A rules process that does not hold the secret could feed the session made-up decisions: the client checks."""
    listener = hop.listen("127.0.0.1:0")
    stop = hop.start(listener, GAMES, POSITION_BOUNDS, 128 * 1024, b"the impostor's own secret, 32+ characters")
    try:
        assert not HopRules(f"tcp://127.0.0.1:{listener.getsockname()[1]}", SECRET, timeout_s=2).ready()
    finally:
        stop.set()
        listener.close()


def kept_decide(name: str) -> dict:
    """A decide on a kept position: the next seat's draw, after seat 0's."""
    request = decide_request({"type": "draw_card"}, seat=1)
    del request["state"]
    return {**request, "kept": name}


def test_a_kept_name_is_128_random_bits_and_answers_another_peer_as_a_name_never_given(served):
    with connected(served, peer="1" * 32) as mine:
        mine.sendall(framed(decide_request({"type": "draw_card"})))
        name = hop_peer.read(mine)["body"]["kept"]
        process, _, random_part = name.partition(".")
        assert len(bytes.fromhex(random_part)) == 16
        with connected(served, peer="2" * 32) as other:
            other.sendall(framed(kept_decide(name)))
            stolen = hop_peer.read(other)
            other.sendall(framed(kept_decide(f"{process}.{'0' * 32}")))
            never_given = hop_peer.read(other)
        assert stolen == never_given
        assert stolen["status"] == 404 and stolen["body"]["error"]["code"] == "position/unknown"
        assert "secret" not in orjson.dumps(stolen).decode() and "events" not in stolen["body"]
        mine.sendall(framed(kept_decide(name)))  # its own peer, on the same connection or another, is answered
        assert hop_peer.read(mine)["status"] == 200
    with connected(served, peer="1" * 32) as again:
        again.sendall(framed(kept_decide(name)))
        assert hop_peer.read(again)["status"] == 200


def test_the_client_sends_the_state_for_a_name_another_client_was_given(served):
    """A game whose last command went through another session process: its name is not even tried here."""
    one, two = HopRules(f"tcp://127.0.0.1:{served}", SECRET), HopRules(f"tcp://127.0.0.1:{served}", SECRET)
    after = fold(GAME, one.decide(GAME, state(), {"type": "draw_card"}, 0, entropy_for(b"s", 1)).events, state())
    ruling = one.decide(GAME, after, {"type": "draw_card"}, 1, entropy_for(b"s", 2))
    assert ruling.kept
    sent = []
    two._roundtrip = lambda request, *args, **kw: sent.append(request) or HopRules._roundtrip(two, request, *args, **kw)  # type: ignore[method-assign]
    later = fold(GAME, ruling.events, after)
    decided = two.decide(GAME, later, {"type": "play_card", "card": later.hands[0][0]}, 0, b"e", kept=ruling.kept)
    assert [("state" in r, "kept" in r) for r in sent] == [(True, False)]  # the state at once; the name not tried
    assert decided.events == one.decide(GAME, later, {"type": "play_card", "card": later.hands[0][0]}, 0, b"e",
                                        kept=ruling.kept).events


def test_a_connection_that_never_says_hello_is_closed():
    """Without it, anyone who reaches the hop could hold its sockets open for ever without proving anything."""
    listener = hop.listen("127.0.0.1:0")
    stop = threading.Event()
    threading.Thread(target=hop.serve, args=(listener, hop.Hop(GAMES, POSITION_BOUNDS, 1024, SECRET), stop, 0.2),
                     daemon=True).start()
    try:
        with socket.create_connection(listener.getsockname(), timeout=10) as silent:
            assert "challenge" in hop_peer.read(silent)
            assert silent.recv(10) == b""  # closed by the hop, long before this test's own timeout
        with hop_peer.connected(listener.getsockname()[1], SECRET) as talking:  # a proved one stays open
            time.sleep(0.5)
            hop_peer.send(talking, {"op": "ping"})
            assert hop_peer.read(talking)["status"] == 200
    finally:
        stop.set()
        listener.close()
