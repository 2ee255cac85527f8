"""A page of another origin plays through the API in headless Chromium (issue 29, item 4): the browser's own CORS
checks, not a test client's reading of headers. The page, served from a second port (another origin), posts a
command with a bearer token, JSON and an Idempotency-Key (a preflighted request) and reads the answer and the
headers a client needs (the rate limit's, the request id). Before the edge answered CORS, the preflight had no
``Access-Control-Allow-Origin`` and the browser refused the call."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest
import requests

from tests.support.browser import chrome, wait_for

pytestmark = pytest.mark.e2e

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>elsewhere</title></head><body><pre id="out"></pre>
<script>
const q = new URLSearchParams(location.search);
fetch(q.get('api') + '/v1/games/' + q.get('game') + '/commands', {
  method: 'POST',
  headers: {'Authorization': 'Bearer ' + q.get('token'), 'Content-Type': 'application/json', 'Idempotency-Key': 'page-1'},
  body: JSON.stringify({command: JSON.parse(q.get('command')), expected_version: Number(q.get('version'))}),
}).then(async (reply) => {
  const body = await reply.json();
  document.getElementById('out').textContent = JSON.stringify({status: reply.status, version: body.version,
    remaining: reply.headers.get('RateLimit-Remaining'), request: reply.headers.get('X-Request-Id')});
}).catch((error) => { document.getElementById('out').textContent = JSON.stringify({failed: String(error)}); });
</script></body></html>"""


class Page(BaseHTTPRequestHandler):
    def do_GET(self):
        data = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def elsewhere():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_page_of_another_origin_posts_a_command_with_a_bearer_token_and_reads_the_answer(stack, elsewhere):
    created = requests.post(stack.url + "/v1/games", json={"game": "pocket-madness", "seats": [{"name": "Ada"}, {"name": "Bo"}],
                                                           "seed": "01"}, timeout=30).json()
    state = requests.get(f"{stack.url}/v1/games/{created['id']}/state?seat=0",
                         headers={"Authorization": f"Bearer {created['seats'][0]['token']}"}, timeout=30).json()
    seat = state["to_act"][0]
    token = created["seats"][seat]["token"]
    mine = requests.get(f"{stack.url}/v1/games/{created['id']}/state", headers={"Authorization": f"Bearer {token}"},
                        timeout=30).json()
    command = quote(json.dumps(mine["legal_commands"][0]))
    driver = chrome()
    try:
        driver.get(f"{elsewhere}/?api={stack.url}&game={created['id']}&token={token}&command={command}"
                   f"&version={mine['version']}")
        said = json.loads(wait_for(lambda: driver.find_element("id", "out").text, what="the page's call to the API"))
    finally:
        driver.quit()
    assert said.get("failed") is None, said
    assert said["status"] == 200 and said["version"] > mine["version"]
    assert said["remaining"] is not None and said["request"]  # exposed to the page's script
    after = requests.get(f"{stack.url}/v1/games/{created['id']}", timeout=30).json()
    assert after["version"] == said["version"]  # the page's command was played
