"""The internal hop's frame and handshake, in one place for both ends (rules_service/hop.py serves it,
session_service/rules_client.py's ``HopRules`` speaks it).

A frame is a 4-byte big-endian length and an orjson document. A connection is good for nothing until its peer has
proved it holds the hop's secret (``HOP_SECRET``, given to the rules service, the session service and the workers,
never to anything else): on accept the rules process sends a fresh ``challenge``; the client answers with a
``hello`` naming a peer (its own random id), a nonce of its own and ``client_proof``; the rules process answers
``server_proof``, so the client knows it speaks to a holder of the secret too. Anything else first, or a wrong
proof, is answered ``401 hop/unauthenticated`` and the connection is closed. The handshake costs one round trip
per new connection and nothing per message: the command path's decides travel on connections kept open.
"""

from __future__ import annotations

import hashlib
import hmac
import struct

FRAME = struct.Struct("!I")  # each frame's length, before its document
MAX_FRAME_BYTES = 256 * 1024  # the public door's MAX_CONTENT_LENGTH; a longer frame ends its connection
UNKNOWN_POSITION = "position/unknown"  # the answer to a kept position's name this peer may not use (or none has)
UNAUTHENTICATED = "hop/unauthenticated"  # the answer to anything before (or instead of) a good hello
VERSION = 1


def framed(document: bytes) -> bytes:
    return FRAME.pack(len(document)) + document


def client_proof(secret: bytes, challenge: str, peer: str, nonce: str) -> str:
    """What the client's hello proves: it holds ``secret``, for this connection's challenge and the peer it names."""
    return _mac(secret, "client", challenge, peer, nonce)


def server_proof(secret: bytes, challenge: str, peer: str, nonce: str) -> str:
    """What the rules process answers a good hello with: it holds ``secret`` too (the client's nonce is fresh)."""
    return _mac(secret, "server", challenge, peer, nonce)


def proven(expected: str, given: object) -> bool:
    return type(given) is str and hmac.compare_digest(expected.encode(), given.encode())


def _mac(secret: bytes, role: str, challenge: str, peer: str, nonce: str) -> str:
    message = f"mythos-hop/{VERSION}|{role}|{challenge}|{peer}|{nonce}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()
