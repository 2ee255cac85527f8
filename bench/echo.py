"""The baseline for the command path: a trivial two-hop echo under the same gunicorn settings.

``front`` runs with ``deploy/gunicorn_session.py`` and ``back`` with ``deploy/gunicorn_rules.py``. A client
posts to the front; the front posts the body on to the back with a pooled ``requests`` session (the plain
way one Flask app calls another) and answers with what the back answered. Nothing else: no Redis, no
schemas, no metrics.

``bare_front`` and ``bare_back`` are the floor beside it: the same two hops as plain WSGI callables, no Flask
and no ``requests``, which the peer section runs to show what the serving stack alone costs.
"""

from __future__ import annotations

import http.client
import os
import threading
from urllib.parse import urlsplit

import orjson
import requests
from flask import Flask, Response, request


def create_back() -> Flask:
    app = Flask("echo_back")

    @app.post("/echo")
    def echo():
        return Response(orjson.dumps(request.get_json()), mimetype="application/json")

    return app


def create_front() -> Flask:
    app = Flask("echo_front")
    back = os.environ["ECHO_BACK_URL"].rstrip("/") + "/echo"
    http = requests.Session()
    http.mount("http://", requests.adapters.HTTPAdapter(pool_connections=4, pool_maxsize=64))

    @app.post("/echo")
    def echo():
        reply = http.post(back, data=orjson.dumps(request.get_json()), headers={"Content-Type": "application/json"}, timeout=10)
        return Response(orjson.dumps(reply.json()), mimetype="application/json")

    return app


# The floor: the same two hops with no framework and no work, plain WSGI callables under the same gunicorn
# settings. What a command costs above this is ours to cut; what this costs is the serving stack's (issue 20).

_BARE_HEADERS = [("Content-Type", "application/json")]
_back_connection = threading.local()  # one kept-alive connection to the back per front greenlet (or thread)


def bare_back(environ, start_response):
    """Answer the body posted, as it came."""
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    start_response("200 OK", [*_BARE_HEADERS, ("Content-Length", str(len(body)))])
    return [body]


def bare_front(environ, start_response):
    """Post the body on to the back over a kept-alive connection and answer what it answered."""
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    conn = getattr(_back_connection, "conn", None)
    if conn is None:
        conn = _back_connection.conn = http.client.HTTPConnection(*_back_address(), timeout=10)
    conn.request("POST", "/echo", body=body, headers=dict(_BARE_HEADERS))
    answer = conn.getresponse().read()
    start_response("200 OK", [*_BARE_HEADERS, ("Content-Length", str(len(answer)))])
    return [answer]


def _back_address() -> tuple[str, int]:
    host, port = urlsplit(os.environ["ECHO_BACK_URL"]).netloc.rsplit(":", 1)
    return host, int(port)
