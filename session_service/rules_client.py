"""How the session service reaches the rules: the internal hop (``HopRules``, ``tcp://``: the default), the public
HTTP API (``HttpRules``, ``http://``), or in process (``LocalRules``, for tests).

All three are the use cases' ``RulesPort`` and answer the same way: events, or the kernel's own exceptions (RuleViolation, MalformedCommand,
GameOver), or ``service/unavailable`` when the rules service cannot be reached, so callers write nothing.
"""

from __future__ import annotations

import os
import socket
import ssl
from typing import Any
from urllib.parse import urlsplit

import orjson

from shared.kernel import Event, Game, RuleViolation
from shared.kernel.game import GameOver
from shared.wire import logs
from shared.wire.commands import MalformedCommand, decide_posted
from shared.wire.hop_frame import FRAME, UNKNOWN_POSITION, client_proof, framed, proven, server_proof
from session_service.use_cases.errors import BadRequest, Unavailable
from session_service.use_cases.ports import Ruling, RulesPort


MAX_HEAD_BYTES = 64 * 1024  # an answer's status line and headers; gunicorn's own answers are far shorter


class HttpRules:
    """The rules service over HTTP/1.1 keep-alive connections of its own (``_Connection``).

    Measured under ``make bench``: ``requests`` cost about a tenth of the session service's CPU per command,
    urllib3's PoolManager a further ~5%, and urllib3 with http.client still ~20% (issue 20): http.client sends the
    head and the body in two writes (two wake-ups of the rules worker, which reads the head, then waits for the
    body) and parses the answer's head with the ``email`` package. This client writes each request in one
    ``sendall`` and reads the answer by its Content-Length. Nothing is retried after the rules service has
    answered, or could have: only a request on a kept connection that the server had already closed (no byte of
    an answer came back) is sent again on a new one, which is safe because decide and setup are pure."""

    def __init__(self, base_url: str, timeout_s: float = 10.0, pool_size: int = 64):
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"the rules service's URL must be http:// or https://, not {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.pool_size = pool_size
        self._address = (parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
        self._tls = ssl.create_default_context() if parts.scheme == "https" else None
        self._path = parts.path.rstrip("/")
        host = parts.hostname if parts.port is None else f"{parts.hostname}:{parts.port}"
        self._host = f"Host: {host}\r\n".encode("idna")
        self._idle: list[_Connection] = []  # kept connections, newest last (list.pop and append are atomic)

    def setup(self, game: Game, players: int, options: dict[str, Any], entropy: bytes) -> tuple[dict[str, Any], list[Event]]:
        reply = self._post("/v1/setup", setup_body(game, players, options, entropy))
        _same_rules(game, reply)
        return reply["options"], [Event.from_json(e) for e in reply["events"]]

    def decide(self, game: Game, state: Any, command: Any, seat: int, entropy: bytes,
               kept: str | None = None) -> Ruling:
        reply = self._post("/v1/decide", decide_body(game, state, command, seat, entropy))
        _same_rules(game, reply)
        return Ruling([Event.from_json(e) for e in reply["events"]])

    def ready(self) -> bool:
        try:
            status, _ = self._exchange("GET", "/healthz", b"", timeout_s=2)
        except (OSError, ValueError):
            return False
        return status == 200

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        data = encoded(body)
        try:
            rid = logs.request_id()  # the rules service logs its line under the same request id
            status, raw = self._exchange("POST", path, data, extra=f"{logs.HEADER}: {rid}\r\n".encode() if rid else b"")
            answer = orjson.loads(raw)
        except (OSError, ValueError):  # unreachable, timed out, cut off, or not HTTP or JSON
            raise Unavailable("the rules service") from None
        return answered(status, answer)

    def _exchange(self, method: str, path: str, body: bytes, timeout_s: float | None = None,
                  extra: bytes = b"") -> tuple[int, bytes]:
        """One request and its answer: on a kept connection if there is one, else on a new one (``extra``: more
        header lines, each ending in CRLF)."""
        request = (f"{method} {self._path}{path} HTTP/1.1\r\n".encode() + self._host + extra
                   + b"Content-Type: application/json\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        timeout_s = self.timeout_s if timeout_s is None else timeout_s
        while self._idle:
            try:
                connection = self._idle.pop()
            except IndexError:
                break
            try:
                return self._finish(connection, connection.exchange(request, timeout_s))
            except _Closed:  # the server had closed it while it was kept (gunicorn closes idle ones after 5 s)
                connection.close()
        connection = _Connection(self._address, timeout_s, self._tls)
        try:
            return self._finish(connection, connection.exchange(request, timeout_s))
        except _Closed:
            connection.close()
            raise ConnectionError("the rules service closed the connection without answering") from None

    def _finish(self, connection: _Connection, answer: tuple[int, bytes, bool]) -> tuple[int, bytes]:
        status, data, keep = answer
        if keep and len(self._idle) < self.pool_size:
            self._idle.append(connection)
        else:
            connection.close()
        return status, data


class HopRules:
    """The rules service over its internal hop (rules_service/hop.py): kept TCP connections, each message a 4-byte
    length and an orjson document, each connection opened with the hop's handshake (shared/wire/hop_frame.py). A
    request is sent again only on a kept connection the server had closed before any byte of an answer (decide and
    setup are pure), never after an answer.

    This client is one peer of the hop (``peer``, random): the positions a rules process keeps for it are its own.
    The names it hands out carry its ``_mark``, so a name another peer was given (a game whose last command came
    through another session process or worker) is not tried here: the state is sent at once."""

    def __init__(self, address: str, secret: bytes, timeout_s: float = 10.0, pool_size: int = 64):
        parts = urlsplit(address)
        if parts.scheme != "tcp" or not parts.hostname or not parts.port:
            raise ValueError(f"the rules service's hop is tcp://host:port, not {address!r}")
        self.base_url, self.secret = address, secret
        self.timeout_s, self.pool_size = timeout_s, pool_size
        self._address = (parts.hostname, parts.port)
        self.peer = os.urandom(16).hex()  # never leaves the hop: the rules process binds kept names to it
        self._mark = os.urandom(4).hex() + "/"  # before each kept name handed out, so ours are told from others'
        self._idle: list[_Framed] = []  # kept connections, newest last (list.pop and append are atomic)

    def setup(self, game: Game, players: int, options: dict[str, Any], entropy: bytes) -> tuple[dict[str, Any], list[Event]]:
        reply = self._call({"op": "setup", **setup_body(game, players, options, entropy)})
        _same_rules(game, reply)
        return reply["options"], [Event.from_json(e) for e in reply["events"]]

    def decide(self, game: Game, state: Any, command: Any, seat: int, entropy: bytes,
               kept: str | None = None) -> Ruling:
        """Decide, naming the position by ``kept`` instead of sending the state when a kept connection to the
        process that keeps it is idle (its name's prefix says which); the state goes when none is, or when that
        process no longer has it (restarted, or the position fell out of what it keeps)."""
        request = {"op": "decide", **decide_fields(game, command, seat, entropy)}
        reply = None
        name = kept[len(self._mark):] if kept is not None and kept.startswith(self._mark) else None
        if name is not None and (connection := self._idle_to(name.partition(".")[0])) is not None:
            answer = self._roundtrip({**request, "kept": name}, connection=connection)
            if answer is not None and not _unknown_position(*answer):
                reply = answered(*answer)
        if reply is None:
            reply = self._call({**request, "state": game.codec.encode(state)})
        _same_rules(game, reply)
        kept = reply.get("kept")
        return Ruling([Event.from_json(e) for e in reply["events"]], self._mark + kept if isinstance(kept, str) else None)

    def ready(self) -> bool:
        try:
            self._call({"op": "ping"}, timeout_s=2)
        except Unavailable:
            return False
        return True

    def _call(self, request: dict[str, Any], timeout_s: float | None = None) -> dict[str, Any]:
        answer = self._roundtrip(request, timeout_s)
        assert answer is not None, "only a chosen connection answers None"
        return answered(*answer)

    def _roundtrip(self, request: dict[str, Any], timeout_s: float | None = None,
                   connection: _Framed | None = None) -> tuple[int, Any] | None:
        """The answer's status and body, on ``connection`` when one is given (None when it had been closed)."""
        rid = logs.request_id()  # lines the rules service logs for it carry the same request id
        if rid:
            request["request_id"] = rid
        frame = framed(encoded(request))
        timeout_s = self.timeout_s if timeout_s is None else timeout_s
        try:
            connection, raw = self._exchange(frame, timeout_s, connection)
            answer = orjson.loads(raw)
            status, body = answer["status"], answer["body"]
        except _Closed:
            return None
        except (OSError, ValueError, KeyError, TypeError):  # unreachable, timed out, cut off, or not a hop answer
            raise Unavailable("the rules service") from None
        if connection.process is None and type(body) is dict and type(body.get("kept")) is str:
            connection.process = body["kept"].partition(".")[0]  # the rules process at its end
        self._keep(connection)
        return status, body

    def _idle_to(self, process: str) -> _Framed | None:
        """An idle kept connection to the rules process named ``process``, taken from the pool, if there is one."""
        for connection in reversed(self._idle):
            if connection.process == process:
                try:
                    self._idle.remove(connection)
                except ValueError:  # another greenlet took it meanwhile
                    return None
                return connection
        return None

    def _exchange(self, frame: bytes, timeout_s: float, chosen: _Framed | None = None) -> tuple[_Framed, bytes]:
        """The answer to ``frame`` and the connection it came on: ``chosen`` (``_Closed`` if it had been closed),
        else a kept one, else a new one."""
        if chosen is not None:
            return chosen, chosen.exchange(frame, timeout_s)
        while self._idle:
            try:
                connection = self._idle.pop()
            except IndexError:
                break
            try:
                return connection, connection.exchange(frame, timeout_s)
            except _Closed:  # the server had closed it while it was kept
                connection.close()
        connection = self._open(timeout_s)
        try:
            return connection, connection.exchange(frame, timeout_s)
        except _Closed:
            connection.close()
            raise ConnectionError("the rules service closed the connection without answering") from None

    def _open(self, timeout_s: float) -> _Framed:
        """A new connection, past the handshake: the rules process's challenge, our hello, its proof checked."""
        connection = _Framed(self._address, timeout_s)
        try:
            challenge = orjson.loads(connection.receive())["challenge"]
            nonce = os.urandom(16).hex()
            hello = {"op": "hello", "peer": self.peer, "nonce": nonce,
                     "proof": client_proof(self.secret, challenge, self.peer, nonce)}
            try:
                answer = orjson.loads(connection.exchange(framed(orjson.dumps(hello)), timeout_s))
            except _Closed:  # refused (a wrong secret), or gone: either way not a connection to send again on
                raise ConnectionError("the rules service's hop closed the connection during the handshake") from None
            if answer.get("status") != 200 or not proven(server_proof(self.secret, challenge, self.peer, nonce),
                                                         answer.get("body", {}).get("proof")):
                raise ConnectionError("the rules service's hop refused our hello, or did not prove the hop's secret")
        except BaseException:
            connection.close()
            raise
        return connection

    def _keep(self, connection: _Framed) -> None:
        if len(self._idle) < self.pool_size:
            self._idle.append(connection)
        else:
            connection.close()


class _Framed:
    """One hop connection: a frame written at once, the answer's frame read whole. Any failure closes it."""

    def __init__(self, address: tuple[str, int], timeout_s: float):
        self.sock = socket.create_connection(address, timeout=timeout_s)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.process: str | None = None  # the rules process at its end, once an answer named a position it keeps

    def exchange(self, frame: bytes, timeout_s: float) -> bytes:
        try:
            self.sock.settimeout(timeout_s)
            try:
                self.sock.sendall(frame)
                head = self.sock.recv(65536)
            except (ConnectionResetError, BrokenPipeError):
                raise _Closed() from None
            if not head:
                raise _Closed()
            return self._rest_of(head)
        except BaseException:
            self.close()
            raise

    def receive(self) -> bytes:
        """The next frame the server sends unasked (the handshake's challenge)."""
        try:
            return self._rest_of(self._more())
        except BaseException:
            self.close()
            raise

    def _rest_of(self, head: bytes) -> bytes:
        """The frame whose first bytes are ``head``, read whole."""
        while len(head) < FRAME.size:
            head += self._more()
        (size,) = FRAME.unpack_from(head)
        parts, have = [head[FRAME.size:]], len(head) - FRAME.size
        while have < size:
            part = self._more()
            parts.append(part)
            have += len(part)
        if have != size:
            raise ValueError("the rules service answered more than one frame")
        return b"".join(parts)

    def _more(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the rules service ended its answer early")
        return chunk

    def close(self) -> None:
        self.sock.close()


def setup_body(game: Game, players: int, options: dict[str, Any], entropy: bytes) -> dict[str, Any]:
    """What a setup asks of the rules service (either door)."""
    return {"game": game.id, "rules_version": game.rules_version, "players": players, "options": options,
            "entropy": entropy.hex()}


def decide_fields(game: Game, command: Any, seat: int, entropy: bytes) -> dict[str, Any]:
    """What a decide asks of the rules service (either door), but the position."""
    return {"game": game.id, "rules_version": game.rules_version, "command": command, "seat": seat,
            "entropy": entropy.hex()}


def decide_body(game: Game, state: Any, command: Any, seat: int, entropy: bytes) -> dict[str, Any]:
    """A decide with its position as a state in the game's wire codec."""
    return {**decide_fields(game, command, seat, entropy), "state": game.codec.encode(state)}


def encoded(body: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(body)
    except orjson.JSONEncodeError:
        # The state is ours and always encodes: what does not is the caller's command or options.
        raise BadRequest("the request holds a value too deeply nested (or too large) to pass on") from None


def rules_client(url: str, timeout_s: float = 10.0, secret: bytes = b"") -> RulesPort:
    """The client ``RULES_URL`` names: ``tcp://host:port``, the internal hop (``secret``: the hop's); ``http(s)://…``,
    the public API."""
    return HopRules(url, secret, timeout_s) if url.startswith("tcp://") else HttpRules(url, timeout_s)

class _Closed(ConnectionError):
    """The connection ended before any byte of an answer: the request may be sent again on another."""


class _Connection:
    """One HTTP/1.1 connection: a request written at once, an answer read by its Content-Length (or chunks, or
    to the end). Any failure closes it (the caller sees OSError or ValueError)."""

    def __init__(self, address: tuple[str, int], timeout_s: float, tls: ssl.SSLContext | None):
        sock = socket.create_connection(address, timeout=timeout_s)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.sock = tls.wrap_socket(sock, server_hostname=address[0]) if tls else sock
        except BaseException:
            sock.close()
            raise
        self.buffer = b""
        self.answered = False  # some byte of the current answer has come

    def exchange(self, request: bytes, timeout_s: float) -> tuple[int, bytes, bool]:
        try:
            self.sock.settimeout(timeout_s)
            self.answered = bool(self.buffer)
            try:
                self.sock.sendall(request)
                head = self._head()
            except (ConnectionResetError, BrokenPipeError):
                if self.answered:
                    raise
                raise _Closed() from None
            status, headers = _parse_head(head)
            if "chunked" in headers.get("transfer-encoding", ""):
                body = self._chunked()
            elif "content-length" in headers:
                body = self._exactly(int(headers["content-length"]))
            else:
                body, headers["connection"] = self._rest(), "close"
            return status, body, headers.get("connection", "").lower() != "close"
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.sock.close()

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the rules service ended its answer early") if self.answered else _Closed()
        self.answered = True
        self.buffer += chunk

    def _head(self) -> bytes:
        while (end := self.buffer.find(b"\r\n\r\n")) < 0:
            if len(self.buffer) > MAX_HEAD_BYTES:
                raise ValueError("an answer's head is too long")
            self._more()
        head, self.buffer = self.buffer[:end], self.buffer[end + 4:]
        return head

    def _exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._more()
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def _line(self) -> bytes:
        while (end := self.buffer.find(b"\r\n")) < 0:
            self._more()
        line, self.buffer = self.buffer[:end], self.buffer[end + 2:]
        return line

    def _chunked(self) -> bytes:
        parts = []
        while size := int(self._line().split(b";")[0], 16):
            parts.append(self._exactly(size))
            self._exactly(2)
        while self._line():  # trailers, then the empty line
            pass
        return b"".join(parts)

    def _rest(self) -> bytes:
        try:
            while True:
                self._more()
        except ConnectionError:
            data, self.buffer = self.buffer, b""
            return data


def _parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    """The status and the (lower-cased) header fields of an answer's head."""
    status_line, *lines = head.decode("latin-1").split("\r\n")
    version, status = status_line.split(" ", 2)[:2]
    if not version.startswith("HTTP/1."):
        raise ValueError(f"not an HTTP/1 answer: {status_line[:40]!r}")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if version == "HTTP/1.0" and headers.get("connection", "").lower() != "keep-alive":
        headers["connection"] = "close"
    return int(status), headers


def answered(status: int, answer: Any) -> dict[str, Any]:
    """The body of a rules service's answer (either door's: they answer alike), or the exception it stands for."""
    if status == 200 and isinstance(answer, dict):
        return answer
    try:
        error = answer["error"]
    except (KeyError, TypeError):
        raise Unavailable("the rules service") from None
    if status == 422 and error.get("code") == "rules/unknown_rules_version":
        raise Unavailable("the rules version of this game") from None  # a rules process of another release
    if status == 422:
        raise RuleViolation(error["code"], error["message"], error.get("details"))
    if status == 409:
        raise GameOver()
    if status == 400:
        raise MalformedCommand(error["message"], error.get("details"))
    raise Unavailable("the rules service")


def _unknown_position(status: int, body: Any) -> bool:
    """The hop's answer to a kept position's name it does not have (then the state is sent)."""
    return status == 404 and type(body) is dict and type(body.get("error")) is dict and body["error"].get("code") == UNKNOWN_POSITION


def _same_rules(game: Game, reply: dict[str, Any]) -> None:
    """A decision counts only if made by the rules version asked for: during a rolling deploy a rules process of
    the previous release may answer, and what it decides must not be recorded under this version."""
    if reply.get("rules_version") != game.rules_version:
        raise Unavailable("the rules version of this game")


class LocalRules:
    """The rules in process, with the state put through the wire codec as HTTP would. Unit tests only."""

    def setup(self, game: Game, players: int, options: dict[str, Any], entropy: bytes) -> tuple[dict[str, Any], list[Event]]:
        options, events = game.start(players, options, entropy)
        return options, [Event.from_json(orjson.loads(orjson.dumps(e.to_json()))) for e in events]

    def decide(self, game: Game, state: Any, command: Any, seat: int, entropy: bytes,
               kept: str | None = None) -> Ruling:
        state = game.codec.decode(orjson.loads(orjson.dumps(game.codec.encode(state))))
        events = decide_posted(game, state, command, seat, entropy).events
        return Ruling([Event.from_json(orjson.loads(orjson.dumps(e.to_json()))) for e in events])

    def ready(self) -> bool:
        return True
