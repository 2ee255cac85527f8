"""The baseline for the command path: a trivial two-hop echo under the same gunicorn settings.

``front`` runs with ``deploy/gunicorn_session.py`` and ``back`` with ``deploy/gunicorn_rules.py``. A client
posts to the front; the front posts the body on to the back with a pooled ``requests`` session (the plain
way one Flask app calls another) and answers with what the back answered. Nothing else: no Redis, no
schemas, no metrics.
"""

from __future__ import annotations

import os

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
