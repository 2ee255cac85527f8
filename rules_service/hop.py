"""The internal hop: the session service's setups and decides over kept TCP connections, framed, not HTTP.

Every command a player posts costs one decide. Over HTTP through gunicorn the hop itself (the request's parse,
the thread pool's hand-off, re-arming the kept socket) cost the rules service more than the decision
(docs/performance.md, issue 32). Here each message is a 4-byte big-endian length and an orjson document, on
connections the session service keeps open: one ``recv`` and one ``send`` per decide, in one thread per rules
process that waits on every connection at once (``serve``).

A request is ``{"op": "decide" | "setup" | "ping", ...}`` with the fields of the public ``POST /v1/decide`` or
``POST /v1/setup`` body, loaded by the same schemas, decided by the same functions (``decisions``) and refused
through the same mapping (``errors.refusal``) as the public routes, so the two doors cannot drift apart
(tests/contract runs the same decisions through both). The answer is the public route's body, with its status
beside it: ``{"status": 200, "body": {...}}``. A frame longer than ``MAX_FRAME_BYTES`` ends its connection.

The hop is for the session service and its workers only: a connection serves nothing until its peer has proved it
holds the hop's secret (``HOP_SECRET``; the handshake is in shared/wire/hop_frame.py). It trusts no position any
more than the public door does: bounds, invariants and the answer's cap apply alike.

**Kept positions.** Sending the state costs both services more than anything else on the hop: encoding it,
framing it, decoding it, checking its bounds and invariant (docs/performance.md). So each decision's resulting
state is kept here, in a bounded LRU of this process (``HOP_KEPT_POSITIONS``), under a name the answer gives
(``kept``: this process's random name, a dot, 128 random bits), bound to the peer whose connection asked: only
connections of that peer (one session process or worker, named in its handshake) may use it. The session service
sends the name in place of the state with the game's next decide, on a connection to this process, only while that
position is the game's head (it records the name with a batch it has written, never with a decision that lost its
race). A name this process does not keep for that peer (none, evicted, or another peer's) is answered alike,
``404 position/unknown``, by the same lookup, and the session sends the state. A kept state was
decided here, so it is not decoded or checked again; it is only ever decided on, never sent anywhere.
"""

from __future__ import annotations

import logging
import os
import selectors
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import orjson
from marshmallow import ValidationError

from rules_service import decisions
from shared.kernel import Game
from shared.kernel.codec import Bounds
from shared.wire import logs, schemas
from shared.wire.errors import body as error_body, refusal, validation_refusal
from shared.wire.hop_frame import FRAME, MAX_FRAME_BYTES, UNAUTHENTICATED, UNKNOWN_POSITION, client_proof, framed, proven, server_proof

log = logging.getLogger("mythos.rules.hop")
SCHEMAS = {"decide": schemas.DecideRequest(), "setup": schemas.SetupRequest()}
REFUSED = orjson.dumps({"status": 401, "body": error_body(UNAUTHENTICATED, "this connection has not proved the hop's secret")})


KEPT_POSITIONS = 2000  # per rules process; a position is one game's state (most are a few kB)
HELLO_WITHIN_S = 10.0  # a connection that has not proved the secret by then is closed (it would hold a socket)


