"""``/docs``: Swagger UI served by the app itself, from the pinned ``swagger-ui-bundle`` package.

No third-party script runs on the page (a CDN could serve anything to whoever reads the docs, and the docs
should work with no internet): the page loads Swagger UI's script and style and a small start script, all
from this app, with no inline script or style, so the page's Content-Security-Policy (shared/wire/edge.py)
can allow ``'self'`` only.
"""

from __future__ import annotations

from html import escape

from flask import Blueprint, Response, abort, send_from_directory, url_for
from swagger_ui_bundle import swagger_ui_path

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


def docs_blueprint(title: str) -> Blueprint:
    blp = Blueprint("docs", __name__)

    @blp.route("/docs")
    def page() -> Response:
        html = PAGE.format(
            title=escape(title),
            css=url_for("docs.asset", name="swagger-ui.css"),
            bundle=url_for("docs.asset", name="swagger-ui-bundle.js"),
            start=url_for("docs.start"),
            spec=url_for("api-docs.openapi_json"),
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
