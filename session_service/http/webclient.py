"""The web client's static files: the page at ``/`` and its scripts and style under ``/web/``.

Plain files shipped in the package (session_service/web/), no build step and nothing from another origin, so
the page works offline and passes the service's Content-Security-Policy ('self' only, no inline script or
style: shared/wire/edge.py). The page itself only calls the public API, like any third-party client.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

WEB = Path(__file__).resolve().parents[1] / "web"
ASSET_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
MAX_AGE_S = 300  # short: a redeploy reaches players within minutes


def blueprint() -> Blueprint:
    blp = Blueprint("web", __name__)

    @blp.route("/")
    def page() -> Response:
        return send_from_directory(WEB, "index.html", mimetype="text/html", max_age=0)

    @blp.route("/web/<name>")
    def asset(name: str) -> Response:
        suffix = Path(name).suffix
        if suffix not in ASSET_TYPES or not (WEB / name).is_file():
            abort(404)
        return send_from_directory(WEB, name, mimetype=ASSET_TYPES[suffix], max_age=MAX_AGE_S)

    return blp
