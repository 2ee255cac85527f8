"""Raw connections to the rules service's internal hop, for frames no real client sends (tests of the hop's door)."""

from __future__ import annotations

import socket
import struct
from typing import Any

import orjson

from shared.wire.hop_frame import client_proof, framed


def send(sock: socket.socket, *documents: Any) -> None:
    sock.sendall(b"".join(framed(orjson.dumps(d)) for d in documents))


def read(sock: socket.socket) -> Any:
    """The next frame's document (AssertionError if the connection ends first)."""
    head = _exactly(sock, 4)
    return orjson.loads(_exactly(sock, struct.unpack("!I", head)[0]))


def connected(port: int, secret: bytes, peer: str = "a" * 32, host: str = "127.0.0.1") -> socket.socket:
    """A connection past the hop's handshake, as ``HopRules`` makes them (AssertionError if refused)."""
    sock = socket.create_connection((host, port), timeout=10)
    challenge = read(sock)["challenge"]
    send(sock, {"op": "hello", "peer": peer, "nonce": "b" * 32, "proof": client_proof(secret, challenge, peer, "b" * 32)})
    answer = read(sock)
    if answer["status"] != 200:
        sock.close()
        raise AssertionError(f"the hop refused the hello: {answer}")
    return sock


def _exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        assert chunk, "the hop closed the connection"
        data += chunk
    return data
