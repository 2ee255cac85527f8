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

**Kept positions.** Sending the state costs both services more than anything else on the hop: encoding it,
framing it, decoding it, checking its bounds and invariant (docs/performance.md). So each decision's resulting
state is kept here, in a bounded LRU of this process (``HOP_KEPT_POSITIONS``), under a name the answer gives
(``kept``: this process's random name, a dot, a counter). The session service sends the name in place of the
state with the game's next decide, on a connection to this process, only while that position is the game's head
(it records the name with a batch it has written, never with a decision that lost its race). A name this
process does not have is answered ``404 position/unknown`` and the session sends the state. A kept state was
decided here, so it is not decoded or checked again; it is only ever decided on, never sent anywhere.
"""

from __future__ import annotations

import logging
import os
import selectors
import socket
import struct
import threading
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

log = logging.getLogger("mythos.rules.hop")
FRAME = struct.Struct("!I")
MAX_FRAME_BYTES = 256 * 1024  # the public door's MAX_CONTENT_LENGTH
SCHEMAS = {"decide": schemas.DecideRequest(), "setup": schemas.SetupRequest()}
UNKNOWN_POSITION = "position/unknown"


KEPT_POSITIONS = 2000  # per rules process; a position is one game's state (most are a few kB)


class Hop:
    """What one request frame is answered with (no I/O here: ``serve`` and the tests call ``answer``)."""

    def __init__(self, games: Mapping[str, Game], bounds: Bounds, max_answer_bytes: int,
                 kept_positions: int = KEPT_POSITIONS):
        self.games, self.bounds, self.max_answer = games, bounds, max_answer_bytes
        self.name = os.urandom(6).hex()  # this process's, in the names of the positions it keeps
        self.kept: OrderedDict[str, tuple[str, str | None, Any]] = OrderedDict()  # name: game, rules version, state
        self.kept_positions, self._counter = kept_positions, 0

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
            if op == "setup":
                return 200, decisions.setup(SCHEMAS[op].load(request), self.games)
            known = None
            if "kept" in request:
                known = self._kept(request)
                if known is None:
                    return 404, error_body(UNKNOWN_POSITION, "this rules process does not keep that position: send the state")
            body = schemas.plain_decide_request(request) or SCHEMAS[op].load(request)
            answer, state = decisions.decided(body, self.games, self.bounds, known)
            answer["kept"] = self._keep(body, state)
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


    def _kept(self, request: dict[str, Any]) -> Any:
        """The kept state a decide names (its ``kept`` replaced by a stand-in ``state`` for the schema), or None
        when this process has no such position for that game and rules version."""
        name = request.pop("kept")
        found = self.kept.get(name) if type(name) is str else None
        if found is None or found[:2] != (request.get("game"), request.get("rules_version")):
            return None
        self.kept.move_to_end(name)
        request["state"] = {}
        return found[2]

    def _keep(self, body: Mapping[str, Any], state: Any) -> str:
        self._counter += 1
        name = f"{self.name}.{self._counter}"
        self.kept[name] = (body["game"], body.get("rules_version"), state)
        while len(self.kept) > self.kept_positions:
            self.kept.popitem(last=False)
        return name


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


def start(listener: socket.socket, games: Mapping[str, Game], bounds: Bounds, max_answer_bytes: int,
          kept_positions: int = KEPT_POSITIONS) -> threading.Event:
    """Serve the hop on a daemon thread of this process; set the returned event to stop it."""
    stop = threading.Event()
    hop = Hop(games, bounds, max_answer_bytes, kept_positions)
    threading.Thread(target=serve, args=(listener, hop, stop), name="rules-hop", daemon=True).start()
    return stop