class Hop:
    """What one request frame is answered with (no I/O here: ``serve`` and the tests call ``answer``)."""

    def __init__(self, games: Mapping[str, Game], bounds: Bounds, max_answer_bytes: int, secret: bytes,
                 kept_positions: int = KEPT_POSITIONS):
        self.games, self.bounds, self.max_answer, self.secret = games, bounds, max_answer_bytes, secret
        self.name = os.urandom(6).hex()  # this process's, in the names of the positions it keeps
        # (peer, name): game, rules version, state. The peer is in the key, so another's name is simply not found.
        self.kept: OrderedDict[tuple[str, str], tuple[str, str | None, Any]] = OrderedDict()
        self.kept_positions = kept_positions

    def hello(self, payload: bytes, challenge: str) -> tuple[bytes, str | None]:
        """The answer to a connection's first frame, and the peer it proved (None: refused, close the connection)."""
        try:
            request = orjson.loads(payload)
        except orjson.JSONDecodeError:
            return REFUSED, None
        if type(request) is not dict or request.get("op") != "hello":
            return REFUSED, None
        peer, nonce = request.get("peer"), request.get("nonce")
        if type(peer) is not str or type(nonce) is not str or not 16 <= len(peer) <= 64 or not 16 <= len(nonce) <= 64:
            return REFUSED, None
        if not proven(client_proof(self.secret, challenge, peer, nonce), request.get("proof")):
            return REFUSED, None
        return orjson.dumps({"status": 200, "body": {"proof": server_proof(self.secret, challenge, peer, nonce)}}), peer

    def answer(self, payload: bytes, peer: str) -> bytes:
        """The answer to a frame of a connection whose handshake proved ``peer``."""
        status, body = self._outcome(payload, peer)
        answer = orjson.dumps({"status": status, "body": body})
        if len(answer) > self.max_answer + 64:  # the envelope's few bytes aside, the public route's cap
            status, body, _ = refusal(decisions.answer_too_long(self.max_answer)) or (500, {}, {})
            answer = orjson.dumps({"status": status, "body": body})
        return answer

    def _outcome(self, payload: bytes, peer: str) -> tuple[int, dict[str, Any]]:
        try:
            request = orjson.loads(payload)
        except orjson.JSONDecodeError:
            return 400, error_body("request/malformed", "a hop frame must hold one JSON document")
        if type(request) is not dict or request.get("op") not in (*SCHEMAS, "ping"):
            return 400, error_body("request/malformed", "a hop request is an object with op decide, setup or ping")
        op, rid = request.pop("op"), request.pop("request_id", None)
        # Lines logged meanwhile carry the session service's request id, as the public door's carry its own.
        bound = logs.CURRENT_REQUEST_ID.set(rid if isinstance(rid, str) and logs.REQUEST_ID.fullmatch(rid) else None)
        try:
            if op == "ping":
                return 200, {"status": "ok"}
            if op == "setup":
                return 200, decisions.setup(SCHEMAS[op].load(request), self.games)
            known = None
            if "kept" in request:
                known = self._kept(request, peer)
                if known is None:
                    return 404, error_body(UNKNOWN_POSITION, "this rules process does not keep that position: send the state")
            body = schemas.plain_decide_request(request) or SCHEMAS[op].load(request)
            answer, state = decisions.decided(body, self.games, self.bounds, known)
            answer["kept"] = self._keep(body, state, peer)
            return 200, answer
        except ValidationError as exc:
            status, body, _ = validation_refusal({"json": exc.messages})
            return status, body
        except Exception as exc:  # noqa: BLE001 - every failure is answered, as the public door answers it
            refused = refusal(exc)
            if refused is None:
                log.exception("unexpected error on the internal hop")
                return 500, error_body("service/internal", "something went wrong on our side")
            return refused[0], refused[1]
        finally:
            logs.CURRENT_REQUEST_ID.reset(bound)


    def _kept(self, request: dict[str, Any], peer: str) -> Any:
        """The kept state a decide names (its ``kept`` replaced by a stand-in ``state`` for the schema), or None
        when this process keeps no such position for ``peer``, that game and rules version."""
        key = (peer, request.pop("kept"))
        found = self.kept.get(key) if type(key[1]) is str else None
        if found is None or found[:2] != (request.get("game"), request.get("rules_version")):
            return None
        self.kept.move_to_end(key)
        request["state"] = {}
        return found[2]

    def _keep(self, body: Mapping[str, Any], state: Any, peer: str) -> str:
        name = f"{self.name}.{os.urandom(16).hex()}"  # 128 random bits: no name can be guessed from another
        self.kept[(peer, name)] = (body["game"], body.get("rules_version"), state)
        while len(self.kept) > self.kept_positions:
            self.kept.popitem(last=False)
        return name


class _Connection:
    """One kept connection: bytes in until a whole frame is there, its answer out (queued if the socket is full).
    Its first frame must be a good hello to its ``challenge``; until then it has no ``peer``."""

    def __init__(self, sock: socket.socket):
        self.sock, self.inbox = sock, bytearray()
        self.challenge = os.urandom(16).hex()
        self.outbox = framed(orjson.dumps({"hop": 1, "challenge": self.challenge}))
        self.peer: str | None = None
        self.closing = False  # refused: closed once its answer is out
        self.opened = time.monotonic()


