"""Clients generated from the served OpenAPI document work, typed (issue 29, item 3).

Python: openapi-python-client (pinned in pyproject.toml) generates a client from ``/openapi-3.1.json`` into a
temporary directory, and ``tests/clients/python_bot.py`` plays a whole game of each kind with it from the game's
stream (commands built from the generated models, views and events read through them). TypeScript, where Node.js
is installed (``make test`` requires it, as the browser tests' axe-core does): openapi-typescript (pinned, installed
from npm into ``var/openapi-ts`` once) generates types from ``/openapi.json``, ``tsc --strict`` compiles
``tests/clients/stream_bot.ts`` (no cast), and the compiled client opens a table with the player's own seat (a request
with ``{me: true}`` seats: openapi-typescript's default flags once made every field with a default required), follows
its seat's stream and posts a command.
"""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from shared.wire.contract import pascal
from tests.support.client import ApiClient

pytestmark = pytest.mark.e2e

CLIENTS = Path(__file__).resolve().parents[1] / "clients"
GAMES_PLAYED = {"pocket-madness": (2, 6), "arkham-ritual": (3, 4), "great-old-one": (2, 7), "rise-of-cthulhu": (2, 7),
                "rites-of-cthulhu": (4, 7)}  # (players, seed): short games against random AI seats
OPENAPI_TYPESCRIPT, TYPESCRIPT = "7.13.0", "5.9.3"  # pinned: installed from npm into var/ the first time


@pytest.fixture(scope="module")
def bot(stack, tmp_path_factory):
    """tests/clients/python_bot.py over a client generated from the served document into a temporary directory."""
    where = tmp_path_factory.mktemp("python-client")
    document = where / "openapi.json"
    document.write_bytes(requests.get(stack.url + "/openapi-3.1.json", timeout=30).content)
    generator = Path(sys.executable).parent / "openapi-python-client"
    subprocess.run([str(generator), "generate", "--path", str(document), "--output-path", str(where / "mythos_client"),
                    "--meta", "none", "--config", str(CLIENTS / "openapi-python-client.yaml")],
                   check=True, timeout=300, capture_output=True)
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module("tests.clients.python_bot")
    finally:
        sys.path.remove(str(where))


@pytest.mark.parametrize("game", sorted(GAMES_PLAYED))
def test_a_generated_python_client_plays_a_whole_game_typed(stack, bot, game):
    players, seed = GAMES_PLAYED[game]
    played = bot.play(stack.url, game, players, seed)
    models = bot.models
    assert isinstance(played.outcome, getattr(models, pascal(game) + "Outcome"))
    assert played.outcome.scores and all(type(score) is int for score in played.outcome.scores)
    assert played.posted and played.commands_read > len(played.posted)
    assert played.views == played.lines["state"] + played.lines["turn"]
    assert len(played.events) == played.lines["event"] and {"state", "event", "turn", "end"} <= set(played.lines)
    assert all(type(e).__name__ == pascal(game) + pascal(e.type_) + "Event" for e in played.events)
    # issue 45: every view, legal command, event and outcome is filed under the game's own model (249 were not)
    assert played.misfiled == [], f"{len(played.misfiled)} misfiled: {sorted(set(played.misfiled))}"


def test_the_generated_stream_operations_leave_the_body_unparsed(stack, bot):
    """The stream operations have no schema for the whole body, so the generated method does not try to read a
    never-ending body as one JSON value (it used to raise ValueError on a finished game): a client reads the stream
    with its HTTP client, line by line, as the bot does."""
    from mythos_client import Client
    from mythos_client.api.games import stream_events

    finished = ApiClient(stack.url).create("arkham-ritual", [{"name": f"Bot {i}", "ai": "random"} for i in range(3)])
    ApiClient(stack.url).wait_finished(finished["id"])
    answer = stream_events.sync_detailed(finished["id"], client=Client(base_url=stack.url))
    assert answer.status_code == 200 and answer.parsed is None and b"event: end" in answer.content


@pytest.fixture(scope="module")
def typescript():
    """openapi-typescript and tsc, pinned, from var/ (npm installs them there once; a lock keeps two workers from
    both installing at the same time). Without Node.js a bare pytest skips; ``make test`` requires it."""
    if shutil.which("npm") is None:
        if os.environ.get("MYTHOS_REQUIRE_BROWSER"):
            pytest.fail("Node.js (npm) is not installed: the TypeScript client cannot be type-checked")
        pytest.skip("Node.js (npm) is not installed: install it to type-check the TypeScript client")
    where = Path("var/openapi-ts")
    bins = where / "node_modules" / ".bin"
    where.mkdir(parents=True, exist_ok=True)
    with open(where / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (bins / "openapi-typescript").exists() or not (bins / "tsc").exists():
            subprocess.run(["npm", "install", "--prefix", str(where), "--no-audit", "--no-fund", "--silent",
                            f"openapi-typescript@{OPENAPI_TYPESCRIPT}", f"typescript@{TYPESCRIPT}"],
                           check=True, timeout=300)
    return bins.resolve()


def test_a_typescript_client_type_checks_strictly_with_no_cast_and_posts_a_command_from_the_stream(
        stack, typescript, tmp_path):
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", (CLIENTS / "stream_bot.ts").read_text(), flags=re.DOTALL)
    assert not re.search(r"\bas\s+[A-Za-z{]|<[A-Z]\w*>\s*[a-z(]|\bany\b", code), "a cast or an any in the client"
    shutil.copy(CLIENTS / "stream_bot.ts", tmp_path)
    subprocess.run([str(typescript / "openapi-typescript"), stack.url + "/openapi.json", "-o", str(tmp_path / "api.d.ts")],
                   check=True, timeout=120, capture_output=True)
    # TypeScript's own lib files (es2022, dom: 50,000 lines, as the pinned TypeScript ships them) are not checked again
    # (half of tsc's time); api.d.ts and the client are
    compiled = subprocess.run([str(typescript / "tsc"), "--strict", "--skipDefaultLibCheck", "--target", "es2022",
                               "--module", "es2022", "--moduleResolution", "bundler", "--lib", "es2022,dom",
                               "--outDir", "out", "stream_bot.ts"],
                              cwd=tmp_path, timeout=120, capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr

    api = ApiClient(stack.url)
    key = api.http.post(stack.url + "/v1/players", json={"name": "Ada"}, timeout=30).json()["key"]
    (tmp_path / "out" / "package.json").write_text(json.dumps({"type": "module"}))
    (tmp_path / "run.mjs").write_text(
        'import { createTable, playOneCommand } from "./out/stream_bot.js";\n'
        'const [base, key] = process.argv.slice(2);\n'
        'const table = await createTable(base, key, "0c");\n'
        'console.log("table", table.id, table.version);\n'
        'console.log("version", await playOneCommand(base, table.id, key, 0));\n')
    ran = subprocess.run(["node", "run.mjs", stack.url, key], cwd=tmp_path, timeout=120, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    said = dict(line.split(" ", 1) for line in ran.stdout.splitlines() if line.startswith(("table ", "version ")))
    game_id, created_at = said["table"].split()
    table, version = {"id": game_id, "version": int(created_at)}, int(said["version"])
    resource = api.get(f"/v1/games/{table['id']}").json()
    assert version > table["version"] and resource["version"] >= version
    events = api.get(f"/v1/games/{table['id']}/events", after=table["version"]).json()["events"]
    assert any(e["seat"] == 0 and e["by"] == "seat" for e in events)  # the TypeScript client's command
