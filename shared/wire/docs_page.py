"""``/docs``: Swagger UI served by the app itself, from the pinned ``swagger-ui-bundle`` package; and the OpenAPI
document's renderings for readers of older versions (``shared/wire/openapi.py``).

No third-party script runs on the page (a CDN could serve anything to whoever reads the docs, and the docs
should work with no internet): the page loads Swagger UI's script and style and a small start script, all
from this app, with no inline script or style, so the page's Content-Security-Policy (shared/wire/edge.py)
can allow ``'self'`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import orjson
from flask import Blueprint, Response, abort, send_from_directory, url_for
from swagger_ui_bundle import swagger_ui_path

from shared.wire import openapi

ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js"})
ASSET_MAX_AGE_S = 24 * 3600

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<link rel="stylesheet" href="{css}">
</head>
<body>
<div id="swagger-ui" data-spec-url="{spec}"></div>
<script src="{bundle}"></script>
<script src="{start}"></script>
</body>
</html>
"""

# The spec's URL comes from the page (a data attribute), so this script is the same for every app.
START = """window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({url: root.dataset.specUrl, dom_id: "#swagger-ui"});
});
"""


def docs_blueprint(title: str, document: Callable[[], dict[str, Any]]) -> Blueprint:
    """``/docs``, and ``/openapi-3.1.json`` and ``/openapi-3.0.json`` rendered from ``document`` (the 3.2 one) once,
    on first request: the document does not change while the process runs."""
    blp = Blueprint("docs", __name__)
    built: dict[str, bytes] = {}

    def rendering(version: str, render: Callable[[dict[str, Any]], dict[str, Any]]) -> Response:
        if version not in built:
            built[version] = orjson.dumps(render(document()))
        return Response(built[version], mimetype="application/json")

    blp.add_url_rule("/openapi-3.1.json", "openapi_3_1", lambda: rendering("3.1", openapi.as_3_1))
    blp.add_url_rule("/openapi-3.0.json", "openapi_3_0", lambda: rendering("3.0", openapi.as_3_0))

    @blp.route("/docs")
    def page() -> Response:
        html = PAGE.format(
            title=escape(title),
            css=url_for("docs.asset", name="swagger-ui.css"),
            bundle=url_for("docs.asset", name="swagger-ui-bundle.js"),
            start=url_for("docs.start"),
            spec=url_for("docs.openapi_3_0"),  # the bundled Swagger UI renders OpenAPI 3.0 only
        )
        return Response(html, mimetype="text/html")

    @blp.route("/docs/start.js")
    def start() -> Response:
        return Response(START, mimetype="text/javascript")

    @blp.route("/docs/assets/<name>")
    def asset(name: str) -> Response:
        if name not in ASSETS:
            abort(404)
        return send_from_directory(swagger_ui_path, name, max_age=ASSET_MAX_AGE_S)

    return blp