def listen(bind: str) -> socket.socket:
    """A listening socket on ``host:port`` (made before gunicorn forks its workers, which share it)."""
    host, _, port = bind.rpartition(":")
    listener = socket.create_server((host.strip("[]") or "0.0.0.0", int(port)), reuse_port=False, backlog=512)
    listener.setblocking(False)
    return listener


def serve(listener: socket.socket, hop: Hop, stop: threading.Event, hello_within_s: float = HELLO_WITHIN_S) -> None:
    """Answer every connection of ``listener`` until ``stop`` is set: one thread, one selector, no hand-off. About
    once a second, close the connections that have not proved the secret within ``hello_within_s``."""
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, None)
    swept = time.monotonic()
    try:
        while not stop.is_set():
            for key, events in selector.select(timeout=min(1.0, hello_within_s)):
                if key.data is None:
                    _accept(listener, selector)
                elif events & selectors.EVENT_WRITE:
                    _flush(key.data, selector)
                else:
                    _read(key.data, hop, selector)
            if (now := time.monotonic()) - swept >= min(1.0, hello_within_s):
                swept = now
                for key in list(selector.get_map().values()):
                    if key.data is not None and key.data.peer is None and now - key.data.opened > hello_within_s:
                        _close(key.data, selector)
    finally:
        for key in list(selector.get_map().values()):
            if key.data is not None:
                key.data.sock.close()
        selector.close()


def _accept(listener: socket.socket, selector: selectors.BaseSelector) -> None:
    try:
        sock, _ = listener.accept()
    except (BlockingIOError, InterruptedError):
        return  # another worker took it
    sock.setblocking(False)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    connection = _Connection(sock)
    selector.register(sock, selectors.EVENT_READ, connection)
    _flush(connection, selector)  # the challenge


def _close(connection: _Connection, selector: selectors.BaseSelector) -> None:
    selector.unregister(connection.sock)
    connection.sock.close()


def _read(connection: _Connection, hop: Hop, selector: selectors.BaseSelector) -> None:
    try:
        data = connection.sock.recv(65536)
    except (BlockingIOError, InterruptedError):
        return
    except OSError:
        data = b""
    if not data:
        _close(connection, selector)
        return
    inbox = connection.inbox
    inbox += data
    answers = []
    while len(inbox) >= FRAME.size:
        (size,) = FRAME.unpack_from(inbox)
        if size > MAX_FRAME_BYTES:
            log.warning("a hop frame of %d bytes (more than %d): connection closed", size, MAX_FRAME_BYTES)
            _close(connection, selector)
            return
        if len(inbox) < FRAME.size + size:
            break
        payload = bytes(inbox[FRAME.size:FRAME.size + size])
        del inbox[:FRAME.size + size]
        if connection.peer is None:
            answer, connection.peer = hop.hello(payload, connection.challenge)
            if connection.peer is None:  # refused: its answer, then nothing more on this connection
                connection.closing = True
                answers.append(framed(answer))
                inbox.clear()
                break
        else:
            answer = hop.answer(payload, connection.peer)
        answers.append(framed(answer))
    if answers:
        connection.outbox += b"".join(answers)
        _flush(connection, selector)


def _flush(connection: _Connection, selector: selectors.BaseSelector) -> None:
    try:
        sent = connection.sock.send(connection.outbox)
    except (BlockingIOError, InterruptedError):
        sent = 0
    except OSError:
        _close(connection, selector)
        return
    connection.outbox = connection.outbox[sent:]
    if connection.closing and not connection.outbox:
        _close(connection, selector)
        return
    selector.modify(connection.sock, selectors.EVENT_WRITE if connection.outbox else selectors.EVENT_READ, connection)


def start(listener: socket.socket, games: Mapping[str, Game], bounds: Bounds, max_answer_bytes: int, secret: bytes,
          kept_positions: int = KEPT_POSITIONS) -> threading.Event:
    """Serve the hop on a daemon thread of this process; set the returned event to stop it."""
    stop = threading.Event()
    hop = Hop(games, bounds, max_answer_bytes, secret, kept_positions)
    threading.Thread(target=serve, args=(listener, hop, stop), name="rules-hop", daemon=True).start()
    return stop
