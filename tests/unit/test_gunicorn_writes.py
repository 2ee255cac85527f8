"""gunicorn_writes: an answer's head and body go out in one write, byte for byte what gunicorn sends in two;
a chunked answer, a HEAD answer and later writes go through gunicorn's own write."""

from __future__ import annotations

import importlib

import pytest
from gunicorn import util
from gunicorn.http import wsgi

from shared.wire import gunicorn_writes


class Sock:
    def __init__(self):
        self.writes: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))


class Req:
    def __init__(self, method="POST", version=(1, 1)):
        self.method, self.version = method, version

    def should_close(self):
        return False


@pytest.fixture
def plain_write(monkeypatch):
    """gunicorn's own write, restored after the test (install() replaces it for the process)."""
    module = importlib.reload(wsgi)
    monkeypatch.setattr(util, "http_date", lambda *a: "Wed, 25 Nov 2026 13:00:00 GMT")
    yield module
    importlib.reload(wsgi)


def answer(module, headers, writes, method="POST", version=(1, 1)):
    sock = Sock()
    response = module.Response(Req(method, version), sock, None)
    response.start_response("200 OK", headers)
    for data in writes:
        response.write(data)
    response.close()
    return sock.writes


CASES = [
    ([("Content-Type", "application/json"), ("Content-Length", "11")], [b'{"a": true}']),
    ([("Content-Type", "application/json"), ("Content-Length", "11")], [b'{"a": ', b"true}"]),
    ([("Content-Type", "text/plain")], [b"streamed", b" on"]),  # HTTP/1.1 without a length: chunked
    ([("Content-Length", "4")], [b"longer than four"]),  # gunicorn cuts what passes the length
]


@pytest.mark.parametrize("headers, writes", CASES)
@pytest.mark.parametrize("method", ["POST", "HEAD"])
def test_the_bytes_on_the_wire_are_gunicorns_and_the_first_write_carries_the_head(plain_write, headers, writes, method):
    before = answer(plain_write, headers, writes, method)
    gunicorn_writes.install()
    after = answer(plain_write, headers, writes, method)
    assert b"".join(after) == b"".join(before)
    joined = method == "POST" and "Content-Length" in dict(headers) and len(writes[0]) <= int(dict(headers)["Content-Length"])
    if joined:
        assert len(after) == len(before) - 1 and after[0].startswith(b"HTTP/1.1 200 OK\r\n") and after[0].endswith(writes[0])
    else:
        assert after == before


def test_install_twice_wraps_once(plain_write):
    gunicorn_writes.install()
    first = plain_write.Response.write
    gunicorn_writes.install()
    assert plain_write.Response.write is first
