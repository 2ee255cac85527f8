"""The API's error body for the requests gunicorn refuses itself, before any app sees them.

gunicorn's HTTP parser answers a control character in a header, a header field past 8,190 bytes, more than 100
headers, an obsolete line fold or a request line past its limit with a small HTML page of its own
(``gunicorn.util.write_error``). ``install()``, called from deploy/gunicorn_*.py, puts the API's JSON error body
in its place, so every answer a client can get from either service has the one shape. gunicorn is pinned, and
tests/trust/test_hostile_inputs.py sends those requests to the real services.
"""

from __future__ import annotations

import json
from typing import Any

CODES = {403: "request/forbidden", 414: "request/too_large", 431: "request/too_large",
         501: "request/unsupported_transfer_coding"}


def json_error(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer with the API's error body; the connection closes after it, as gunicorn's does."""
    if status == 501:
        status, reason = transfer_coding_refusal(message)
    code = CODES.get(status, "request/malformed" if status < 500 else "service/internal")
    body = json.dumps({"error": {"code": code, "message": f"{reason}: {message}"[:300], "details": {}}}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"X-Content-Type-Options: nosniff\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def transfer_coding_refusal(message: str) -> tuple[int, str]:
    """gunicorn answers 501 to any ``Transfer-Encoding`` it does not know: that is the client's doing, never a
    server failure. RFC 9112: a request whose last coding is not ``chunked`` has no length and MUST be answered 400
    (as HAProxy answers ``xchunked``); one that ends in ``chunked`` after a coding the server lacks, 501 (6.1)."""
    codings = message.partition(":")[2].strip(" '\"")  # gunicorn's "Unsupported transfer coding: 'x, chunked'"
    last = codings.rsplit(",", 1)[-1].strip(" \t").lower()
    return (501, "Not Implemented") if last == "chunked" else (400, "Bad Request")


def install() -> None:
    from gunicorn import util

    def write_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, json_error(status_int, reason, mesg))

    util.write_error = write_error
