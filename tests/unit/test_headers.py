"""Headers every answer of both services carries (issue 16): ``X-Content-Type-Options: nosniff`` on all of them,
a restrictive Content-Security-Policy on the one HTML page, and /docs with nothing from a third party: its
script and style come from the app itself, so the docs work with no internet."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from rules_service.app import create_app as rules_app
from tests.support.stack import make_session_app
from tests.support.toy import GAME


@pytest.fixture(params=["session", "rules"])
def client(request, fake_redis, prefix):
    if request.param == "rules":
        return rules_app({"GAMES": {"toy": GAME}}).test_client()
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0].test_client()


ANSWERS = [
    ("GET", "/openapi.json", None), ("GET", "/docs", None), ("GET", "/docs/assets/swagger-ui.css", None),
    ("GET", "/healthz", None), ("GET", "/metrics", None), ("GET", "/v1/catalog", None),
    ("GET", "/v1/nothing-here", None), ("DELETE", "/v1/catalog", None), ("GET", "/v1/" + "x" * 5000, None),
    ("POST", "/v1/decide", b"{not json"), ("POST", "/v1/games", b"{not json"), ("POST", "/v1/games", b"[" * 100_000),
]


@pytest.mark.parametrize("method, path, body", ANSWERS, ids=[f"{m} {p[:30]}" for m, p, _ in ANSWERS])
def test_every_answer_says_nosniff(client, method, path, body):
    reply = client.open(path, method=method, data=body, content_type="application/json")
    assert reply.headers["X-Content-Type-Options"] == "nosniff", (reply.status_code, reply.headers)


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[tuple[str, str]] = []
        self.inline: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.urls.append(("script", attrs["src"]))
        elif tag == "link" and attrs.get("rel") == "stylesheet":
            self.urls.append(("style", attrs["href"]))
        elif tag in ("script", "style"):
            self.inline.append(tag)
        if any(name == "style" or name.startswith("on") for name in attrs):
            self.inline.append(f"{tag} attribute")


def test_docs_load_their_script_and_style_from_the_app_itself(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    links = Links()
    links.feed(page.get_data(as_text=True))
    assert {kind for kind, _ in links.urls} == {"script", "style"}
    assert not links.inline  # nothing inline, so the policy need not allow it
    for kind, url in links.urls:
        assert url.startswith("/") and not url.startswith("//"), url  # same origin
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert asset.mimetype == ("text/css" if kind == "style" else "text/javascript"), (url, asset.mimetype)
        assert len(asset.data) > 100
    spec = client.get(page.get_data(as_text=True).split('data-spec-url="')[1].split('"')[0])
    assert spec.status_code == 200 and "openapi" in spec.json


def test_the_html_page_has_a_restrictive_policy(client):
    policy = dict(part.strip().split(" ", 1) for part in client.get("/docs").headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'none'"
    assert not any("unsafe" in value or "*" in value or "http" in value for value in policy.values())


def test_only_swagger_ui_s_own_assets_are_served(client):
    for name in ("index.html", "..%2F__init__.py", "swagger-ui.js.map", "oauth2-redirect.html"):
        reply = client.get(f"/docs/assets/{name}")
        assert reply.status_code == 404 and reply.json["error"]["code"] == "request/not_found"
