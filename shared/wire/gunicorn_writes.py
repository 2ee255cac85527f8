"""Each answer's head and body in one write, where gunicorn would make two.

gunicorn's ``Response.write`` sends the head (status line and headers) in one ``sendall`` and the body in
another. On a keep-alive connection the reader wakes for the head, finds no body yet and waits again: one more
wake-up and read on the client's side (the session service, for every answer of the rules service) and one more
write on the server's, per request (issue 20; docs/performance.md). ``install()``, called from
deploy/gunicorn_*.py, joins them for the common case (the first write of a body that is not chunked); anything
else goes through gunicorn's own ``write`` unchanged. gunicorn is pinned, and
tests/unit/test_gunicorn_writes.py checks the bytes on the wire are the same.
"""

from __future__ import annotations

from typing import Any


def install() -> None:
    from gunicorn.http import wsgi

    if getattr(wsgi.Response.write, "joined", False):
        return
    gunicorn_write = wsgi.Response.write

    def write(self: Any, arg: bytes) -> None:
        if (self.headers_sent or self.chunked or self._omits_body or not isinstance(arg, bytes) or not arg
                or (self.response_length is not None and len(arg) > self.response_length)):
            return gunicorn_write(self, arg)
        head = self.default_headers()  # as Response.send_headers builds it
        head.extend(["%s: %s\r\n" % (k, v) for k, v in self.headers])
        data = ("%s\r\n" % "".join(head)).encode("latin-1") + arg
        self.headers_sent = True
        self.sent += len(arg)
        self.sock.sendall(data)

    write.joined = True  # type: ignore[attr-defined]
    wsgi.Response.write = write  # type: ignore[method-assign]
