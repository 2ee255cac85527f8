"""The web client's files as the session service serves them: the page at / under the same restrictive
Content-Security-Policy as /docs, with nothing inline and nothing from another origin (so it works offline),
every module it imports served, and nothing else under /web/."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.support.stack import make_session_app
from shared.games import GAMES
from tests.support.toy import GAME

WEB = Path(__file__).resolve().parents[2] / "session_service" / "web"


@pytest.fixture
def client(fake_redis, prefix):
    return make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0)[0].test_client()


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls, self.inline = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.urls.append(attrs["src"]) if "src" in attrs else self.inline.append(tag)
        if tag == "link" and attrs.get("rel") == "stylesheet":
            self.urls.append(attrs["href"])
        if "style" in attrs or any(name.startswith("on") for name in attrs):
            self.inline.append(f"{tag} {attrs}")
        if tag == "style":
            self.inline.append(tag)


def test_the_page_loads_its_modules_and_style_from_the_service_under_its_policy(client):
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    policy = dict(part.strip().split(" ", 1) for part in page.headers["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'" and policy["connect-src"] == "'self'"
    parsed = Page()
    parsed.feed(page.get_data(as_text=True))
    assert not parsed.inline
    modules = set()
    for url in parsed.urls:
        assert url.startswith("/web/"), url
        modules.add(url.removeprefix("/web/"))
    for source in WEB.glob("*.js"):  # every import is a relative module the service serves
        modules |= set(re.findall(r'from "\./([\w.-]+)"', source.read_text()))
    assert modules >= {"app.js", "api.js", "render.js", "table.js", "replay.js", "style.css", "cards.js", "games.js", "narrate.js"}
    assert {f"game-{game}.js" for game in GAMES} <= modules  # one table layout per game
    for name in modules:
        asset = client.get(f"/web/{name}")
        assert asset.status_code == 200, name
        assert asset.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")


def test_the_scripts_never_write_html_or_inline_styles_and_call_no_other_origin():
    for source in WEB.glob("*.js"):
        text = source.read_text()
        assert "innerHTML" not in text and "outerHTML" not in text and "insertAdjacentHTML" not in text, source.name
        assert ".style." not in text and "setAttribute(\"style\"" not in text, source.name
        assert not re.search(r"https?://", text), source.name


@pytest.mark.parametrize("name", ["index.html", "..%2F__init__.py", "../webclient.py", "nothing.js", "api.js.map"])
def test_nothing_but_the_client_s_scripts_and_style_is_served_under_web(client, name):
    assert client.get(f"/web/{name}").status_code == 404


def test_the_web_clients_modules_import_one_another_without_a_circle():
    """ES modules in a circle load in an order that depends on which one the page asked for first (a binding read
    before its module ran is undefined): none of the web client's modules may import, through others, itself."""
    imports = {source.name: set(re.findall(r'(?:from|import)\s*"\./([\w.-]+\.js)"', source.read_text())) for source in WEB.glob("*.js")}
    assert imports["table.js"], "the pattern finds the imports"
    circles = []

    def walk(name: str, path: list[str]) -> None:
        for other in sorted(imports.get(name, ())):
            if other in path:
                circles.append(" → ".join(path[path.index(other):] + [other]))
            elif other not in done:
                walk(other, path + [other])
        done.add(name)

    done: set[str] = set()
    for name in sorted(imports):
        walk(name, [name])
    assert not circles, circles
