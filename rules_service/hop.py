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

The hop is for the session service only, inside the deployment (like the rules service itself); it trusts no
position any more than the public door does: bounds, invariants and the answer's cap apply alike.
"""

from __future__ import annotations

import logging
import selectors
import socket
import struct
import threading
from collections.abc import Mapping
from typing import Any

import orjson
from marshmallow import ValidationError

from rules_service import decisions
from shared.kernel import Game
from shared.kernel.codec import Bounds
from shared.wire import logs, schemas
from shared.wire.errors import body as error_body, refusal, validation_refusal

log = logging.getLogger("mythos.rules.hop")
FRAME = struct.Struct("!I")
MAX_FRAME_BYTES = 256 * 1024  # the public door's MAX_CONTENT_LENGTH
SCHEMAS = {"decide": schemas.DecideRequest(), "setup": schemas.SetupRequest()}


class Hop:
    """What one request frame is answered with (no I/O here: ``serve`` and the tests call ``answer``)."""

    def __init__(self, games: Mapping[str, Game], bounds: Bounds, max_answer_bytes: int):
        self.games, self.bounds, self.max_answer = games, bounds, max_answer_bytes

    def answer(self, payload: bytes) -> bytes:
        status, body = self._outcome(payload)
        answer = orjson.dumps({"status": status, "body": body})
        if len(answer) > self.max_answer + 64:  # the envelope's few bytes aside, the public route's cap
            status, body, _ = refusal(decisions.answer_too_long(self.max_answer)) or (500, {}, {})
            answer = orjson.dumps({"status": status, "body": body})
        return answer

    def _outcome(self, payload: bytes) -> tuple[int, dict[str, Any]]:
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
            body = (schemas.plain_decide_request(request) if op == "decide" else None) or SCHEMAS[op].load(request)
            return 200, decisions.decision(body, self.games, self.bounds) if op == "decide" else decisions.setup(body, self.games)
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


class _Connection:
    """One kept connection: bytes in until a whole frame is there, its answer out (queued if the socket is full)."""

    def __init__(self, sock: socket.socket):
        self.sock, self.inbox, self.outbox = sock, bytearray(), b""


def listen(bind: str) -> socket.socket:
    """A listening socket on ``host:port`` (made before gunicorn forks its workers, which share it)."""
    host, _, port = bind.rpartition(":")
    listener = socket.create_server((host.strip("[]") or "0.0.0.0", int(port)), reuse_port=False, backlog=512)
    listener.setblocking(False)
    return listener


def serve(listener: socket.socket, hop: Hop, stop: threading.Event) -> None:
    """Answer every connection of ``listener`` until ``stop`` is set: one thread, one selector, no hand-off."""
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, None)
    try:
        while not stop.is_set():
            for key, events in selector.select(timeout=1.0):
                if key.data is None:
                    _accept(listener, selector)
                elif events & selectors.EVENT_WRITE:
                    _flush(key.data, selector)
                else:
                    _read(key.data, hop, selector)
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
    selector.register(sock, selectors.EVENT_READ, _Connection(sock))


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
        answer = hop.answer(bytes(inbox[FRAME.size:FRAME.size + size]))
        del inbox[:FRAME.size + size]
        answers.append(FRAME.pack(len(answer)) + answer)
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
    selector.modify(connection.sock, selectors.EVENT_WRITE if connection.outbox else selectors.EVENT_READ, connection)


def start(listener: socket.socket, games: Mapping[str, Game], bounds: Bounds, max_answer_bytes: int) -> threading.Event:
    """Serve the hop on a daemon thread of this process; set the returned event to stop it."""
    stop = threading.Event()
    hop = Hop(games, bounds, max_answer_bytes)
    threading.Thread(target=serve, args=(listener, hop, stop), name="rules-hop", daemon=True).start()
    return stop
